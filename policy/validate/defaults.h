// What the API server does to an object before validation (pkg/apis/resource/v1/defaults.go;
// `PrepareForCreate`/`PrepareForUpdate` in pkg/registry/resource/*/strategy.go):
// defaulting, and the silent removal of fields whose feature gate is off. draguard applies
// both the same way and adds a warning for every dropped field ("will be ignored"), since
// the API server says nothing. Validators call these on a copy; the webhook's mutation side
// may call them directly.
#ifndef DRAGUARD_POLICY_VALIDATE_DEFAULTS_H_
#define DRAGUARD_POLICY_VALIDATE_DEFAULTS_H_

#include "policy/common/diagnostic.h"
#include "policy/common/field_path.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/options.h"

namespace draguard::validate {

// allocationMode "" -> ExactCount; count 0 -> 1 under ExactCount; toleration operator
// "" -> Equal (requests and subrequests). Idempotent. When `warnings` is non-null, an
// explicit `count: 0` (count_set) that becomes 1 draws a `claim.request.count.defaulted`
// warning at `devices` + path, since the API server accepts it silently.
void DefaultDeviceClaim(k8s::DeviceClaim& claim, const FieldPath& devices = FieldPath(),
                        Diagnostics* warnings = nullptr);

// Whether DefaultDeviceClaim would change nothing in `claim` (the API server defaults an
// object before admission, so a webhook's claims are; a claim read from a file may not be):
// lets a caller that needs the defaulted form skip the copy.
bool IsDefaulted(const k8s::DeviceClaim& claim);

// Drops firstAvailable (DRAPrioritizedList), exactly.adminAccess (DRAAdminAccess),
// tolerations (DRADeviceTaints), capacity and constraints[].distinctAttribute
// (DRAConsumableCapacity) when their gate is off, unless `old` (update; may be null) already
// used the field. Adds one `*.dropped` warning per dropped field at `devices` + path.
void DropDisabledDeviceClaimFields(k8s::DeviceClaim& claim, const k8s::DeviceClaim* old,
                                   const ValidationOptions& options, const FieldPath& devices,
                                   Diagnostics& diagnostics);

// Whether DropDisabledDeviceClaimFields would drop nothing from `claim` (its conditions, kept
// beside it): with IsDefaulted, lets a validator use an admitted claim in place instead of
// preparing a copy. It may still warn (WarnKeptDistinctAttributes).
bool DropsNothing(const k8s::DeviceClaim& claim, const k8s::DeviceClaim* old,
                  const ValidationOptions& options);

// The warnings DropDisabledDeviceClaimFields adds last, about fields it keeps:
// constraints[].distinctAttribute that the allocator these gates select does not know.
void WarnKeptDistinctAttributes(const k8s::DeviceClaim& claim, const ValidationOptions& options,
                                const FieldPath& devices, Diagnostics& diagnostics);

// Drops spec.extendedResourceName (DRAExtendedResource) with a warning.
void DropDisabledDeviceClassFields(k8s::DeviceClass& device_class, const k8s::DeviceClass* old,
                                   const ValidationOptions& options, Diagnostics& diagnostics);

// Each Drop* function below reports every field it drops (a warning, or an error where the
// release does not know the field), and changes nothing it does not report:
// pipeline::DropDisabledFields keeps an object shared when it draws no such finding.

// Drops device taints (DRADeviceTaints), the partitionable-device fields
// (DRAPartitionableDevices), binding-condition fields (DRADeviceBindingConditions) and
// allowMultipleAllocations/requestPolicy (DRAConsumableCapacity) with warnings.
void DropDisabledResourceSliceFields(k8s::ResourceSlice& slice, const k8s::ResourceSlice* old,
                                     const ValidationOptions& options, Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_DEFAULTS_H_
