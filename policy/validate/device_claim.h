// Validation of a DeviceClaim (`spec.devices` of a ResourceClaim, `spec.spec.devices` of a
// template): requests, subrequests, constraints and config, as validation.go's
// `validateDeviceClaim` and the functions it calls. Shared by the
// claim and template validators; operates on an already defaulted and gate-filtered spec.
#ifndef DRAGUARD_POLICY_VALIDATE_DEVICE_CLAIM_H_
#define DRAGUARD_POLICY_VALIDATE_DEVICE_CLAIM_H_

#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "policy/common/field_path.h"
#include "policy/k8s/resource_claim.h"
#include "policy/validate/names.h"
#include "policy/validate/options.h"
#include "policy/validate/reporter.h"

namespace draguard::validate::internal {

inline constexpr size_t kDeviceRequestsMaxSize = 32;
inline constexpr size_t kDeviceConstraintsMaxSize = 32;
inline constexpr size_t kDeviceConfigMaxSize = 32;
inline constexpr size_t kFirstAvailableDeviceRequestMaxSize = 8;

// The names a reference to one of `claim`'s requests may use (constraints, config, allocation
// results, a container's `request`): every request's name and, for a request with
// `firstAvailable`, each "request/subrequest".
using RequestNames = std::set<std::string, std::less<>>;
RequestNames CollectRequestNames(const k8s::DeviceClaim& claim);

// `devices` is the path of the DeviceClaim (`spec.devices` or `spec.spec.devices`).
// `stored`: re-validation of an existing object (StoredExpressions, no parameter size limit).
void ValidateDeviceClaim(Reporter& r, const k8s::DeviceClaim& claim, const FieldPath& devices,
                         const ValidationOptions& options, bool stored);

// The admin-access namespace check (pkg/registry/resource/utils.go `AuthorizedForAdmin`,
// called by the claim and template strategies' `Validate`): the first request with
// `exactly.adminAccess: true` is Forbidden at `<requests>[i].adminAccess` unless namespace
// `name_space` carries `resource.kubernetes.io/admin-access: "true"`; a warning when the
// namespace's labels are unknown. `requests` is `spec.devices.requests` for claims *and*
// templates (upstream quirk).
void CheckAdminAccess(Reporter& r, const k8s::DeviceClaim& claim, std::string_view name_space,
                      const FieldPathRef& requests, const ValidationOptions& options);

// The label check itself, reporting at `at` (also used for allocation results).
void CheckAdminNamespace(Reporter& r, std::string_view name_space, const FieldPath& at,
                         const ValidationOptions& options);

}  // namespace draguard::validate::internal

#endif  // DRAGUARD_POLICY_VALIDATE_DEVICE_CLAIM_H_
