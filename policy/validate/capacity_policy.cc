#include "policy/validate/capacity_policy.h"

#include <optional>
#include <string>
#include <vector>

#include "policy/common/quantity.h"

namespace draguard::validate::internal {
namespace {

constexpr char kCode[] = "slice.device.capacity.request-policy.invalid";

std::optional<Quantity> Parsed(const std::string& text) {
  StatusOr<Quantity> q = Quantity::Parse(text);
  if (!q.ok()) return std::nullopt;
  return *q;
}

void CheckNotAbove(Reporter& r, const std::optional<Quantity>& value, const std::string& text,
                   const std::optional<Quantity>& capacity, const FieldPath& at) {
  if (value.has_value() && capacity.has_value() && value->Cmp(*capacity) > 0) {
    r.Invalid(kCode, at, FieldValue::String(text), "must not be greater than the capacity value");
  }
}

void ValidateValidValues(Reporter& r, const k8s::CapacityRequestPolicy& policy,
                         const std::optional<Quantity>& capacity, const FieldPath& at) {
  FieldPath path = at.Child("validValues");
  if (policy.valid_values.size() > kCapacityRequestPolicyDiscreteMaxOptions) {
    r.TooMany(kCode, path, static_cast<int64_t>(policy.valid_values.size()),
              kCapacityRequestPolicyDiscreteMaxOptions);
    return;
  }
  std::optional<Quantity> previous;
  bool default_listed = false;
  std::optional<Quantity> def =
      policy.default_value.has_value() ? Parsed(*policy.default_value) : std::nullopt;
  for (size_t i = 0; i < policy.valid_values.size(); ++i) {
    const std::string& text = policy.valid_values[i];
    std::optional<Quantity> value = Parsed(text);
    if (!value.has_value()) continue;
    if (previous.has_value() && value->Cmp(*previous) == 0) {
      r.Duplicate(kCode, path.Index(i), FieldValue::String(text));
    } else if (previous.has_value() && value->Cmp(*previous) < 0) {
      r.Invalid(kCode, path.Index(i), FieldValue::String(text),
                "values must be sorted in ascending order");
    }
    CheckNotAbove(r, value, text, capacity, path.Index(i));
    default_listed = default_listed || (def.has_value() && value->Cmp(*def) == 0);
    previous = value;
  }
  if (def.has_value() && !default_listed) {
    r.Invalid(kCode, at.Child("default"), FieldValue::String(*policy.default_value),
              "must be one of the validValues");
  }
}

// (value - min) is a whole number of steps.
bool Aligned(const Quantity& value, const Quantity& min, const Quantity& step) {
  if (step.Sign() <= 0) return true;
  Int128 diff = value.nanos() - min.nanos();
  return diff % step.nanos() == 0;
}

void ValidateValidRange(Reporter& r, const k8s::CapacityRequestPolicyRange& range,
                        const k8s::CapacityRequestPolicy& policy,
                        const std::optional<Quantity>& capacity, const FieldPath& at) {
  FieldPath path = at.Child("validRange");
  std::optional<Quantity> min = Parsed(range.min);
  if (range.min.empty()) r.Required(kCode, path.Child("min"));
  CheckNotAbove(r, min, range.min, capacity, path.Child("min"));
  std::optional<Quantity> max = range.max.has_value() ? Parsed(*range.max) : std::nullopt;
  if (max.has_value()) {
    CheckNotAbove(r, max, *range.max, capacity, path.Child("max"));
    if (min.has_value() && max->Cmp(*min) < 0) {
      r.Invalid(kCode, path.Child("max"), FieldValue::String(*range.max),
                "must be greater than or equal to min");
    }
  }
  std::optional<Quantity> step = range.step.has_value() ? Parsed(*range.step) : std::nullopt;
  if (step.has_value() && step->Sign() <= 0) {
    r.Invalid(kCode, path.Child("step"), FieldValue::String(*range.step),
              "must be greater than zero");
  }
  if (!policy.default_value.has_value() || !min.has_value()) return;
  std::optional<Quantity> def = Parsed(*policy.default_value);
  if (!def.has_value()) return;
  bool in_range = def->Cmp(*min) >= 0 && (!max.has_value() || def->Cmp(*max) <= 0) &&
                  (!capacity.has_value() || def->Cmp(*capacity) <= 0);
  if (!in_range) {
    r.Invalid(kCode, at.Child("default"), FieldValue::String(*policy.default_value),
              "must be within validRange and not greater than the capacity value");
  } else if (step.has_value() && !Aligned(*def, *min, *step)) {
    r.Invalid(kCode, at.Child("default"), FieldValue::String(*policy.default_value),
              "must be min plus a whole number of steps");
  }
}

}  // namespace

void ValidateRequestPolicy(Reporter& r, const k8s::CapacityRequestPolicy& policy,
                           const std::string& capacity_value, const FieldPath& at,
                           const ValidationOptions& /*options*/) {
  std::optional<Quantity> capacity = Parsed(capacity_value);
  bool has_values = !policy.valid_values.empty();
  bool has_range = policy.valid_range.has_value();
  if (has_values && has_range) {
    r.Invalid(kCode, at, FieldValue::Null(),
              "exactly one of `validValues` or `validRange` may be set, but multiple fields "
              "are set");
    return;
  }
  if ((has_values || has_range) && !policy.default_value.has_value()) {
    r.Required(kCode, at.Child("default"), "required when validValues or validRange is set");
  }
  if (policy.default_value.has_value()) {
    CheckNotAbove(r, Parsed(*policy.default_value), *policy.default_value, capacity,
                  at.Child("default"));
  }
  if (has_values) ValidateValidValues(r, policy, capacity, at);
  if (has_range) ValidateValidRange(r, *policy.valid_range, policy, capacity, at);
}

}  // namespace draguard::validate::internal
