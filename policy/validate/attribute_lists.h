// Validation of list-typed device attributes (DRAListTypeAttributes, alpha in Kubernetes 1.36;
// docs/k8s-releases.md A.4): the list members `ints`, `bools`, `strings`, `versions` and the
// per-device limit of 48 attribute values. Lists reach validation only where the release
// knows them and the gate keeps them (validate/defaults.h drops them otherwise), so these
// rules need no release test of their own. Rules and texts as kubernetes/kubernetes
// pkg/apis/resource/validation/validation.go `validateDeviceAttribute` has them with the list
// members; that version was read at 1.37-dev only (docs/k8s-releases.md A.4: *medium*).
#ifndef DRAGUARD_POLICY_VALIDATE_ATTRIBUTE_LISTS_H_
#define DRAGUARD_POLICY_VALIDATE_ATTRIBUTE_LISTS_H_

#include <cstddef>

#include "policy/common/field_path.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/reporter.h"

namespace draguard::validate::internal {

// ResourceSliceMaxAttributeValuesPerDevice (kubernetes/api v0.36.0 resource/v1 types.go).
inline constexpr size_t kMaxAttributeValuesPerDevice = 48;

// The list member of a valid (exactly one member) attribute at `at`: not empty, strings and
// versions at most 64 bytes, versions semver 2.0.0.
void ValidateAttributeList(Reporter& r, const k8s::DeviceAttribute& attr, const FieldPath& at);

// At most 48 values over all attributes of the device at `at` (a scalar counts 1, a list its
// length): `Invalid spec.devices[d]`.
void ValidateAttributeValueCount(Reporter& r, const k8s::Device& dev, const FieldPath& at);

// Whether some attribute of `dev` holds a list (a slice with one has at most 64 devices).
bool HasListAttribute(const k8s::Device& dev);

}  // namespace draguard::validate::internal

#endif  // DRAGUARD_POLICY_VALIDATE_ATTRIBUTE_LISTS_H_
