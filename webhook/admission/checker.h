// The seam between the admission handler and the validation library.
//
// The handler (handler.h) decodes an AdmissionReview into an AdmissionRequest, asks an
// AdmissionChecker for a CheckOutcome and writes the AdmissionReview response. The checker owns
// all policy: API-server-parity validation, CEL, schema, admin access and satisfiability. It
// sees the object as raw JSON text and, from the handler, as the tree the review scanner
// built in its one pass over the body.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_CHECKER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_CHECKER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/k8s/document.h"

namespace draguard::webhook {

class SpecLookup;        // spec_memo.h
struct DirectMetadata;   // json_object.h
struct DirectSpec;       // json_object.h

// Which route received the review.
enum class AdmissionEndpoint { kValidate, kMutate };

// The parts of an admission.k8s.io/v1 AdmissionRequest that the checks need. String views
// point into the request body and are valid only during AdmissionChecker::Check.
struct AdmissionRequest {
  AdmissionEndpoint endpoint = AdmissionEndpoint::kValidate;
  std::string_view uid;
  std::string_view group;      // request.kind.group, e.g. "resource.k8s.io"
  std::string_view version;    // request.kind.version: "v1", "v1beta2" or "v1beta1"
  std::string_view kind;       // "ResourceClaim", "ResourceClaimTemplate" or "DeviceClass"
  std::string_view operation;  // "CREATE" or "UPDATE" (others never reach a checker)
  std::string_view name_space;
  std::string_view name;
  bool dry_run = false;
  // True when the webhook was called as /validate?admin-access=allowed, i.e. the namespace
  // carries the label resource.kubernetes.io/admin-access: "true" (manifests/ split on it).
  bool admin_access_allowed = false;
  std::string_view object;      // raw JSON of request.object
  std::string_view old_object;  // raw JSON of request.oldObject; empty for CREATE
  // Raw JSON of request.object.spec, when the caller has it (the handler's scan): lets the
  // checker recognise a spec it has seen before (spec_memo.h). Empty: not known.
  std::string_view object_spec;
  // The same already parsed (json_object.h), when the caller has them; null: the checker
  // parses the text.
  const k8s::DocNode* object_tree = nullptr;
  const k8s::DocNode* old_object_tree = nullptr;
  // object_tree's metadata decoded directly (json_object.h, DirectMetadata), when the caller
  // did so: object_tree's metadata is then an empty object and this holds the object's. The
  // checker's one decode of object_tree moves it into the object (DecodeAdmissionTree).
  DirectMetadata* object_metadata = nullptr;
  // object_tree's spec decoded directly (json_object.h, DirectSpec), when the caller did so:
  // object_tree's spec is then null; taken by the same decode.
  DirectSpec* object_spec_direct = nullptr;
  // What FindKnownSpec looked up for this request, when it was asked: the checker's own
  // findings about object_spec, which it then uses instead of looking again (object_tree's
  // spec may then be left unread, a null node), or its miss, which spares it a second lookup
  // of the same key (spec_memo.h, SpecLookup::MissOf: a changed request looks again).
  const SpecLookup* spec_lookup = nullptr;
};

// One RFC 6902 operation. `value_json` is raw JSON text ("3", "\"All\"", "{...}"), empty for
// "remove"; `from` is used by "move" and "copy" only.
struct JsonPatchOperation {
  std::string op;    // "add", "remove", "replace", "move", "copy" or "test"
  std::string path;  // RFC 6901 JSON Pointer, e.g. "/spec/devices/requests/0/exactly/count"
  std::string value_json;
  std::string from;

  friend bool operator==(const JsonPatchOperation&, const JsonPatchOperation&) = default;
};

// What the checks found. Any error-severity diagnostic denies the request; warnings become
// AdmissionResponse.warnings; info diagnostics are ignored. Patches are returned only when
// nothing denies; an empty list means "no mutation" (idempotent reinvocation).
struct CheckOutcome {
  Diagnostics diagnostics;
  std::vector<JsonPatchOperation> patch;
};

// Implementations must be safe to call concurrently from several server threads. Check may
// throw; the handler turns an exception into a 500 result that still echoes the uid.
class AdmissionChecker {
 public:
  virtual ~AdmissionChecker() = default;
  virtual CheckOutcome Check(const AdmissionRequest& request) = 0;
  // Looks up the findings the checker remembers about request.object_spec and would answer
  // `request` from (spec_memo.h) into `lookup`, which the caller then passes to Check as
  // request.spec_lookup. Asked before the spec is read: when lookup.found() is set, the
  // caller may leave the spec unread in object_tree; otherwise it passes the whole tree. A
  // checker that keeps none (or a decorator that changes the request) leaves `lookup` as it
  // is (nothing found, nothing looked up).
  virtual void FindKnownSpec(const AdmissionRequest& request, SpecLookup& lookup) {
    (void)request;
    (void)lookup;
  }
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_CHECKER_H_
