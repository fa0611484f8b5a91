#include "webhook/admission/policy_checker.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "policy/common/json_text.h"
#include "policy/k8s/decode.h"
#include "policy/k8s/document.h"
#include "policy/pipeline/object_pipeline.h"
#include "policy/validate/cel_selectors.h"
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
// `metadata` is the tree's metadata decoded directly (AdmissionRequest::object_metadata).
bool DecodeOne(const AdmissionRequest& request, std::string_view json, const k8s::DocNode* tree,
               DirectMetadata* metadata, DirectSpec* spec, k8s::ObjectVariant& object,
               Diagnostics& out) {
  object = tree != nullptr ? DecodeAdmissionTree(*tree, request.kind, request.version, out,
                                                 k8s::DecodeScope::kAll, metadata, spec)
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
// `compiled`: what validation compiled for the object (may be null).
class CheckerStages : public pipeline::ObjectStages {
 public:
  CheckerStages(SchemaCheck& schema, SatisfiabilityCheck& satisfiability,
                cel::CompiledSelectors* compiled)
      : schema_(schema), satisfiability_(satisfiability), compiled_(compiled) {}
  void Schema(const k8s::ObjectVariant& object, Diagnostics& out) override {
    schema_.Check(object, out, compiled_);
  }
  void Satisfiability(const k8s::ObjectVariant& object, Diagnostics& out) override {
    satisfiability_.Check(object, out);
  }

 protected:
  SchemaCheck& schema_;
  SatisfiabilityCheck& satisfiability_;
  cel::CompiledSelectors* compiled_;
};

// A claim or template on CREATE whose spec the memo does not know: the webhook's checks, and
// the spec's findings of validation and schema kept for the memo (spec_memo.h). Findings about
// the spec are put behind the others, as a memo answer puts them.
class RememberingStages : public CheckerStages {
 public:
  RememberingStages(SchemaCheck& schema, SatisfiabilityCheck& satisfiability,
                    cel::CompiledSelectors* compiled, std::shared_ptr<SpecFindings> spec)
      : CheckerStages(schema, satisfiability, compiled), spec_(std::move(spec)) {
    if (spec_ != nullptr) spec_->satisfiability = std::make_shared<RememberedVerdict>();
  }
  // The first answer about the spec is kept with it for the requests the memo answers.
  void Satisfiability(const k8s::ObjectVariant& object, Diagnostics& out) override {
    satisfiability_.Check(object, out, /*count_nodes=*/false,
                          spec_ != nullptr ? spec_->satisfiability.get() : nullptr);
  }
  void AfterValidation(Diagnostics& out) override {
    const auto spec_start = static_cast<std::ptrdiff_t>(SpecFindingsLast(out));
    if (spec_ == nullptr) return;
    if (Capped(out)) {
      spec_ = nullptr;
      return;
    }
    spec_->validation.assign(out.begin() + spec_start, out.end());
  }
  void Schema(const k8s::ObjectVariant& object, Diagnostics& out) override {
    const auto schema_start = static_cast<std::ptrdiff_t>(out.size());
    CheckerStages::Schema(object, out);
    if (spec_ == nullptr) return;
    spec_->schema.assign(out.begin() + schema_start, out.end());
    schema_ran_ = true;
  }
  // What to remember once the pipeline has run, or null: after a schema stage the spec's
  // findings with the object (moved from `object`); without the schema findings an entry
  // serves only specs that are invalid themselves.
  std::shared_ptr<SpecFindings> Finish(k8s::ObjectVariant& object) {
    if (spec_ == nullptr) return nullptr;
    if (schema_ran_) {
      spec_->object = std::move(object);
      return std::move(spec_);
    }
    if (!HasErrors(spec_->validation)) return nullptr;
    return std::move(spec_);
  }

 private:
  std::shared_ptr<SpecFindings> spec_;
  bool schema_ran_ = false;
};

// A claim or template on CREATE whose spec the memo knows: `object` was decoded without its
// spec; what validation says about the (empty) spec and the schema stage are replaced by the
// memo's findings, and satisfiability checks the object completed with the remembered spec.
class KnownSpecStages : public pipeline::ObjectStages {
 public:
  KnownSpecStages(const SpecFindings& spec, k8s::ObjectVariant& object,
                  SatisfiabilityCheck& satisfiability)
      : spec_(spec), object_(object), satisfiability_(satisfiability) {}
  void AfterValidation(Diagnostics& out) override {
    out.mutable_items().resize(SpecFindingsLast(out));
    for (const Diagnostic& d : spec_.validation) out.Add(d);
  }
  void Schema(const k8s::ObjectVariant&, Diagnostics& out) override {
    for (const Diagnostic& d : spec_.schema) out.Add(d);
  }
  void Satisfiability(const k8s::ObjectVariant&, Diagnostics& out) override {
    if (!satisfiability_.configured()) return;
    TakeSpec(object_, spec_.object);  // the object the pipeline runs on, given its spec
    satisfiability_.Check(object_, out, /*count_nodes=*/false, spec_.satisfiability.get());
  }

 private:
  const SpecFindings& spec_;
  k8s::ObjectVariant& object_;
  SatisfiabilityCheck& satisfiability_;
};

// The mutating webhook's stages: only the allocator's verdict, for the annotation; schema
// findings are the validating webhook's to report.
class AnnotatingStages : public pipeline::ObjectStages {
 public:
  explicit AnnotatingStages(SatisfiabilityCheck& satisfiability)
      : satisfiability_(satisfiability) {}
  void Schema(const k8s::ObjectVariant&, Diagnostics&) override {}
  void Satisfiability(const k8s::ObjectVariant& object, Diagnostics& out) override {
    result = satisfiability_.Check(object, out, /*count_nodes=*/true);
  }
  SatisfiabilityResult result;

 private:
  SatisfiabilityCheck& satisfiability_;
};

// The pipeline's input for the review's object on CREATE (validated as created).
pipeline::ObjectInput Created(const k8s::ObjectVariant& object) {
  return {.object = &object, .old_object = nullptr, .operation = pipeline::Operation::kCreate};
}

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
      cache_(options_.compiled_selectors != nullptr
                 ? options_.compiled_selectors
                 : std::make_shared<cel::SelectorCache>(options_.selector_cache,
                                                        cel::SelectorCache::kShapeLimits,
                                                        options_.selector_sightings)),
      schema_(WithCompiledSelectors(options_.schema, cache_, options_.validation)),
      satisfiability_(options_.satisfiability),
      memo_(options_.spec_memo) {
  // One checker for every request: what is per request (where it remembers the compiles of
  // the object) comes through ValidationOptions::remembered_selectors.
  options_.validation.selector_checker =
      validate::MakeCelSelectorChecker(options_.validation, cache_);
}

std::vector<NamedCacheStats> PolicyChecker::cache_stats() {
  return {{"selector_compile", cache_->stats()},
          {"spec_memo", memo_.cache_stats()},
          {"schema_domains", schema_.domain_memo_stats()},
          {"schema_selectors", schema_.selector_memo_stats()},
          {"selector_results", satisfiability_.selector_results_stats()}};
}

void PolicyChecker::FindKnownSpec(const AdmissionRequest& request, SpecLookup& lookup) {
  if (request.endpoint != AdmissionEndpoint::kValidate || request.operation != "CREATE" ||
      !IsClaimKind(request.kind) || request.object_tree == nullptr ||
      options_.policy.exempt_namespaces.count(std::string(request.name_space)) != 0) {
    return;
  }
  lookup = memo_.Look(KeyOf(request), schema_.Token().get());
}

CheckOutcome PolicyChecker::Check(const AdmissionRequest& request) {
  if (options_.policy.exempt_namespaces.count(std::string(request.name_space)) != 0) return {};
  return request.endpoint == AdmissionEndpoint::kMutate ? Mutate(request) : Validate(request);
}

validate::ValidationOptions PolicyChecker::OptionsFor(const AdmissionRequest& request,
                                                      cel::CompiledSelectors* compiled) const {
  validate::ValidationOptions options = options_.validation;  // its checker built once
  options.remembered_selectors = compiled;
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
  // What validation compiles, for the schema check of the same object.
  cel::CompiledSelectors compiled;
  const validate::ValidationOptions options = OptionsFor(request, &compiled);
  if (request.operation == "CREATE" && IsClaimKind(request.kind) &&
      request.object_tree != nullptr) {
    return DiagnoseCreatedClaim(request, options, compiled);
  }
  CheckOutcome outcome;
  k8s::ObjectVariant object, old_object;
  if (!DecodeOne(request, request.object, request.object_tree, request.object_metadata,
                 request.object_spec_direct, object, outcome.diagnostics)) {
    return outcome;
  }

  bool have_old = false;
  if (request.operation == "UPDATE" && !request.old_object.empty()) {
    Diagnostics ignored;  // problems of the stored object are not this request's
    have_old =
        DecodeOne(request, request.old_object, request.old_object_tree, nullptr, nullptr,
                  old_object, ignored);
  }
  // The object pipeline's per-object order and short-circuits (policy/pipeline).
  CheckerStages stages(schema_, satisfiability_, &compiled);
  pipeline::RunObject({.object = &object,
                       .old_object = have_old ? &old_object : nullptr,
                       .operation = request.operation == "CREATE" ? pipeline::Operation::kCreate
                                                                  : pipeline::Operation::kUpdate},
                      options, stages, outcome.diagnostics);
  return outcome;
}

CheckOutcome PolicyChecker::DiagnoseCreatedClaim(const AdmissionRequest& request,
                                                  const validate::ValidationOptions& options,
                                                  cel::CompiledSelectors& compiled) {
  const SpecLookup* looked = request.spec_lookup;
  // Found by FindKnownSpec before the spec was read (the handler left it unread).
  if (looked != nullptr && looked->found() != nullptr) {
    return DiagnoseKnownSpec(request, options, *looked->found());
  }
  const SpecKey key = KeyOf(request);
  // Taken before any check: findings made under a newer schema are then filed under an
  // older token, which only costs a miss.
  const std::shared_ptr<const void> schema_token = schema_.Token();
  // FindKnownSpec's miss of this very key stands (the spec was then read for this check);
  // any other request looks here.
  std::optional<SpecLookup> own;
  if (looked == nullptr || !looked->MissOf(memo_, key)) {
    own = memo_.Look(key, schema_token.get());
    if (own->found() != nullptr) return DiagnoseKnownSpec(request, options, *own->found());
    looked = &*own;
  }
  CheckOutcome outcome;
  k8s::ObjectVariant object =
      DecodeAdmissionTree(*request.object_tree, request.kind, request.version,
                          outcome.diagnostics, k8s::DecodeScope::kAll, request.object_metadata,
                          request.object_spec_direct);
  if (std::holds_alternative<std::monostate>(object)) return outcome;
  std::shared_ptr<SpecFindings> spec;
  if (memo_.Accepts(key) && looked->keeps()) {
    spec = std::make_shared<SpecFindings>();
    spec->schema_token = schema_token;
  }
  RememberingStages stages(schema_, satisfiability_, &compiled, std::move(spec));
  pipeline::RunObject(Created(object), options, stages, outcome.diagnostics);
  if (std::shared_ptr<SpecFindings> remembered = stages.Finish(object)) {
    memo_.Insert(*looked, std::move(remembered));
  }
  return outcome;
}

CheckOutcome PolicyChecker::DiagnoseKnownSpec(const AdmissionRequest& request,
                                              const validate::ValidationOptions& options,
                                              const SpecFindings& spec) {
  CheckOutcome outcome;
  k8s::ObjectVariant object = DecodeAdmissionTree(*request.object_tree, request.kind,
                                                  request.version, outcome.diagnostics,
                                                  k8s::DecodeScope::kWithoutSpec,
                                                  request.object_metadata);
  if (std::holds_alternative<std::monostate>(object)) return outcome;
  KnownSpecStages stages(spec, object, satisfiability_);
  pipeline::RunObject(Created(object), options, stages, outcome.diagnostics);
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
  // The scan's metadata goes with the scan's tree only.
  const bool scanned = tree == request.object_tree;
  k8s::ObjectVariant object =
      DecodeAdmissionTree(*tree, request.kind, request.version, found, k8s::DecodeScope::kAll,
                          scanned ? request.object_metadata : nullptr,
                          scanned ? request.object_spec_direct : nullptr);
  if (std::holds_alternative<std::monostate>(object)) return outcome;
  AnnotatingStages stages(satisfiability_);
  pipeline::RunObject(Created(object), OptionsFor(request), stages, found);
  std::string value = SatisfiableAnnotation(stages.result);
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
