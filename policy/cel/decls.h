// Function declarations for the CEL checker: every overload of every library the DRA
// environments can contain (cel-go common/stdlib and ext/, apiserver pkg/cel/library/),
// with cel-go's overload ids.
//
// An overload is either global (`f(a, b)`) or receiver style (`a.f(b)`); for receiver
// overloads `args[0]` is the receiver. Calling one in the other style does not match.
// Generic overloads use Type::Param("A") etc.; the checker instantiates fresh variables per
// call. Declarations are grouped by Library, the unit Kubernetes versions and gates switch
// on and off (apiserver pkg/cel/environment/base.go `baseOpts`), so an Environment includes
// or excludes whole groups.
#ifndef DRAGUARD_POLICY_CEL_DECLS_H_
#define DRAGUARD_POLICY_CEL_DECLS_H_

#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/types.h"

namespace draguard::cel {

struct OverloadDecl {
  std::string id;  // cel-go overload id, e.g. "add_int64", "quantity_isGreaterThan"
  bool member = false;
  std::vector<Type> args;  // receiver first for member overloads
  Type result;
  // How many distinct type parameters args and result hold (the fresh variables the checker
  // makes per candidate), or -1 when not counted yet. EnvironmentBuilder sets it for every
  // overload it adds, so that overload resolution does not walk the types on every call.
  int type_param_count = -1;
  // `id` interned (InternOverloadId), what the checker records; EnvironmentBuilder sets it
  // for every overload it adds.
  std::string_view interned_id;
};

// A view of a process-wide copy of `id`, valid until the process exits: the same view for
// equal texts. Environments intern their overload ids once, when built, so that a checked
// expression refers to its overloads without a string per call. The table only grows, by the
// distinct ids ever declared (the libraries' few hundred, plus callers' own). Thread safe.
std::string_view InternOverloadId(std::string_view id);

// The distinct type parameters of `o`'s args and result, counted by walking them.
int CountTypeParams(const OverloadDecl& o);

struct FunctionDecl {
  std::string name;  // possibly qualified: "sets.contains"
  std::vector<OverloadDecl> overloads;
};

// Option sets of apiserver's `baseOpts` (and DRA's cel.bind) that carry function declarations.
enum class Library {
  kStandard,          // cel-spec standard library (operators, size, conversions, time)
  kCrossTypeNumeric,  // mixed int/uint/double ordering overloads
  kStringsV2,         // cel-go strings extension version 2
  kRegex,             // Kubernetes find / findAll
  kKubernetesLists,   // isSorted, sum, min, max, indexOf, lastIndexOf on lists
  kListsV3,           // cel-go lists extension version 3
  kSets,              // cel-go sets extension
  kOptionals,         // optional types and functions
  kQuantity,
  kSemver,  // semver library version 1 (normalize overloads)
  kUrl,
  kIp,
  kCidr,
  kFormat,
  kTwoVarComprehensions,  // cel.@mapInsert used by the transformMap macros
};

// Every library, in a stable order.
const std::vector<Library>& AllLibraries();

// The stable name of a library ("strings.v2", "quantity"), for messages and tests.
std::string_view LibraryName(Library library);

// The declarations of one library. A function may appear in several libraries (e.g.
// `indexOf` in strings v2 and Kubernetes lists); an Environment merges overloads by name.
// Returns a reference to immutable data built once; thread safe.
const std::vector<FunctionDecl>& LibraryDeclarations(Library library);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_DECLS_H_
