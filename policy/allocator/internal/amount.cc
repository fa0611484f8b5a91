// Quantities parsed by policy/common/quantity.h (the project's one parser), then held as
// int64 milli-units: the search adds and compares them in its inner loop.
#include "policy/allocator/internal/amount.h"

#include <cstdint>

#include "policy/common/quantity.h"

namespace draguard::alloc::internal {

std::optional<int64_t> ParseMilli(std::string_view text) {
  StatusOr<Quantity> q = Quantity::Parse(text);
  if (!q.ok() || q->Sign() < 0) return std::nullopt;
  constexpr Int128 kNanosPerMilli = 1'000'000;
  Int128 nanos = q->nanos();
  if (nanos % kNanosPerMilli != 0) return std::nullopt;
  Int128 milli = nanos / kNanosPerMilli;
  if (milli > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(milli);
}

}  // namespace draguard::alloc::internal
