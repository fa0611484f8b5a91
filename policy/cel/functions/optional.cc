// Optional values: optional.of/none/ofNonZeroValue, hasValue, value, orValue, or, and
// the optional select/index operators `a.?b` and `a[?b]`. Lookups through Kubernetes'
// defaulting outer maps yield a present (empty) map.
#include "policy/cel/functions/registry.h"
#include "policy/cel/operators.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value Of(Args a, EvalState&) { return Value::Optional(a[0]); }
Value None(Args, EvalState&) { return Value::OptionalNone(); }

bool IsZero(const Value& v) {
  switch (v.kind()) {
    case Kind::kNull: return true;
    case Kind::kBool: return !v.bool_value();
    case Kind::kInt: return v.int_value() == 0;
    case Kind::kUint: return v.uint_value() == 0;
    case Kind::kDouble: return v.double_value() == 0;
    case Kind::kString:
    case Kind::kBytes: return v.text().empty();
    case Kind::kList: return v.list().elements.empty();
    case Kind::kMap: return v.map().entries.empty();
    default: return false;
  }
}

Value OfNonZero(Args a, EvalState&) {
  return IsZero(a[0]) ? Value::OptionalNone() : Value::Optional(a[0]);
}

Value HasValue(Args a, EvalState&) {
  if (a[0].kind() != Kind::kOptional) return NoSuchOverload();
  return Value::Bool(a[0].optional_value() != nullptr);
}

Value GetValue(Args a, EvalState&) {
  if (a[0].kind() != Kind::kOptional) return NoSuchOverload();
  if (a[0].optional_value() == nullptr) return Value::ErrorView("optional.none() dereference");
  return *a[0].optional_value();
}

Value OrValue(Args a, EvalState&) {
  if (a[0].kind() != Kind::kOptional) return NoSuchOverload();
  return a[0].optional_value() ? *a[0].optional_value() : a[1];
}

Value Or(Args a, EvalState&) {
  if (a[0].kind() != Kind::kOptional || a[1].kind() != Kind::kOptional) return NoSuchOverload();
  return a[0].optional_value() ? a[0] : a[1];
}

Value OptSelect(Args a, EvalState&) { return OptionalLookup(a[0], a[1]); }

}  // namespace

// Shared by `_?._` and `_[?_]`: an optional of the element, or none when absent.
Value OptionalLookup(const Value& container, const Value& key) {
  if (container.kind() == Kind::kOptional) {
    if (container.optional_value() == nullptr) return container;
    return OptionalLookup(*container.optional_value(), key);
  }
  if (container.kind() == Kind::kMap) {
    const MapData& map = container.map();
    if (const Value* v = map.Find(key)) return Value::Optional(*v);
    if (map.defaulting) return Value::Optional(Value::MapRef(&EmptyMap()));
    return Value::OptionalNone();
  }
  if (container.kind() == Kind::kList && key.kind() == Kind::kInt) {
    const auto& elements = container.list().elements;
    int64_t i = key.int_value();
    if (i < 0 || static_cast<size_t>(i) >= elements.size()) return Value::OptionalNone();
    return Value::Optional(elements[static_cast<size_t>(i)]);
  }
  return NoSuchOverload();
}

void RegisterOptionalFunctions(Registry& r) {
  r.Add("optional.of", 1, Of);
  r.Add("optional.none", 0, None);
  r.Add("optional.ofNonZeroValue", 1, OfNonZero);
  r.Add("hasValue", 1, HasValue);
  r.Add("value", 1, GetValue);
  r.Add("orValue", 2, OrValue);
  r.Add("or", 2, Or);
  r.Add(op::kOptSelect, 2, OptSelect);
  r.Add(op::kOptIndex, 2, OptSelect);
}

}  // namespace draguard::cel
