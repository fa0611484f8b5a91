// ParallelFor: runs fn(0) .. fn(n-1) on a few std::threads. Each index runs exactly once;
// callers write results into slot i of a pre-sized vector, so the output order never depends
// on scheduling.
#ifndef DRAGUARD_POLICY_PIPELINE_PARALLEL_H_
#define DRAGUARD_POLICY_PIPELINE_PARALLEL_H_

#include <cstddef>
#include <functional>

namespace draguard::pipeline {

// Runs `fn` for every index in [0, n) using at most `jobs` threads (the calling thread
// included); jobs <= 1 or n <= 1 runs everything on the calling thread, in order. `fn` must
// not throw and must be safe to call concurrently for distinct indices. Returns when every
// call has returned.
void ParallelFor(size_t n, size_t jobs, const std::function<void(size_t)>& fn);

// The number of hardware threads, at least 1.
size_t DefaultJobs();

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_PARALLEL_H_
