// SnapshotBuilder: a thread that prepares what the checks derive from an inventory snapshot
// (the satisfiability check's allocator view, the schema check's attribute schema) off the
// request path. Requests keep answering from what was derived from the previous snapshot and
// hand the new one over with Request(); the thread builds the newest snapshot handed over (a
// newer one replaces one not yet started, so a burst of snapshots costs one build, not one
// each), one at a time.
//
// After each build the thread hands the heap's free pages back to the system (glibc's
// malloc_trim): a build replaces what the previous snapshot's views held (tens of MB for
// thousands of devices), and with the allocator's arenas interleaving those with long-lived
// cache entries, freed pages otherwise stayed resident, the RSS creeping ~0.6 MiB a minute
// under a changing inventory while the heap in use stayed flat (docs/benchmarks.md, soak).
// A trim only returns what is free by then: `build` should free the views it replaces
// before it returns (ReleaseHere), not leave the last reference to a request in flight.
//
// Thread-safe. The destructor stops the thread (a build under way finishes first): declare
// the builder after the members its `build` function touches.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "policy/inventory/cluster_objects.h"

namespace draguard::webhook {

class SnapshotBuilder {
 public:
  using Snapshot = std::shared_ptr<const inventory::ClusterObjects>;

  // `build` runs on the builder's thread, started on the first Request().
  explicit SnapshotBuilder(std::function<void(const Snapshot&)> build);
  ~SnapshotBuilder();
  SnapshotBuilder(const SnapshotBuilder&) = delete;
  SnapshotBuilder& operator=(const SnapshotBuilder&) = delete;

  // Builds `snapshot` soon unless it is already waiting or being built. Returns at once.
  void Request(Snapshot snapshot);

  // Drops `replaced` once this is its last reference, waiting up to `max_wait` (checking
  // every millisecond) for the requests that still use it, so that what it holds is freed on
  // the calling thread, before the trim that follows a build, rather than by whichever
  // request lets go of it last, after the trim: such a view stayed resident until the next
  // build, seconds later (docs/benchmarks.md, soak). Past `max_wait` the reference is simply
  // dropped. Returns whether the object was freed here.
  template <typename T>
  static bool ReleaseHere(std::shared_ptr<T> replaced, std::chrono::milliseconds max_wait);

 private:
  void Loop();

  std::function<void(const Snapshot&)> build_;
  std::mutex mu_;
  std::condition_variable cv_;
  Snapshot pending_, building_;  // guarded by mu_
  bool stop_ = false;
  std::thread thread_;  // last: joined by the destructor
};

template <typename T>
bool SnapshotBuilder::ReleaseHere(std::shared_ptr<T> replaced,
                                  std::chrono::milliseconds max_wait) {
  if (replaced == nullptr) return false;
  const auto deadline = std::chrono::steady_clock::now() + max_wait;
  while (replaced.use_count() > 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const bool last = replaced.use_count() == 1;
  replaced.reset();
  return last;
}

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_
