#include "webhook/admission/handler.h"

#include <array>
#include <exception>
#include <string>
#include <utility>

#include "webhook/admission/response_budget.h"
#include "webhook/admission/response_writer.h"
#include "webhook/admission/spec_memo.h"

namespace draguard::webhook {
namespace {

constexpr std::string_view kReviewV1 = "admission.k8s.io/v1";
constexpr std::string_view kReviewV1beta1 = "admission.k8s.io/v1beta1";
// Reviews up to this size leave their trees' storage to the next review on the same thread
// (typical DRA reviews are 2-10 KB); the storage of larger ones is freed.
constexpr size_t kKeptReviewBytes = 64 * 1024;

HttpAdmissionResponse Respond(int http_status, Verdict verdict, const AdmissionResponseFields& f,
                              std::string kind = {}) {
  return {.http_status = http_status,
          .body = WriteAdmissionReview(f),
          .kind = std::move(kind),
          .verdict = verdict};
}

// A transport-level failure: non-200 with an AdmissionReview body explaining it.
HttpAdmissionResponse Reject(int http_status, std::string message, std::string_view uid = {}) {
  AdmissionResponseFields f{.uid = uid,
                            .allowed = false,
                            .code = http_status,
                            .reason = http_status == 413 ? "RequestEntityTooLarge" : "BadRequest",
                            .message = std::move(message)};
  return Respond(http_status, Verdict::kBadRequest, f);
}

// HTTP optional whitespace (OWS: SP / HTAB) around `s` removed.
std::string_view TrimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// application/json, ignoring case and parameters such as "; charset=utf-8".
bool IsJsonContentType(std::string_view content_type) {
  return EqualsIgnoreCase(TrimOws(content_type.substr(0, content_type.find(';'))),
                          "application/json");
}

bool IsDraKind(const ReviewFields& r) {
  static constexpr std::array<std::string_view, 3> kVersions = {"v1", "v1beta2", "v1beta1"};
  static constexpr std::array<std::string_view, 3> kKinds = {"ResourceClaim",
                                                             "ResourceClaimTemplate", "DeviceClass"};
  if (r.group != "resource.k8s.io") return false;
  bool version_ok = false, kind_ok = false;
  for (auto v : kVersions) version_ok = version_ok || r.version == v;
  for (auto k : kKinds) kind_ok = kind_ok || r.kind == k;
  return version_ok && kind_ok;
}

// Why HandleAdmission refuses `r` (a 400) before it reaches HandleReview; empty when it
// does not.
std::string WhyMalformed(const ReviewFields& r) {
  if ((r.api_version != kReviewV1 && r.api_version != kReviewV1beta1) ||
      r.review_kind != "AdmissionReview") {
    return "expected apiVersion admission.k8s.io/v1, kind AdmissionReview; got \"" +
           r.api_version + "\", \"" + r.review_kind + "\"";
  }
  if (!r.has_request) return "AdmissionReview has no request";
  if (r.uid.empty()) return "AdmissionReview request has no uid";
  return {};
}

// `direct`: r itself, whose object_metadata and object_spec_direct the checker's decode takes
// (checker.h), or null.
AdmissionRequest ToRequest(const HttpAdmissionRequest& http, const ReviewFields& r,
                           const SpecLookup* spec_lookup = nullptr,
                           ReviewFields* direct = nullptr) {
  return {.endpoint = http.endpoint,
          .uid = r.uid,
          .group = r.group,
          .version = r.version,
          .kind = r.kind,
          .operation = r.operation,
          .name_space = r.name_space,
          .name = r.name,
          .dry_run = r.dry_run,
          .admin_access_allowed = QueryAllowsAdminAccess(http.query),
          .object = r.object,
          .old_object = r.old_object,
          .object_spec = r.object_spec,
          .object_tree = r.object_tree ? &*r.object_tree : nullptr,
          .old_object_tree = r.old_object_tree ? &*r.old_object_tree : nullptr,
          .object_metadata = direct != nullptr ? &direct->object_metadata : nullptr,
          .object_spec_direct = direct != nullptr ? &direct->object_spec_direct : nullptr,
          .spec_lookup = spec_lookup};
}

HttpAdmissionResponse Answer(const HttpAdmissionRequest& http, const ReviewFields& r,
                             CheckOutcome outcome, const HandlerOptions& options) {
  AdmissionResponseFields f{.api_version = r.api_version, .uid = r.uid};
  f.warnings = BudgetWarnings(outcome.diagnostics, options.response);
  if (outcome.diagnostics.has_errors()) {
    Denial denial = BuildDenial(r.kind, r.name, outcome.diagnostics, options.response);
    f.allowed = false;
    f.code = denial.code;
    f.reason = denial.reason;
    f.message = std::move(denial.message);
    f.causes = std::move(denial.causes);
    return Respond(200, Verdict::kDenied, f, r.kind);
  }
  if (http.endpoint == AdmissionEndpoint::kMutate && !outcome.patch.empty()) {
    f.patch_json = WriteJsonPatch(outcome.patch);
    return Respond(200, Verdict::kPatched, f, r.kind);
  }
  return Respond(200, Verdict::kAllowed, f, r.kind);
}

// A decoded review: decide whether it is ours, then run the checker.
HttpAdmissionResponse HandleReview(const HttpAdmissionRequest& http, const ReviewFields& r,
                                   AdmissionChecker& checker, const HandlerOptions& options,
                                   const SpecLookup* spec_lookup, ReviewFields* direct) {
  AdmissionResponseFields f{.api_version = r.api_version, .uid = r.uid};
  if (!IsDraKind(r) || r.operation == "DELETE" || r.operation == "CONNECT") {
    return Respond(200, Verdict::kSkipped, f, r.kind);
  }
  f.allowed = false;
  f.code = 400;
  f.reason = "BadRequest";
  if (r.operation != "CREATE" && r.operation != "UPDATE") {
    f.message = "unknown operation \"" + r.operation + "\"";
    return Respond(200, Verdict::kBadRequest, f, r.kind);
  }
  if (r.object.empty()) {
    f.message = "request.object is missing for operation " + r.operation;
    return Respond(200, Verdict::kBadRequest, f, r.kind);
  }
  // Without the old object the transition rules (immutable spec, ...) cannot be checked, and
  // the API server always sends it on UPDATE.
  if (r.operation == "UPDATE" && r.old_object.empty()) {
    f.message = "request.oldObject is missing for operation UPDATE";
    return Respond(200, Verdict::kBadRequest, f, r.kind);
  }
  try {
    return Answer(http, r, checker.Check(ToRequest(http, r, spec_lookup, direct)), options);
  } catch (const std::exception& e) {
    f.message = std::string("internal error while checking the object: ") + e.what();
  } catch (...) {
    f.message = "internal error while checking the object";
  }
  f.code = 500;
  f.reason = "InternalError";
  return Respond(200, Verdict::kError, f, r.kind);
}

}  // namespace

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAllowed: return "allowed";
    case Verdict::kPatched: return "patched";
    case Verdict::kDenied: return "denied";
    case Verdict::kSkipped: return "skipped";
    case Verdict::kBadRequest: return "bad_request";
    case Verdict::kError: return "error";
  }
  return "error";
}

