#include "webhook/background_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sched.h>
#endif

namespace draguard::webhook {
namespace {

#if defined(__linux__)
// The calling thread's scheduling policy and nice value.
struct ThreadPriority {
  int policy = -1;
  int nice = 0;
};

ThreadPriority CurrentThreadPriority() {
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  return {.policy = sched_getscheduler(0), .nice = getpriority(PRIO_PROCESS, tid)};
}

TEST(LowerThreadPriorityTest, MakesTheCallingThreadBatchAtTheGivenNice) {
  const ThreadPriority before = CurrentThreadPriority();
  struct Case {
    int nice;
    int want_nice;
  };
  // A nice value already above the request is kept (never raised back).
  for (Case c : {Case{kBackgroundNice, kBackgroundNice}, Case{10, std::max(10, before.nice)}}) {
    ThreadPriority after;
    bool applied = false;
    std::thread thread([&] {
      applied = LowerThreadPriority(c.nice);
      after = CurrentThreadPriority();
    });
    thread.join();
    EXPECT_TRUE(applied) << c.nice;
    EXPECT_EQ(after.policy, SCHED_BATCH) << c.nice;
    EXPECT_EQ(after.nice, c.want_nice) << c.nice;
  }
  // Per thread: the thread that started them keeps its priority.
  const ThreadPriority now = CurrentThreadPriority();
  EXPECT_EQ(now.policy, before.policy);
  EXPECT_EQ(now.nice, before.nice);
}

TEST(LowerThreadPriorityTest, KeepsAHigherNiceValue) {
  ThreadPriority after;
  std::thread thread([&] {
    ASSERT_TRUE(LowerThreadPriority(kBackgroundNice));
    EXPECT_TRUE(LowerThreadPriority(5));
    after = CurrentThreadPriority();
  });
  thread.join();
  EXPECT_EQ(after.nice, kBackgroundNice);
}
#endif

}  // namespace
}  // namespace draguard::webhook
