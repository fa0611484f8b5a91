// Kubernetes quantity library (apiserver pkg/cel/library/quantity.go): quantity(),
// isQuantity(), comparisons, add/sub with Quantity or int, asInteger/isInteger/
// asApproximateFloat, global sign().
#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value Parse(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<Quantity> q = Quantity::Parse(a[0].text());
  if (!q.ok()) return Value::Error(q.status().message());
  return Value::OfQuantity(*q);
}

Value IsQuantity(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  return Value::Bool(Quantity::Parse(a[0].text()).ok());
}

bool BothQuantities(Args a) {
  return a[0].kind() == Kind::kQuantity && a[1].kind() == Kind::kQuantity;
}

Value CompareTo(Args a, EvalState&) {
  if (BothQuantities(a)) return Value::Int(a[0].quantity().Cmp(a[1].quantity()));
  if (a[0].kind() == Kind::kSemver && a[1].kind() == Kind::kSemver) {
    return Value::Int(a[0].semver().Compare(a[1].semver()));
  }
  return NoSuchOverload();
}

template <int kWant>
Value CompareIs(Args a, EvalState& s) {
  Value c = CompareTo(a, s);
  if (c.is_error()) return c;
  return Value::Bool(c.int_value() == kWant);
}

template <bool kAdd>
Value Arith(Args a, EvalState&) {
  if (a[0].kind() != Kind::kQuantity) return NoSuchOverload();
  Quantity rhs;
  if (a[1].kind() == Kind::kQuantity) {
    rhs = a[1].quantity();
  } else if (a[1].kind() == Kind::kInt) {
    rhs = Quantity::FromInt64(a[1].int_value());
  } else {
    return NoSuchOverload();
  }
  StatusOr<Quantity> r = kAdd ? a[0].quantity().Add(rhs) : a[0].quantity().Sub(rhs);
  if (!r.ok()) return Value::Error(r.status().message());
  return Value::OfQuantity(*r);
}

Value Sign(Args a, EvalState&) {
  if (a[0].kind() != Kind::kQuantity) return NoSuchOverload();
  return Value::Int(a[0].quantity().Sign());
}

Value AsInteger(Args a, EvalState&) {
  if (a[0].kind() != Kind::kQuantity) return NoSuchOverload();
  std::optional<int64_t> i = a[0].quantity().AsInt64();
  if (!i) return Value::ErrorView("cannot convert value to integer");
  return Value::Int(*i);
}

Value IsInteger(Args a, EvalState&) {
  if (a[0].kind() != Kind::kQuantity) return NoSuchOverload();
  return Value::Bool(a[0].quantity().IsInteger());
}

Value AsApproximateFloat(Args a, EvalState&) {
  if (a[0].kind() != Kind::kQuantity) return NoSuchOverload();
  return Value::Double(a[0].quantity().AsApproximateDouble());
}

}  // namespace

void RegisterQuantityFunctions(Registry& r) {
  r.Add("quantity", 1, Parse);
  r.Add("isQuantity", 1, IsQuantity);
  // compareTo/isGreaterThan/isLessThan are shared with the semver library.
  r.Add("compareTo", 2, CompareTo);
  r.Add("isGreaterThan", 2, CompareIs<1>);
  r.Add("isLessThan", 2, CompareIs<-1>);
  r.Add("add", 2, Arith<true>);
  r.Add("sub", 2, Arith<false>);
  r.Add("sign", 1, Sign);
  r.Add("asInteger", 1, AsInteger);
  r.Add("isInteger", 1, IsInteger);
  r.Add("asApproximateFloat", 1, AsApproximateFloat);
}

}  // namespace draguard::cel
