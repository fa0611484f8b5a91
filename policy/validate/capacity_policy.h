// Validation of a device capacity's `requestPolicy` (DRAConsumableCapacity, validation.go
// `validateRequestPolicy`): either
// a list of valid values (at most 10, ascending, unique, none above the capacity, the default
// listed) or a range (min required, min <= default <= max <= capacity, default reachable from
// min in steps). The field rules are upstream's; the message texts are draguard's, since
// upstream's wording was not reproduced (medium confidence).
#ifndef DRAGUARD_POLICY_VALIDATE_CAPACITY_POLICY_H_
#define DRAGUARD_POLICY_VALIDATE_CAPACITY_POLICY_H_

#include "policy/common/field_path.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/options.h"
#include "policy/validate/reporter.h"

namespace draguard::validate::internal {

inline constexpr size_t kCapacityRequestPolicyDiscreteMaxOptions = 10;

// `at` is the path of the requestPolicy. Quantities that do not parse are skipped (the
// decoder reports them, as the API server fails them at decode time).
void ValidateRequestPolicy(Reporter& r, const k8s::CapacityRequestPolicy& policy,
                           const std::string& capacity_value, const FieldPath& at,
                           const ValidationOptions& options);

}  // namespace draguard::validate::internal

#endif  // DRAGUARD_POLICY_VALIDATE_CAPACITY_POLICY_H_
