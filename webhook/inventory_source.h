// InventorySource: where `draguard serve` gets the cluster state (ResourceSlices,
// DeviceClasses, Nodes, allocated ResourceClaims, ...) that the schema and satisfiability
// checks read.
//
// Two implementations: FileInventorySource (webhook/file_inventory_source.h, `--inventory
// PATH`: files or a mounted ConfigMap, polled for changes) and the Kubernetes list/watch client
// (webhook/kube/, in-cluster or `--kubeconfig`). The checker and the server see only this
// interface.
//
// Snapshots are immutable and shared: a source builds a new inventory::ClusterObjects on each
// change and swaps it in atomically; a request keeps the std::shared_ptr it took at its start,
// so it never sees a half-applied change and a swap never waits for requests. Consumers may
// key caches (for instance the allocator's alloc::Inventory) on the snapshot's address as long
// as they hold the shared_ptr.
//
// Thread safety: every const method may be called from any thread at any time, also
// concurrently with Start() and Stop().
#ifndef DRAGUARD_WEBHOOK_INVENTORY_SOURCE_H_
#define DRAGUARD_WEBHOOK_INVENTORY_SOURCE_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "policy/common/status.h"
#include "policy/inventory/cluster_objects.h"

namespace draguard::webhook {

// A point-in-time view of a source's health, for /readyz, /metrics and the staleness check.
struct InventorySourceState {
  // A first complete snapshot exists (every kind listed, every file read once).
  bool synced = false;
  // When the source last knew the current snapshot to match the cluster or the files: the
  // last successful poll, list, watch event or bookmark. Epoch (zero) before the first sync.
  std::chrono::system_clock::time_point confirmed_at{};
  // Objects in the current snapshot (slices + classes + nodes + claims + taint rules +
  // namespaces); 0 before the first sync.
  size_t objects = 0;
  // Why the source is not current, when it is failing (unreadable file, watch errors);
  // empty when healthy. Suitable for a log line or a warning.
  std::string problem;
  // Sources reading files: files whose current content cannot be used (unreadable, invalid,
  // removed for less than the removal grace), so the snapshot holds their last good content;
  // the time the oldest of them started failing (epoch when none); and the number of such
  // failures since the start, each counted once. Zero for other sources.
  size_t failing_files = 0;
  std::chrono::system_clock::time_point stale_since{};
  uint64_t file_failures = 0;
};

class InventorySource {
 public:
  virtual ~InventorySource() = default;

  // Begins loading (a first read, a list) and keeping the snapshot current in the background.
  // Returns an error only when the source cannot work at all (a bad configuration); transient
  // failures (file missing for now, API server unreachable) are retried and reported through
  // State().problem. Called once, before any request is served.
  virtual Status Start() = 0;

  // Stops background work and waits for it; Current() keeps returning the last snapshot.
  // Idempotent; also called by the destructor of implementations.
  virtual void Stop() = 0;

  // The latest complete snapshot; nullptr until the first sync. Never a partial one.
  virtual std::shared_ptr<const inventory::ClusterObjects> Current() const = 0;

  // Health and size; see InventorySourceState.
  virtual InventorySourceState State() const = 0;

  // Shorthand for State().synced.
  bool Synced() const { return State().synced; }
};

// The number of objects of a snapshot, as InventorySourceState::objects counts them.
inline size_t CountObjects(const inventory::ClusterObjects& objects) {
  return objects.slices.size() + objects.classes.size() + objects.nodes.size() +
         objects.claims.size() + objects.taint_rules.size() + objects.namespaces.size();
}

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_INVENTORY_SOURCE_H_
