// Seeded random small inventories and claims inside the reference allocator's subset, shared
// by the differential test and the fuzz target.
#ifndef DRAGUARD_TESTS_POLICY_ALLOCATOR_RANDOM_INVENTORY_H_
#define DRAGUARD_TESTS_POLICY_ALLOCATOR_RANDOM_INVENTORY_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc::testing {

struct RandomCase {
  InventoryInput input;
  std::vector<k8s::ResourceClaimSpec> claims;
  AllocatorOptions options;
};

// `next(n)` returns a number in [0, n). Bounded: at most 3 nodes, 8 devices, 2 claims,
// 4 device slots per claim.
RandomCase MakeRandomCase(const std::function<uint32_t(uint32_t)>& next);

}  // namespace draguard::alloc::testing

#endif  // DRAGUARD_TESTS_POLICY_ALLOCATOR_RANDOM_INVENTORY_H_
