#include "webhook/admission/policy_checker.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "policy/k8s/decode.h"
#include "policy/k8s/document.h"
#include "policy/pipeline/object_pipeline.h"
#include "policy/validate/cel_selectors.h"
#include "policy/validate/object.h"
#include "webhook/admission/json_object.h"
#include "webhook/admission/response_writer.h"

namespace draguard::webhook {
namespace {

constexpr char kAdminAccessLabel[] = "resource.kubernetes.io/admin-access";

// Decodes the single object of an AdmissionReview (json_object.h: the JSON fast path), from
// the tree the handler's scan built when there is one. The API server has already decoded it
// strictly and added server-side metadata (managedFields, timestamps), so unknown fields are
// not this request's problem and are dropped; other decoding findings are kept. Returns
// whether an object of a checked kind came out.
bool DecodeOne(const AdmissionRequest& request, std::string_view json, const k8s::DocNode* tree,
               k8s::ObjectVariant& object, Diagnostics& out) {
  object = tree != nullptr ? DecodeAdmissionTree(*tree, request.kind, request.version, out)
                          : DecodeAdmissionObject(json, request.kind, request.version, out);
  return !std::holds_alternative<std::monostate>(object);
}

using k8s::DocNode;
using k8s::NodeKind;

// The value of `key` in `node` when `node` is an object and the value has kind `kind`.
const DocNode* Member(const DocNode& node, std::string_view key, NodeKind kind) {
  const DocNode* value = node.Find(key);
  return value != nullptr && value->kind == kind ? value : nullptr;
}

// Adds the defaulting operations for one request-like JSON object at `pointer`.
void DefaultRequestFields(const DocNode& request, const std::string& pointer,
                          std::vector<JsonPatchOperation>& patch) {
  if (request.kind != NodeKind::kMap) return;
  std::string_view mode = "ExactCount";
  if (const DocNode* given = request.Find("allocationMode"); given == nullptr) {
    patch.push_back({"add", pointer + "/allocationMode", "\"ExactCount\"", ""});
  } else if (given->kind == NodeKind::kString) {
    mode = given->text;
  }
  if (mode == "ExactCount" && request.Find("count") == nullptr) {
    patch.push_back({"add", pointer + "/count", "1", ""});
  }
}

void DefaultDeviceClaim(const DocNode& devices, const std::string& pointer, bool beta1_shape,
                        std::vector<JsonPatchOperation>& patch) {
  const DocNode* requests = Member(devices, "requests", NodeKind::kSequence);
  if (requests == nullptr) return;
  for (size_t i = 0; i < requests->items.size(); ++i) {
    const DocNode& request = requests->items[i];
    if (request.kind != NodeKind::kMap) continue;
    const std::string at = pointer + "/requests/" + std::to_string(i);
    const DocNode* sub = Member(request, "firstAvailable", NodeKind::kSequence);
    if (sub != nullptr && !sub->items.empty()) {
      for (size_t j = 0; j < sub->items.size(); ++j) {
        DefaultRequestFields(sub->items[j], at + "/firstAvailable/" + std::to_string(j), patch);
      }
      continue;
    }
    if (beta1_shape) {
      DefaultRequestFields(request, at, patch);
    } else if (const DocNode* exactly = request.Find("exactly"); exactly != nullptr) {
      DefaultRequestFields(*exactly, at + "/exactly", patch);
    }
  }
}

template <class Findings>
bool HasErrors(const Findings& diagnostics) {
  for (const Diagnostic& d : diagnostics) {
    if (d.is_error()) return true;
  }
  return false;
}

bool IsClaimKind(std::string_view kind) {
  return kind == "ResourceClaim" || kind == "ResourceClaimTemplate";
}

// Moves the findings about the spec behind the others, keeping each group's order, and
// returns where they start.
size_t SpecFindingsLast(Diagnostics& diagnostics) {
  std::vector<Diagnostic>& items = diagnostics.mutable_items();
  auto first_spec = std::stable_partition(items.begin(), items.end(), [](const Diagnostic& d) {
    return !IsSpecField(d.field);
  });
  return static_cast<size_t>(first_spec - items.begin());
}

// Whether the findings were cut at the validator's limit: then which ones were kept depends
// on the whole object, and they are not remembered.
bool Capped(const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics) {
    if (d.code == "validate.too-many-diagnostics") return true;
  }
  return false;
}

SpecKey KeyOf(const AdmissionRequest& request) {
  return {.kind = request.kind,
          .version = request.version,
          .name_space = request.name_space,
          .admin_access_allowed = request.admin_access_allowed,
          .spec = request.object_spec};
}

// `object` (decoded without its spec) with the spec of `with_spec`, the same kind.
void TakeSpec(k8s::ObjectVariant& object, const k8s::ObjectVariant& with_spec) {
  if (auto* claim = std::get_if<k8s::ResourceClaim>(&object)) {
    if (const auto* from = std::get_if<k8s::ResourceClaim>(&with_spec)) claim->spec = from->spec;
  } else if (auto* tmpl = std::get_if<k8s::ResourceClaimTemplate>(&object)) {
    if (const auto* from = std::get_if<k8s::ResourceClaimTemplate>(&with_spec)) {
      tmpl->template_metadata = from->template_metadata;
      tmpl->spec = from->spec;
    }
  }
}

const k8s::ObjectMeta* MetadataOf(const k8s::ObjectVariant& object) {
  if (const auto* claim = std::get_if<k8s::ResourceClaim>(&object)) return &claim->metadata;
  if (const auto* tmpl = std::get_if<k8s::ResourceClaimTemplate>(&object)) return &tmpl->metadata;
  if (const auto* cls = std::get_if<k8s::DeviceClass>(&object)) return &cls->metadata;
  return nullptr;
}

// RFC 6901: '~' is written "~0" and '/' "~1" inside one reference token.
std::string EscapePointerToken(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// The schema check takes parsed selectors from the compile cache that validation fills.
SchemaCheckOptions WithCompiledSelectors(SchemaCheckOptions schema,
                                         std::shared_ptr<cel::SelectorCache> cache,
                                         const validate::ValidationOptions& validation) {
  schema.compiled = std::move(cache);
  schema.compiled_env = validate::CelEnvOptions(validation, validate::SelectorKind::kNewExpression);
  return schema;
}

// The webhook's schema and satisfiability checks (per inventory snapshot, with their caches)
// as the object pipeline's stages.
class CheckerStages : public pipeline::ObjectStages {
 public:
  CheckerStages(SchemaCheck& schema, SatisfiabilityCheck& satisfiability)
      : schema_(schema), satisfiability_(satisfiability) {}
  void Schema(const k8s::ObjectVariant& object, Diagnostics& out) override {
    schema_.Check(object, out);
  }
  void Satisfiability(const k8s::ObjectVariant& object, Diagnostics& out) override {
    satisfiability_.Check(object, out);
  }

 private:
  SchemaCheck& schema_;
  SatisfiabilityCheck& satisfiability_;
};

}  // namespace

std::vector<JsonPatchOperation> DefaultingPatch(std::string_view kind, std::string_view version,
                                                const DocNode& object) {
  std::vector<JsonPatchOperation> patch;
  const bool beta1 = version == "v1beta1";
  const DocNode* spec = Member(object, "spec", NodeKind::kMap);
  if (spec == nullptr) return patch;
  if (kind == "ResourceClaim") {
    if (const DocNode* devices = Member(*spec, "devices", NodeKind::kMap)) {
      DefaultDeviceClaim(*devices, "/spec/devices", beta1, patch);
    }
  } else if (kind == "ResourceClaimTemplate") {
    const DocNode* inner = Member(*spec, "spec", NodeKind::kMap);
    const DocNode* devices = inner != nullptr ? Member(*inner, "devices", NodeKind::kMap) : nullptr;
    if (devices != nullptr) DefaultDeviceClaim(*devices, "/spec/spec/devices", beta1, patch);
  }
  return patch;
}

PolicyChecker::PolicyChecker(PolicyCheckerOptions options)
    : options_(std::move(options)),
      cache_(std::make_shared<cel::SelectorCache>(options_.selector_cache)),
      selector_checker_(validate::MakeCelSelectorChecker(options_.validation, cache_)),
      schema_(WithCompiledSelectors(options_.schema, cache_, options_.validation)),
      satisfiability_(options_.satisfiability),
      memo_(options_.spec_memo) {}

std::vector<NamedCacheStats> PolicyChecker::cache_stats() {
  return {{"selector_compile", cache_->stats()},
          {"spec_memo", memo_.cache_stats()},
          {"schema_domains", schema_.domain_memo_stats()},
          {"selector_results", satisfiability_.selector_results_stats()}};
}

CheckOutcome PolicyChecker::Check(const AdmissionRequest& request) {
  if (options_.policy.exempt_namespaces.count(std::string(request.name_space)) != 0) return {};
  return request.endpoint == AdmissionEndpoint::kMutate ? Mutate(request) : Validate(request);
}

validate::ValidationOptions PolicyChecker::OptionsFor(const AdmissionRequest& request) const {
  validate::ValidationOptions options = options_.validation;
  options.selector_checker = selector_checker_;
  auto& labels = options.namespace_labels[std::string(request.name_space)];
  if (request.admin_access_allowed) labels[kAdminAccessLabel] = "true";
  return options;
}

CheckOutcome PolicyChecker::Validate(const AdmissionRequest& request) {
  CheckOutcome outcome = Diagnose(request);
  config::ApplyPolicy(options_.policy, outcome.diagnostics.mutable_items());
  return outcome;
}

CheckOutcome PolicyChecker::Diagnose(const AdmissionRequest& request) {
  const validate::ValidationOptions options = OptionsFor(request);
  if (request.operation == "CREATE" && IsClaimKind(request.kind) &&
      request.object_tree != nullptr) {
    return DiagnoseCreatedClaim(request, options);
  }
  CheckOutcome outcome;
  k8s::ObjectVariant object, old_object;
  if (!DecodeOne(request, request.object, request.object_tree, object, outcome.diagnostics)) {
    return outcome;
  }

  bool have_old = false;
  if (request.operation == "UPDATE" && !request.old_object.empty()) {
    Diagnostics ignored;  // problems of the stored object are not this request's
    have_old =
        DecodeOne(request, request.old_object, request.old_object_tree, old_object, ignored);
  }
  // The object pipeline's per-object order and short-circuits (policy/pipeline).
  CheckerStages stages(schema_, satisfiability_);
  pipeline::RunObject({.object = &object,
                       .old_object = have_old ? &old_object : nullptr,
                       .operation = request.operation == "CREATE" ? pipeline::Operation::kCreate
                                                                  : pipeline::Operation::kUpdate},
                      options, stages, outcome.diagnostics);
  return outcome;
}

CheckOutcome PolicyChecker::DiagnoseCreatedClaim(const AdmissionRequest& request,
                                                  const validate::ValidationOptions& options) {
  const SpecKey key = KeyOf(request);
  // Taken before any check: findings made under a newer schema are then filed under an
  // older token, which only costs a miss.
  const std::shared_ptr<const void> schema_token = schema_.Token();
  if (auto known = memo_.Find(key, schema_token.get())) {
    return DiagnoseKnownSpec(request, options, *known);
  }
  CheckOutcome outcome;
  Diagnostics& out = outcome.diagnostics;
  k8s::ObjectVariant object = DecodeAdmissionTree(*request.object_tree, request.kind,
                                                  request.version, out);
  if (std::holds_alternative<std::monostate>(object)) return outcome;
  validate::ValidateObject(object, options, out);
  const auto spec_start = static_cast<std::ptrdiff_t>(SpecFindingsLast(out));
  std::shared_ptr<SpecFindings> spec;
  if (memo_.Accepts(key) && !Capped(out)) {
    spec = std::make_shared<SpecFindings>();
    spec->validation.assign(out.begin() + spec_start, out.end());
    spec->schema_token = schema_token;
  }
  if (HasErrors(out)) {
    // Without the schema findings an entry serves only specs that are invalid themselves.
    if (spec != nullptr && HasErrors(spec->validation)) memo_.Insert(key, std::move(spec));
    return outcome;
  }
  const auto schema_start = static_cast<std::ptrdiff_t>(out.size());
  schema_.Check(object, out);
  if (spec != nullptr) spec->schema.assign(out.begin() + schema_start, out.end());
  if (!HasErrors(out)) satisfiability_.Check(object, out);
  if (spec != nullptr) {
    spec->object = std::move(object);
    memo_.Insert(key, std::move(spec));
  }
  return outcome;
}

CheckOutcome PolicyChecker::DiagnoseKnownSpec(const AdmissionRequest& request,
                                              const validate::ValidationOptions& options,
                                              const SpecFindings& spec) {
  CheckOutcome outcome;
  Diagnostics& out = outcome.diagnostics;
  k8s::ObjectVariant object = DecodeAdmissionTree(*request.object_tree, request.kind,
                                                  request.version, out,
                                                  k8s::DecodeScope::kWithoutSpec);
  if (std::holds_alternative<std::monostate>(object)) return outcome;
  validate::ValidateObject(object, options, out);
  // What validation says about the empty spec it was given is replaced by the memo's.
  out.mutable_items().resize(SpecFindingsLast(out));
  for (const Diagnostic& d : spec.validation) out.Add(d);
  if (HasErrors(out)) return outcome;
  for (const Diagnostic& d : spec.schema) out.Add(d);
  if (HasErrors(out) || !satisfiability_.configured()) return outcome;
  TakeSpec(object, spec.object);
  satisfiability_.Check(object, out);
  return outcome;
}

CheckOutcome PolicyChecker::Mutate(const AdmissionRequest& request) {
  CheckOutcome outcome;
  std::optional<DocNode> parsed;
  const DocNode* tree = request.object_tree;
  if (tree == nullptr) {
    parsed = ParseJsonTree(request.object);
    if (parsed.has_value()) tree = &*parsed;
  }
  if (tree == nullptr || tree->kind != NodeKind::kMap) return outcome;
  outcome.patch = DefaultingPatch(request.kind, request.version, *tree);
  if (!satisfiability_.configured() || request.operation != "CREATE") return outcome;
  Diagnostics found;  // the validating webhook reports these; mutation only annotates
  k8s::ObjectVariant object = DecodeAdmissionTree(*tree, request.kind, request.version, found);
  if (std::holds_alternative<std::monostate>(object)) return outcome;
  validate::ValidateObject(object, OptionsFor(request), found);
  if (HasErrors(found)) return outcome;
  SatisfiabilityResult result = satisfiability_.Check(object, found, /*count_nodes=*/true);
  std::string value = SatisfiableAnnotation(result);
  if (value.empty()) return outcome;
  const k8s::ObjectMeta* meta = MetadataOf(object);
  if (meta == nullptr) return outcome;
  for (JsonPatchOperation& op : AnnotationPatch(meta->annotations, kSatisfiableAnnotation, value)) {
    outcome.patch.push_back(std::move(op));
  }
  return outcome;
}

std::vector<JsonPatchOperation> AnnotationPatch(
    const std::map<std::string, std::string>& annotations, std::string_view key,
    std::string_view value) {
  auto it = annotations.find(std::string(key));
  if (it != annotations.end() && it->second == value) return {};
  std::string quoted;
  AppendJsonString(value, quoted);
  if (annotations.empty()) {
    std::string object = "{";
    AppendJsonString(key, object);
    object += ":" + quoted + "}";
    return {{"add", "/metadata/annotations", std::move(object), ""}};
  }
  return {{"add", "/metadata/annotations/" + EscapePointerToken(key), std::move(quoted), ""}};
}

}  // namespace draguard::webhook
