// Fuzzes the webhook's object path: bytes -> the JSON fast path (json_object.h) -> the k8s
// decoders -> validation and mutation in the real PolicyChecker. The first byte picks the
// kind, version, operation and endpoint; the rest is request.object.
// Invariants: no crash, no sanitizer report; ParseJsonTree accepts exactly the JSON texts
// nlohmann accepts within the depth limit (leaving out the two places where nlohmann differs
// from Go's encoding/json, which the webhook follows: a \u escape of a lone surrogate, which Go
// decodes to U+FFFD, and a leading byte order mark, which Go refuses); a patch is only
// returned on /mutate and its values are JSON; given the tree and spec text the handler's scan
// gives, a checker with the spec memo answers each object twice (the second time from the memo
// when it kept the spec) exactly as a checker without it; the direct decode (direct_decode.h),
// taken as the handler's scan for /validate takes it, gives the model and the findings of the
// tree route.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/json_reference.h"
#include "nlohmann/json.hpp"
#include "policy/k8s/model_debug.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"
#include "webhook/admission/policy_checker.h"
#include "webhook/admission/review_scanner.h"

namespace {

using draguard::webhook::AdmissionEndpoint;
using draguard::webhook::AdmissionRequest;
using draguard::webhook::CheckOutcome;
using draguard::webhook::JsonPatchOperation;
using draguard::webhook::PolicyChecker;
using draguard::webhook::PolicyCheckerOptions;

constexpr std::string_view kKinds[] = {"ResourceClaim", "ResourceClaimTemplate", "DeviceClass"};
constexpr std::string_view kVersions[] = {"v1", "v1beta2", "v1beta1", "v1"};

// Everything an answer says, in order.
std::string Describe(const CheckOutcome& outcome) {
  std::string out;
  for (const draguard::Diagnostic& d : outcome.diagnostics) {
    out += std::to_string(static_cast<int>(d.severity)) + "|" + d.code + "|" + d.field + "|" +
           d.message + "|" + d.suggestion + "\n";
  }
  for (const JsonPatchOperation& op : outcome.patch) out += op.op + op.path + op.value_json + "\n";
  return out;
}

// The request as the handler makes it: the object's tree and its spec's text.
void CheckTheMemo(AdmissionRequest request) {
  draguard::webhook::JsonLexer lexer(request.object);
  lexer.SkipSpace();
  draguard::k8s::DocNode tree;
  std::string_view spec;
  if (!draguard::webhook::ReadJsonTree(lexer, 0, 256, tree, &spec)) return;
  lexer.SkipSpace();
  if (!lexer.AtEnd()) return;
  request.object_tree = &tree;
  request.object_spec = spec;
  request.old_object_tree = request.old_object.empty() ? nullptr : &tree;
  static PolicyChecker* fresh = [] {
    PolicyCheckerOptions options;
    options.spec_memo.entries = 0;
    return new PolicyChecker(options);
  }();
  static PolicyChecker* memo = [] {
    PolicyCheckerOptions options;
    options.spec_memo.entries = 16;  // small: entries come and go
    return new PolicyChecker(options);
  }();
  const std::string expected = Describe(fresh->Check(request));
  if (Describe(memo->Check(request)) != expected) std::abort();
  if (Describe(memo->Check(request)) != expected) std::abort();
}

std::string Decoded(const draguard::k8s::ObjectVariant& object,
                    const draguard::Diagnostics& found) {
  std::string out = draguard::k8s::ModelDebugString(object) + "\n";
  for (const draguard::Diagnostic& d : found) out += d.code + "|" + d.field + "|" + d.message + "\n";
  return out;
}

// The direct route (the handler's scan of a review holding `object`) against the tree route.
void CompareTheDirectDecode(std::string_view object, std::string_view kind,
                            std::string_view version) {
  namespace webhook = draguard::webhook;
  const std::optional<draguard::k8s::DocNode> tree = webhook::ParseJsonTree(object);
  // A null object is no object in a review (the handler refuses it); other non-objects get
  // the tree route's webhook.object.invalid either way.
  if (!tree.has_value() || tree->kind != draguard::k8s::NodeKind::kMap) return;
  const std::string review =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
      R"("kind":{"group":"resource.k8s.io","version":")" +
      std::string(version) + R"(","kind":")" + std::string(kind) +
      R"("},"operation":"CREATE","object":)" + std::string(object) + "}}";
  webhook::ScanOptions options;
  options.max_depth = webhook::JsonObjectOptions().max_depth + 2;
  options.defer_object_spec = true;
  options.direct_object_metadata = true;
  options.direct_object_spec = true;
  webhook::ReviewFields fields;
  if (!webhook::ScanAdmissionReview(review, options, fields).ok() ||
      !webhook::CompleteObjectSpec(review, options, fields).ok() ||
      !fields.object_tree.has_value()) {
    std::abort();  // the object is valid JSON: so is the review
  }
  for (auto scope : {draguard::k8s::DecodeScope::kAll, draguard::k8s::DecodeScope::kWithoutSpec}) {
    draguard::Diagnostics a, b;
    const std::string expected =
        Decoded(webhook::DecodeAdmissionTree(*tree, kind, version, a, scope), a);
    webhook::DirectMetadata metadata = fields.object_metadata;
    webhook::DirectSpec spec = fields.object_spec_direct;
    const std::string direct = Decoded(
        webhook::DecodeAdmissionTree(*fields.object_tree, kind, version, b, scope, &metadata,
                                     &spec),
        b);
    if (direct != expected) std::abort();
  }
}

// Nesting depth of a JSON text, counting brackets outside strings.
size_t Depth(std::string_view text) {
  size_t depth = 0, max = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      max = std::max(max, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return max;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 16 * 1024) return 0;
  const uint8_t mode = data[0];
  std::string_view object(reinterpret_cast<const char*>(data + 1), size - 1);

  if (Depth(object) < 200 && draguard::fuzz::ReferenceApplies(object)) {
    const bool tree = draguard::webhook::ParseJsonTree(object).has_value();
    if (tree != nlohmann::json::accept(object)) std::abort();
  }

  static PolicyChecker* checker = new PolicyChecker(PolicyCheckerOptions{});
  AdmissionRequest request{
      .endpoint = (mode & 1) ? AdmissionEndpoint::kMutate : AdmissionEndpoint::kValidate,
      .uid = "fuzz",
      .group = "resource.k8s.io",
      .version = kVersions[(mode >> 1) & 3],
      .kind = kKinds[((mode >> 3) & 3) % 3],
      .operation = (mode & 0x20) ? "UPDATE" : "CREATE",
      .name_space = "ns",
      .name = "n",
      .admin_access_allowed = (mode & 0x40) != 0,
      .object = object,
      .old_object = (mode & 0x20) ? object : std::string_view()};
  CheckOutcome outcome = checker->Check(request);
  if (request.endpoint == AdmissionEndpoint::kValidate && !outcome.patch.empty()) std::abort();
  for (const JsonPatchOperation& op : outcome.patch) {
    if (!op.value_json.empty() && !nlohmann::json::accept(op.value_json)) std::abort();
  }
  CheckTheMemo(request);
  if (Depth(object) < 200) CompareTheDirectDecode(object, request.kind, request.version);
  return 0;
}
