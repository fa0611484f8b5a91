#include "policy/pipeline/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace draguard::pipeline {

void ParallelFor(size_t n, size_t jobs, const std::function<void(size_t)>& fn) {
  size_t threads = std::min(jobs, n);
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  // Work stealing through one shared counter: files differ a lot in size, so static
  // partitioning would leave threads idle.
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) fn(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
}

size_t DefaultJobs() {
  unsigned int n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace draguard::pipeline
