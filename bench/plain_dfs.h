// BENCHMARK-ONLY. A plain depth-first search over the allocator's prepared Inventory: the
// comparison the allocator issue asks for, answering the same question (verdict and every
// feasible node) from the same inputs.
//
// It is the ≤1.35 scheduler's strategy without our additions: every node is searched (no
// grouping of identical nodes), every slot of a request tries every device of the node in
// order (permutations, no symmetry breaking), nothing is checked before the search (no device
// count, counter or matchAttribute bounds), and selector results are memoised per device
// for the whole check (more than the scheduler, which memoises per node).
//
// Budget: options.max_steps placements over the whole check; beyond it the verdict is
// kUndecided with the nodes decided so far. Nodes are Inventory::node_names() (an inventory
// that names no node has none, so the verdict is kUnsatisfiable).
//
// Subset: ExactCount requests (`exactly`) with class and request selectors, devices in use,
// matchAttribute constraints, shared counters. Anything else (All, firstAvailable, admin
// access, taints, distinctAttribute, consumable capacity) is rejected as kError, so a
// benchmark cannot silently compare different questions.
#ifndef DRAGUARD_BENCH_PLAIN_DFS_H_
#define DRAGUARD_BENCH_PLAIN_DFS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/allocator/selector.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc::bench {

struct PlainDfsVerdict {
  // kError: outside the subset, or a CEL error; kUndecided: options.max_steps ran out.
  VerdictKind kind = VerdictKind::kUnsatisfiable;
  std::vector<std::string> feasible_nodes;          // in Inventory::node_names() order
  int64_t steps = 0;                                // placements tried
};

PlainDfsVerdict PlainDfsCheck(const Inventory& inventory, const k8s::ResourceClaimSpec& claim,
                              SelectorEvaluator& evaluator, const AllocatorOptions& options);

}  // namespace draguard::alloc::bench

#endif  // DRAGUARD_BENCH_PLAIN_DFS_H_
