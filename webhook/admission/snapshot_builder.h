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
//
// Thread-safe. The destructor stops the thread (a build under way finishes first): declare
// the builder after the members its `build` function touches.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_

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

 private:
  void Loop();

  std::function<void(const Snapshot&)> build_;
  std::mutex mu_;
  std::condition_variable cv_;
  Snapshot pending_, building_;  // guarded by mu_
  bool stop_ = false;
  std::thread thread_;  // last: joined by the destructor
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_SNAPSHOT_BUILDER_H_
