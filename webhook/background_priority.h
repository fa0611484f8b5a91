// LowerThreadPriority: makes the calling thread background work for the kernel's scheduler,
// so that it runs on what CPU the I/O threads leave.
//
// Why: draguard serve's background threads (the inventory poller, the snapshot builders)
// take tens of milliseconds of CPU at a time (a rewritten file of 800 devices is parsed and
// the allocator's view of 8,000 devices rebuilt), and a pod gets one or two cores. At the
// same priority the scheduler shares a core evenly between such a thread and an I/O thread,
// so a request arriving meanwhile waits for the thread's time slice to end: the latency tail
// of a changing inventory (docs/webhook.md, "Background work"). At nice 19 under SCHED_BATCH
// (Linux) a background thread weighs 15 against an I/O thread's 1,024 and never preempts one
// when it wakes, yet it is not starved: under full load it still gets about 1.5% of a core,
// unlike SCHED_IDLE, so a new inventory snapshot is still built, only later.
//
// Per thread (Linux schedules threads, not processes). Elsewhere a no-op that returns false.
#ifndef DRAGUARD_WEBHOOK_BACKGROUND_PRIORITY_H_
#define DRAGUARD_WEBHOOK_BACKGROUND_PRIORITY_H_

namespace draguard::webhook {

// The nice value of a background thread: the lowest priority.
inline constexpr int kBackgroundNice = 19;

// Moves the calling thread to SCHED_BATCH and raises its nice value to `nice` (never lowers
// it: a process started under `nice` keeps at least its value). Needs no privilege. Returns
// whether both took effect.
bool LowerThreadPriority(int nice = kBackgroundNice);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_BACKGROUND_PRIORITY_H_
