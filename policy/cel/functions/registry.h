// The function registry: CEL function implementations by name and arity.
//
// A Function receives its arguments already evaluated (receiver first for member calls)
// and dispatches on their runtime kinds; an argument combination it does not handle
// yields the error value "no such overload". Strict functions never see error
// arguments: the evaluator returns the first error argument instead.
#ifndef DRAGUARD_POLICY_CEL_FUNCTIONS_REGISTRY_H_
#define DRAGUARD_POLICY_CEL_FUNCTIONS_REGISTRY_H_

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "policy/cel/value.h"
#include "policy/common/status_or.h"
#include "policy/common/strings.h"

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
  // By name, with each arity's implementation (names have one to three). Looked up by a
  // string_view: planning a call used to build a "name/arity" key per lookup.
  using Overloads = std::vector<std::pair<int, Function>>;
  std::unordered_map<std::string, Overloads, StringHash, std::equal_to<>> functions_;
};

// Library registration, one per file in policy/cel/functions/.
// `_?._`, `_[?_]`, and select/index on an optional value: an optional of the element of
// `container` (a map, list, or optional of one) under `key`, or optional.none() when absent.
Value OptionalLookup(const Value& container, const Value& key);

// A call prepared at plan time from its constant arguments, as cel-go's optimisers do:
// `fn` gets `data` (kept alive by the plan) with every call's arguments.
using PreparedFunction = Value (*)(std::span<const Value> args, const void* data,
                                   EvalState& state);
struct PreparedCall {
  PreparedFunction fn = nullptr;  // null: the call is not prepared
  std::shared_ptr<const void> data;
  // An estimate of the heap `data` holds, for caches of planned programs.
  size_t data_bytes = 0;
};

// matches/find/findAll (`arity` arguments, receiver first) whose pattern argument is the
// constant `pattern`: the RE2 compiled once. An empty PreparedCall for other calls;
// InvalidArgument with Go's regexp error text for an invalid pattern.
StatusOr<PreparedCall> PrepareRegexCall(std::string_view function, int arity,
                                        const Value& pattern);

void RegisterStandardFunctions(Registry& r);
void RegisterStringFunctions(Registry& r);
void RegisterRegexFunctions(Registry& r);
void RegisterQuantityFunctions(Registry& r);
void RegisterSemverFunctions(Registry& r);
void RegisterOptionalFunctions(Registry& r);
void RegisterListFunctions(Registry& r);
void RegisterSetFunctions(Registry& r);
void RegisterNetworkFunctions(Registry& r);
void RegisterUrlFunctions(Registry& r);
void RegisterTimeFunctions(Registry& r);

// Timestamp/duration operands of `_+_` and `_-_` (the standard library forwards them).
bool IsTimeKind(Kind k);
Value TimeArithmetic(const Value& a, const Value& b, char op);

// string() of a net.IP or net.CIDR (the standard library's string() forwards them here).
Value NetworkToString(const Value& v);
void RegisterStringFormatFunctions(Registry& r);  // strings extension format()
void RegisterNamedFormatFunctions(Registry& r);   // Kubernetes format library

// indexOf/lastIndexOf on strings (strings extension); the list library registers the
// shared names and forwards string receivers here.
Value StringIndexOf(std::span<const Value> args, EvalState& state);
Value StringLastIndexOf(std::span<const Value> args, EvalState& state);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_FUNCTIONS_REGISTRY_H_
