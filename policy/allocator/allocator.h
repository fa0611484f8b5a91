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

#include <memory>
#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/allocator/selector.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc {

namespace internal {
struct NodeDevices;  // internal/node_pools.h
}  // namespace internal

// Buffers that checks run one after another may share, so that a check reuses what an
// earlier one grew instead of allocating its own (the webhook keeps one per pooled
// evaluator: a check of a never-seen selector allocated its node's device lists anew, ~0.7 k
// instructions of ~23 k). Holds no result: a check's answer never depends on it. One check
// at a time.
class CheckScratch {
 public:
  CheckScratch();
  ~CheckScratch();
  CheckScratch(const CheckScratch&) = delete;
  CheckScratch& operator=(const CheckScratch&) = delete;

  internal::NodeDevices& node_devices() { return *node_devices_; }

 private:
  std::unique_ptr<internal::NodeDevices> node_devices_;
};

// Checks one claim (spec after API defaulting: allocationMode and count set). `scratch`
// (optional) lends its buffers.
AllocationVerdict CheckClaim(const Inventory& inventory, const k8s::ResourceClaimSpec& claim,
                             SelectorEvaluator& evaluator, const AllocatorOptions& options,
                             CheckScratch* scratch = nullptr);

// Checks the unallocated claims of one pod together: all must fit on one node, devices are
// not shared between them (except admin access). `allocations` follows the order of `claims`;
// Reason::claim indexes it. Null entries are not allowed.
AllocationVerdict CheckPod(const Inventory& inventory,
                           const std::vector<const k8s::ResourceClaimSpec*>& claims,
                           SelectorEvaluator& evaluator, const AllocatorOptions& options,
                           CheckScratch* scratch = nullptr);

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_ALLOCATOR_H_
