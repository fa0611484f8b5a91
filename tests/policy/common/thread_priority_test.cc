#include "policy/common/thread_priority.h"

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

}  // namespace
}  // namespace draguard
