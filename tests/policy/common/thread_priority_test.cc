#include "policy/common/thread_priority.h"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace draguard {
namespace {

// The nice value is the calling thread's own: a background thread lowered, the thread that
// started it (a request thread, in the server) not.
TEST(ThreadPriorityTest, LowersOnlyTheCallingThread) {
  const int before = CurrentThreadNice();
  if (before >= kBackgroundNice) GTEST_SKIP() << "the test runs at nice " << before;
  bool set = false;
  int inside = 0;
  std::thread background([&] {
    set = SetCurrentThreadNice(kBackgroundNice);
    inside = CurrentThreadNice();
  });
  background.join();
#if defined(__linux__)
  ASSERT_TRUE(set);
  EXPECT_EQ(inside, kBackgroundNice);
#else
  EXPECT_FALSE(set);
#endif
  EXPECT_EQ(CurrentThreadNice(), before);
}

// A slice request is the calling thread's own and keeps its nice value (sched_setattr sets
// both). Kernels before 6.12 accept the request without reporting it back.
TEST(ThreadPriorityTest, SliceRequestKeepsTheNiceValueAndStaysOnTheThread) {
  using std::chrono::microseconds;
  const int before_nice = CurrentThreadNice();
  if (before_nice >= kBackgroundNice) GTEST_SKIP() << "the test runs at nice " << before_nice;
  const microseconds before_slice = CurrentThreadSlice();
  bool set = false;
  int nice = 0;
  microseconds slice{};
  std::thread io([&] {
    SetCurrentThreadNice(kBackgroundNice);
    set = SetCurrentThreadSlice(microseconds(300));
    nice = CurrentThreadNice();
    slice = CurrentThreadSlice();
  });
  io.join();
#if defined(__linux__)
  ASSERT_TRUE(set);
  EXPECT_EQ(nice, kBackgroundNice);
  if (slice == microseconds(0)) GTEST_SKIP() << "this kernel does not report slice requests";
  EXPECT_EQ(slice, microseconds(300));
#else
  EXPECT_FALSE(set);
#endif
  EXPECT_EQ(CurrentThreadSlice(), before_slice);
  EXPECT_EQ(CurrentThreadNice(), before_nice);
}

}  // namespace
}  // namespace draguard
