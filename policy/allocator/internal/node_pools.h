// Which devices a node can use: node visibility (`NodeMatches`) and pool rules (pools_*.go
// `GatherPools`).
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_POOLS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_POOLS_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/k8s/meta.h"

namespace draguard::alloc::internal {

// core/v1 node affinity: terms ORed, requirements ANDed; matchFields only metadata.name.
// `labels` may be null (no Node object: no labels).
bool MatchesNodeSelector(const k8s::NodeSelector& selector, std::string_view node,
                         const std::map<std::string, std::string>* labels);

enum class PoolState { kComplete, kIncomplete, kInvalid };

struct NodePool {
  size_t pool = 0;  // index into Inventory::pools()
  int64_t generation = 0;
  PoolState state = PoolState::kComplete;
  std::string problem;  // why incomplete/invalid, for reasons
  // The pool's visible slices at `generation`: NodeDevices::slices[first_slice, end_slice).
  size_t first_slice = 0;
  size_t end_slice = 0;
};

// Reused from node to node (CollectNodeDevices clears it), so that the per-node loop of a
// check does not allocate once the buffers have grown.
struct NodeDevices {
  std::vector<NodePool> pools;  // visible, not obsolete, by pool index
  std::vector<size_t> slices;   // grouped by pool, ascending
  // Devices the node may allocate from (usable pools, per-device node check and gates
  // applied), in search order: pools, slices, devices; with a channel that knows binding
  // conditions the pools holding such devices last (AllocatorChannel).
  std::vector<size_t> devices;
  // Visible devices (usable or not) count, for funnels.
  int64_t visible = 0;
  std::vector<size_t> late;  // scratch: devices of pools searched last
};

// Why the pool formed by `slices` (one generation of one pool, ascending) is invalid (pools_*.go:
// `poolIsInvalid` in 1.34; `validateDeviceNames`, `getAndValidateCounterSets`,
// `validateDeviceCounterConsumption` in 1.35: duplicate device names, duplicate counter sets,
// unknown counters), or "" when valid.
// Counter sets are checked per pool under CounterModel::kCounterSets, per slice otherwise.
std::string PoolProblem(const Inventory& inventory, std::span<const size_t> slices,
                        CounterModel counters);

// Visible pools and devices of `node` under `options` (version rules and gates), into `out`.
void CollectNodeDevices(const Inventory& inventory, const NodeView& node,
                        const AllocatorOptions& options, NodeDevices& out);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_POOLS_H_
