#include "policy/validate/shared_rules.h"

#include <string>

#include "policy/common/suggest.h"
#include "policy/validate/list_checks.h"
#include "policy/validate/names.h"

namespace draguard::validate::internal {

void ValidateSelectors(Reporter& r, const std::vector<k8s::DeviceSelector>& selectors,
                       const FieldPath& path, const ValidationOptions& options, SelectorKind kind) {
  ValidateList(r, "selector.too-many", selectors, kSelectorsMaxSize, path, options,
               [&](const k8s::DeviceSelector& selector, const FieldPath& at) {
                 if (!selector.cel.has_value()) {
                   r.Required("selector.cel.required", at.Child("cel"));
                   return;
                 }
                 // One step for the two (the same text): every selector's path is built,
                 // since the checker takes it.
                 FieldPath expr = at.Child("cel.expression");
                 const std::string& text = selector.cel->expression;
                 if (text.size() > kCELSelectorExpressionMaxLength) {
                   r.TooLong("selector.expression.too-long", expr, kCELSelectorExpressionMaxLength);
                   return;
                 }
                 if (options.selector_checker) {
                   options.selector_checker(text, expr, kind, r.diagnostics(),
                                            options.remembered_selectors);
                 }
               });
}

void ValidateDeviceConfiguration(Reporter& r, const k8s::DeviceConfiguration& config,
                                 const FieldPath& path, bool stored) {
  if (!config.opaque.has_value()) {
    r.Required("config.opaque.required", path.Child("opaque"));
    return;
  }
  // Both fields are one step below `path` (a single Child of a dotted name renders as the two
  // steps would), and made only for a finding: a valid configuration builds no path.
  ValidateDriverName(r, "config.driver.invalid", config.opaque->driver, {path, "opaque.driver"});
  const FieldPathRef params(path, "opaque.parameters");
  const std::optional<std::string>& json = config.opaque->parameters_json;
  if (!json.has_value() || json->empty() || *json == "null") {
    r.Required("config.parameters.required", params.Get());
    return;
  }
  if (!stored && config.opaque->parameters_raw_size > kOpaqueParametersMaxLength) {
    r.TooLong("config.parameters.too-long", params.Get(), kOpaqueParametersMaxLength);
    return;
  }
  if (!config.opaque->parameters_is_object) {
    r.Invalid("config.parameters.invalid", params.Get(), FieldValue::Omitted(),
              "must be a valid JSON object");
  }
}

namespace {

// NotSupported for a taint or toleration effect, listing the release's effects in
// kube-apiserver's order.
void EffectNotSupported(Reporter& r, std::string_view code, const FieldPath& at,
                        const std::string& effect, const ValidationOptions& options) {
  if (options.dialect().taint_effect_none) {
    r.NotSupported(code, at, FieldValue::String(effect), {"NoExecute", "NoSchedule", "None"});
  } else {
    r.NotSupported(code, at, FieldValue::String(effect), {"NoExecute", "NoSchedule"});
  }
}

void ValidateToleration(Reporter& r, const k8s::DeviceToleration& t, const FieldPath& at,
                        const ValidationOptions& options) {
  if (!t.key.empty()) ValidateLabelKey(r, "toleration.key.invalid", t.key, at.Child("key"));
  if (t.op == "Exists") {
    if (!t.value.empty()) {
      r.Invalid("toleration.value.invalid", at.Child("value"), FieldValue::String(t.value),
                "must be empty for operator `Exists`");
    }
  } else if (t.op == "Equal") {
    ValidateLabelValue(r, "toleration.value.invalid", t.value, at.Child("value"));
    if (t.key.empty()) {
      r.Warning("toleration.key.empty-needs-exists", at.Child("key"),
                "the API documents that a toleration with an empty key must use operator "
                "`Exists` (to tolerate every taint); the API server does not enforce it, and "
                "with the default `Equal` the toleration may not match the taints intended",
                "set `operator: Exists`, or set a `key`");
    }
  } else if (t.op.empty()) {
    r.Required("toleration.operator.unsupported", at.Child("operator"));
  } else {
    Diagnostic& d = r.NotSupported("toleration.operator.unsupported", at.Child("operator"),
                                   FieldValue::String(t.op), {"Equal", "Exists"});
    if (auto m = ClosestMatch(t.op, {"Equal", "Exists"})) d.suggestion = *m;
  }
  if (t.effect.empty() || t.effect == "NoSchedule" || t.effect == "NoExecute") return;
  if (t.effect == "None" && options.dialect().taint_effect_none) return;
  EffectNotSupported(r, "toleration.effect.unsupported", at.Child("effect"), t.effect, options);
}

}  // namespace

void ValidateTolerations(Reporter& r, const std::vector<k8s::DeviceToleration>& tolerations,
                         const FieldPath& path, const ValidationOptions& options) {
  for (size_t i = 0; i < tolerations.size(); ++i) {
    ValidateToleration(r, tolerations[i], path.Index(i), options);
  }
  if (tolerations.size() > kDeviceTolerationsMaxLength) {
    r.Warning("toleration.too-many", path,
              std::to_string(tolerations.size()) +
                  " tolerations: the API documents at most 16 per request (not enforced by the "
                  "API server yet; a future version will reject this)");
  }
}

void ValidateTaint(Reporter& r, const k8s::DeviceTaint& taint, const FieldPath& path,
                   const ValidationOptions& options, bool validate_effect) {
  FieldPath key = path.Child("key");
  if (taint.key.empty()) {
    r.Required("taint.key.required", key);
  } else {
    ValidateLabelKey(r, "taint.key.invalid", taint.key, key);
  }
  ValidateLabelValue(r, "taint.value.invalid", taint.value, path.Child("value"));
  if (!validate_effect) return;
  FieldPath effect = path.Child("effect");
  if (taint.effect.empty()) {
    r.Required("taint.effect.required", effect);
  } else if (taint.effect == "NoSchedule" || taint.effect == "NoExecute" ||
             (taint.effect == "None" && options.dialect().taint_effect_none)) {
    return;
  } else {
    EffectNotSupported(r, "taint.effect.unsupported", effect, taint.effect, options);
  }
}

}  // namespace draguard::validate::internal
