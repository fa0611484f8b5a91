// DeviceTaintRule validation (resource.k8s.io/v1alpha3, validation.go
// `ValidateDeviceTaintRule`): name, the optional device
// selector and the taint. 1.34 still had `deviceClassName` and CEL `selectors` in the
// selector; 1.35 removed them.
#ifndef DRAGUARD_POLICY_VALIDATE_DEVICE_TAINT_RULE_H_
#define DRAGUARD_POLICY_VALIDATE_DEVICE_TAINT_RULE_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/options.h"

namespace draguard::validate {

// Create. When the API is not enabled (1.35: DRADeviceTaintRules off; 1.34: DRADeviceTaints
// off) a `taintrule.api-disabled` error says the API server does not serve the kind.
void ValidateDeviceTaintRule(const k8s::DeviceTaintRule& rule, const ValidationOptions& options,
                             Diagnostics& diagnostics);

// Update: everything is mutable; in 1.35 the taint effect is re-validated only when changed.
void ValidateDeviceTaintRuleUpdate(const k8s::DeviceTaintRule& old_rule,
                                   const k8s::DeviceTaintRule& new_rule,
                                   const ValidationOptions& options, Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_DEVICE_TAINT_RULE_H_
