// The type checker walks the AST once, bottom-up, as cel-go's checker does:
//  - identifiers resolve against comprehension scopes, then the environment's variables
//    (with container candidates), then type names (`int` has type type(int));
//  - a select chain that spells a declared qualified variable is a variable reference;
//    otherwise the operand's type decides: map → value type, object → declared field,
//    dyn/any → dyn, anything else is an error;
//  - a call `ns.f(x)` first tries the namespaced global function `ns.f`; otherwise it is a
//    receiver call. Overload resolution keeps every overload whose parameter types accept
//    the argument types (receiver and global styles never mix), binding type variables in
//    one expression-wide mapping; several matches with different results give dyn;
//  - list and map literals join element types, or report a mismatch when the environment
//    has homogeneous aggregate literals (Kubernetes);
//  - comprehensions declare the accumulator, then the iteration variable(s) for the loop.
// At the end every recorded type is resolved through the mapping, unbound variables → dyn.
#include "policy/cel/checker.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/cel/checker_internal/format_validator.h"
#include "policy/cel/checker_internal/literal_validators.h"
#include "policy/cel/checker_internal/unify.h"
#include "policy/cel/operators.h"

namespace draguard::cel {
namespace {

using checker_internal::IsAssignable;
using checker_internal::IsAssignableList;
using checker_internal::MostGeneral;
using checker_internal::Substitute;
using checker_internal::TypeMapping;

std::optional<Type> TypeNameType(std::string_view name) {
  if (name == "int") return Type::TypeOf(Type::Int());
  if (name == "uint") return Type::TypeOf(Type::Uint());
  if (name == "double") return Type::TypeOf(Type::Double());
  if (name == "bool") return Type::TypeOf(Type::Bool());
  if (name == "string") return Type::TypeOf(Type::String());
  if (name == "bytes") return Type::TypeOf(Type::Bytes());
  if (name == "null_type") return Type::TypeOf(Type::Null());
  if (name == "type") return Type::TypeOf(Type::TypeType());
  if (name == "dyn") return Type::TypeOf(Type::Dyn());
  if (name == "list") return Type::TypeOf(Type::List(Type::Dyn()));
  if (name == "map") return Type::TypeOf(Type::Map(Type::Dyn(), Type::Dyn()));
  if (name == "google.protobuf.Timestamp") return Type::TypeOf(Type::Timestamp());
  if (name == "google.protobuf.Duration") return Type::TypeOf(Type::Duration());
  return std::nullopt;
}

bool AnyHasTypeParam(const std::vector<Type>& types) {
  for (const Type& t : types) {
    if (t.has_type_param()) return true;
  }
  return false;
}

// A cheap pre-filter for overload resolution: a concrete argument whose kind differs from a
// concrete parameter's can never be assigned, so the overload is skipped without unifying.
bool IsRigid(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kError:
    case TypeKind::kDyn:
    case TypeKind::kAny:
    case TypeKind::kNull:
    case TypeKind::kTypeParam:
      return false;
    default:
      return true;
  }
}

bool CannotMatch(const std::vector<Type>& args, const std::vector<Type>& params) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsRigid(args[i]) && IsRigid(params[i]) && args[i].kind() != params[i].kind()) {
      return true;
    }
  }
  return false;
}

int CountNodes(const Expr& e) {
  int n = 1;
  if (const CallExpr* c = e.as_call()) {
    if (c->target) n += CountNodes(*c->target);
    for (const ExprPtr& a : c->args) n += CountNodes(*a);
  } else if (const SelectExpr* s = e.as_select()) {
    n += CountNodes(*s->operand);
  } else if (const ListExpr* l = e.as_list()) {
    for (const ExprPtr& el : l->elements) n += CountNodes(*el);
  } else if (const StructExpr* st = e.as_struct()) {
    for (const StructEntry& entry : st->entries) {
      if (entry.key) n += CountNodes(*entry.key);
      if (entry.value) n += CountNodes(*entry.value);
    }
  } else if (const ComprehensionExpr* comp = e.as_comprehension()) {
    for (const ExprPtr* p : {&comp->iter_range, &comp->accu_init, &comp->loop_condition,
                             &comp->loop_step, &comp->result}) {
      if (*p) n += CountNodes(**p);
    }
  }
  return n;
}

