// cel-go extension declarations used by Kubernetes: strings v2, lists v3, sets, optionals,
// and the Kubernetes regex (find/findAll) and list libraries (cel-go ext/{strings,lists,
// sets}.go; apiserver pkg/cel/library/{regex,lists}.go).
#include <string>

#include "policy/cel/checker_internal/decl_types.h"
#include "policy/cel/checker_internal/library_decls.h"
#include "policy/cel/operators.h"

namespace draguard::cel::checker_internal {

std::vector<FunctionDecl> StringsV2Decls() {
  DeclSet d;
  d.Member("charAt", "string_char_at_int", {kString, kInt}, kString);
  d.Member("indexOf", "string_index_of_string", {kString, kString}, kInt);
  d.Member("indexOf", "string_index_of_string_int", {kString, kString, kInt}, kInt);
  d.Member("lastIndexOf", "string_last_index_of_string", {kString, kString}, kInt);
  d.Member("lastIndexOf", "string_last_index_of_string_int", {kString, kString, kInt}, kInt);
  d.Member("lowerAscii", "string_lower_ascii", {kString}, kString);
  d.Member("upperAscii", "string_upper_ascii", {kString}, kString);
  d.Member("replace", "string_replace_string_string", {kString, kString, kString}, kString);
  d.Member("replace", "string_replace_string_string_int", {kString, kString, kString, kInt},
           kString);
  d.Member("split", "string_split_string", {kString, kString}, ListOf(kString));
  d.Member("split", "string_split_string_int", {kString, kString, kInt}, ListOf(kString));
  d.Member("substring", "string_substring_int", {kString, kInt}, kString);
  d.Member("substring", "string_substring_int_int", {kString, kInt, kInt}, kString);
  d.Member("trim", "string_trim", {kString}, kString);
  d.Member("format", "string_format", {kString, ListOf(Type::Dyn())}, kString);
  d.Global("strings.quote", "strings_quote", {kString}, kString);
  d.Member("join", "list_join", {ListOf(kString)}, kString);
  d.Member("join", "list_join_string", {ListOf(kString), kString}, kString);
  return d.Take();
}

std::vector<FunctionDecl> RegexDecls() {
  DeclSet d;
  d.Member("find", "string_find_string", {kString, kString}, kString);
  d.Member("findAll", "string_find_all_string", {kString, kString}, ListOf(kString));
  d.Member("findAll", "string_find_all_string_int", {kString, kString, kInt}, ListOf(kString));
  return d.Take();
}

std::vector<FunctionDecl> KubernetesListsDecls() {
  DeclSet d;
  for (const NamedType& t : ComparableTypes()) {
    const std::string s = t.id_name;
    d.Member("isSorted", "list_" + s + "_is_sorted", {ListOf(t.type)}, kBool);
    d.Member("min", "list_" + s + "_min", {ListOf(t.type)}, t.type);
    d.Member("max", "list_" + s + "_max", {ListOf(t.type)}, t.type);
  }
  for (const NamedType& t : ComparableTypes()) {
    const TypeKind k = t.type.kind();
    if (k != TypeKind::kInt && k != TypeKind::kUint && k != TypeKind::kDouble &&
        k != TypeKind::kDuration) {
      continue;
    }
    d.Member("sum", "list_" + std::string(t.id_name) + "_sum", {ListOf(t.type)}, t.type);
  }
  d.Member("indexOf", "list_a_index_of_int", {ListOf(A()), A()}, kInt);
  d.Member("lastIndexOf", "list_a_last_index_of_int", {ListOf(A()), A()}, kInt);
  return d.Take();
}

std::vector<FunctionDecl> ListsV3Decls() {
  DeclSet d;
  d.Member("slice", "list_slice", {ListOf(A()), kInt, kInt}, ListOf(A()));
  d.Member("flatten", "list_flatten", {ListOf(ListOf(A()))}, ListOf(A()));
  d.Member("flatten", "list_flatten_int", {ListOf(Type::Dyn()), kInt}, ListOf(Type::Dyn()));
  d.Member("distinct", "list_distinct", {ListOf(A())}, ListOf(A()));
  d.Member("reverse", "list_reverse", {ListOf(A())}, ListOf(A()));
  for (const NamedType& t : ComparableTypes()) {
    const std::string s = t.id_name;
    d.Member("sort", "list_" + s + "_sort", {ListOf(t.type)}, ListOf(t.type));
    d.Global("@sortByAssociatedKeys", "list_" + s + "_sort_by_associated_keys",
             {ListOf(A()), ListOf(t.type)}, ListOf(A()));
  }
  d.Global("lists.range", "lists_range", {kInt}, ListOf(kInt));
  return d.Take();
}

std::vector<FunctionDecl> SetsDecls() {
  DeclSet d;
  d.Global("sets.contains", "list_sets_contains_list", {ListOf(A()), ListOf(A())}, kBool);
  d.Global("sets.equivalent", "list_sets_equivalent_list", {ListOf(A()), ListOf(A())}, kBool);
  d.Global("sets.intersects", "list_sets_intersects_list", {ListOf(A()), ListOf(A())}, kBool);
  return d.Take();
}

std::vector<FunctionDecl> OptionalsDecls() {
  const Type opt_a = Type::Optional(A());
  const Type k = Type::Param("K"), v = Type::Param("V");
  DeclSet d;
  d.Global("optional.of", "optional_of", {A()}, opt_a);
  d.Global("optional.ofNonZeroValue", "optional_ofNonZeroValue", {A()}, opt_a);
  d.Global("optional.none", "optional_none", {}, Type::Optional(Type::Param("T")));
  d.Member("value", "optional_value", {opt_a}, A());
  d.Member("hasValue", "optional_hasValue", {opt_a}, kBool);
  d.Member("or", "optional_or_optional", {opt_a, opt_a}, opt_a);
  d.Member("orValue", "optional_orValue_value", {opt_a, A()}, A());
  d.Global(op::kOptIndex, "list_optindex_optional_int", {ListOf(v), kInt}, Type::Optional(v));
  d.Global(op::kOptIndex, "optional_list_optindex_optional_int",
           {Type::Optional(ListOf(v)), kInt}, Type::Optional(v));
  d.Global(op::kOptIndex, "map_optindex_optional_value", {Type::Map(k, v), k},
           Type::Optional(v));
  d.Global(op::kOptIndex, "optional_map_optindex_optional_value",
           {Type::Optional(Type::Map(k, v)), k}, Type::Optional(v));
  d.Global(op::kIndex, "optional_list_index_int", {Type::Optional(ListOf(v)), kInt},
           Type::Optional(v));
  d.Global(op::kIndex, "optional_map_index_value", {Type::Optional(Type::Map(k, v)), k},
           Type::Optional(v));
  d.Member("first", "list_first", {ListOf(A())}, opt_a);
  d.Member("last", "list_last", {ListOf(A())}, opt_a);
  d.Global("optional.unwrap", "optional_unwrap", {ListOf(opt_a)}, ListOf(A()));
  d.Member("unwrapOpt", "optional_unwrapOpt", {ListOf(opt_a)}, ListOf(A()));
  return d.Take();
}

std::vector<FunctionDecl> TwoVarComprehensionDecls() {
  const Type k = Type::Param("K"), v = Type::Param("V");
  const Type m = Type::Map(k, v);
  DeclSet d;
  d.Global("cel.@mapInsert", "@mapInsert_map_key_value", {m, k, v}, m);
  d.Global("cel.@mapInsert", "@mapInsert_map_map", {m, m}, m);
  return d.Take();
}

}  // namespace draguard::cel::checker_internal
