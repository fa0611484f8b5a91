// Exact Kubernetes quantity amounts for counter and capacity accounting, in milli-units.
// Parsing is Quantity::Parse (policy/common/quantity.h); the search works on int64.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_AMOUNT_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_AMOUNT_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace draguard::alloc::internal {

// Parses "8", "192Gi", "500m", "1.5k", "2e3" into milli-units. nullopt when malformed,
// negative, not a whole number of milli-units, or above ~9.2e15 units (INT64_MAX milli).
std::optional<int64_t> ParseMilli(std::string_view text);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_AMOUNT_H_
