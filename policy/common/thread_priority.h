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
#ifndef DRAGUARD_POLICY_COMMON_THREAD_PRIORITY_H_
#define DRAGUARD_POLICY_COMMON_THREAD_PRIORITY_H_

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

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_THREAD_PRIORITY_H_
