// AdminAccessLookupChecker: `--namespace-lookup` for the admin-access check.
//
// The manifests register two validating entries whose namespaceSelectors split namespaces on
// the label resource.kubernetes.io/admin-access: "true", so the route tells the checker
// whether admin access is allowed. A webhook registered with a single /validate entry has no
// such split; this decorator then asks a NamespaceLabelLookup for the namespace's labels and
// marks the request as admin-access-allowed when the label is set, before delegating.
//
// Failure policy: a lookup that fails (API unreachable, RBAC missing) leaves the request as
// the route says, so the lookup can only allow more, never deny what the route allows.
// Thread-safe when the inner checker and the lookup are.
#ifndef DRAGUARD_WEBHOOK_KUBE_ADMIN_ACCESS_LOOKUP_H_
#define DRAGUARD_WEBHOOK_KUBE_ADMIN_ACCESS_LOOKUP_H_

#include "webhook/admission/checker.h"
#include "webhook/kube/namespace_lookup.h"

namespace draguard::webhook::kube {

inline constexpr char kAdminAccessLabel[] = "resource.kubernetes.io/admin-access";

class AdminAccessLookupChecker : public AdmissionChecker {
 public:
  // Both must outlive this checker.
  AdminAccessLookupChecker(AdmissionChecker& inner, NamespaceLabelLookup& lookup)
      : inner_(inner), lookup_(lookup) {}

  CheckOutcome Check(const AdmissionRequest& request) override;

 private:
  AdmissionChecker& inner_;
  NamespaceLabelLookup& lookup_;
};

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_ADMIN_ACCESS_LOOKUP_H_
