#include "policy/cel/decls.h"

#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/cel/checker_internal/library_decls.h"

namespace draguard::cel {

std::string_view InternOverloadId(std::string_view id) {
  static std::mutex mu;
  // Node-based: an element's text never moves once inserted. Never destroyed, so views stay
  // valid for static destructors too.
  static auto* const ids = new std::set<std::string, std::less<>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = ids->find(id);
  if (it == ids->end()) it = ids->emplace(id).first;
  return *it;
}

namespace checker_internal {

void DeclSet::Global(std::string_view function, std::string id, std::vector<Type> args,
                     Type result) {
  Add(function, OverloadDecl{std::move(id), false, std::move(args), std::move(result)});
}

void DeclSet::Member(std::string_view function, std::string id, std::vector<Type> args,
                     Type result) {
  Add(function, OverloadDecl{std::move(id), true, std::move(args), std::move(result)});
}

void DeclSet::Add(std::string_view function, OverloadDecl overload) {
  for (FunctionDecl& f : functions_) {
    if (f.name == function) {
      f.overloads.push_back(std::move(overload));
      return;
    }
  }
  functions_.push_back(FunctionDecl{std::string(function), {std::move(overload)}});
}

std::vector<NamedType> ComparableTypes() {
  return {{"bool", Type::Bool()},         {"int64", Type::Int()},
          {"uint64", Type::Uint()},       {"double", Type::Double()},
          {"string", Type::String()},     {"bytes", Type::Bytes()},
          {"timestamp", Type::Timestamp()}, {"duration", Type::Duration()}};
}

}  // namespace checker_internal

namespace {

// Adds to `names` each type parameter name in `t` not in it yet.
void CollectTypeParams(const Type& t, std::vector<std::string_view>& names) {
  if (t.kind() == TypeKind::kTypeParam) {
    for (std::string_view n : names) {
      if (n == t.name()) return;
    }
    names.push_back(t.name());
    return;
  }
  for (const Type& p : t.params()) CollectTypeParams(p, names);
}

}  // namespace

int CountTypeParams(const OverloadDecl& o) {
  std::vector<std::string_view> names;
  for (const Type& p : o.args) CollectTypeParams(p, names);
  CollectTypeParams(o.result, names);
  return static_cast<int>(names.size());
}

const std::vector<Library>& AllLibraries() {
  static const std::vector<Library>* const kAll = new std::vector<Library>{
      Library::kStandard, Library::kCrossTypeNumeric, Library::kStringsV2, Library::kRegex,
      Library::kKubernetesLists, Library::kListsV3, Library::kSets, Library::kOptionals,
      Library::kQuantity, Library::kSemver, Library::kUrl, Library::kIp, Library::kCidr,
      Library::kFormat, Library::kTwoVarComprehensions};
  return *kAll;
}

std::string_view LibraryName(Library library) {
  switch (library) {
    case Library::kStandard: return "standard";
    case Library::kCrossTypeNumeric: return "cross-type-numeric-comparisons";
    case Library::kStringsV2: return "strings.v2";
    case Library::kRegex: return "regex";
    case Library::kKubernetesLists: return "kubernetes.lists";
    case Library::kListsV3: return "lists.v3";
    case Library::kSets: return "sets";
    case Library::kOptionals: return "optionals";
    case Library::kQuantity: return "quantity";
    case Library::kSemver: return "semver.v1";
    case Library::kUrl: return "url";
    case Library::kIp: return "ip";
    case Library::kCidr: return "cidr";
    case Library::kFormat: return "format";
    case Library::kTwoVarComprehensions: return "two-var-comprehensions";
  }
  return "";
}

namespace {

std::vector<FunctionDecl> BuildLibrary(Library library) {
  using namespace checker_internal;  // NOLINT: local table dispatch
  switch (library) {
    case Library::kStandard: return StandardDecls();
    case Library::kCrossTypeNumeric: return CrossTypeNumericDecls();
    case Library::kStringsV2: return StringsV2Decls();
    case Library::kRegex: return RegexDecls();
    case Library::kKubernetesLists: return KubernetesListsDecls();
    case Library::kListsV3: return ListsV3Decls();
    case Library::kSets: return SetsDecls();
    case Library::kOptionals: return OptionalsDecls();
    case Library::kQuantity: return QuantityDecls();
    case Library::kSemver: return SemverDecls();
    case Library::kUrl: return UrlDecls();
    case Library::kIp: return IpDecls();
    case Library::kCidr: return CidrDecls();
    case Library::kFormat: return FormatDecls();
    case Library::kTwoVarComprehensions: return TwoVarComprehensionDecls();
  }
  return {};
}

}  // namespace

const std::vector<FunctionDecl>& LibraryDeclarations(Library library) {
  // Built once, on first use, under the magic-statics lock.
  static const auto* const kTables = [] {
    auto* tables = new std::map<Library, std::vector<FunctionDecl>>();
    for (Library l : AllLibraries()) (*tables)[l] = BuildLibrary(l);
    return tables;
  }();
  return kTables->at(library);
}

}  // namespace draguard::cel
