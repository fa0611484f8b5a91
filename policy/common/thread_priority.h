// Scheduling priority of the process's background threads.
//
// `draguard serve` answers requests on its I/O threads and does its other work (polling or
// watching the inventory, decoding what changed, building the checks' views of a new
// snapshot) on background threads. On a machine with as many busy threads as cores, a
// background thread that builds for tens of milliseconds takes a core from a request for a
// whole scheduler slice, which is what a request's latency tail is made of (case (e) of
// bench/webhook-load.sh: the same requests' p99 at half rate was 2.5 ms with the inventory
// rewritten every second, 1.8 ms without). Below the I/O threads' priority, a background
// thread still gets the cores whenever the requests leave them idle, and a share of them
// (not nothing: it must keep the inventory current) when they do not.
//
// The I/O threads, for their part, ask for a short scheduler slice (SetCurrentThreadSlice).
#ifndef DRAGUARD_POLICY_COMMON_THREAD_PRIORITY_H_
#define DRAGUARD_POLICY_COMMON_THREAD_PRIORITY_H_

#include <chrono>

namespace draguard {

// The nice value of background threads: CFS weighs a nice-10 thread at about a tenth of a
// nice-0 one (110 against 1024), so a request thread waking up preempts it at once, while it
// still progresses under full load (nice 19's 1.5% could stall a large rebuild for seconds).
inline constexpr int kBackgroundNice = 10;

// Sets the calling thread's nice value to `nice` (Linux: a thread's own priority; other
// threads keep theirs). Raising it needs no privilege. Best effort: false when the system
// refuses or has no per-thread priority, and the thread then runs as before.
bool SetCurrentThreadNice(int nice);

// The calling thread's nice value (0 where unknown): for tests and diagnostics.
int CurrentThreadNice();

// Asks the scheduler for slices of `slice` for the calling thread, keeping its policy
// (SCHED_OTHER) and nice value. Why: Linux's EEVDF scheduler (6.6+) gives a thread that wakes
// up a virtual deadline one slice ahead, and (6.12+) honours a thread's own slice request
// (sched_attr.sched_runtime, 0.1 to 100 ms) and lets a shorter one preempt at wake-up. A
// request thread that sleeps in epoll and needs well under a millisecond per request then
// runs soon after its request arrives instead of after the slice of whatever CPU-bound thread
// holds the core (a build, a batch job, a co-located pod). Kernels before 6.12 accept the
// request and ignore it. Best effort: false when the system refuses (the thread keeps the
// default), or off Linux. Only SCHED_OTHER threads: a real-time thread would lose its policy.
bool SetCurrentThreadSlice(std::chrono::microseconds slice);

// The slice the calling thread asked for (zero: the kernel's default, or unknown).
std::chrono::microseconds CurrentThreadSlice();

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_THREAD_PRIORITY_H_
