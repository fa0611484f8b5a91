// Router: HTTP method + target + headers + body in, status + body out. The routes of the
// admission server, with no sockets or Beast types so that it is tested directly:
//
//   POST /validate, POST /mutate   the admission handler (handler.h), timed into Metrics
//   POST /validate/admin-access-allowed
//                                  /validate with admin access allowed. The API server rejects
//                                  a query in a webhook's service.path (each segment must be a
//                                  DNS subdomain), so manifests/ use this path; the query form
//                                  /validate?admin-access=allowed is accepted too (curl, url:).
//   GET  /healthz                  200 while the process serves
//   GET  /readyz                   200 once the certificate is loaded, hooks.ready() holds and
//                                  the server is not draining; 503 otherwise
//   GET  /metrics                  Prometheus text
//   anything else                  404, or 405 for a known path with the wrong method
#ifndef DRAGUARD_WEBHOOK_SERVER_ROUTER_H_
#define DRAGUARD_WEBHOOK_SERVER_ROUTER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "webhook/admission/checker.h"
#include "webhook/server/metrics.h"
#include "webhook/server/server_options.h"

namespace draguard::webhook {

struct RouterRequest {
  std::string_view method;  // "GET", "POST", ...
  std::string_view target;  // path and query: "/validate?admin-access=allowed"
  std::string_view content_type;
  std::string_view body;
  bool body_truncated = false;  // the transport hit the body limit
};

struct RouterResponse {
  int status = 200;
  // A constant: every type the server answers with is a literal (no allocation per response;
  // "application/json" is one byte past std::string's inline capacity).
  std::string_view content_type;
  std::string body;
};

// State shared between the router and the server, owned by the server.
struct RouterState {
  std::atomic<bool> cert_loaded{false};
  std::atomic<bool> draining{false};
  std::atomic<int64_t> cert_not_after_unix{0};  // 0: unknown
};

class Router {
 public:
  // All references must outlive the router. Thread-safe when the checker and hooks are.
  // `probes_only`: every path but /healthz, /readyz and /metrics is 404 (the probe port).
  Router(AdmissionChecker& checker, const HandlerOptions& options, Metrics& metrics,
         const ServerHooks& hooks, const RouterState& state, bool probes_only = false);

  // Never throws except std::bad_alloc.
  RouterResponse Handle(const RouterRequest& request) const;

  bool Ready() const;

 private:
  RouterResponse Admission(AdmissionEndpoint endpoint, const RouterRequest& request,
                           std::string_view query) const;
  RouterResponse RenderMetrics() const;

  AdmissionChecker& checker_;
  const HandlerOptions& options_;
  Metrics& metrics_;
  const ServerHooks& hooks_;
  const RouterState& state_;
  bool probes_only_;
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_ROUTER_H_
