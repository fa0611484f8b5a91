// DeviceClass validation (validation.go `ValidateDeviceClass`): cluster-scoped metadata, selectors,
// opaque config and the gated extendedResourceName. Same conventions as resource_claim.h: the
// object is taken as sent, gated fields are dropped on a copy with warnings, findings go to
// `diagnostics`.
#ifndef DRAGUARD_POLICY_VALIDATE_DEVICE_CLASS_H_
#define DRAGUARD_POLICY_VALIDATE_DEVICE_CLASS_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/device_class.h"
#include "policy/validate/options.h"

namespace draguard::validate {

void ValidateDeviceClass(const k8s::DeviceClass& device_class, const ValidationOptions& options,
                         Diagnostics& diagnostics);

// Update: the spec is mutable. Selectors deep-equal to the old ones compile as stored
// expressions, unchanged config skips the parameter size limit (1.35); 1.34's strategy also
// ran create validation, so there every expression is compiled as new.
void ValidateDeviceClassUpdate(const k8s::DeviceClass& old_class, const k8s::DeviceClass& new_class,
                               const ValidationOptions& options, Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_DEVICE_CLASS_H_
