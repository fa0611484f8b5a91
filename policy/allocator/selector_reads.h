// What a parsed CEL selector reads of `device.attributes` (SelectorEvaluator::AttributesRead),
// by a walk over its AST. Only these uses of `device` are understood:
//   device.driver, device.allowMultipleAllocations, device.capacity (and anything under it:
//   capacities are part of every device class key);
//   device.attributes[D].N, device.attributes[D]["N"], .?N, [?"N"], has(device.attributes[D].N),
//   "N" in device.attributes[D]  (D and N string literals; `device.attributes.D` for D).
// Any other use (the attribute map or a domain's map as a value, a computed key, a macro or
// cel.bind that names a variable `device`, a root-scoped `.device`) gives nullopt: the
// selector may read any attribute.
#ifndef DRAGUARD_POLICY_ALLOCATOR_SELECTOR_READS_H_
#define DRAGUARD_POLICY_ALLOCATOR_SELECTOR_READS_H_

#include <optional>
#include <vector>

#include "policy/allocator/selector.h"
#include "policy/cel/ast.h"

namespace draguard::alloc {

// Sorted and unique; nullopt when the selector may read any attribute.
std::optional<std::vector<AttributeName>> AttributesReadBy(const cel::Expr& root);

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_SELECTOR_READS_H_
