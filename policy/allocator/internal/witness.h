// Builds status.allocation from the search's picks (the result of allocator_*.go `Allocate`,
// its node selector as `createNodeSelector` builds it).
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_WITNESS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_WITNESS_H_

#include <string>
#include <vector>

#include "policy/allocator/internal/plan.h"
#include "policy/allocator/internal/search.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc::internal {

// One AllocationResult per planned claim, from the picks of a feasible node.
std::vector<k8s::AllocationResult> BuildAllocations(const Inventory& inventory, const Plan& plan,
                                                    const std::vector<Pick>& picks,
                                                    const std::string& node,
                                                    const AllocatorOptions& options);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_WITNESS_H_
