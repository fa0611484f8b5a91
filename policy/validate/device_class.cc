#include "policy/validate/device_class.h"

#include "policy/validate/defaults.h"
#include "policy/validate/list_checks.h"
#include "policy/validate/names.h"
#include "policy/validate/object_meta.h"
#include "policy/validate/reporter.h"
#include "policy/validate/shared_rules.h"

namespace draguard::validate {
namespace {

constexpr size_t kDeviceConfigMaxSize = 32;

bool SameSelectors(const k8s::DeviceClassSpec& a, const k8s::DeviceClassSpec& b) {
  if (a.selectors.size() != b.selectors.size()) return false;
  for (size_t i = 0; i < a.selectors.size(); ++i) {
    const auto& x = a.selectors[i].cel;
    const auto& y = b.selectors[i].cel;
    if (x.has_value() != y.has_value() || (x.has_value() && x->expression != y->expression)) {
      return false;
    }
  }
  return true;
}

bool SameConfig(const k8s::DeviceClassSpec& a, const k8s::DeviceClassSpec& b) {
  if (a.config.size() != b.config.size()) return false;
  for (size_t i = 0; i < a.config.size(); ++i) {
    const auto& x = a.config[i].opaque;
    const auto& y = b.config[i].opaque;
    if (x.has_value() != y.has_value()) return false;
    if (x.has_value() && (x->driver != y->driver || x->parameters_json != y->parameters_json)) {
      return false;
    }
  }
  return true;
}

void ValidateSpec(Reporter& r, const k8s::DeviceClassSpec& spec, const ValidationOptions& options,
                  bool stored_selectors, bool stored_config) {
  FieldPath path("spec");
  internal::ValidateSelectors(
      r, spec.selectors, path.Child("selectors"), options,
      stored_selectors ? SelectorKind::kStoredExpression : SelectorKind::kNewExpression);
  internal::ValidateList(r, "class.config.too-many", spec.config, kDeviceConfigMaxSize,
                         path.Child("config"), options,
                         [&](const k8s::DeviceClassConfiguration& config, const FieldPath& at) {
                           internal::ValidateDeviceConfiguration(r, config, at, stored_config);
                         });
  if (spec.extended_resource_name.has_value() &&
      !IsExtendedResourceName(*spec.extended_resource_name)) {
    r.Invalid("class.extended-resource-name.invalid", path.Child("extendedResourceName"),
              FieldValue::String(*spec.extended_resource_name),
              "must be a valid extended resource name");
  }
}

}  // namespace

void ValidateDeviceClass(const k8s::DeviceClass& device_class, const ValidationOptions& options,
                         Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  k8s::DeviceClass copy = device_class;
  DropDisabledDeviceClassFields(copy, nullptr, options, diagnostics);
  ValidateObjectMeta(r, copy.metadata, /*namespaced=*/false, FieldPath("metadata"));
  ValidateSpec(r, copy.spec, options, /*stored_selectors=*/false, /*stored_config=*/false);
  CapDiagnostics(diagnostics, start, options.limits);
}

void ValidateDeviceClassUpdate(const k8s::DeviceClass& old_class, const k8s::DeviceClass& new_class,
                               const ValidationOptions& options, Diagnostics& diagnostics) {
  if (options.dialect().class_update_validates_as_create) {
    ValidateDeviceClass(new_class, options, diagnostics);
    Reporter r(diagnostics);
    ValidateObjectMetaImmutable(r, old_class.metadata, new_class.metadata, /*namespaced=*/false,
                                FieldPath("metadata"));
    return;
  }
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  k8s::DeviceClass copy = new_class;
  DropDisabledDeviceClassFields(copy, &old_class, options, diagnostics);
  ValidateObjectMeta(r, copy.metadata, /*namespaced=*/false, FieldPath("metadata"));
  ValidateObjectMetaImmutable(r, old_class.metadata, copy.metadata, /*namespaced=*/false,
                              FieldPath("metadata"));
  ValidateSpec(r, copy.spec, options, SameSelectors(old_class.spec, copy.spec),
               SameConfig(old_class.spec, copy.spec));
  CapDiagnostics(diagnostics, start, options.limits);
}

}  // namespace draguard::validate
