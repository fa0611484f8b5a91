#include "policy/validate/resource_claim.h"

#include <optional>

#include "policy/validate/defaults.h"
#include "policy/validate/device_claim.h"
#include "policy/validate/equality.h"
#include "policy/validate/object_meta.h"
#include "policy/validate/reporter.h"

namespace draguard::validate {
namespace {

// The API server's view of a spec: defaulted, gate-filtered (warnings go to `d`). A spec
// that neither changes, nearly every admitted one (the API server defaulted it), is used in
// place; any other is copied into `storage` and changed there. The copy was about 1,600
// instructions of each admission request, and its destruction as much again.
const k8s::DeviceClaim& Prepare(const k8s::DeviceClaim& claim, const k8s::DeviceClaim* old,
                                const ValidationOptions& options, const FieldPath& devices,
                                Diagnostics& d, std::optional<k8s::DeviceClaim>& storage) {
  if (IsDefaulted(claim) && DropsNothing(claim, old, options)) {
    WarnKeptDistinctAttributes(claim, options, devices, d);
    return claim;
  }
  storage.emplace(claim);
  DefaultDeviceClaim(*storage, devices, &d);
  DropDisabledDeviceClaimFields(*storage, old, options, devices, d);
  return *storage;
}

k8s::DeviceClaim Defaulted(const k8s::DeviceClaim& claim) {
  k8s::DeviceClaim copy = claim;
  DefaultDeviceClaim(copy);
  return copy;
}

void ValidateTemplateSpec(Reporter& r, const k8s::ResourceClaimTemplate& t,
                          const ValidationOptions& options, bool with_admin) {
  FieldPath devices("spec.spec.devices");
  std::optional<k8s::DeviceClaim> storage;
  const k8s::DeviceClaim& spec =
      Prepare(t.spec.devices, nullptr, options, devices, r.diagnostics(), storage);
  if (with_admin) {
    internal::CheckAdminAccess(r, spec, t.metadata.name_space, FieldPath("spec.devices.requests"),
                               options);
  }
  ValidateObjectMeta(r, t.metadata, /*namespaced=*/true, FieldPath("metadata"));
  ValidateTemplateObjectMeta(r, t.template_metadata, FieldPath("spec.metadata"));
  internal::ValidateDeviceClaim(r, spec, devices, options, /*stored=*/false);
}

}  // namespace

void ValidateResourceClaim(const k8s::ResourceClaim& claim, const ValidationOptions& options,
                           Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  FieldPath devices("spec.devices");
  std::optional<k8s::DeviceClaim> storage;
  const k8s::DeviceClaim& spec =
      Prepare(claim.spec.devices, nullptr, options, devices, diagnostics, storage);
  internal::CheckAdminAccess(r, spec, claim.metadata.name_space, {devices, "requests"},
                             options);
  ValidateObjectMeta(r, claim.metadata, /*namespaced=*/true, FieldPath("metadata"));
  internal::ValidateDeviceClaim(r, spec, devices, options, /*stored=*/false);
  if (claim.status.has_value()) {
    r.Warning("claim.status.ignored", FieldPath("status"),
              "status is discarded by the API server when a ResourceClaim is created; only the "
              "scheduler and drivers write it through the /status subresource",
              "remove the status section");
  }
  CapDiagnostics(diagnostics, start, options.limits);
}

void ValidateResourceClaimUpdate(const k8s::ResourceClaim& old_claim,
                                 const k8s::ResourceClaim& new_claim,
                                 const ValidationOptions& options, Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  ValidateObjectMeta(r, new_claim.metadata, /*namespaced=*/true, FieldPath("metadata"));
  ValidateObjectMetaImmutable(r, old_claim.metadata, new_claim.metadata, /*namespaced=*/true,
                              FieldPath("metadata"));
  FieldPath devices("spec.devices");
  k8s::DeviceClaim old_spec = Defaulted(old_claim.spec.devices);
  std::optional<k8s::DeviceClaim> storage;
  const k8s::DeviceClaim& new_spec =
      Prepare(new_claim.spec.devices, &old_spec, options, devices, diagnostics, storage);
  if (!internal::Equal(old_spec, new_spec)) {
    r.Invalid("claim.spec.immutable", FieldPath("spec"), FieldValue::Raw("{...}"),
              "field is immutable")
        .suggestion = "delete and re-create the ResourceClaim to change its spec";
  }
  if (options.dialect().claim_update_revalidates_spec) {
    internal::ValidateDeviceClaim(r, new_spec, devices, options, /*stored=*/true);
  }
  CapDiagnostics(diagnostics, start, options.limits);
}

void ValidateResourceClaimTemplate(const k8s::ResourceClaimTemplate& claim_template,
                                   const ValidationOptions& options, Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  ValidateTemplateSpec(r, claim_template, options, /*with_admin=*/true);
  CapDiagnostics(diagnostics, start, options.limits);
}

void ValidateResourceClaimTemplateUpdate(const k8s::ResourceClaimTemplate& old_template,
                                         const k8s::ResourceClaimTemplate& new_template,
                                         const ValidationOptions& options,
                                         Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  ValidateTemplateSpec(r, new_template, options, /*with_admin=*/false);
  ValidateObjectMetaImmutable(r, old_template.metadata, new_template.metadata,
                              /*namespaced=*/true, FieldPath("metadata"));
  bool same =
      internal::Equal(old_template.template_metadata, new_template.template_metadata) &&
      internal::Equal(Defaulted(old_template.spec.devices), Defaulted(new_template.spec.devices));
  if (!same) {
    r.Invalid("template.spec.immutable", FieldPath("spec"), FieldValue::Raw("{...}"),
              "field is immutable")
        .suggestion = "delete and re-create the ResourceClaimTemplate to change its spec";
  }
  CapDiagnostics(diagnostics, start, options.limits);
}

}  // namespace draguard::validate
