// HandleAdmission: the pure admission handler. HTTP request parts in, HTTP status and body out;
// no sockets, no TLS (as `handle_request` in Beast's http_server_async_ssl.cpp), behaviour after
// controller-runtime's pkg/webhook/admission (http.go `ServeHTTP`):
//
//   empty body -> 400; body over HandlerOptions::max_body_bytes -> 413; Content-Type other than
//   application/json -> 400; malformed AdmissionReview (bad JSON, wrong apiVersion/kind, no
//   request, no uid) -> 400. These are transport failures: the API server never sends them, so
//   a non-200 status is right and failurePolicy decides.
//
//   Once the review is decoded, the answer is HTTP 200 with an AdmissionReview echoing the uid:
//   kinds other than ResourceClaim, ResourceClaimTemplate, DeviceClass in resource.k8s.io
//   v1/v1beta2/v1beta1 and operations DELETE/CONNECT are allowed untouched; an unknown operation,
//   a missing object or an UPDATE without oldObject gets result code 400; an exception from the
//   checker gets result code 500; error diagnostics deny with 422 Invalid (errors the API
//   server's validation reports) or 403 Forbidden (draguard's own checks) and the API server's
//   "field: message" list and typed causes (response_budget.h); warnings go to `warnings`,
//   within kube-apiserver's budget; on /mutate a patch is returned as base64 JSONPatch. dryRun
//   requests are answered exactly like others.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_HANDLER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_HANDLER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "webhook/admission/checker.h"
#include "webhook/admission/response_budget.h"
#include "webhook/admission/review_scanner.h"

namespace draguard::webhook {

struct HandlerOptions {
  // controller-runtime's limit: two objects of up to 3 MiB (etcd's limit, object and
  // oldObject) plus 1 MiB for the rest of the review.
  size_t max_body_bytes = 7 * 1024 * 1024;
  ScanOptions scan;
  // Bounds of warnings and denials (response_budget.h): what kube-apiserver passes on.
  ResponseLimits response;
};

// What happened to a request, for metrics and logs.
enum class Verdict {
  kAllowed,     // checked, no errors, no patch
  kPatched,     // checked, no errors, a patch returned (/mutate)
  kDenied,      // checked, errors found
  kSkipped,     // kind or operation not ours: allowed untouched
  kBadRequest,  // malformed HTTP request or AdmissionReview
  kError,       // the checker threw
};

// "allowed", "patched", "denied", "skipped", "bad_request", "error".
std::string_view VerdictName(Verdict verdict);

struct HttpAdmissionRequest {
  AdmissionEndpoint endpoint = AdmissionEndpoint::kValidate;
  std::string_view content_type;  // the Content-Type header, as sent
  std::string_view query;         // the part of the target after '?', without it
  std::string_view body;
  // Set by a transport that stopped reading at max_body_bytes: answered with 413.
  bool body_truncated = false;
};

struct HttpAdmissionResponse {
  int http_status = 200;
  std::string body;   // always an application/json AdmissionReview
  std::string kind;   // request.kind.kind when decoded, else empty (metrics label)
  Verdict verdict = Verdict::kBadRequest;
};

// Handles one admission HTTP request. Never throws except std::bad_alloc; thread-safe when
// the checker is. Runs in time linear in the body, plus the checker's time.
HttpAdmissionResponse HandleAdmission(const HttpAdmissionRequest& request,
                                      AdmissionChecker& checker,
                                      const HandlerOptions& options = {});

// True when `query` (without '?') contains admin-access=allowed.
bool QueryAllowsAdminAccess(std::string_view query);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_HANDLER_H_
