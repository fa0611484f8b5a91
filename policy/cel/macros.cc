// Macro expansion. Every comprehension uses the accumulator "@result" (kAccumulatorName),
// except cel.bind and the optional macros, whose accumulator is the bound variable and whose
// iteration range is an empty list (cel-go's "#unused" iteration variable):
//   all(x, p):        init true,  cond @not_strictly_false(@result),     step @result && p
//   exists(x, p):     init false, cond @not_strictly_false(!@result),    step @result || p
//   exists_one(x, p): init 0,     cond true, step p ? @result + 1 : @result, result @result == 1
//   map(x, [p,] t):   init [],    cond true, step [p ?] @result + [t] [: @result]
//   filter(x, p):     init [],    cond true, step p ? @result + [x] : @result
//   transformList(i, v, [p,] t):    as map over two variables
//   transformMap(k, v, [p,] t):     init {}, step cel.@mapInsert(@result, k, t)
//   transformMapEntry(k, v, [p,] e): init {}, step cel.@mapInsert(@result, e)
//   cel.bind(v, init, e):           range [], accu v = init, cond false, step v, result e
//   o.optMap(v, t):     o.hasValue() ? optional.of(bind(v, o.value(), t)) : optional.none()
//   o.optFlatMap(v, t): o.hasValue() ? bind(v, o.value(), t) : optional.none()
//   l.sortBy(v, k):     @sortByAssociatedKeys(l, l.map(v, k))
#include "policy/cel/macros.h"

#include "policy/cel/internal/expr_factory.h"
#include "policy/cel/operators.h"

namespace draguard::cel {
namespace {

using internal::ExprFactory;
using internal::Exprs;

constexpr char kUnusedIterVar[] = "#unused";
// Expansion nodes are created with this id and numbered afterwards in a fixed post-order
// (children before parents), since C++ leaves argument evaluation order unspecified.
constexpr int64_t kPendingId = 0;
constexpr char kMapInsert[] = "cel.@mapInsert";

bool IsIdent(const Expr* e, std::string_view name) {
  const IdentExpr* ident = e ? e->as_ident() : nullptr;
  return ident != nullptr && ident->name == name;
}

bool IsStandard(std::string_view f, bool receiver, size_t n) {
  if (!receiver) return f == "has" && n == 1;
  if (f == "all" || f == "exists" || f == "exists_one" || f == "existsOne" || f == "filter") {
    return n == 2;
  }
  return f == "map" && (n == 2 || n == 3);
}

bool IsTwoVar(std::string_view f, size_t n) {
  if (f == "all" || f == "exists" || f == "existsOne") return n == 3;
  return (f == "transformList" || f == "transformMap" || f == "transformMapEntry") &&
         (n == 3 || n == 4);
}

class Expander {
 public:
  Expander(ExprFactory& f, int32_t offset, MacroError& error)
      : f_(f), offset_(offset), error_(error) {}

  ExprPtr Accu() { return f_.Ident(kPendingId, offset_, kAccumulatorName); }
  ExprPtr Bool(bool b) { return f_.Const(kPendingId, offset_, b); }
  ExprPtr Int(int64_t i) { return f_.Const(kPendingId, offset_, i); }
  ExprPtr Call(std::string_view fn, std::vector<ExprPtr> args, ExprPtr target = nullptr) {
    return f_.Call(kPendingId, offset_, std::string(fn), std::move(args), std::move(target));
  }
  ExprPtr List(std::vector<ExprPtr> elements) {
    return f_.List(kPendingId, offset_, std::move(elements));
  }
  ExprPtr Map() {
    ExprPtr e = f_.New(kPendingId, offset_);
    e->kind = StructExpr{};
    return e;
  }
  ExprPtr Fold(ExprPtr range, std::string var, std::string var2, std::string accu,
               ExprPtr init, ExprPtr cond, ExprPtr step, ExprPtr result) {
    ComprehensionExpr c{std::move(var),  std::move(var2), std::move(range),
                        std::move(accu), std::move(init), std::move(cond),
                        std::move(step), std::move(result)};
    return f_.Comprehension(kPendingId, offset_, std::move(c));
  }
  ExprPtr Fail(const Expr& at, std::string message) {
    error_ = MacroError{at.offset, 1, std::move(message)};
    return nullptr;
  }
  ExprFactory& factory() { return f_; }

