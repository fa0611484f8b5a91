#include "policy/cel/checker_internal/unify.h"

namespace draguard::cel::checker_internal {
namespace {

bool HasParams(TypeKind k) {
  return k == TypeKind::kList || k == TypeKind::kMap || k == TypeKind::kOpaque ||
         k == TypeKind::kOptional || k == TypeKind::kType;
}

bool IsEqualOrLessSpecific(const Type& a, const Type& b) {
  if (a.is_dyn_or_any() || a.kind() == TypeKind::kTypeParam) return true;
  if (b.is_dyn_or_any() || b.kind() == TypeKind::kTypeParam) return false;
  if (a.kind() != b.kind()) return false;
  if (!HasParams(a.kind())) return true;
  const auto& ap = a.params();
  const auto& bp = b.params();
  if (ap.size() != bp.size()) return a.kind() == TypeKind::kType && ap.empty();
  for (size_t i = 0; i < ap.size(); ++i) {
    if (!IsEqualOrLessSpecific(ap[i], bp[i])) return false;
  }
  return true;
}

bool NotReferencedIn(const TypeMapping& m, const Type& var, const Type& within) {
  if (var == within) return false;
  if (within.kind() == TypeKind::kTypeParam) {
    const Type* sub = m.Find(within);
    return sub == nullptr || NotReferencedIn(m, var, *sub);
  }
  for (const Type& p : within.params()) {
    if (!NotReferencedIn(m, var, p)) return false;
  }
  return true;
}

// cel-go isValidTypeSubstitution: may `t` stand for the variable `var`?
// Returns {valid, var already had a binding}.
std::pair<bool, bool> ValidSubstitution(TypeMapping& m, const Type& t, const Type& var) {
  if (t == var) return {true, true};
  if (const Type* bound = m.Find(var)) {
    const Type sub = *bound;
    if (t == sub) return {true, true};
    if (IsAssignable(m, t, sub)) {
      Type general = MostGeneral(t, sub);
      if (NotReferencedIn(m, var, general)) m.Add(var, std::move(general));
      return {true, true};
    }
    return {false, true};
  }
  if (NotReferencedIn(m, var, t)) {
    m.Add(var, t);
    return {true, false};
  }
  return {false, false};
}

// cel-go's isLegacyNullable (plus null itself); optional_type is an opaque type in cel-go.
bool IsNullable(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kOpaque:
    case TypeKind::kOptional:
    case TypeKind::kObject:
    case TypeKind::kAny:
    case TypeKind::kDyn:
    case TypeKind::kNull:
    case TypeKind::kDuration:
    case TypeKind::kTimestamp:
      return true;
    default:
      return false;
  }
}

// cel-go Type.IsAssignableType without variables: `to` accepts values of `from`.
bool PlainAssignable(const Type& to, const Type& from) {
  if (to.is_dyn_any_or_error()) return true;
  if (to.kind() != from.kind() || to.name() != from.name()) return false;
  const auto& tp = to.params();
  const auto& fp = from.params();
  if (tp.size() != fp.size()) return false;
  for (size_t i = 0; i < tp.size(); ++i) {
    if (!PlainAssignable(tp[i], fp[i])) return false;
  }
  return true;
}

}  // namespace

const Type* TypeMapping::Find(const Type& var) const {
  if (var.kind() != TypeKind::kTypeParam) return nullptr;
  const std::string_view name = var.name();
  for (auto it = bindings_.rbegin(); it != bindings_.rend(); ++it) {
    if (it->first.name() == name) return &it->second;
  }
  return nullptr;
}

void TypeMapping::Add(const Type& var, Type value) {
  // A resolution binds a handful of variables: one allocation instead of growing 1, 2, 4.
  if (bindings_.capacity() == 0) bindings_.reserve(8);
  bindings_.emplace_back(var, std::move(value));
}

bool IsAssignable(TypeMapping& m, const Type& actual, const Type& expected) {
  if (expected.kind() == TypeKind::kTypeParam) {
    auto [valid, had_binding] = ValidSubstitution(m, actual, expected);
    if (valid) return true;
    if (had_binding) return false;
  }
  if (actual.kind() == TypeKind::kTypeParam) return ValidSubstitution(m, expected, actual).first;
  if (actual.is_dyn_any_or_error() || expected.is_dyn_any_or_error()) return true;
  if (actual.kind() == TypeKind::kNull) return IsNullable(expected);
  if (expected.kind() == TypeKind::kNull) return IsNullable(actual);
  switch (actual.kind()) {
    case TypeKind::kType:
      return expected.kind() == TypeKind::kType;
    case TypeKind::kOpaque:
    case TypeKind::kOptional:
    case TypeKind::kList:
    case TypeKind::kMap:
      return actual.kind() == expected.kind() && actual.name() == expected.name() &&
             IsAssignableList(m, actual.params(), expected.params());
    default:
      return PlainAssignable(expected, actual);
  }
}

bool IsAssignableList(TypeMapping& m, const std::vector<Type>& actual,
                      const std::vector<Type>& expected) {
  if (actual.size() != expected.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!IsAssignable(m, actual[i], expected[i])) return false;
  }
  return true;
}

Type SubstituteParams(const TypeMapping& m, const Type& t, bool params_to_dyn) {
  if (!t.has_type_param()) return t;
  if (const Type* sub = m.Find(t)) return Substitute(m, *sub, params_to_dyn);
  switch (t.kind()) {
    case TypeKind::kTypeParam:
      return params_to_dyn ? Type::Dyn() : t;
    case TypeKind::kList:
      return Type::List(Substitute(m, t.param(0), params_to_dyn));
    case TypeKind::kMap:
      return Type::Map(Substitute(m, t.param(0), params_to_dyn),
                       Substitute(m, t.param(1), params_to_dyn));
    case TypeKind::kOptional:
      return Type::Optional(Substitute(m, t.param(0), params_to_dyn));
    case TypeKind::kType:
      return t.params().empty() ? t : Type::TypeOf(Substitute(m, t.param(0), params_to_dyn));
    case TypeKind::kOpaque: {
      if (t.params().empty()) return t;
      std::vector<Type> params;
      for (const Type& p : t.params()) params.push_back(Substitute(m, p, params_to_dyn));
      return Type::Opaque(std::string(t.name()), std::move(params));
    }
    default:
      return t;
  }
}

Type MostGeneral(const Type& a, const Type& b) { return IsEqualOrLessSpecific(a, b) ? a : b; }

}  // namespace draguard::cel::checker_internal
