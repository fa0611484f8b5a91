// Deciding a selector from its parsed tree (direct_predicate.h).
#include "policy/cel/direct_predicate.h"

#include <string>
#include <variant>

#include "policy/cel/operators.h"

namespace draguard::cel {
namespace {

using op::kEquals;
using op::kIndex;
using op::kLogicalAnd;
using op::kLogicalNot;
using op::kLogicalOr;
using op::kNotEquals;

bool IsLogic(std::string_view f) { return f == kLogicalAnd || f == kLogicalOr; }
bool IsEquality(std::string_view f) { return f == kEquals || f == kNotEquals; }
bool IsTextTest(std::string_view f) {
  return f == "startsWith" || f == "endsWith" || f == "contains";
}

// A constant the subset compares: a string of at most kMaxText bytes, an int or a bool.
bool PlainConstant(const Expr& e) {
  const ConstExpr* c = e.as_const();
  if (c == nullptr) return false;
  if (const std::string* s = std::get_if<std::string>(&c->value)) {
    return s->size() <= DirectLimits::kMaxText;
  }
  return std::holds_alternative<int64_t>(c->value) || std::holds_alternative<bool>(c->value);
}

class Checker {
 public:
  explicit Checker(std::string_view variable) : variable_(variable) {}

  bool Bool(const Expr& e) {
    if (++nodes_ > DirectLimits::kMaxNodes) return false;
    const CallExpr* call = e.as_call();
    if (call == nullptr) return Operand(e);  // a bool constant or chain
    if (IsLogic(call->function)) {
      if (call->target || call->args.size() < 2) return false;
      for (const ExprPtr& a : call->args) {
        if (!Bool(*a)) return false;
      }
      return true;
    }
    if (call->function == kLogicalNot) {
      return !call->target && call->args.size() == 1 && Bool(*call->args[0]);
    }
    if (IsEquality(call->function)) {
      return !call->target && call->args.size() == 2 && Operand(*call->args[0]) &&
             Operand(*call->args[1]);
    }
    if (IsTextTest(call->function)) {
      return call->target && call->args.size() == 1 && Operand(*call->target) &&
             Operand(*call->args[0]);
    }
    return false;
  }

 private:
  // A constant, or a chain of field selections and constant-string indexes on the variable.
  bool Operand(const Expr& e) {
    if (++nodes_ > DirectLimits::kMaxNodes) return false;
    if (e.as_const() != nullptr) return PlainConstant(e);
    if (const IdentExpr* id = e.as_ident()) return id->name == variable_;
    if (const SelectExpr* sel = e.as_select()) {
      return !sel->test_only && sel->field.size() <= DirectLimits::kMaxText &&
             Operand(*sel->operand) && sel->operand->as_const() == nullptr;
    }
    if (const CallExpr* call = e.as_call()) {
      if (call->function != kIndex || call->target || call->args.size() != 2) return false;
      const ConstExpr* key = call->args[1]->as_const();
      return key != nullptr && std::holds_alternative<std::string>(key->value) &&
             PlainConstant(*call->args[1]) && Operand(*call->args[0]) &&
             call->args[0]->as_const() == nullptr;
    }
    return false;
  }

  std::string_view variable_;
  size_t nodes_ = 0;
};

// Evaluation: an operand is a pointer to the value it names (in the variable's value or
// `scratch` for a constant), null to bail.
class Walker {
 public:
  explicit Walker(const Value& value) : value_(value) {}

