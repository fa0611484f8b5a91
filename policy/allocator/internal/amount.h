// Exact Kubernetes quantity amounts for counter accounting, in milli-units.
//
// Temporary bridge: policy/common/quantity.h (being written by the CEL runtime engineer) is
// the project's Quantity; once it lands this file should forward to Quantity::Parse.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_AMOUNT_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_AMOUNT_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace draguard::alloc::internal {

// Parses "8", "192Gi", "500m", "1.5k", "2e3" into milli-units. nullopt when malformed,
// negative, not a whole number of milli-units, or above ~9.2e15 units.
std::optional<int64_t> ParseMilli(std::string_view text);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_AMOUNT_H_
