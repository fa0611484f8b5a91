// The bundled allocator: decides whether claims can be allocated against an Inventory.
//
// Semantics are those of kube-scheduler's structured allocator for the release and gates in
// AllocatorOptions (k8s.io/dynamic-resource-allocation structured/allocator.go and
// structured/internal/{stable,incubating,experimental}; summarised in docs/allocator.md), with the
// upstream bugs that docs/allocator.md lists fixed. The search is exact: `kSatisfiable` comes with
// a witness allocation that the scheduler's own checks accept; `kUnsatisfiable` means no node can
// allocate the claims, with reasons; `kError` is a fatal outcome upstream would raise (CEL runtime
// error, All on an incomplete pool, a disabled feature, ...); `kUndecided` means the budget
// (options.time_budget, options.max_steps) ran out.
//
// Thread-compatible: concurrent calls need their own SelectorEvaluator. Never throws.
#ifndef DRAGUARD_POLICY_ALLOCATOR_ALLOCATOR_H_
#define DRAGUARD_POLICY_ALLOCATOR_ALLOCATOR_H_

#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/allocator/selector.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc {

// Checks one claim (spec after API defaulting: allocationMode and count set).
AllocationVerdict CheckClaim(const Inventory& inventory, const k8s::ResourceClaimSpec& claim,
                             SelectorEvaluator& evaluator, const AllocatorOptions& options);

// Checks the unallocated claims of one pod together: all must fit on one node, devices are
// not shared between them (except admin access). `allocations` follows the order of `claims`;
// Reason::claim indexes it. Null entries are not allowed.
AllocationVerdict CheckPod(const Inventory& inventory,
                           const std::vector<const k8s::ResourceClaimSpec*>& claims,
                           SelectorEvaluator& evaluator, const AllocatorOptions& options);

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_ALLOCATOR_H_
