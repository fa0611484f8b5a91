// Private: builders of the per-library declaration tables behind decls.h.
#ifndef DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_LIBRARY_DECLS_H_
#define DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_LIBRARY_DECLS_H_

#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/decls.h"
#include "policy/cel/types.h"

namespace draguard::cel::checker_internal {

// Collects overloads into FunctionDecls, keeping first-seen function order.
class DeclSet {
 public:
  void Global(std::string_view function, std::string id, std::vector<Type> args, Type result);
  void Member(std::string_view function, std::string id, std::vector<Type> args, Type result);
  std::vector<FunctionDecl> Take() { return std::move(functions_); }

 private:
  void Add(std::string_view function, OverloadDecl overload);
  std::vector<FunctionDecl> functions_;
};

// Short names for declaration tables.
inline Type A() { return Type::Param("A"); }
inline Type B() { return Type::Param("B"); }
inline Type ListOf(Type t) { return Type::List(std::move(t)); }

// The types with an ordering (cel-go "comparable" types), paired with the name used in
// overload ids: {"int64", int}, {"uint64", uint}, ...
struct NamedType {
  const char* id_name;
  Type type;
};
std::vector<NamedType> ComparableTypes();

std::vector<FunctionDecl> StandardDecls();
std::vector<FunctionDecl> CrossTypeNumericDecls();
std::vector<FunctionDecl> StringsV2Decls();
std::vector<FunctionDecl> RegexDecls();
std::vector<FunctionDecl> KubernetesListsDecls();
std::vector<FunctionDecl> ListsV3Decls();
std::vector<FunctionDecl> SetsDecls();
std::vector<FunctionDecl> OptionalsDecls();
std::vector<FunctionDecl> QuantityDecls();
std::vector<FunctionDecl> SemverDecls();
std::vector<FunctionDecl> UrlDecls();
std::vector<FunctionDecl> IpDecls();
std::vector<FunctionDecl> CidrDecls();
std::vector<FunctionDecl> FormatDecls();
std::vector<FunctionDecl> TwoVarComprehensionDecls();

}  // namespace draguard::cel::checker_internal

#endif  // DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_LIBRARY_DECLS_H_
