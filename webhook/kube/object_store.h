// ObjectStore: the informer cache of the watched kinds, keyed by namespace/name, from which
// immutable ClusterObjects snapshots are built.
//
// Reflectors Replace() a kind after each full list and Apply() watch events; every change
// bumps generation(), which the publisher compares to decide whether a new snapshot is due.
// Thread-safe.
#ifndef DRAGUARD_WEBHOOK_KUBE_OBJECT_STORE_H_
#define DRAGUARD_WEBHOOK_KUBE_OBJECT_STORE_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "policy/inventory/cluster_objects.h"
#include "webhook/kube/api_objects.h"

namespace draguard::webhook::kube {

class ObjectStore {
 public:
  // Replaces every object of `kind` (after a list).
  void Replace(WatchedKind kind, std::vector<StoredObject> objects);
  // Applies ADDED/MODIFIED (insert or replace) and DELETED (erase); other events and
  // undecodable objects change nothing (an undecodable MODIFIED drops the stale copy).
  void Apply(WatchedKind kind, const WatchEvent& event);

  size_t Size(WatchedKind kind) const;
  uint64_t generation() const;

  // Every object, in key order per kind, as an immutable snapshot. The snapshot shares the
  // objects with the store (each is immutable once stored; an event replaces it with a new
  // one), so that consecutive snapshots share every object no event touched in between.
  std::shared_ptr<const inventory::ClusterObjects> Snapshot(std::string source) const;

 private:
  using Objects = std::map<std::string, std::shared_ptr<const k8s::ObjectVariant>>;

  mutable std::mutex mu_;
  std::array<Objects, kWatchedKindCount> objects_;
  uint64_t generation_ = 0;
};

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_OBJECT_STORE_H_
