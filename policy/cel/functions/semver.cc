// Kubernetes semver library v1 (apiserver pkg/cel/library/semverlib.go): semver(s[,
// normalize]), isSemver(s[, normalize]), major/minor/patch. compareTo/isGreaterThan/
// isLessThan live with the quantity library, which dispatches on both types.
#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value Parse(Args a, bool normalize) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<Semver> v = Semver::Parse(a[0].text(), normalize);
  if (!v.ok()) return Value::Error(v.status().message());
  return Value::OfSemver(*std::move(v));
}

Value Semver1(Args a, EvalState&) { return Parse(a, false); }
Value Semver2(Args a, EvalState&) {
  if (!a[1].is_bool()) return NoSuchOverload();
  return Parse(a, a[1].bool_value());
}
Value IsSemver1(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  return Value::Bool(Semver::Parse(a[0].text()).ok());
}
Value IsSemver2(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString || !a[1].is_bool()) return NoSuchOverload();
  return Value::Bool(Semver::Parse(a[0].text(), a[1].bool_value()).ok());
}

template <int kPart>
Value Part(Args a, EvalState&) {
  if (a[0].kind() != Kind::kSemver) return NoSuchOverload();
  const Semver& v = a[0].semver();
  uint64_t n = kPart == 0 ? v.major() : (kPart == 1 ? v.minor() : v.patch());
  return Value::Int(static_cast<int64_t>(n));
}

}  // namespace

void RegisterSemverFunctions(Registry& r) {
  r.Add("semver", 1, Semver1);
  r.Add("semver", 2, Semver2);
  r.Add("isSemver", 1, IsSemver1);
  r.Add("isSemver", 2, IsSemver2);
  r.Add("major", 1, Part<0>);
  r.Add("minor", 1, Part<1>);
  r.Add("patch", 1, Part<2>);
}

}  // namespace draguard::cel
