// The per-node search: candidates per alternative, necessary-condition pre-checks, then a
// depth-first search over combinations with symmetry breaking (upstream's search is
// allocator_*.go `allocateOne`; the pre-checks and symmetry breaking are draguard's).
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_SEARCH_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_SEARCH_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy/allocator/internal/device_facts.h"
#include "policy/allocator/internal/node_pools.h"
#include "policy/allocator/internal/plan.h"
#include "policy/allocator/result.h"

namespace draguard::alloc::internal {

// One device placed by the search.
struct Pick {
  size_t claim = 0;
  const Alternative* alt = nullptr;
  size_t device = 0;
  // A share of a multi-allocatable device (consumable capacity): what it consumes, per
  // capacity in the order of Device::capacity, in milli-units.
  bool shared = false;
  std::vector<int64_t> consumed;
};

// Budget shared by all nodes of one check.
struct Budget {
  std::chrono::steady_clock::time_point deadline;
  int64_t max_steps = 0;
  int64_t steps = 0;
  bool exhausted = false;
  // Counts one step; false once the budget is exhausted.
  bool Step();
};

// What happened on one node.
struct NodeOutcome {
  enum Kind { kFeasible, kInfeasible, kFatal, kAborted } kind = kInfeasible;
  std::vector<Pick> picks;             // kFeasible: the witness, in result order
  std::vector<RequestFunnel> funnels;  // per alternative id
  std::vector<Reason> reasons;         // kInfeasible / kFatal
  bool invalid_pool = false;
  // The first invalid pool the node sees: "pool P of driver D: why" (reasons name it).
  std::string invalid_pool_problem;
};

// Runs the checks and the search for one node whose devices are `devices`
// (CollectNodeDevices). `facts` carries memoised selector results between nodes and is left
// as it was found (the search's reservations are released); a selector error is kFatal.
NodeOutcome SearchNode(const Inventory& inventory, const Plan& plan, std::string_view node,
                       const NodeDevices& devices, const AllocatorOptions& options,
                       DeviceFacts& facts, SelectorEvaluator& evaluator, Budget& budget);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_SEARCH_H_
