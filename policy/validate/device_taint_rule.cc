#include "policy/validate/device_taint_rule.h"

#include "policy/validate/names.h"
#include "policy/validate/object_meta.h"
#include "policy/validate/reporter.h"
#include "policy/validate/shared_rules.h"

namespace draguard::validate {
namespace {

void ValidateSelector(Reporter& r, const k8s::DeviceTaintSelector& sel,
                      const ValidationOptions& options) {
  FieldPath path("spec.deviceSelector");
  if (sel.driver.has_value()) {
    ValidateDriverName(r, "taintrule.selector.driver.invalid", *sel.driver, path.Child("driver"));
  }
  if (sel.pool.has_value()) {
    ValidatePoolName(r, "taintrule.selector.pool.invalid", *sel.pool, path.Child("pool"));
  }
  if (sel.device.has_value()) {
    ValidateDNSLabel(r, "taintrule.selector.device.invalid", *sel.device, path.Child("device"));
  }
  if (options.dialect().taint_rule_selector_has_class_and_cel) {
    if (sel.device_class_name.has_value()) {
      ValidateDNSSubdomain(r, "taintrule.selector.device-class-name.invalid",
                           *sel.device_class_name, path.Child("deviceClassName"));
    }
    return;
  }
  if (sel.device_class_name.has_value()) {
    r.Warning("taintrule.selector.field.removed", path.Child("deviceClassName"),
              "deviceClassName was removed from DeviceTaintRule in Kubernetes 1.35; the API "
              "server rejects or ignores it");
  }
  if (sel.selector_count > 0) {
    r.Warning("taintrule.selector.field.removed", path.Child("selectors"),
              "CEL selectors were removed from DeviceTaintRule in Kubernetes 1.35; the API "
              "server rejects or ignores them");
  }
}

void Validate(Reporter& r, const k8s::DeviceTaintRule& rule, const ValidationOptions& options,
              bool validate_effect) {
  Gate gate = options.dialect().taint_rule_gate;
  if (!options.Enabled(gate)) {
    // Without the gate the REST storage is not installed, whatever --runtime-config says;
    // enabling the gate (--feature-gates or the policy file) is how a cluster that serves
    // the kind is declared. The text names the version checked (v1beta2 or v1alpha3).
    const std::string api_version =
        rule.source_api_version.empty() ? "resource.k8s.io/v1alpha3" : rule.source_api_version;
    const std::string version = api_version.substr(api_version.find('/') + 1);
    Diagnostic& d = r.Forbidden(
        "taintrule.api-disabled", FieldPath(),
        "DeviceTaintRule (" + api_version + ") is not served unless the " +
            std::string(GateName(gate)) + " feature gate and the " + version +
            " API are enabled; the API server rejects it");
    d.suggestion = "if the cluster has the gate on, say so: --feature-gates " +
                   std::string(GateName(gate)) + "=true or featureGates in the policy file";
  }
  ValidateObjectMeta(r, rule.metadata, /*namespaced=*/false, FieldPath("metadata"));
  if (rule.spec.device_selector.has_value())
    ValidateSelector(r, *rule.spec.device_selector, options);
  internal::ValidateTaint(r, rule.spec.taint, FieldPath("spec.taint"), options, validate_effect);
}

}  // namespace

void ValidateDeviceTaintRule(const k8s::DeviceTaintRule& rule, const ValidationOptions& options,
                             Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  Validate(r, rule, options, /*validate_effect=*/true);
  CapDiagnostics(diagnostics, start, options.limits);
}

void ValidateDeviceTaintRuleUpdate(const k8s::DeviceTaintRule& old_rule,
                                   const k8s::DeviceTaintRule& new_rule,
                                   const ValidationOptions& options, Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  bool effect_changed = old_rule.spec.taint.effect != new_rule.spec.taint.effect;
  Validate(r, new_rule, options,
           options.dialect().taint_rule_update_revalidates_effect || effect_changed);
  ValidateObjectMetaImmutable(r, old_rule.metadata, new_rule.metadata, /*namespaced=*/false,
                              FieldPath("metadata"));
  CapDiagnostics(diagnostics, start, options.limits);
}

}  // namespace draguard::validate