class TypeChecker {
 public:
  TypeChecker(const Ast& ast, const Environment& env, const CheckerOptions& options)
      : ast_(ast), env_(env), options_(options) {
    result_.checked = CheckedAst(ast.max_id());
  }

  CheckResult Run() {
    // Ids are unique and start at 1, so max_id() bounds the node count: the walk that counts
    // runs only when the bound exceeds the limit (rare), never for the usual expression.
    const int nodes = ast_.max_id() <= options_.max_expression_node_count
                          ? 0
                          : CountNodes(ast_.root());
    if (nodes > options_.max_expression_node_count) {
      Error(ast_.root(), "cel.too-many-nodes",
            "expression has " + std::to_string(nodes) + " nodes, more than the limit of " +
                std::to_string(options_.max_expression_node_count));
      return std::move(result_);
    }
    Visit(ast_.root());
    // Only types that hold a variable change: the others are not copied onto themselves.
    for (Type& t : result_.checked.mutable_types()) {
      if (t.has_type_param()) t = checker_internal::SubstituteParams(mapping_, t, true);
    }
    result_.checked.SetResultType(result_.checked.TypeOf(ast_.root().id));
    // cel-go runs AST validators only on expressions that type-checked, and runs them all.
    // The validators' walks run only when the visit met a call they look at (every call is
    // visited when the expression checks), so the usual selector skips both.
    const bool checked_ok = result_.ok();
    if (env_.literal_validators() && checked_ok && saw_validated_literal_call_) {
      checker_internal::ValidateLiterals(ast_.root(), result_.issues);
    }
    if (env_.HasLibrary(Library::kStringsV2) && checked_ok && saw_format_call_) {
      checker_internal::ValidateFormatCalls(ast_.root(), result_.checked, result_.issues);
    }
    return std::move(result_);
  }

 private:
  void Visit(const Expr& e) {
    if (const ConstExpr* c = e.as_const()) return VisitConst(e, *c);
    if (const IdentExpr* i = e.as_ident()) return VisitIdent(e, *i);
    if (const SelectExpr* s = e.as_select()) return VisitSelect(e, *s);
    if (const CallExpr* c = e.as_call()) return VisitCall(e, *c);
    if (const ListExpr* l = e.as_list()) return VisitList(e, *l);
    if (const StructExpr* s = e.as_struct()) return VisitStruct(e, *s);
    if (const ComprehensionExpr* c = e.as_comprehension()) return VisitComprehension(e, *c);
    SetType(e, Type::Error());
  }

  void VisitConst(const Expr& e, const ConstExpr& c) {
    static const Type kTypes[] = {Type::Null(),   Type::Bool(),   Type::Int(),  Type::Uint(),
                                  Type::Double(), Type::String(), Type::Bytes()};
    SetType(e, kTypes[c.value.index()]);
  }

  void VisitIdent(const Expr& e, const IdentExpr& ident) {
    if (ResolveIdent(e, ident.name, /*from_select=*/false)) return;
    Undeclared(e, ident.name);
  }

