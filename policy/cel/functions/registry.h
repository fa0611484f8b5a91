// The function registry: CEL function implementations by name and arity.
//
// A Function receives its arguments already evaluated (receiver first for member calls)
// and dispatches on their runtime kinds; an argument combination it does not handle
// yields the error value "no such overload". Strict functions never see error
// arguments: the evaluator returns the first error argument instead.
#ifndef DRAGUARD_POLICY_CEL_FUNCTIONS_REGISTRY_H_
#define DRAGUARD_POLICY_CEL_FUNCTIONS_REGISTRY_H_

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "policy/cel/value.h"

namespace draguard::cel {

class EvalState;
using Function = Value (*)(std::span<const Value> args, EvalState& state);

class Registry {
 public:
  // Adds (or replaces) the implementation of `name` with `arity` arguments.
  void Add(std::string_view name, int arity, Function fn);
  // The implementation, or nullptr.
  Function Find(std::string_view name, int arity) const;

  // The registry with every library of the DRA environment (built once, immutable).
  static const Registry& Default();

 private:
  std::unordered_map<std::string, Function> functions_;
};

// Library registration, one per file in policy/cel/functions/.
// `_?._`, `_[?_]`, and select/index on an optional value: an optional of the element of
// `container` (a map, list, or optional of one) under `key`, or optional.none() when absent.
Value OptionalLookup(const Value& container, const Value& key);

void RegisterStandardFunctions(Registry& r);
void RegisterStringFunctions(Registry& r);
void RegisterRegexFunctions(Registry& r);
void RegisterQuantityFunctions(Registry& r);
void RegisterSemverFunctions(Registry& r);
void RegisterOptionalFunctions(Registry& r);
void RegisterListFunctions(Registry& r);
void RegisterSetFunctions(Registry& r);
void RegisterStringFormatFunctions(Registry& r);  // strings extension format()
void RegisterNamedFormatFunctions(Registry& r);   // Kubernetes format library

// indexOf/lastIndexOf on strings (strings extension); the list library registers the
// shared names and forwards string receivers here.
Value StringIndexOf(std::span<const Value> args, EvalState& state);
Value StringLastIndexOf(std::span<const Value> args, EvalState& state);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_FUNCTIONS_REGISTRY_H_
