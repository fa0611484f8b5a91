// ScanAdmissionReview: the AdmissionReview fields the handler needs, without building a DOM.
//
// The API server sends a few kilobytes of JSON per request and the webhook's CPU budget is
// about 10 µs per request (issue 6, item 10); nlohmann's DOM alone costs 15-25 µs on a 2.5 KB
// review. The scanner makes one pass over the text: it checks that the whole body is
// well-formed JSON (RFC 8259 with JsonLexer's string rules, depth-limited), decodes only the
// few scalar strings it needs, and reads `request.object` and `request.oldObject` into the
// DocNode trees the checks decode (json_object.h), keeping their text as slices of the input.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_REVIEW_SCANNER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_REVIEW_SCANNER_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "policy/common/status_or.h"
#include "policy/k8s/document.h"
#include "webhook/admission/json_object.h"

namespace draguard::webhook {

struct ScanOptions {
  // Deepest nesting of arrays and objects accepted anywhere in the body. Real DRA objects
  // nest about 12 levels inside a review; 128 leaves room while bounding the recursion.
  size_t max_depth = 128;
  // Leave request.object's spec unread when it is an object (json_object.h, ReadJsonTree's
  // `defer`): ReviewFields::object_spec then holds its text, its node in object_tree is null,
  // and CompleteObjectSpec reads it (for a spec the memo does not know). The whole body is
  // still checked except that spec's text. The handler's scan; off for other callers.
  bool defer_object_spec = false;
  // Decode request.object's metadata straight into ReviewFields::object_metadata
  // (json_object.h, ReadJsonTree's `direct`; direct_decode.h), leaving an empty object in
  // object_tree in its place. The handler's scan; off for other callers.
  bool direct_object_metadata = false;
  // CompleteObjectSpec decodes a deferred spec of a ResourceClaim or ResourceClaimTemplate in
  // resource.k8s.io/v1 straight into ReviewFields::object_spec_direct (direct_decode.h) when
  // it can, leaving its node in object_tree null. The handler's scan for /validate (the
  // mutating route reads the spec's tree for its patch).
  bool direct_object_spec = false;
};

// The scanned review. Views point into the scanned text; strings are JSON-decoded.
struct ReviewFields {
  std::string api_version;  // top-level apiVersion, e.g. "admission.k8s.io/v1"
  std::string review_kind;  // top-level kind, "AdmissionReview"
  bool has_request = false;
  bool has_uid = false;
  std::string uid;
  std::string group, version, kind;  // request.kind
  std::string operation;
  std::string name_space;
  std::string name;
  bool dry_run = false;
  std::string_view object;      // raw JSON of request.object; empty when absent or null
  std::string_view old_object;  // raw JSON of request.oldObject; empty when absent or null
  // Raw JSON of request.object.spec; empty when absent or given more than once.
  std::string_view object_spec;
  // The same as trees (metadata.managedFields left out, as ParseJsonTree does); nullopt when
  // absent or null.
  std::optional<k8s::DocNode> object_tree;
  std::optional<k8s::DocNode> old_object_tree;
  // Where the scan left object_tree's spec unread (ScanOptions::defer_object_spec).
  DeferredSpec object_spec_deferred;
  // request.object's metadata when it was decoded directly (ScanOptions::direct_object_metadata).
  DirectMetadata object_metadata;
  // request.object's spec when CompleteObjectSpec decoded it directly.
  DirectSpec object_spec_direct;
};

// Returns the fields, or InvalidArgument (message names the byte offset) when `json` is not a
// single well-formed JSON object (strings must be valid UTF-8, as RFC 8259 requires and as the
// API server always sends), nests deeper than options.max_depth, or a field the
// handler reads has the wrong JSON type. Never throws; runs in time linear in the input.
StatusOr<ReviewFields> ScanAdmissionReview(std::string_view json, const ScanOptions& options = {});

// The same into `out`, whose every field is replaced; the storage of its trees from an
// earlier scan is reused for the new ones, so that a caller scanning review after review
// (the webhook keeps one ReviewFields per thread) neither allocates nor frees their nodes
// while the reviews keep their shape. After an error `out` holds partial fields.
Status ScanAdmissionReview(std::string_view json, const ScanOptions& options, ReviewFields& out);

// Reads the spec a scan of `json` with `options` left unread into fields.object_tree, and
// checks it: afterwards `fields` is what a scan without defer_object_spec gives, or the error
// is the one that scan would have returned. No-op when nothing was deferred.
Status CompleteObjectSpec(std::string_view json, const ScanOptions& options, ReviewFields& fields);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_REVIEW_SCANNER_H_