  // Resolves `name` as a local, a variable or a type name and records it on `e`.
  bool ResolveIdent(const Expr& e, std::string_view name, bool from_select) {
    if (name.empty() || name.front() != '.') {
      for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
        if (it->first == name) {
          SetType(e, it->second);
          SetVariableRef(e, std::string(name), from_select);
          return true;
        }
      }
    }
    const bool rooted = !name.empty() && name.front() == '.';
    if (!env_.container().empty() || rooted) {
      for (const std::string& candidate : env_.CandidateNames(name)) {
        if (const Type* t = env_.FindVariable(candidate)) {
          SetType(e, *t);
          SetVariableRef(e, candidate, from_select);
          return true;
        }
      }
    } else if (const Type* t = env_.FindVariable(name)) {
      SetType(e, *t);
      SetVariableRef(e, std::string(name), from_select);
      return true;
    }
    std::string_view bare = rooted ? name.substr(1) : name;
    std::optional<Type> type_name = TypeNameType(bare);
    if (bare == "optional_type" && env_.HasLibrary(Library::kOptionals)) {
      type_name = Type::TypeOf(Type::Optional(Type::Dyn()));  // cel-go's optional library
    }
    if (const std::optional<Type>& t = type_name) {
      SetType(e, *t);
      SetVariableRef(e, std::string(bare), from_select);
      return true;
    }
    return false;
  }

  void SetVariableRef(const Expr& e, std::string name, bool from_select) {
    Reference& ref = result_.checked.AddReference(e.id);
    ref.name = std::move(name);
    ref.select_is_variable = from_select;
  }

  void VisitSelect(const Expr& e, const SelectExpr& sel) {
    if (const char* network_type = NetworkTypeName(sel)) {
      // The type identifiers net.IP and net.CIDR of the Kubernetes network libraries.
      SetType(e, Type::TypeOf(network_type == kIpTypeName ? IpType() : CidrType()));
      SetVariableRef(e, network_type, true);
      return;
    }
    if (!sel.test_only && (env_.has_dotted_variables() || !env_.container().empty())) {
      std::string qualified;
      if (ToQualifiedName(e, &qualified) && ResolveIdent(e, qualified, true)) return;
    }
    Type t = SelectField(e, *sel.operand, sel.field, /*optional=*/false);
    if (sel.test_only) t = Type::Bool();
    SetType(e, Substitute(mapping_, t, false));
  }

  // kIpTypeName or kCidrTypeName when `sel` spells `net.IP` or `net.CIDR` (the qualified name
  // of the select chain, unless a variable `net` shadows it) in an environment with the
  // network libraries; otherwise null.
  const char* NetworkTypeName(const SelectExpr& sel) {
    // Views, so each comparison is a length check first (std::string == const char* runs
    // strlen and compare on every select and call of every compile).
    const std::string_view field = sel.field;
    if (sel.test_only || (field != "IP" && field != "CIDR")) return nullptr;
    const IdentExpr* ident = sel.operand->as_ident();
    if (ident == nullptr || ident->name != "net" || !env_.HasLibrary(Library::kIp)) return nullptr;
    if (env_.FindVariable("net") != nullptr) return nullptr;
    return field == "IP" ? kIpTypeName : kCidrTypeName;
  }

  Type SelectField(const Expr& e, const Expr& operand, std::string_view field, bool optional) {
    Visit(operand);
    Type target = Substitute(mapping_, TypeOf(operand), false);
    if (target.kind() == TypeKind::kOptional) {
      optional = true;
      target = target.param(0);
    }
    Type result = Type::Dyn();
    switch (target.kind()) {
      case TypeKind::kMap:
        result = target.param(1);
        break;
      case TypeKind::kObject:
        result = ObjectField(e, target, field);
        break;
      case TypeKind::kTypeParam:
        Assignable(Type::Dyn(), target);
        break;
      default:
        if (!target.is_dyn_any_or_error()) {
          Error(e, "cel.field-selection",
                "type '" + target.DebugString() + "' does not support field selection");
        }
        break;
    }
    return optional ? Type::Optional(std::move(result)) : result;
  }

  Type ObjectField(const Expr& e, const Type& object, std::string_view field) {
    const ObjectTypeDecl* decl = env_.FindObjectType(object.name());
    const Type* t = decl == nullptr ? nullptr : decl->FindField(field);
    if (t != nullptr) return *t;
    Error(e, "cel.undefined-field", "undefined field '" + std::string(field) + "'");
    return Type::Error();
  }

  void VisitCall(const Expr& e, const CallExpr& call) {
    const std::string_view function = call.function;
    if (function == std::string_view(op::kOptSelect) && call.args.size() == 2 && !call.target) {
      return VisitOptSelect(e, call);
    }
    // The strings extension exempts every literal under a `format` call from Kubernetes'
    // homogeneous-literal rule (cel-go's HomogeneousAggregateLiteralExemptFunctions).
    const bool is_format = function == "format";
    saw_format_call_ = saw_format_call_ || is_format;
    saw_validated_literal_call_ =
        saw_validated_literal_call_ || checker_internal::IsLiteralValidatedCall(call);
    const bool exempt = is_format && env_.HasLibrary(Library::kStringsV2);
    homogeneity_exempt_depth_ += exempt ? 1 : 0;
    VisitCallChildren(e, call);
    homogeneity_exempt_depth_ -= exempt ? 1 : 0;
  }

  void VisitCallChildren(const Expr& e, const CallExpr& call) {
    for (const ExprPtr& arg : call.args) Visit(*arg);
    if (!call.target) {
      const FunctionDecl* fn = LookupFunction(call.function);
      if (fn == nullptr) return Undeclared(e, call.function);
      return ResolveOverload(e, *fn, nullptr, call.args, false);
    }
    std::string prefix;
    if (ToQualifiedName(*call.target, &prefix) &&
        (!env_.container().empty() || env_.IsFunctionNamespace(prefix))) {
      if (const FunctionDecl* fn = LookupFunction(prefix + "." + call.function)) {
        return ResolveOverload(e, *fn, nullptr, call.args, true);
      }
    }
    Visit(*call.target);
    const FunctionDecl* fn = LookupFunction(call.function);
    if (fn == nullptr) return Undeclared(e, call.function);
    ResolveOverload(e, *fn, call.target.get(), call.args, false);
  }

  void VisitOptSelect(const Expr& e, const CallExpr& call) {
    const ConstExpr* field = call.args[1]->as_const();
    const std::string* name = field ? std::get_if<std::string>(&field->value) : nullptr;
    if (name == nullptr) {
      Error(*call.args[1], "cel.type-mismatch", "unsupported optional field selection");
      SetType(e, Type::Error());
      return;
    }
    SetType(*call.args[1], Type::String());
    Type t = SelectField(e, *call.args[0], *name, /*optional=*/true);
    SetType(e, Substitute(mapping_, t, false));
    Reference ref;
    ref.name = op::kOptSelect;
    ref.overload_ids.push_back("select_optional_field");  // a literal: lives as long
    result_.checked.SetReference(e.id, std::move(ref));
  }

  const FunctionDecl* LookupFunction(std::string_view name) {
    const bool rooted = !name.empty() && name.front() == '.';
    if (env_.container().empty() || rooted) {
      return env_.FindFunction(rooted ? name.substr(1) : name);
    }
    for (const std::string& candidate : env_.CandidateNames(name)) {
      if (const FunctionDecl* fn = env_.FindFunction(candidate)) return fn;
    }
    return nullptr;
  }

  // Replaces the overload's declared type parameters with fresh type variables.
  Type Instantiate(const Type& t, TypeMapping& fresh) {
    if (!t.has_type_param()) return t;
    if (t.kind() == TypeKind::kTypeParam && fresh.Find(t) == nullptr) fresh.Add(t, NewTypeVar());
    for (const Type& p : t.params()) Instantiate(p, fresh);
    return Substitute(fresh, t, false);
  }

  void ResolveOverload(const Expr& e, const FunctionDecl& fn, const Expr* target,
                       const std::vector<ExprPtr>& args, bool namespaced) {
    // The argument types, in a vector kept across calls: children are visited before, and
    // nothing below recurses into ResolveOverload.
    std::vector<Type>& arg_types = args_scratch_;
    arg_types.clear();
    // One allocation for the usual arities (receiver and up to three arguments), instead of
    // growing through 1, 2, 4 on the first calls of a compile (the checker is made per compile).
    if (arg_types.capacity() < 4) arg_types.reserve(4);
    if (target != nullptr) arg_types.push_back(Substitute(mapping_, TypeOf(*target), false));
    for (const ExprPtr& a : args) arg_types.push_back(Substitute(mapping_, TypeOf(*a), false));
    OverloadIds ids;
    std::optional<Type> result;
    const bool concrete = options_.fit_concrete_overloads && !AnyHasTypeParam(arg_types);
    for (const OverloadDecl& o : fn.overloads) {
      if (o.member != (target != nullptr) || o.args.size() != arg_types.size()) continue;
      if (CannotMatch(arg_types, o.args)) continue;
      Type r;
      const Fit fit = concrete ? FitConcrete(o, arg_types, r) : Fit::kUnknown;
      if (fit == Fit::kNo) continue;
      if (fit == Fit::kUnknown && !FitGeneral(o, arg_types, r)) continue;
      ids.push_back(o.interned_id);
      if (!result) {
        result = std::move(r);
      } else if (!result->is_dyn_or_any() && !(r == *result)) {
        result = Type::Dyn();
      }
    }
    if (!result) return NoMatchingOverload(e, fn.name, arg_types, target != nullptr);
    SetType(e, *result);
    Reference& ref = result_.checked.AddReference(e.id);
    ref.name = fn.name;
    ref.target_is_namespace = namespaced;
    ref.overload_ids = std::move(ids);
  }

  enum class Fit { kNo, kYes, kUnknown };

  // A candidate against arguments that hold no type variable (the usual case: literals,
  // fields of `device`). Binding the overload's own parameters in a scratch mapping gives
  // the answer of FitGeneral without fresh variables: no argument can refer to a variable,
  // so the fresh variables FitGeneral would bind are referred to by nothing but the result,
  // which is resolved here. kUnknown when the result keeps a parameter that the arguments
  // did not bind (FitGeneral then decides, with the fresh variable in the result). The
  // fresh-variable counter advances as FitGeneral's would, so that the names of later
  // variables (which error messages may print) do not depend on the path taken.
  Fit FitConcrete(const OverloadDecl& o, const std::vector<Type>& arg_types, Type& result) {
    local_mapping_.Truncate(0);
    const bool fits = IsAssignableList(local_mapping_, arg_types, o.args);
    if (fits) {
      result = Substitute(local_mapping_, o.result, false);
      if (result.has_type_param()) return Fit::kUnknown;
    }
    // Counted once by EnvironmentBuilder, the only way into an Environment's functions.
    next_var_ += o.type_param_count;
    return fits ? Fit::kYes : Fit::kNo;
  }

  // A candidate with its type parameters renamed to fresh variables, unified in the
  // expression-wide mapping (bindings kept on success, undone on failure).
  bool FitGeneral(const OverloadDecl& o, const std::vector<Type>& arg_types, Type& result) {
    TypeMapping fresh;
    // The candidate's parameter types, in a vector kept across candidates and calls.
    std::vector<Type>& params = params_scratch_;
    params.clear();
    for (const Type& p : o.args) params.push_back(Instantiate(p, fresh));
    const Type declared_result = Instantiate(o.result, fresh);
    const size_t mark = mapping_.size();
    if (!IsAssignableList(mapping_, arg_types, params)) {
      mapping_.Truncate(mark);
      return false;
    }
    result = Substitute(mapping_, declared_result, false);
    return true;
  }

  void NoMatchingOverload(const Expr& e, const std::string& name, std::vector<Type>& args,
                          bool member) {
    std::string sig;
    size_t first = 0;
    if (member && !args.empty()) {
      sig = Substitute(mapping_, args[0], true).DebugString() + ".";
      first = 1;
    }
    sig += "(";
    for (size_t i = first; i < args.size(); ++i) {
      if (i > first) sig += ", ";
      sig += Substitute(mapping_, args[i], true).DebugString();
    }
    sig += ")";
    Error(e, "cel.no-matching-overload",
          "found no matching overload for '" + name + "' applied to '" + sig + "'");
    SetType(e, Type::Error());
  }

  void VisitList(const Expr& e, const ListExpr& list) {
    std::optional<Type> elem;
    for (size_t i = 0; i < list.elements.size(); ++i) {
      const Expr& el = *list.elements[i];
      Visit(el);
      Type t = TypeOf(el);
      if (IsOptionalIndex(list, i)) t = UnwrapOptional(el, t);
      elem = Join(el, elem, t);
    }
    SetType(e, Type::List(elem ? *elem : NewTypeVar()));
  }

  static bool IsOptionalIndex(const ListExpr& list, size_t i) {
    for (int32_t idx : list.optional_indices) {
      if (static_cast<size_t>(idx) == i) return true;
    }
    return false;
  }

  Type UnwrapOptional(const Expr& e, const Type& t) {
    if (t.kind() == TypeKind::kOptional) return t.param(0);
    if (!t.is_dyn_or_any()) TypeMismatch(e, Type::Optional(t), t);
    return t;
  }

  void VisitStruct(const Expr& e, const StructExpr& st) {
    if (!st.message_name.empty()) {
      for (const StructEntry& entry : st.entries) {
        if (entry.value) Visit(*entry.value);
      }
      return Undeclared(e, st.message_name);
    }
    std::optional<Type> key_type, value_type;
    for (const StructEntry& entry : st.entries) {
      if (!entry.key || !entry.value) continue;
      Visit(*entry.key);
      key_type = Join(*entry.key, key_type, TypeOf(*entry.key));
      Visit(*entry.value);
      Type vt = TypeOf(*entry.value);
      if (entry.optional) vt = UnwrapOptional(*entry.value, vt);
      value_type = Join(*entry.value, value_type, vt);
    }
    if (!key_type) {
      key_type = NewTypeVar();
      value_type = NewTypeVar();
    }
    SetType(e, Type::Map(*key_type, *value_type));
  }

  Type Join(const Expr& e, const std::optional<Type>& previous, const Type& current) {
    if (!previous) return current;
    if (Assignable(*previous, current)) return MostGeneral(*previous, current);
    if (!env_.homogeneous_aggregate_literals() || homogeneity_exempt_depth_ > 0) {
      return Type::Dyn();
    }
    TypeMismatch(e, *previous, current);
    return Type::Error();
  }

  void VisitComprehension(const Expr& e, const ComprehensionExpr& c) {
    Visit(*c.iter_range);
    Visit(*c.accu_init);
    const Type range = Substitute(mapping_, TypeOf(*c.iter_range), false);
    const Type accu = TypeOf(*c.accu_init);
    scopes_.emplace_back(c.accu_var, accu);
    Type var = Type::Error(), var2 = Type::Error();
    const bool two = !c.iter_var2.empty();
    switch (range.kind()) {
      case TypeKind::kList:
        var = two ? Type::Int() : range.param(0);
        var2 = range.param(0);
        break;
      case TypeKind::kMap:
        var = range.param(0);
        var2 = range.param(1);
        break;
      case TypeKind::kDyn:
      case TypeKind::kError:
      case TypeKind::kTypeParam:
        Assignable(Type::Dyn(), range);
        var = var2 = Type::Dyn();
        break;
      default:
        Error(*c.iter_range, "cel.comprehension-range",
              "expression of type '" + range.DebugString() +
                  "' cannot be the range of a comprehension (must be list, map, or dynamic)");
        break;
    }
    const size_t mark = scopes_.size();
    scopes_.emplace_back(c.iter_var, var);
    if (two) scopes_.emplace_back(c.iter_var2, var2);
    Visit(*c.loop_condition);
    AssertType(*c.loop_condition, Type::Bool());
    Visit(*c.loop_step);
    AssertType(*c.loop_step, accu);
    scopes_.resize(mark);
    Visit(*c.result);
    scopes_.pop_back();
    SetType(e, Substitute(mapping_, TypeOf(*c.result), false));
  }

  void AssertType(const Expr& e, const Type& expected) {
    if (!Assignable(expected, TypeOf(e))) TypeMismatch(e, expected, TypeOf(e));
  }

  bool Assignable(const Type& actual, const Type& expected) {
    const size_t mark = mapping_.size();
    if (IsAssignable(mapping_, actual, expected)) return true;
    mapping_.Truncate(mark);
    return false;
  }

  Type NewTypeVar() { return Type::Param("_var" + std::to_string(next_var_++)); }

  const Type& TypeOf(const Expr& e) const { return result_.checked.TypeOf(e.id); }
  void SetType(const Expr& e, Type t) { result_.checked.SetType(e.id, std::move(t)); }

  void TypeMismatch(const Expr& e, const Type& expected, const Type& found) {
    Error(e, "cel.type-mismatch",
          "expected type '" + expected.DebugString() + "' but found '" + found.DebugString() +
              "'");
  }

  void Undeclared(const Expr& e, std::string_view name) {
    Error(e, "cel.undeclared-reference",
          "undeclared reference to '" + std::string(name) + "' (in container '" +
              env_.container() + "')");
    SetType(e, Type::Error());
  }

  void Error(const Expr& e, std::string code, std::string message) {
    if (errors_++ >= options_.max_error_issues) return;
    Diagnostic& d = result_.issues.Error(std::move(code), FieldPath(), std::move(message));
    d.value_offset = e.offset;
  }

  const Ast& ast_;
  const Environment& env_;
  const CheckerOptions& options_;
  CheckResult result_;
  TypeMapping mapping_;
  std::vector<std::pair<std::string_view, Type>> scopes_;
  std::vector<Type> params_scratch_;  // ResolveOverload's candidate parameters
  std::vector<Type> args_scratch_;    // ResolveOverload's argument types
  TypeMapping local_mapping_;         // FitConcrete's bindings of one candidate
  int next_var_ = 0;
  int errors_ = 0;
  int homogeneity_exempt_depth_ = 0;
  bool saw_format_call_ = false;             // ValidateFormatCalls has a call to look at
  bool saw_validated_literal_call_ = false;  // ValidateLiterals has a call to look at
};

}  // namespace

CheckResult Check(const Ast& ast, const Environment& env, const CheckerOptions& options) {
  return TypeChecker(ast, env, options).Run();
}

}  // namespace draguard::cel
