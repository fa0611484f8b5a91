#include "policy/validate/object_meta.h"

#include <optional>
#include <string>

#include "policy/common/ascii.h"

#include "policy/validate/names.h"

namespace draguard::validate {

// The paths are built when a finding needs them, and messages only for a name that fails
// (Is...Valid first): valid metadata, nearly every object admitted, reports nothing, and
// building was most of its cost. An annotation key is matched as lowered without lowering it.
void ValidateLabelsAndAnnotations(Reporter& r, const k8s::ObjectMeta& meta,
                                  const FieldPath& field) {
  std::optional<FieldPath> labels;
  for (const auto& [key, value] : meta.labels) {
    if (IsQualifiedNameValid(key) && IsLabelValueValid(value)) continue;
    if (!labels) labels = field.Child("labels");
    ValidateLabelKey(r, "meta.labels.invalid", key, *labels);
    ValidateLabelValue(r, "meta.labels.invalid", value, *labels);
  }
  std::optional<FieldPath> annotations;
  size_t total = 0;
  for (const auto& [key, value] : meta.annotations) {
    total += key.size() + value.size();
    if (IsQualifiedNameValid(key, /*fold_case=*/true)) continue;
    for (const std::string& m : IsQualifiedName(AsciiLower(key))) {
      if (!annotations) annotations = field.Child("annotations");
      r.Invalid("meta.annotations.invalid", *annotations, FieldValue::String(key), m);
    }
  }
  if (total > kTotalAnnotationSizeLimit) {
    r.TooLong("meta.annotations.too-long", field.Child("annotations"), kTotalAnnotationSizeLimit);
  }
}

void ValidateObjectMeta(Reporter& r, const k8s::ObjectMeta& meta, bool namespaced,
                        const FieldPath& field) {
  if (!meta.generate_name.empty() && !IsMaskedDNS1123SubdomainValid(meta.generate_name)) {
    std::string masked = MaskTrailingDash(meta.generate_name);
    for (const std::string& m : IsDNS1123Subdomain(masked)) {
      r.Invalid("meta.generate-name.invalid", field.Child("generateName"),
                FieldValue::String(meta.generate_name), m);
    }
  }
  if (meta.name.empty()) {
    if (meta.generate_name.empty()) {
      r.Required("meta.name.required", field.Child("name"), "name or generateName is required");
    }
  } else {
    ValidateDNSSubdomain(r, "meta.name.invalid", meta.name, {field, "name"});
  }
  if (!namespaced && !meta.name_space.empty()) {
    r.Warning("meta.namespace.ignored", field.Child("namespace"),
              "this kind is cluster-scoped: the API server ignores metadata.namespace \"" +
                  meta.name_space + "\"",
              "remove metadata.namespace");
  }
  ValidateLabelsAndAnnotations(r, meta, field);
}

void ValidateObjectMetaImmutable(Reporter& r, const k8s::ObjectMeta& old_meta,
                                 const k8s::ObjectMeta& new_meta, bool namespaced,
                                 const FieldPath& field) {
  auto immutable = [&](const std::string& a, const std::string& b, std::string_view name) {
    if (a != b && !a.empty()) {
      r.Invalid("meta.immutable", field.Child(name), FieldValue::String(b), "field is immutable");
    }
  };
  immutable(old_meta.name, new_meta.name, "name");
  if (namespaced) immutable(old_meta.name_space, new_meta.name_space, "namespace");
  immutable(old_meta.uid, new_meta.uid, "uid");
}

void ValidateTemplateObjectMeta(Reporter& r, const k8s::ObjectMeta& meta, const FieldPath& field) {
  ValidateLabelsAndAnnotations(r, meta, field);
  auto forbid = [&](bool set, std::string_view name) {
    if (set) {
      r.Forbidden("template.metadata.forbidden", field.Child(name), "cannot be set for a template");
    }
  };
  forbid(!meta.name.empty(), "name");
  forbid(!meta.generate_name.empty(), "generateName");
  forbid(!meta.name_space.empty(), "namespace");
  forbid(!meta.uid.empty(), "uid");
  forbid(!meta.resource_version.empty(), "resourceVersion");
  forbid(meta.generation != 0, "generation");
  forbid(meta.has_deletion_timestamp, "deletionTimestamp");
  forbid(!meta.finalizers.empty(), "finalizers");
}

}  // namespace draguard::validate
