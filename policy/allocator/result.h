// Verdicts of the satisfiability pre-check and their explanations.
#ifndef DRAGUARD_POLICY_ALLOCATOR_RESULT_H_
#define DRAGUARD_POLICY_ALLOCATOR_RESULT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy/k8s/resource_claim.h"

namespace draguard::alloc {

enum class VerdictKind {
  kSatisfiable,    // some node can allocate every claim; `allocations` is a witness
  kUnsatisfiable,  // no node can; `reasons` say why
  kError,          // the scheduler would fail the claim outright (fatal outcome); see reasons
  kUndecided,      // the budget ran out before an answer
};

// "satisfiable", "unsatisfiable", "error", "undecided".
std::string_view VerdictName(VerdictKind kind);

// How many devices of the best node survive each filter, for one request (or subrequest).
struct RequestFunnel {
  std::string request;   // "req" or "req/sub"
  std::string node;      // the node with the most usable devices for this request
  int64_t needed = 0;    // count (ExactCount) or 0 for All
  int64_t visible = 0;        // in usable pools visible from the node
  int64_t class_match = 0;    // ... passing the class selectors
  int64_t selector_match = 0; // ... and the request selectors
  int64_t available = 0;      // ... and not allocated to another claim
  int64_t tolerated = 0;      // ... and every taint tolerated
  int64_t usable = 0;         // ... and fitting the remaining counters and capacity (alone)
  int64_t cluster_match = 0;  // devices passing the selectors anywhere in the cluster
};

// One actionable explanation. `code` is stable and dotted (see docs/allocator.md):
//   alloc.request.insufficient-devices   fewer usable devices than requested on every node
//   alloc.constraint.match-attribute     no group of devices shares the attribute
//   alloc.constraint.distinct-attribute  not enough distinct values
//   alloc.counters.exhausted             shared counters cannot hold enough devices together
//   alloc.search.exhausted               counts suffice but no combination fits
//   alloc.class.not-found, alloc.request.too-many-results, alloc.request.all-incomplete-pool,
//   alloc.request.all-constraint, alloc.selector.error, alloc.feature.disabled,
//   alloc.pool.invalid, alloc.budget.exhausted, alloc.no-nodes, alloc.claim.not-found (lint)
struct Reason {
  std::string code;
  size_t claim = 0;       // index of the claim among those checked together
  std::string request;    // may be empty (claim-level reason)
  std::string node;       // may be empty (cluster-level reason)
  std::string device;     // "driver/pool/device" where one device is the cause
  std::string message;    // a sentence a user can act on
};

struct AllocationVerdict {
  VerdictKind kind = VerdictKind::kUnsatisfiable;
  // Satisfiable: one witness per claim checked, in status.allocation form, for `node`
  // (empty when AllocatorOptions::witness is off).
  std::vector<k8s::AllocationResult> allocations;
  std::string node;
  // Nodes on which every claim fits. Complete unless `nodes_exhaustive` is false (budget, or
  // AllocatorOptions::all_nodes off).
  std::vector<std::string> feasible_nodes;
  // How many nodes are feasible: feasible_nodes.size() as CheckPod returns it, kept when a
  // caller drops the names to save memory (explain's text output on a fleet: 5,000 names per
  // claim); renderers print this count.
  size_t feasible_node_count = 0;
  bool nodes_exhaustive = true;
  std::vector<Reason> reasons;
  std::vector<RequestFunnel> funnels;  // filled when unsatisfiable
  int64_t steps = 0;                   // search steps used
  // Nodes searched (the first of each node group); 0 when the cluster-wide pre-check
  // decided (AllocatorOptions::cluster_wide_decisions).
  size_t nodes_searched = 0;
};

// Renders the verdict for people: one line for the outcome, then one line per reason
// ("request gpu: 16 devices match, at most 8 on one node (gpu-worker-2)"). Never fails.
std::string RenderVerdict(const AllocationVerdict& verdict);

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_RESULT_H_
