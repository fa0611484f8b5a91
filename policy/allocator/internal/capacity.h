// Consumable capacity (structured/internal/experimental/consumable_capacity.go): what one
// allocation of a device consumes from each
// capacity it declares, under the device's requestPolicy and the request's capacity.requests.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_CAPACITY_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_CAPACITY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::alloc::internal {

// The device's capacity values in milli-units, in the order of Device::capacity; nullopt
// when one does not parse.
std::optional<std::vector<int64_t>> CapacityValues(const k8s::Device& device);

// What one allocation for `requests` (may be null: nothing requested) consumes, per
// capacity of the device in the order of Device::capacity. Unrequested: the policy default,
// else the whole value. Requested: the amount rounded up by validValues or validRange
// (min, step); a value equal to the default always passes. nullopt when the device cannot
// serve the request: a requested capacity it does not declare, an amount above the range's
// max or above every valid value, or a quantity that does not parse.
std::optional<std::vector<int64_t>> CapacityDemand(const k8s::Device& device,
                                                   const k8s::CapacityRequirements* requests);

// The consumption committed by other claims' shares of the device (their consumedCapacity),
// in the order of Device::capacity; an unparsable entry counts as the whole value, a
// missing one as nothing.
std::vector<int64_t> CommittedShares(const k8s::Device& device,
                                     const std::vector<const std::map<std::string, std::string>*>& shares);

// How many device capacity lists this thread has parsed (CapacityValues, CapacityDemand):
// lets a test see that a check reads what Inventory::Build parsed instead of parsing again.
size_t CapacityParsesOnThisThread();

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_CAPACITY_H_
