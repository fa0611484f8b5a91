// The canonical form of one node's allocation problem, so that a check decides each distinct
// node once: 1,000 nodes with identical devices are one search, not 1,000.
//
// What the search of a node reads (search.cc) is: the pools it sees with their state, the
// ordered list of usable devices, and per device its node-independent facts
// (InventoryDevice::fact_class: selector inputs, availability, taints, counters, capacity,
// shares, node fields, binding conditions) plus the counter scope it draws from, whose
// capacity and committed consumption count (CounterScope::state_class). The signature lists
// exactly that, with counter scopes renumbered in order of first use on the node. Two nodes with equal signatures
// therefore pose the same problem up to renaming devices and scopes, and the search, which
// never looks at names, decides them alike: the same outcome and the same reason codes.
// Only names in messages (node, devices, pools) and the witness differ, and both are taken
// from the first node of a signature.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_SIGNATURE_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_SIGNATURE_H_

#include <cstdint>
#include <vector>

#include "policy/allocator/internal/node_pools.h"
#include "policy/allocator/internal/paged_vector.h"
#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"

namespace draguard::alloc::internal {

class NodeSignature {
 public:
  // With `shape`, devices are compared by InventoryDevice::shape_fact_class: for checks that
  // read no identifying attribute (Inventory::Identifying).
  NodeSignature(const Inventory& inventory, const AllocatorOptions& options, bool shape = false);

  // The signature of the node whose devices are `nd` (replaces the previous one).
  const std::vector<int64_t>& Compute(const NodeDevices& nd);

 private:
  const Inventory& inv_;
  const size_t layout_;  // the version's counter layout
  const bool gate_;      // DRAConsumableCapacity, which decides committed consumption
  const bool shape_;
  std::vector<int64_t> key_;
  PagedVector<size_t> local_scope_;  // per Inventory counter scope: 0, or its local number + 1
  std::vector<size_t> scopes_;       // the scopes numbered on this node, in order
};

// Hash of a signature, for unordered containers.
struct SignatureHash {
  size_t operator()(const std::vector<int64_t>& key) const;
};

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_NODE_SIGNATURE_H_
