// Private: cel-go's gradual-typing assignability and type-variable substitution.
//
// A TypeMapping binds type variables (kTypeParam types) to types. IsAssignable(m, actual,
// expected) answers whether a value of `actual` may be passed where `expected` is wanted,
// binding variables in `m` as a side effect; callers copy `m` first and keep the copy only
// on success. dyn, any and error are assignable both ways; null is assignable to nullable
// types (opaque, object, any, timestamp, duration). The rules follow cel-go
// checker/types.go so that the same expressions type-check the same way.
#ifndef DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_UNIFY_H_
#define DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_UNIFY_H_

#include <string>
#include <utility>
#include <vector>

#include "policy/cel/types.h"

namespace draguard::cel::checker_internal {

// Bindings are append-only: a rebinding shadows the older one, so a failed trial is undone
// by Truncate(size()) taken before it, without copying the mapping. A binding keeps the
// variable itself (a shared name, no string copy) and is found by the variable's name.
class TypeMapping {
 public:
  // The binding of a type variable, or null.
  const Type* Find(const Type& var) const;
  void Add(const Type& var, Type value);
  size_t size() const { return bindings_.size(); }
  void Truncate(size_t size) { bindings_.resize(size); }

 private:
  std::vector<std::pair<Type, Type>> bindings_;
};

bool IsAssignable(TypeMapping& m, const Type& actual, const Type& expected);
bool IsAssignableList(TypeMapping& m, const std::vector<Type>& actual,
                      const std::vector<Type>& expected);

// Substitute's work for a type that holds a type variable.
Type SubstituteParams(const TypeMapping& m, const Type& t, bool params_to_dyn);

// Replaces bound type variables; unbound ones become dyn when `params_to_dyn`. Inline, so
// that the usual case (a concrete type, returned as it is) costs a flag test and a copy.
inline Type Substitute(const TypeMapping& m, const Type& t, bool params_to_dyn) {
  if (!t.has_type_param()) return t;
  return SubstituteParams(m, t, params_to_dyn);
}

// The less specific of two compatible types (dyn and variables are least specific).
Type MostGeneral(const Type& a, const Type& b);

}  // namespace draguard::cel::checker_internal

#endif  // DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_UNIFY_H_