  DirectOutcome Bool(const Expr& e) {
    const CallExpr* call = e.as_call();
    if (call == nullptr || call->function == kIndex) {
      Value scratch;
      const Value* v = Operand(e, scratch);
      if (v == nullptr || !v->is_bool()) return DirectOutcome::kBail;
      return v->bool_value() ? DirectOutcome::kTrue : DirectOutcome::kFalse;
    }
    const std::string& f = call->function;
    if (IsLogic(f)) {
      // The first operand that decides (false for &&, true for ||) is the answer, as in the
      // planned program; an operand that bails leaves the answer to it.
      const DirectOutcome decides = f == kLogicalAnd ? DirectOutcome::kFalse : DirectOutcome::kTrue;
      for (const ExprPtr& a : call->args) {
        const DirectOutcome o = Bool(*a);
        if (o == DirectOutcome::kBail || o == decides) return o;
      }
      return decides == DirectOutcome::kFalse ? DirectOutcome::kTrue : DirectOutcome::kFalse;
    }
    if (f == kLogicalNot) {
      const DirectOutcome o = Bool(*call->args[0]);
      if (o == DirectOutcome::kBail) return o;
      return o == DirectOutcome::kTrue ? DirectOutcome::kFalse : DirectOutcome::kTrue;
    }
    Value left_scratch, right_scratch;
    const Value* left = Operand(call->target ? *call->target : *call->args[0], left_scratch);
    if (left == nullptr) return DirectOutcome::kBail;
    const Value* right = Operand(call->target ? *call->args[0] : *call->args[1], right_scratch);
    if (right == nullptr || left->kind() != right->kind()) return DirectOutcome::kBail;
    bool result = false;
    if (IsEquality(f)) {
      switch (left->kind()) {
        case Kind::kString: result = left->text() == right->text(); break;
        case Kind::kInt: result = left->int_value() == right->int_value(); break;
        case Kind::kBool: result = left->bool_value() == right->bool_value(); break;
        default: return DirectOutcome::kBail;
      }
      if (f == kNotEquals) result = !result;
    } else {
      if (left->kind() != Kind::kString) return DirectOutcome::kBail;
      const std::string_view text = left->text(), part = right->text();
      if (f == "startsWith") result = text.starts_with(part);
      else if (f == "endsWith") result = text.ends_with(part);
      else result = text.find(part) != std::string_view::npos;
    }
    return result ? DirectOutcome::kTrue : DirectOutcome::kFalse;
  }

 private:
  const Value* Operand(const Expr& e, Value& scratch) {
    if (const ConstExpr* c = e.as_const()) {
      if (const std::string* s = std::get_if<std::string>(&c->value)) {
        scratch = Value::StringView(*s);
      } else if (const int64_t* i = std::get_if<int64_t>(&c->value)) {
        scratch = Value::Int(*i);
      } else {
        scratch = Value::Bool(std::get<bool>(c->value));
      }
      return &scratch;
    }
    // A chain: its keys gathered walking down to the variable (DirectlyEvaluable allows no
    // other root), then looked up from the variable's value down.
    const std::string* keys[DirectLimits::kMaxNodes];  // no more nodes than that
    size_t depth = 0;
    for (const Expr* at = &e; at->as_ident() == nullptr; ++depth) {
      if (const SelectExpr* sel = at->as_select()) {
        keys[depth] = &sel->field;
        at = sel->operand.get();
      } else {
        const CallExpr& index = *at->as_call();
        keys[depth] = &std::get<std::string>(index.args[1]->as_const()->value);
        at = index.args[0].get();
      }
    }
    const Value* v = &value_;
    while (depth > 0) {
      if (v->kind() != Kind::kMap) return nullptr;
      v = FindString(v->map(), *keys[--depth]);
      if (v == nullptr) return nullptr;
    }
    return Checked(v);
  }

  // MapData::Find for a string key: only string keys can equal it.
  static const Value* FindString(const MapData& map, std::string_view key) {
    for (const auto& [k, v] : map.entries) {
      if (k.kind() == Kind::kString && k.text() == key) return &v;
    }
    return nullptr;
  }

  // `v` unless it is a string too long for the subset's cost bound (or null).
  static const Value* Checked(const Value* v) {
    if (v != nullptr && v->kind() == Kind::kString && v->text().size() > DirectLimits::kMaxText) {
      return nullptr;
    }
    return v;
  }

  const Value& value_;
};

}  // namespace

bool DirectlyEvaluable(const Expr& root, std::string_view variable) {
  return Checker(variable).Bool(root);
}

DirectOutcome EvaluateDirect(const Expr& root, std::string_view variable, const Value& value) {
  (void)variable;  // DirectlyEvaluable made it the tree's only identifier
  return Walker(value).Bool(root);
}

}  // namespace draguard::cel
