// The cel-spec standard library declarations (cel-go common/stdlib/standard.go), with
// cel-go's overload ids, plus Kubernetes' cross-type numeric comparison overloads.
#include <string>

#include "policy/cel/checker_internal/decl_types.h"
#include "policy/cel/checker_internal/library_decls.h"
#include "policy/cel/operators.h"

namespace draguard::cel::checker_internal {
namespace {

void AddLogic(DeclSet& d) {
  d.Global(op::kLogicalNot, "logical_not", {kBool}, kBool);
  d.Global(op::kLogicalAnd, "logical_and", {kBool, kBool}, kBool);
  d.Global(op::kLogicalOr, "logical_or", {kBool, kBool}, kBool);
  d.Global(op::kNotStrictlyFalse, "not_strictly_false", {kBool}, kBool);
  d.Global(op::kConditional, "conditional", {kBool, A(), A()}, A());
  d.Global(op::kEquals, "equals", {A(), A()}, kBool);
  d.Global(op::kNotEquals, "not_equals", {A(), A()}, kBool);
}

void AddArithmetic(DeclSet& d) {
  d.Global(op::kNegate, "negate_int64", {kInt}, kInt);
  d.Global(op::kNegate, "negate_double", {kDouble}, kDouble);
  struct Num { const char* name; Type type; };
  const Num nums[] = {{"int64", kInt}, {"uint64", kUint}, {"double", kDouble}};
  for (const Num& n : nums) {
    const std::string s = n.name;
    d.Global(op::kAdd, "add_" + s, {n.type, n.type}, n.type);
    d.Global(op::kSubtract, "subtract_" + s, {n.type, n.type}, n.type);
    d.Global(op::kMultiply, "multiply_" + s, {n.type, n.type}, n.type);
    d.Global(op::kDivide, "divide_" + s, {n.type, n.type}, n.type);
  }
  d.Global(op::kModulo, "modulo_int64", {kInt, kInt}, kInt);
  d.Global(op::kModulo, "modulo_uint64", {kUint, kUint}, kUint);
  d.Global(op::kAdd, "add_string", {kString, kString}, kString);
  d.Global(op::kAdd, "add_bytes", {kBytes, kBytes}, kBytes);
  d.Global(op::kAdd, "add_list", {ListOf(A()), ListOf(A())}, ListOf(A()));
  d.Global(op::kAdd, "add_timestamp_duration", {kTs, kDur}, kTs);
  d.Global(op::kAdd, "add_duration_timestamp", {kDur, kTs}, kTs);
  d.Global(op::kAdd, "add_duration_duration", {kDur, kDur}, kDur);
  d.Global(op::kSubtract, "subtract_timestamp_timestamp", {kTs, kTs}, kDur);
  d.Global(op::kSubtract, "subtract_timestamp_duration", {kTs, kDur}, kTs);
  d.Global(op::kSubtract, "subtract_duration_duration", {kDur, kDur}, kDur);
}

void AddOrdering(DeclSet& d) {
  for (const NamedType& t : ComparableTypes()) {
    const std::string s = t.id_name;
    d.Global(op::kLess, "less_" + s, {t.type, t.type}, kBool);
    d.Global(op::kLessEquals, "less_equals_" + s, {t.type, t.type}, kBool);
    d.Global(op::kGreater, "greater_" + s, {t.type, t.type}, kBool);
    d.Global(op::kGreaterEquals, "greater_equals_" + s, {t.type, t.type}, kBool);
  }
}

void AddContainers(DeclSet& d) {
  d.Global(op::kIndex, "index_list", {ListOf(A()), kInt}, A());
  d.Global(op::kIndex, "index_map", {Type::Map(A(), B()), A()}, B());
  d.Global(op::kIn, "in_list", {A(), ListOf(A())}, kBool);
  d.Global(op::kIn, "in_map", {A(), Type::Map(A(), B())}, kBool);
  d.Global("size", "size_string", {kString}, kInt);
  d.Global("size", "size_bytes", {kBytes}, kInt);
  d.Global("size", "size_list", {ListOf(A())}, kInt);
  d.Global("size", "size_map", {Type::Map(A(), B())}, kInt);
  d.Member("size", "string_size", {kString}, kInt);
  d.Member("size", "bytes_size", {kBytes}, kInt);
  d.Member("size", "list_size", {ListOf(A())}, kInt);
  d.Member("size", "map_size", {Type::Map(A(), B())}, kInt);
}

void AddStrings(DeclSet& d) {
  d.Member("contains", "contains_string", {kString, kString}, kBool);
  d.Member("startsWith", "starts_with_string", {kString, kString}, kBool);
  d.Member("endsWith", "ends_with_string", {kString, kString}, kBool);
  d.Global("matches", "matches", {kString, kString}, kBool);
  d.Member("matches", "matches_string", {kString, kString}, kBool);
}

void AddConversions(DeclSet& d) {
  d.Global("int", "int64_to_int64", {kInt}, kInt);
  d.Global("int", "uint64_to_int64", {kUint}, kInt);
  d.Global("int", "double_to_int64", {kDouble}, kInt);
  d.Global("int", "string_to_int64", {kString}, kInt);
  d.Global("int", "timestamp_to_int64", {kTs}, kInt);
  d.Global("uint", "uint64_to_uint64", {kUint}, kUint);
  d.Global("uint", "int64_to_uint64", {kInt}, kUint);
  d.Global("uint", "double_to_uint64", {kDouble}, kUint);
  d.Global("uint", "string_to_uint64", {kString}, kUint);
  d.Global("double", "double_to_double", {kDouble}, kDouble);
  d.Global("double", "int64_to_double", {kInt}, kDouble);
  d.Global("double", "uint64_to_double", {kUint}, kDouble);
  d.Global("double", "string_to_double", {kString}, kDouble);
  d.Global("string", "string_to_string", {kString}, kString);
  d.Global("string", "bool_to_string", {kBool}, kString);
  d.Global("string", "int64_to_string", {kInt}, kString);
  d.Global("string", "uint64_to_string", {kUint}, kString);
  d.Global("string", "double_to_string", {kDouble}, kString);
  d.Global("string", "bytes_to_string", {kBytes}, kString);
  d.Global("string", "timestamp_to_string", {kTs}, kString);
  d.Global("string", "duration_to_string", {kDur}, kString);
  d.Global("bytes", "bytes_to_bytes", {kBytes}, kBytes);
  d.Global("bytes", "string_to_bytes", {kString}, kBytes);
  d.Global("bool", "bool_to_bool", {kBool}, kBool);
  d.Global("bool", "string_to_bool", {kString}, kBool);
  d.Global("dyn", "to_dyn", {A()}, Type::Dyn());
  d.Global("type", "type", {A()}, Type::TypeOf(A()));
  d.Global("duration", "duration_to_duration", {kDur}, kDur);
  d.Global("duration", "string_to_duration", {kString}, kDur);
  d.Global("timestamp", "timestamp_to_timestamp", {kTs}, kTs);
  d.Global("timestamp", "string_to_timestamp", {kString}, kTs);
  d.Global("timestamp", "int64_to_timestamp", {kInt}, kTs);
}

void AddTimeAccessors(DeclSet& d) {
  struct Accessor { const char* fn; const char* id; bool on_duration; };
  const Accessor accessors[] = {
      {"getFullYear", "timestamp_to_year", false},
      {"getMonth", "timestamp_to_month", false},
      {"getDayOfYear", "timestamp_to_day_of_year", false},
      {"getDayOfMonth", "timestamp_to_day_of_month", false},
      {"getDate", "timestamp_to_day_of_month_1_based", false},
      {"getDayOfWeek", "timestamp_to_day_of_week", false},
      {"getHours", "timestamp_to_hours", true},
      {"getMinutes", "timestamp_to_minutes", true},
      {"getSeconds", "timestamp_to_seconds", true},
      {"getMilliseconds", "timestamp_to_milliseconds", true},
  };
  for (const Accessor& a : accessors) {
    const std::string id = a.id;
    d.Member(a.fn, id, {kTs}, kInt);
    d.Member(a.fn, id + "_with_tz", {kTs, kString}, kInt);
    if (a.on_duration) d.Member(a.fn, "duration" + id.substr(9), {kDur}, kInt);
  }
}

}  // namespace

std::vector<FunctionDecl> StandardDecls() {
  DeclSet d;
  AddLogic(d);
  AddArithmetic(d);
  AddOrdering(d);
  AddContainers(d);
  AddStrings(d);
  AddConversions(d);
  AddTimeAccessors(d);
  return d.Take();
}

std::vector<FunctionDecl> CrossTypeNumericDecls() {
  struct Num { const char* name; Type type; };
  const Num nums[] = {{"int64", kInt}, {"uint64", kUint}, {"double", kDouble}};
  const char* const ops[][2] = {{op::kLess, "less_"},
                                {op::kLessEquals, "less_equals_"},
                                {op::kGreater, "greater_"},
                                {op::kGreaterEquals, "greater_equals_"}};
  DeclSet d;
  for (const auto& o : ops) {
    for (const Num& l : nums) {
      for (const Num& r : nums) {
        if (l.type == r.type) continue;
        d.Global(o[0], std::string(o[1]) + l.name + "_" + r.name, {l.type, r.type}, kBool);
      }
    }
  }
  return d.Take();
}

}  // namespace draguard::cel::checker_internal
