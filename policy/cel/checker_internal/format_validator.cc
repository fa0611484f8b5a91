// cel-go's stringFormatValidator (ext/formatting.go), on our AST: the clause walk is the
// runtime's (internal/format_string.h) with cel-go's validator order of checks, and each
// clause compares the kind of the consumed element's type with the kinds the verb accepts.
#include "policy/cel/checker_internal/format_validator.h"

#include <initializer_list>
#include <optional>
#include <string>

#include "policy/cel/internal/format_string.h"

namespace draguard::cel::checker_internal {
namespace {

using internal::FormatClause;

// The string literal target and list literal argument of a call cel-go validates.
struct FormatCall {
  const std::string* format = nullptr;
  const ListExpr* args = nullptr;
};

std::optional<FormatCall> MatchFormatCall(const Expr& e, const CheckedAst& checked) {
  const CallExpr* call = e.as_call();
  if (call == nullptr || !call->target || call->function != "format" || call->args.size() != 1) {
    return std::nullopt;
  }
  if (const Reference* ref = checked.ReferenceOf(e.id); ref && !ref->overload_ids.empty()) {
    bool found = false;
    for (const std::string_view id : ref->overload_ids) found = found || id == "string_format";
    if (!found) return std::nullopt;
  }
  const ConstExpr* target = call->target->as_const();
  const std::string* format = target ? std::get_if<std::string>(&target->value) : nullptr;
  const ListExpr* args = call->args[0]->as_list();
  if (format == nullptr || args == nullptr) return std::nullopt;
  return FormatCall{format, args};
}

class CheckerFormat final : public internal::FormatCallbacks {
 public:
  CheckerFormat(const ListExpr& args, const CheckedAst& checked) : args_(args), checked_(checked) {}

  size_t ArgCount() const override { return args_.elements.size(); }
  void Literal(std::string_view) override {}
  std::optional<std::string> Clause(size_t index, const FormatClause& clause) override {
    ++requested_;
    const Expr& arg = *args_.elements[index];
    switch (clause.verb) {
      case 's': return CheckString(arg);
      case 'd': return Check(arg, {TypeKind::kInt, TypeKind::kUint}, "decimal clause can only be used on integers");
      case 'o': return Check(arg, {TypeKind::kInt, TypeKind::kUint}, "octal clause can only be used on integers");
      case 'b':
        return Check(arg, {TypeKind::kInt, TypeKind::kUint, TypeKind::kBool},
                     "only integers and bools can be formatted as binary");
      case 'x':
      case 'X':
        return Check(arg, {TypeKind::kInt, TypeKind::kUint, TypeKind::kString, TypeKind::kBytes},
                     "only integers, byte buffers, and strings can be formatted as hex");
      case 'f':  // strings too: "NaN", "Infinity" and "-Infinity" are accepted at run time
        return Check(arg, {TypeKind::kDouble, TypeKind::kString},
                     "fixed-point clause can only be used on doubles");
      default:
        return Check(arg, {TypeKind::kDouble, TypeKind::kString},
                     "scientific clause can only be used on doubles");
    }
  }

  size_t requested() const { return requested_; }
  // The element a type error is about; null for parse errors.
  const Expr* bad() const { return bad_; }

 private:
  bool Accepts(const Expr& e, std::initializer_list<TypeKind> kinds) const {
    const Type& t = checked_.TypeOf(e.id);
    if (t.kind() == TypeKind::kDyn) return true;
    for (TypeKind k : kinds) {
      if (t.kind() == k) return true;
    }
    return false;
  }

  std::optional<std::string> Check(const Expr& e, std::initializer_list<TypeKind> kinds,
                                   std::string_view refusal) {
    if (Accepts(e, kinds)) return std::nullopt;
    bad_ = &e;
    return std::string(refusal) + ", was given " + checked_.TypeOf(e.id).TypeName();
  }

  // %s accepts every printable kind, and looks inside list and map literals.
  std::optional<std::string> CheckString(const Expr& e) {
    static constexpr std::initializer_list<TypeKind> kPrintable = {
        TypeKind::kList,   TypeKind::kMap,       TypeKind::kInt,   TypeKind::kUint,
        TypeKind::kDouble, TypeKind::kBool,      TypeKind::kString, TypeKind::kTimestamp,
        TypeKind::kBytes,  TypeKind::kDuration,  TypeKind::kType,  TypeKind::kNull};
    if (auto err = Check(e, kPrintable,
                         "string clause can only be used on strings, bools, bytes, ints, doubles, "
                         "maps, lists, types, durations, and timestamps")) {
      return err;
    }
    std::optional<std::string> err;
    if (e.as_list() != nullptr || e.as_struct() != nullptr) {
      ForEachChild(e, [&](const Expr& child) {
        if (!err) err = CheckString(child);
      });
    }
    return err;
  }

  const ListExpr& args_;
  const CheckedAst& checked_;
  size_t requested_ = 0;
  const Expr* bad_ = nullptr;
};

void ValidateCall(const Expr& call, const FormatCall& match, const CheckedAst& checked,
                  Diagnostics& issues) {
  CheckerFormat format(*match.args, checked);
  const internal::FormatWalkOptions options{.argument_before_clause = false, .max_precision = 0};
  if (auto err = internal::WalkFormatString(*match.format, format, options)) {
    Diagnostic& d = issues.Error("cel.invalid-format", FieldPath(), *err);
    d.value_offset = format.bad() != nullptr ? format.bad()->offset : call.offset;
    return;
  }
  if (match.args->elements.size() > format.requested()) {
    Diagnostic& d = issues.Error(
        "cel.invalid-format", FieldPath(),
        "too many arguments supplied to string.format (expected " +
            std::to_string(format.requested()) + ", got " +
            std::to_string(match.args->elements.size()) + ")");
    d.value_offset = call.offset;
  }
}

void Visit(const Expr& e, const CheckedAst& checked, Diagnostics& issues) {
  if (std::optional<FormatCall> match = MatchFormatCall(e, checked)) {
    ValidateCall(e, *match, checked, issues);
  }
  ForEachChild(e, [&](const Expr& child) { Visit(child, checked, issues); });
}

}  // namespace

void ValidateFormatCalls(const Expr& root, const CheckedAst& checked, Diagnostics& issues) {
  Visit(root, checked, issues);
}

}  // namespace draguard::cel::checker_internal
