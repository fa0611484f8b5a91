// Which devices a node can use: node visibility (allocator.md §4) and pool rules (§5).
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_POOLS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_POOLS_H_

#include <cstdint>
#include <map>
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
  std::vector<size_t> slices;
};

struct NodeDevices {
  std::vector<NodePool> pools;  // visible, not obsolete
  // Devices the node may allocate from (usable pools, per-device node check and gates
  // applied), in search order: pools, slices, devices; binding-condition devices last.
  std::vector<size_t> devices;
  // Visible devices (usable or not) count, for funnels.
  int64_t visible = 0;
};

// Why the pool formed by `slices` (one generation of one pool, ascending) is invalid (§5.3:
// duplicate device names, duplicate counter sets, unknown counters), or "" when valid.
std::string PoolProblem(const Inventory& inventory, const std::vector<size_t>& slices,
                        KubeVersion version);

// Visible pools and devices of `node` under `options` (version rules and gates).
NodeDevices CollectNodeDevices(const Inventory& inventory, std::string_view node,
                               const AllocatorOptions& options);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_POOLS_H_
