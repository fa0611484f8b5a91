#include "policy/common/thread_priority.h"

#include <cerrno>
#include <cstdint>

#if defined(__linux__)
#include <sched.h>
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

#if defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
namespace {
// sched_setattr(2)'s struct sched_attr, version 1 (Linux 5.3+, 56 bytes); glibc 2.36 has no
// declaration of it.
struct SchedAttr {
  uint32_t size = sizeof(SchedAttr);
  uint32_t sched_policy = 0;
  uint64_t sched_flags = 0;
  int32_t sched_nice = 0;
  uint32_t sched_priority = 0;
  uint64_t sched_runtime = 0;  // a fair thread's requested slice, in nanoseconds (6.12+)
  uint64_t sched_deadline = 0;
  uint64_t sched_period = 0;
  uint32_t sched_util_min = 0;
  uint32_t sched_util_max = 0;
};

bool GetAttr(SchedAttr& attr) {
  return syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) == 0;
}
}  // namespace

bool SetCurrentThreadSlice(std::chrono::microseconds slice) {
  SchedAttr attr;
  if (slice.count() < 0 || !GetAttr(attr) || attr.sched_policy != SCHED_OTHER) return false;
  SchedAttr request;
  request.sched_policy = SCHED_OTHER;
  request.sched_nice = attr.sched_nice;  // sched_setattr sets the nice value too: keep it
  request.sched_runtime = static_cast<uint64_t>(slice.count()) * 1000;
  return syscall(SYS_sched_setattr, 0, &request, 0) == 0;
}

std::chrono::microseconds CurrentThreadSlice() {
  SchedAttr attr;
  if (!GetAttr(attr) || attr.sched_policy != SCHED_OTHER) return {};
  return std::chrono::microseconds(attr.sched_runtime / 1000);
}
#else
bool SetCurrentThreadSlice(std::chrono::microseconds) { return false; }
std::chrono::microseconds CurrentThreadSlice() { return {}; }
#endif
#else
bool SetCurrentThreadNice(int) { return false; }
int CurrentThreadNice() { return 0; }
bool SetCurrentThreadSlice(std::chrono::microseconds) { return false; }
std::chrono::microseconds CurrentThreadSlice() { return {}; }
#endif

}  // namespace draguard
