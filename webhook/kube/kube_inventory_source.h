// KubeInventorySource: the InventorySource of `draguard serve` in a cluster (or with
// --kubeconfig): one Reflector thread per watched kind (ResourceSlices, DeviceClasses,
// ResourceClaims, Nodes, DeviceTaintRules where served) filling an ObjectStore, and a
// publisher thread that turns the store into an immutable ClusterObjects snapshot.
//
// The first snapshot is published once every kind has listed (Synced()); after that a change
// publishes a new snapshot at most every publish_interval, so a burst of events costs one
// rebuild. State().confirmed_at is the oldest confirmation among the kinds, so a stalled watch
// makes the inventory look as old as it is.
#ifndef DRAGUARD_WEBHOOK_KUBE_KUBE_INVENTORY_SOURCE_H_
#define DRAGUARD_WEBHOOK_KUBE_KUBE_INVENTORY_SOURCE_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "webhook/inventory_source.h"
#include "webhook/kube/api_client.h"
#include "webhook/kube/cluster_config.h"
#include "webhook/kube/object_store.h"
#include "webhook/kube/reflector.h"

namespace draguard::webhook::kube {

struct KubeInventoryOptions {
  ApiClientOptions client;
  ReflectorOptions reflector;
  // Least time between two snapshots after changes.
  std::chrono::milliseconds publish_interval{500};
  // How often the bearer token file is re-read.
  std::chrono::milliseconds token_refresh{60'000};
  // Kinds to watch; the manifests' RBAC grants list/watch on exactly these.
  std::vector<WatchedKind> kinds = {WatchedKind::kResourceSlice, WatchedKind::kDeviceClass,
                                    WatchedKind::kResourceClaim, WatchedKind::kNode,
                                    WatchedKind::kDeviceTaintRule};
};

class KubeInventorySource : public InventorySource {
 public:
  KubeInventorySource(ClusterConfig config, KubeInventoryOptions options = {});
  ~KubeInventorySource() override;

  // Starts the threads. InvalidArgument when the configuration has no host or kinds.
  Status Start() override;
  void Stop() override;
  std::shared_ptr<const inventory::ClusterObjects> Current() const override;
  InventorySourceState State() const override;

  // Per-kind detail (metrics, logs, tests), in options.kinds order.
  std::vector<ReflectorState> ReflectorStates() const;
  // Snapshots published so far.
  uint64_t Publications() const;

 private:
  void Publish();
  void Notify();
  bool AllSynced() const;

  ClusterConfig config_;
  KubeInventoryOptions options_;
  std::shared_ptr<BearerToken> token_;
  ObjectStore store_;
  std::vector<std::unique_ptr<Reflector>> reflectors_;
  std::vector<std::thread> threads_;

  mutable std::mutex mu_;
  std::condition_variable changed_;
  bool dirty_ = false;
  bool stopping_ = false;
  bool started_ = false;
  std::shared_ptr<const inventory::ClusterObjects> current_;
  uint64_t publications_ = 0;
};

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_KUBE_INVENTORY_SOURCE_H_