 private:
  ExprFactory& f_;
  int32_t offset_;
  MacroError& error_;
};

const std::string* IdentName(const Expr& e) {
  const IdentExpr* ident = e.as_ident();
  return ident != nullptr ? &ident->name : nullptr;
}

ExprPtr ExpandHas(Expander& x, std::vector<ExprPtr>& args) {
  SelectExpr* s = args[0]->as_select();
  if (s == nullptr || s->test_only) return x.Fail(*args[0], "invalid argument to has() macro");
  ExprFactory& f = x.factory();
  return f.Select(f.NextId(), args[0]->offset, std::move(s->operand), std::move(s->field), true);
}

// all / exists / exists_one / existsOne over one (vars == 1) or two variables.
ExprPtr ExpandQuantifier(Expander& x, std::string_view fn, ExprPtr target,
                         std::vector<ExprPtr>& args, std::string var, std::string var2) {
  ExprPtr pred = std::move(args.back());
  ExprPtr init, cond, step, result;
  if (fn == "all") {
    init = x.Bool(true);
    cond = x.Call(op::kNotStrictlyFalse, Exprs(x.Accu()));
    step = x.Call(op::kLogicalAnd, Exprs(x.Accu(), std::move(pred)));
    result = x.Accu();
  } else if (fn == "exists") {
    init = x.Bool(false);
    cond = x.Call(op::kNotStrictlyFalse, Exprs(x.Call(op::kLogicalNot, Exprs(x.Accu()))));
    step = x.Call(op::kLogicalOr, Exprs(x.Accu(), std::move(pred)));
    result = x.Accu();
  } else {
    init = x.Int(0);
    cond = x.Bool(true);
    step = x.Call(op::kConditional,
                  Exprs(std::move(pred), x.Call(op::kAdd, Exprs(x.Accu(), x.Int(1))), x.Accu()));
    result = x.Call(op::kEquals, Exprs(x.Accu(), x.Int(1)));
  }
  return x.Fold(std::move(target), std::move(var), std::move(var2), kAccumulatorName,
                std::move(init), std::move(cond), std::move(step), std::move(result));
}

ExprPtr WithFilter(Expander& x, ExprPtr filter, ExprPtr step) {
  if (!filter) return step;
  return x.Call(op::kConditional, Exprs(std::move(filter), std::move(step), x.Accu()));
}

ExprPtr ExpandMap(Expander& x, ExprPtr target, std::vector<ExprPtr>& args, std::string var) {
  ExprPtr fn = std::move(args.back());
  ExprPtr filter = args.size() == 3 ? std::move(args[1]) : nullptr;
  ExprPtr step = x.Call(op::kAdd, Exprs(x.Accu(), x.List(Exprs(std::move(fn)))));
  step = WithFilter(x, std::move(filter), std::move(step));
  return x.Fold(std::move(target), std::move(var), "", kAccumulatorName, x.List({}), x.Bool(true),
                std::move(step), x.Accu());
}

ExprPtr ExpandFilter(Expander& x, ExprPtr target, std::vector<ExprPtr>& args, std::string var) {
  ExprPtr step = x.Call(op::kAdd, Exprs(x.Accu(), x.List(Exprs(std::move(args[0])))));
  step = WithFilter(x, std::move(args[1]), std::move(step));
  return x.Fold(std::move(target), std::move(var), "", kAccumulatorName, x.List({}), x.Bool(true),
                std::move(step), x.Accu());
}

// transformList / transformMap / transformMapEntry with 3 or 4 arguments.
ExprPtr ExpandTransform(Expander& x, std::string_view fn, ExprPtr target,
                        std::vector<ExprPtr>& args, std::string var, std::string var2) {
  ExprPtr value = std::move(args.back());
  ExprPtr filter = args.size() == 4 ? std::move(args[2]) : nullptr;
  ExprPtr init, step;
  if (fn == "transformList") {
    init = x.List({});
    step = x.Call(op::kAdd, Exprs(x.Accu(), x.List(Exprs(std::move(value)))));
  } else if (fn == "transformMap") {
    init = x.Map();
    ExprPtr key = x.factory().Copy(*args[0]);
    step = x.Call(kMapInsert, Exprs(x.Accu(), std::move(key), std::move(value)));
  } else {
    init = x.Map();
    step = x.Call(kMapInsert, Exprs(x.Accu(), std::move(value)));
  }
  step = WithFilter(x, std::move(filter), std::move(step));
  return x.Fold(std::move(target), std::move(var), std::move(var2), kAccumulatorName,
                std::move(init), x.Bool(true), std::move(step), x.Accu());
}

// A let-binding: `var` = init, evaluated once, then `result`.
ExprPtr Bind(Expander& x, std::string var, ExprPtr init, ExprPtr result) {
  ExprFactory& f = x.factory();
  ExprPtr step = f.Ident(kPendingId, init->offset, var);
  return x.Fold(x.List({}), kUnusedIterVar, "", std::move(var), std::move(init), x.Bool(false),
                std::move(step), std::move(result));
}

ExprPtr ExpandOptional(Expander& x, std::string_view fn, ExprPtr target,
                       std::vector<ExprPtr>& args) {
  const std::string* var = IdentName(*args[0]);
  if (var == nullptr) {
    return x.Fail(*args[0], std::string(fn) + "() variable name must be a simple identifier");
  }
  ExprFactory& f = x.factory();
  ExprPtr copy = f.Copy(*target);
  ExprPtr has_value = x.Call("hasValue", {}, std::move(target));
  ExprPtr value = x.Call("value", {}, std::move(copy));
  ExprPtr body = Bind(x, *var, std::move(value), std::move(args[1]));
  if (fn == "optMap") body = x.Call("optional.of", Exprs(std::move(body)));
  return x.Call(op::kConditional,
                Exprs(std::move(has_value), std::move(body), x.Call("optional.none", {})));
}

ExprPtr ExpandSortBy(Expander& x, ExprPtr target, std::vector<ExprPtr>& args) {
  const std::string* var = IdentName(*args[0]);
  if (var == nullptr) {
    return x.Fail(*args[0], "sortBy(var, ...) variable name must be simple identifiers");
  }
  ExprPtr range = x.factory().Copy(*target);
  ExprPtr step = x.Call(op::kAdd, Exprs(x.Accu(), x.List(Exprs(std::move(args[1])))));
  ExprPtr keys = x.Fold(std::move(range), *var, "", kAccumulatorName, x.List({}), x.Bool(true),
                        std::move(step), x.Accu());
  return x.Call("@sortByAssociatedKeys", Exprs(std::move(target), std::move(keys)));
}

// Receiver macros whose first one or two arguments are iteration variables.
ExprPtr ExpandComprehension(Expander& x, std::string_view fn, ExprPtr target,
                            std::vector<ExprPtr>& args) {
  bool two_var = IsTwoVar(fn, args.size());  // never true for map / filter
  bool simple_name_message = fn != "map" && fn != "filter";
  const std::string* var = IdentName(*args[0]);
  if (var == nullptr) {
    return x.Fail(*args[0], simple_name_message ? "argument must be a simple name"
                                                : "argument is not an identifier");
  }
  std::string var2;
  if (two_var) {
    const std::string* second = IdentName(*args[1]);
    if (second == nullptr) return x.Fail(*args[1], "argument must be a simple name");
    if (*second == *var) return x.Fail(*args[1], "duplicate variable name: " + *var);
    var2 = *second;
  }
  if (fn == "map") return ExpandMap(x, std::move(target), args, *var);
  if (fn == "filter") return ExpandFilter(x, std::move(target), args, *var);
  if (fn.substr(0, 9) == "transform") {
    return ExpandTransform(x, fn, std::move(target), args, *var, std::move(var2));
  }
  return ExpandQuantifier(x, fn, std::move(target), args, *var, std::move(var2));
}

ExprPtr ExpandWith(ExprFactory& factory, int32_t offset, std::string_view function,
                   ExprPtr target, std::vector<ExprPtr> args, MacroError& error);

}  // namespace

bool IsMacroCall(std::string_view function, const Expr* target, size_t arg_count,
                 const ParserOptions& options) {
  bool receiver = target != nullptr;
  if (options.enable_standard_macros && IsStandard(function, receiver, arg_count)) return true;
  if (!receiver) return false;
  if (options.enable_two_var_comprehensions && IsTwoVar(function, arg_count)) return true;
  if (options.enable_bindings_macro && function == "bind" && arg_count == 3 &&
      IsIdent(target, "cel")) {
    return true;
  }
  if (options.enable_optional_macros && (function == "optMap" || function == "optFlatMap")) {
    return arg_count == 2;
  }
  return options.enable_lists_macros && function == "sortBy" && arg_count == 2;
}

ExprPtr ExpandMacro(ExprFactory& factory, int32_t offset, std::string_view function,
                    ExprPtr target, std::vector<ExprPtr> args, MacroError& error) {
  ExprPtr out = ExpandWith(factory, offset, function, std::move(target), std::move(args), error);
  if (out) factory.AssignPendingIds(*out);
  return out;
}

namespace {

ExprPtr ExpandWith(ExprFactory& factory, int32_t offset, std::string_view function,
                   ExprPtr target, std::vector<ExprPtr> args, MacroError& error) {
  Expander x(factory, offset, error);
  if (!target) return ExpandHas(x, args);
  if (function == "bind") {
    const std::string* var = IdentName(*args[0]);
    if (var == nullptr) {
      return x.Fail(*args[0], "cel.bind() variable names must be simple identifiers");
    }
    return Bind(x, *var, std::move(args[1]), std::move(args[2]));
  }
  if (function == "optMap" || function == "optFlatMap") {
    return ExpandOptional(x, function, std::move(target), args);
  }
  if (function == "sortBy") return ExpandSortBy(x, std::move(target), args);
  return ExpandComprehension(x, function, std::move(target), args);
}

}  // namespace
}  // namespace draguard::cel