bool QueryAllowsAdminAccess(std::string_view query) {
  while (!query.empty()) {
    size_t amp = query.find('&');
    if (query.substr(0, amp) == "admin-access=allowed") return true;
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return false;
}

HttpAdmissionResponse HandleAdmission(const HttpAdmissionRequest& http, AdmissionChecker& checker,
                                      const HandlerOptions& options) {
  if (http.body.empty() && !http.body_truncated) return Reject(400, "request body is empty");
  if (http.body_truncated || http.body.size() > options.max_body_bytes) {
    return Reject(413, "request entity is too large; limit is " +
                           std::to_string(options.max_body_bytes) + " bytes");
  }
  if (!IsJsonContentType(http.content_type)) {
    return Reject(400, "contentType=" + std::string(http.content_type) +
                           ", expected application/json");
  }
  // One ReviewFields per thread: the trees of the previous review lend their storage to this
  // one's (ScanAdmissionReview), which saves a third of the allocations of a request.
  // HandleAdmission runs to completion on its thread, so no other request shares it; after an
  // unusually large review the storage is given back rather than kept for the thread's life.
  thread_local ReviewFields scratch;
  struct ReleaseLarge {
    const std::string_view body;
    ~ReleaseLarge() {
      if (body.size() > kKeptReviewBytes) scratch = ReviewFields{};
    }
  } release{http.body};
  // The object's spec is read only when the checker does not know it (checker.h,
  // FindKnownSpec): the text of a spec it remembers needs no tree.
  ScanOptions scan = options.scan;
  scan.defer_object_spec = true;
  scan.direct_object_metadata = true;
  // The mutating route's patch reads the spec's tree.
  scan.direct_object_spec = http.endpoint == AdmissionEndpoint::kValidate;
  if (Status scanned = ScanAdmissionReview(http.body, scan, scratch); !scanned.ok()) {
    return Reject(400, "cannot decode AdmissionReview: " + scanned.message());
  }
  const ReviewFields& r = scratch;
  SpecLookup spec_lookup;
  if (r.object_spec_deferred.deferred) {
    // Only a review answered by the checks may skip the spec; any other answer is given as
    // if the spec had been read (a spec that is not valid JSON makes it a 400).
    if (WhyMalformed(r).empty() && IsDraKind(r)) {
      checker.FindKnownSpec(ToRequest(http, r), spec_lookup);
    }
    if (spec_lookup.found() == nullptr) {
      if (Status read = CompleteObjectSpec(http.body, scan, scratch); !read.ok()) {
        return Reject(400, "cannot decode AdmissionReview: " + read.message());
      }
    }
  }
  if (std::string why = WhyMalformed(r); !why.empty()) return Reject(400, std::move(why));
  return HandleReview(http, r, checker, options, &spec_lookup, &scratch);
}

}  // namespace draguard::webhook
