#include "webhook/background_priority.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace draguard::webhook {

bool LowerThreadPriority(int nice) {
#if defined(__linux__)
  sched_param param{};
  param.sched_priority = 0;
  const bool batch = pthread_setschedparam(pthread_self(), SCHED_BATCH, &param) == 0;
  // setpriority(PRIO_PROCESS, tid) sets one thread's nice value on Linux (NPTL threads are
  // tasks); getpriority's -1 is also a valid value, hence errno.
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int current = getpriority(PRIO_PROCESS, tid);
  if (errno != 0) return false;
  const bool niced = current >= nice || setpriority(PRIO_PROCESS, tid, nice) == 0;
  return batch && niced;
#else
  (void)nice;
  return false;
#endif
}

}  // namespace draguard::webhook
