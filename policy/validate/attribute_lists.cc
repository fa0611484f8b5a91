#include "policy/validate/attribute_lists.h"

#include <string>
#include <vector>

#include "policy/common/semver.h"

namespace draguard::validate::internal {
namespace {

// DeviceAttributeMaxValueLength.
constexpr size_t kMaxValueLength = 64;

template <typename T>
bool EmptyList(Reporter& r, const HeapOptional<std::vector<T>>& list, const FieldPath& at) {
  if (!list.has_value() || !list->empty()) return false;
  r.Invalid("slice.device.attribute.list.empty", at, FieldValue::Raw("[]"),
            "must not be empty if specified");
  return true;
}

}  // namespace

void ValidateAttributeList(Reporter& r, const k8s::DeviceAttribute& attr, const FieldPath& at) {
  if (EmptyList(r, attr.int_values, at.Child("ints")) ||
      EmptyList(r, attr.bool_values, at.Child("bools")) ||
      EmptyList(r, attr.string_values, at.Child("strings")) ||
      EmptyList(r, attr.version_values, at.Child("versions"))) {
    return;
  }
  if (attr.string_values.has_value()) {
    for (size_t i = 0; i < attr.string_values->size(); ++i) {
      if ((*attr.string_values)[i].size() > kMaxValueLength) {
        r.TooLong("slice.device.attribute.string.too-long", at.Child("strings").Index(i),
                  kMaxValueLength);
      }
    }
  }
  if (attr.version_values.has_value()) {
    for (size_t i = 0; i < attr.version_values->size(); ++i) {
      const std::string& v = (*attr.version_values)[i];
      const FieldPath item = at.Child("versions").Index(i);
      if (!Semver::Parse(v).ok()) {
        r.Invalid("slice.device.attribute.version.invalid", item, FieldValue::String(v),
                  "must be a string compatible with semver.org spec 2.0.0");
      }
      if (v.size() > kMaxValueLength) {
        r.TooLong("slice.device.attribute.version.invalid", item, kMaxValueLength);
      }
    }
  }
}

void ValidateAttributeValueCount(Reporter& r, const k8s::Device& dev, const FieldPath& at) {
  size_t values = 0;
  for (const auto& [key, attr] : dev.attributes) values += attr.value_count();
  if (values <= kMaxAttributeValuesPerDevice) return;
  r.Invalid("slice.device.attribute.values.too-many", at,
            FieldValue::Int(static_cast<int64_t>(values)),
            "the total number of attribute values must not exceed " +
                std::to_string(kMaxAttributeValuesPerDevice));
}

bool HasListAttribute(const k8s::Device& dev) {
  for (const auto& [key, attr] : dev.attributes) {
    if (attr.has_list()) return true;
  }
  return false;
}

}  // namespace draguard::validate::internal
