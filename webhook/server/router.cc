#include "webhook/server/router.h"

#include <chrono>

namespace draguard::webhook {
namespace {

constexpr std::string_view kJson = "application/json";
constexpr std::string_view kAdminAccessPath = "/validate/admin-access-allowed";
constexpr std::string_view kText = "text/plain; charset=utf-8";

RouterResponse Text(int status, std::string body) {
  return {.status = status, .content_type = kText, .body = std::move(body)};
}

}  // namespace

Router::Router(AdmissionChecker& checker, const HandlerOptions& options, Metrics& metrics,
               const ServerHooks& hooks, const RouterState& state, bool probes_only)
    : checker_(checker),
      options_(options),
      metrics_(metrics),
      hooks_(hooks),
      state_(state),
      probes_only_(probes_only) {}

bool Router::Ready() const {
  if (!state_.cert_loaded.load() || state_.draining.load()) return false;
  return !hooks_.ready || hooks_.ready();
}

RouterResponse Router::Admission(AdmissionEndpoint endpoint, const RouterRequest& request,
                                 std::string_view query) const {
  auto start = std::chrono::steady_clock::now();
  HttpAdmissionResponse r = HandleAdmission({.endpoint = endpoint,
                                             .content_type = request.content_type,
                                             .query = query,
                                             .body = request.body,
                                             .body_truncated = request.body_truncated},
                                            checker_, options_);
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  metrics_.RecordRequest(endpoint == AdmissionEndpoint::kMutate ? "mutate" : "validate", r.kind,
                         VerdictName(r.verdict), elapsed.count());
  return {.status = r.http_status, .content_type = kJson, .body = std::move(r.body)};
}

RouterResponse Router::RenderMetrics() const {
  MetricsGauges gauges;
  int64_t not_after = state_.cert_not_after_unix.load();
  if (not_after != 0) gauges.cert_not_after_unix = not_after;
  gauges.now_unix = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  if (hooks_.inventory) gauges.inventory = hooks_.inventory();
  if (hooks_.spec_memo) gauges.spec_memo = hooks_.spec_memo();
  if (hooks_.caches) gauges.caches = hooks_.caches();
  gauges.ready = Ready();
  gauges.release = hooks_.release;
  gauges.memory = ReadProcessMemory();
  return {.status = 200,
          .content_type = "text/plain; version=0.0.4; charset=utf-8",
          .body = metrics_.Render(gauges)};
}

RouterResponse Router::Handle(const RouterRequest& request) const {
  size_t question = request.target.find('?');
  std::string_view path = request.target.substr(0, question);
  std::string_view query =
      question == std::string_view::npos ? std::string_view() : request.target.substr(question + 1);
  if (path == kAdminAccessPath) {
    path = "/validate";
    query = "admin-access=allowed";
  }
  bool post = request.method == "POST";
  bool get = request.method == "GET";
  if (path == "/validate" || path == "/mutate") {
    if (probes_only_) return Text(404, "not found: admission is served on the TLS port\n");
    if (!post) return Text(405, "use POST\n");
    return Admission(path == "/mutate" ? AdmissionEndpoint::kMutate : AdmissionEndpoint::kValidate,
                     request, query);
  }
  if (path == "/healthz" || path == "/readyz" || path == "/metrics") {
    if (!get) return Text(405, "use GET\n");
    if (path == "/healthz") return Text(200, "ok\n");
    if (path == "/readyz") return Ready() ? Text(200, "ok\n") : Text(503, "not ready\n");
    return RenderMetrics();
  }
  return Text(404, "not found\n");
}

}  // namespace draguard::webhook
