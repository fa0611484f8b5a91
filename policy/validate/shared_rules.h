// Rules used by more than one kind: CEL selectors (claims, subrequests, classes), opaque
// driver configuration (claims, classes, allocation results), tolerations (requests,
// subrequests) and taints (slices, taint rules): validation.go `validateCELSelector`,
// `validateOpaqueConfiguration`, `validateDeviceToleration`, `validateDeviceTaint`.
#ifndef DRAGUARD_POLICY_VALIDATE_SHARED_RULES_H_
#define DRAGUARD_POLICY_VALIDATE_SHARED_RULES_H_

#include <vector>

#include "policy/common/field_path.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/options.h"
#include "policy/validate/reporter.h"

namespace draguard::validate::internal {

inline constexpr size_t kSelectorsMaxSize = 32;
inline constexpr size_t kCELSelectorExpressionMaxLength = 10 * 1024;
inline constexpr size_t kOpaqueParametersMaxLength = 10 * 1024;
inline constexpr size_t kDeviceTolerationsMaxLength = 16;  // documented, not enforced

// selectors: at most 32; each needs `cel`; expressions over 10,240 bytes are TooLong and not
// compiled; the others go to options.selector_checker with `kind`.
void ValidateSelectors(Reporter& r, const std::vector<k8s::DeviceSelector>& selectors,
                       const FieldPath& path, const ValidationOptions& options, SelectorKind kind);

// `opaque` required; driver rule; parameters required, <=10,240 raw bytes unless `stored`,
// a JSON object.
void ValidateDeviceConfiguration(Reporter& r, const k8s::DeviceConfiguration& config,
                                 const FieldPath& path, bool stored);

// Tolerations as validated with DRADeviceTaints on (the caller drops them when it is off),
// plus draguard warnings for the documented rules upstream does not enforce.
void ValidateTolerations(Reporter& r, const std::vector<k8s::DeviceToleration>& tolerations,
                         const FieldPath& path, const ValidationOptions& options);

// One taint: key required and a label key, value a label value, effect required and one of
// NoSchedule, NoExecute and (1.35) None.
void ValidateTaint(Reporter& r, const k8s::DeviceTaint& taint, const FieldPath& path,
                   const ValidationOptions& options, bool validate_effect = true);

}  // namespace draguard::validate::internal

#endif  // DRAGUARD_POLICY_VALIDATE_SHARED_RULES_H_
