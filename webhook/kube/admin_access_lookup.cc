#include "webhook/kube/admin_access_lookup.h"

namespace draguard::webhook::kube {

CheckOutcome AdminAccessLookupChecker::Check(const AdmissionRequest& request) {
  // Only validation reads admin access; cluster-scoped objects (DeviceClass) have no namespace.
  if (request.endpoint != AdmissionEndpoint::kValidate || request.admin_access_allowed ||
      request.name_space.empty()) {
    return inner_.Check(request);
  }
  StatusOr<LabelMap> labels = lookup_.Labels(request.name_space);
  if (!labels.ok()) return inner_.Check(request);
  auto it = labels->find(kAdminAccessLabel);
  if (it == labels->end() || it->second != "true") return inner_.Check(request);
  AdmissionRequest allowed = request;
  allowed.admin_access_allowed = true;
  return inner_.Check(allowed);
}

}  // namespace draguard::webhook::kube
