#include "policy/common/thread_priority.h"

#include <cerrno>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace draguard {

#if defined(__linux__)
namespace {
// On Linux, PRIO_PROCESS with a thread id addresses that one thread (setpriority(2), NOTES).
id_t CurrentThreadId() { return static_cast<id_t>(syscall(SYS_gettid)); }
}  // namespace

bool SetCurrentThreadNice(int nice) {
  return setpriority(PRIO_PROCESS, CurrentThreadId(), nice) == 0;
}

int CurrentThreadNice() {
  errno = 0;  // -1 is a valid answer: errno tells it from a failure
  const int nice = getpriority(PRIO_PROCESS, CurrentThreadId());
  return errno == 0 ? nice : 0;
}
#else
bool SetCurrentThreadNice(int) { return false; }
int CurrentThreadNice() { return 0; }
#endif

}  // namespace draguard
