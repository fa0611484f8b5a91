// Checker environments: which variables, object types and function libraries an expression
// may use.
//
// Environment::ForDraSelector builds the DRA selector environment exactly as Kubernetes
// does for a version and mode (apiserver pkg/cel/environment/{base,environment}.go and
// dynamic-resource-allocation cel/compile.go `newCompiler`): NewExpressions is what the API server
// accepts in a new selector, StoredExpressions what the scheduler evaluates (a superset).
// EnvironmentBuilder assembles general environments (conformance tests, tools).
//
// Environments are immutable once built, shared through shared_ptr<const Environment>, and
// safe to use from many threads. Function lookups hit precomputed tables; nothing is
// rebuilt per check.
#ifndef DRAGUARD_POLICY_CEL_ENV_H_
#define DRAGUARD_POLICY_CEL_ENV_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "policy/cel/decls.h"
#include "policy/cel/types.h"
#include "policy/common/kubernetes_version.h"
#include "policy/common/status_or.h"
#include "policy/common/strings.h"

namespace draguard::cel {

struct EnvOptions {
  enum Mode { kNewExpressions, kStoredExpressions };

  KubernetesVersion version = kDefaultKubernetesVersion;
  Mode mode = kNewExpressions;
  // Feature gate DRAConsumableCapacity (off by default in 1.34 and 1.35, on in 1.36).
  bool consumable_capacity_gate = false;
  // Feature gate DRAListTypeAttributes (alpha in 1.36, off by default; unknown before):
  // attribute values are dyn (lists possible) and `includes` is declared in new expressions.
  bool list_type_attributes_gate = false;

  friend bool operator==(const EnvOptions&, const EnvOptions&) = default;
};

// An object type with named fields (kubernetes.DRADevice).
struct ObjectTypeDecl {
  std::string name;
  std::vector<std::pair<std::string, Type>> fields;

  // The field's type, or null when the type has no such field.
  const Type* FindField(std::string_view field) const;
};

class Environment {
 public:
  // The DRA selector environment for `options`. Built once per distinct options value and
  // shared; never null.
  static std::shared_ptr<const Environment> ForDraSelector(const EnvOptions& options);

  // The variable's declared type, or null. `name` is fully qualified (no container logic).
  const Type* FindVariable(std::string_view name) const;
  // The function (all overloads merged across libraries), or null.
  const FunctionDecl* FindFunction(std::string_view name) const;
  // The object type, or null.
  const ObjectTypeDecl* FindObjectType(std::string_view name) const;
  // Candidate qualified names for `name` under the container, most specific first, as in
  // cel-go: container "a.b" and name "x" give "a.b.x", "a.x", "x". A leading '.' means root
  // scope only.
  std::vector<std::string> CandidateNames(std::string_view name) const;

  const std::string& container() const { return container_; }
  bool HasLibrary(Library library) const { return libraries_.count(library) > 0; }
  // Kubernetes' homogeneous aggregate literals: mixed list/map literals are type errors
  // instead of being joined to dyn.
  bool homogeneous_aggregate_literals() const { return homogeneous_literals_; }
  // Kubernetes' compile-time validators for constant regex, duration and timestamp
  // arguments.
  bool literal_validators() const { return literal_validators_; }
  // Whether some variable name contains a dot (so select chains may name variables).
  bool has_dotted_variables() const { return has_dotted_variables_; }
  // Whether `prefix` is the namespace of some function ("sets" for sets.contains).
  bool IsFunctionNamespace(std::string_view prefix) const {
    return function_namespaces_.count(prefix) > 0;
  }

 private:
  friend class EnvironmentBuilder;
  Environment() = default;

  std::string container_;
  std::set<Library> libraries_;
  std::map<std::string, Type, std::less<>> variables_;
  // Hashed by name: the checker looks up every call's function (several per selector, at
  // every compile of a new one), and a tree of ~200 names took ~8 string comparisons each.
  std::unordered_map<std::string, FunctionDecl, StringHash, std::equal_to<>> functions_;
  std::map<std::string, ObjectTypeDecl, std::less<>> object_types_;
  bool homogeneous_literals_ = false;
  bool literal_validators_ = false;
  bool has_dotted_variables_ = false;
  std::set<std::string, std::less<>> function_namespaces_;
};

// Builds an Environment. Not thread safe; Build() may be called once.
class EnvironmentBuilder {
 public:
  EnvironmentBuilder& AddLibrary(Library library);
  // A function of the caller's (tools, conformance tests), merged with same-named library
  // functions overload by overload.
  EnvironmentBuilder& AddFunction(const FunctionDecl& fn);
  EnvironmentBuilder& AddVariable(std::string name, Type type);
  EnvironmentBuilder& AddObjectType(ObjectTypeDecl type);
  EnvironmentBuilder& SetContainer(std::string container);
  EnvironmentBuilder& SetHomogeneousAggregateLiterals(bool on);
  EnvironmentBuilder& SetLiteralValidators(bool on);

  // The environment, or InvalidArgument when a variable or object type was declared twice
  // or an overload id appears twice for one function.
  StatusOr<std::shared_ptr<const Environment>> Build();

 private:
  std::shared_ptr<Environment> env_{new Environment()};
  std::vector<std::string> duplicate_names_;
};

// The DRA device object type for the gate settings (dynamic-resource-allocation
// cel/compile.go `newCompiler`: kubernetes.DRADevice): allowMultipleAllocations with
// DRAConsumableCapacity, attribute values dyn instead of any with DRAListTypeAttributes.
ObjectTypeDecl DraDeviceType(bool allow_multiple_allocations, bool list_type_attributes = false);

// `<target>.includes(<arg>)` (dynamic-resource-allocation v0.36.0 cel/compile.go, overload
// dra_includes_dyn_dyn): on a list, whether an element equals the argument; on anything
// else, whether the target equals it. Declared where DraIncludesDeclared says.
FunctionDecl DraIncludesDecl();
// Whether `options`' environment declares `includes`: releases whose DRA CEL package has it,
// always in StoredExpressions, in NewExpressions only with DRAListTypeAttributes.
bool DraIncludesDeclared(const EnvOptions& options);

// The libraries Kubernetes enables for the DRA environment with `options` (apiserver
// pkg/cel/environment/base.go `baseOpts`, plus compile.go's cel.bind).
std::vector<Library> DraLibraries(const EnvOptions& options);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_ENV_H_
