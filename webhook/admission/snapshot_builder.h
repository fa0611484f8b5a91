// SnapshotBuilder: the thread that prepares, off the request path, what the checks derive from
// an inventory snapshot (the schema check's attribute schema, the satisfiability check's
// allocator view). Each check adds a step (AddStep); requests keep answering from what the
// steps derived from the previous snapshot and hand the new one over with Request(); the
// thread runs every step for the newest snapshot handed over (a newer one replaces one not yet
// started, so a burst of snapshots costs one build, not one each), one build at a time.
//
// One thread for every check, the steps one after the other: each step builds its new view
// beside the one in force and frees the one it replaces before the next step starts, so the
// process holds at most one check's two views at a time. With a thread per check, the builds
// of the checks overlapped and their transient peaks added up, which is what made the soak's
// RSS climb over its first minute (docs/benchmarks.md, soak).
//
// After each build the thread hands the heap's free pages back to the system
// (ReleaseFreeHeapPages: jemalloc's purge, glibc's malloc_trim): a build replaces what the previous snapshot's views held (tens of MB for
// thousands of devices), and with the allocator's arenas interleaving those with long-lived
// cache entries, freed pages otherwise stayed resident, the RSS creeping ~0.6 MiB a minute
// under a changing inventory while the heap in use stayed flat (docs/benchmarks.md, soak).
// A trim only returns what is free by then: a step should free the views it replaces before
// it returns (ReleaseHere), not leave the last reference to a request in flight.
//
// Thread-safe. The builder must outlive the checks whose steps it runs: a check removes its
// step in its destructor (RemoveStep), which waits for a build under way; the destructor
// stops the thread (a build under way finishes first).
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "policy/inventory/cluster_objects.h"

namespace draguard::webhook {

class SnapshotBuilder {
 public:
  using Snapshot = std::shared_ptr<const inventory::ClusterObjects>;
  using Step = std::function<void(const Snapshot&)>;
  using StepId = uint64_t;

  SnapshotBuilder() = default;
  ~SnapshotBuilder();
  SnapshotBuilder(const SnapshotBuilder&) = delete;
  SnapshotBuilder& operator=(const SnapshotBuilder&) = delete;

  // Adds `step`, run on the builder's thread for every snapshot built, after the steps added
  // before it. The id removes it; ids start at 1 (0 is never one).
  StepId AddStep(Step step);
  // Removes a step; returns once no build runs it any more. Call before what the step touches
  // goes away (the check's destructor).
  void RemoveStep(StepId id);

  // Builds `snapshot` soon unless it is already waiting or being built. Returns at once; the
  // thread starts on the first call.
  void Request(Snapshot snapshot);

  // Request(), then waits until `snapshot` is built (or replaced by a newer one before its
  // build started). The server builds its first snapshot this way, on the thread that builds
  // every later one: the views then live in that thread's malloc arena from the start. Built
  // on the main thread, they lived in the main arena until the first rebuild moved them to the
  // builder's, leaving the main arena's pages fragmented and partly resident (RSS rising over
  // the soak's first minute, docs/benchmarks.md).
  void Build(Snapshot snapshot);

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

  std::mutex steps_mu_;  // held by a build while it runs the steps
  std::vector<std::pair<StepId, Step>> steps_;  // guarded by steps_mu_
  StepId next_step_ = 1;                        // guarded by steps_mu_

  std::mutex mu_;
  std::condition_variable cv_;        // a snapshot is pending, or stop
  std::condition_variable built_cv_;  // a build finished
  Snapshot pending_, building_;  // guarded by mu_
  bool stop_ = false;            // guarded by mu_
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
