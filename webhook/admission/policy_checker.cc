#include "webhook/admission/policy_checker.h"

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "policy/k8s/decode.h"
#include "policy/validate/cel_selectors.h"
#include "policy/validate/object.h"

namespace draguard::webhook {
namespace {

constexpr char kAdminAccessLabel[] = "resource.kubernetes.io/admin-access";

// Decodes the single object of an AdmissionReview. The API server has already decoded it
// strictly and added server-side metadata (managedFields, timestamps), so unknown fields are
// not this request's problem and are dropped; other decode findings are kept.
const k8s::DecodedObject* DecodeOne(std::string_view json, const char* name,
                                    k8s::DecodeResult& holder, Diagnostics& out) {
  k8s::DecodeOptions options;
  options.strict = false;
  holder = k8s::Decode(SourceText(name, std::string(json)), options);
  for (const Diagnostic& d : holder.diagnostics) {
    if (d.code != "decode.unknown-field") out.Add(d);
  }
  return holder.objects.empty() ? nullptr : &holder.objects.front();
}

// Adds the defaulting operations for one request-like JSON object at `pointer`.
void DefaultRequestFields(const nlohmann::json& request, const std::string& pointer,
                          std::vector<JsonPatchOperation>& patch) {
  if (!request.is_object()) return;
  std::string mode = "ExactCount";
  auto it = request.find("allocationMode");
  if (it == request.end()) {
    patch.push_back({"add", pointer + "/allocationMode", "\"ExactCount\"", ""});
  } else if (it->is_string()) {
    mode = it->get<std::string>();
  }
  if (mode == "ExactCount" && !request.contains("count")) {
    patch.push_back({"add", pointer + "/count", "1", ""});
  }
}

void DefaultDeviceClaim(const nlohmann::json& devices, const std::string& pointer,
                        bool beta1_shape, std::vector<JsonPatchOperation>& patch) {
  if (!devices.is_object()) return;
  auto requests = devices.find("requests");
  if (requests == devices.end() || !requests->is_array()) return;
  for (size_t i = 0; i < requests->size(); ++i) {
    const nlohmann::json& request = (*requests)[i];
    if (!request.is_object()) continue;
    const std::string at = pointer + "/requests/" + std::to_string(i);
    auto sub = request.find("firstAvailable");
    if (sub != request.end() && sub->is_array() && !sub->empty()) {
      for (size_t j = 0; j < sub->size(); ++j) {
        DefaultRequestFields((*sub)[j], at + "/firstAvailable/" + std::to_string(j), patch);
      }
      continue;
    }
    if (beta1_shape) {
      DefaultRequestFields(request, at, patch);
    } else if (auto exactly = request.find("exactly"); exactly != request.end()) {
      DefaultRequestFields(*exactly, at + "/exactly", patch);
    }
  }
}

}  // namespace

std::vector<JsonPatchOperation> DefaultingPatch(std::string_view kind, std::string_view version,
                                                std::string_view object_json) {
  std::vector<JsonPatchOperation> patch;
  nlohmann::json object = nlohmann::json::parse(object_json, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) return patch;
  const bool beta1 = version == "v1beta1";
  const nlohmann::json* spec = object.contains("spec") ? &object["spec"] : nullptr;
  if (spec == nullptr || !spec->is_object()) return patch;
  if (kind == "ResourceClaim" && spec->contains("devices")) {
    DefaultDeviceClaim((*spec)["devices"], "/spec/devices", beta1, patch);
  } else if (kind == "ResourceClaimTemplate" && spec->contains("spec")) {
    const nlohmann::json& inner = (*spec)["spec"];
    if (inner.is_object() && inner.contains("devices")) {
      DefaultDeviceClaim(inner["devices"], "/spec/spec/devices", beta1, patch);
    }
  }
  return patch;
}

PolicyChecker::PolicyChecker(PolicyCheckerOptions options)
    : options_(std::move(options)),
      cache_(std::make_shared<cel::SelectorCache>(options_.selector_cache_capacity)),
      selector_checker_(validate::MakeCelSelectorChecker(options_.validation, cache_)) {}

CheckOutcome PolicyChecker::Check(const AdmissionRequest& request) {
  CheckOutcome outcome;
  if (request.endpoint == AdmissionEndpoint::kMutate) {
    outcome.patch = DefaultingPatch(request.kind, request.version, request.object);
    return outcome;
  }
  k8s::DecodeResult decoded_new, decoded_old;
  const k8s::DecodedObject* object =
      DecodeOne(request.object, "object", decoded_new, outcome.diagnostics);
  if (object == nullptr) return outcome;

  validate::ValidationOptions options = options_.validation;
  options.selector_checker = selector_checker_;
  auto& labels = options.namespace_labels[std::string(request.name_space)];
  if (request.admin_access_allowed) labels[kAdminAccessLabel] = "true";

  if (request.operation == "UPDATE" && !request.old_object.empty()) {
    Diagnostics ignored;  // problems of the stored object are not this request's
    const k8s::DecodedObject* old_object =
        DecodeOne(request.old_object, "oldObject", decoded_old, ignored);
    if (old_object != nullptr) {
      validate::ValidateObjectUpdate(old_object->object, object->object, options,
                                     outcome.diagnostics);
      return outcome;
    }
  }
  validate::ValidateObject(object->object, options, outcome.diagnostics);
  return outcome;
}

}  // namespace draguard::webhook
