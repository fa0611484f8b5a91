// Validation of ResourceClaim and ResourceClaimTemplate as kube-apiserver performs it on
// create and update (validation.go `ValidateResourceClaim*`, `ValidateResourceClaimTemplate*`),
// with draguard's extra warnings.
//
// All entry points take the object as the client sent it: they default it and drop the fields
// of disabled feature gates on a private copy first (defaults.h), exactly as the API server
// does before validating, so that field paths and verdicts match. Findings are appended to
// `diagnostics`; errors are what the API server rejects, warnings are draguard's advice.
// Thread-compatible: concurrent calls with distinct Diagnostics are safe.
#ifndef DRAGUARD_POLICY_VALIDATE_RESOURCE_CLAIM_H_
#define DRAGUARD_POLICY_VALIDATE_RESOURCE_CLAIM_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/resource_claim.h"
#include "policy/validate/options.h"

namespace draguard::validate {

// Create: admin-access namespace check (`AuthorizedForAdmin`), metadata, `spec.devices`
// (`validateDeviceClaim`). A
// `status` in the body draws a warning (the API server discards it).
void ValidateResourceClaim(const k8s::ResourceClaim& claim, const ValidationOptions& options,
                           Diagnostics& diagnostics);

// Update of the main resource: metadata, then `spec` immutable (`Invalid spec: field is
// immutable`, compared after defaulting). 1.34 also re-validates the new spec as stored.
void ValidateResourceClaimUpdate(const k8s::ResourceClaim& old_claim,
                                 const k8s::ResourceClaim& new_claim,
                                 const ValidationOptions& options, Diagnostics& diagnostics);

// Update through /status (`validateResourceClaimStatusUpdate`): reservedFor, write-once allocation
// with its results and config, admin access of new allocations, device status entries.
void ValidateResourceClaimStatusUpdate(const k8s::ResourceClaim& old_claim,
                                       const k8s::ResourceClaim& new_claim,
                                       const ValidationOptions& options, Diagnostics& diagnostics);

// Create: admin access (path `spec.devices.requests[i].adminAccess`, as upstream), metadata,
// template object meta (`spec.metadata`), `spec.spec.devices`.
void ValidateResourceClaimTemplate(const k8s::ResourceClaimTemplate& claim_template,
                                   const ValidationOptions& options, Diagnostics& diagnostics);

// Update: the whole template `spec` (incl. spec.metadata) is immutable, and the new object
// must pass create validation.
void ValidateResourceClaimTemplateUpdate(const k8s::ResourceClaimTemplate& old_template,
                                         const k8s::ResourceClaimTemplate& new_template,
                                         const ValidationOptions& options,
                                         Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_RESOURCE_CLAIM_H_
