// Tree-walking evaluation of planned nodes. Errors are values; the non-strict operators
// (&&, ||, ternary, @not_strictly_false) implement cel-spec's absorption rules, and
// every other call returns its first error argument without running the function.
// Cost: 1 per non-constant node, checked against RuntimeOptions::cost_limit; exceeding
// it (or the iteration limit, or an interrupt) cancels the whole evaluation.
#include "policy/cel/evaluator.h"

#include <array>

namespace draguard::cel {
namespace {

constexpr char kCostExceeded[] = "operation cancelled: actual cost limit exceeded";
constexpr char kInterrupted[] = "operation interrupted";
constexpr char kIterationsExceeded[] = "operation cancelled: comprehension iteration limit exceeded";

}  // namespace

bool Evaluator::Charge(uint64_t cost) {
  state.cost_ += cost;
  if (options.cost_limit != 0 && state.cost_ > options.cost_limit && !cancelled) {
    cancelled = true;
    cancel_reason = kCostExceeded;
  }
  return !cancelled;
}

Value Evaluator::Eval(const PlannedNode& node) {
  if (node.op == NodeOp::kConst) return node.constant;
  if (!Charge(1)) return Value::ErrorView(cancel_reason);
  switch (node.op) {
    case NodeOp::kConst: return node.constant;
    case NodeOp::kGlobal: {
      if (const Value* v = FindVariable(node)) return *v;
      return Value::Error("no such attribute: " + node.name);
    }
    case NodeOp::kSlot: return state.slots_[static_cast<size_t>(node.slot)];
    case NodeOp::kSelect: return EvalSelect(node, false);
    case NodeOp::kTestOnly: return EvalSelect(node, true);
    case NodeOp::kAnd: return EvalLogic(node, true);
    case NodeOp::kOr: return EvalLogic(node, false);
    case NodeOp::kTernary: {
      Value cond = Eval(*node.children[0]);
      if (cond.is_error()) return cond;
      if (!cond.is_bool()) return NoSuchOverload();
      return Eval(*node.children[cond.bool_value() ? 1 : 2]);
    }
    case NodeOp::kNotStrictlyFalse: {
      Value v = Eval(*node.children[0]);
      return Value::Bool(!v.is_bool() || v.bool_value());
    }
    case NodeOp::kCall: return EvalCall(node);
    case NodeOp::kList: return EvalList(node);
    case NodeOp::kMap: return EvalMap(node);
    case NodeOp::kComprehension: return EvalComprehension(node);
  }
  return NoSuchOverload();
}

bool QualifiedSelectName(const PlannedNode& node, std::string* out) {
  if (node.op == NodeOp::kGlobal) {
    *out = node.name;
    return true;
  }
  if (node.op != NodeOp::kSelect || node.children.size() != 1) return false;
  if (!QualifiedSelectName(*node.children[0], out)) return false;
  out->append(".").append(node.name);
  return true;
}

const Value* Evaluator::FindVariable(const PlannedNode& node) const {
  if (node.candidates.empty()) {
    if (node.op != NodeOp::kSelect) return activation.Find(node.name);
    // Planned without a container: the chain's own name is the one candidate.
    std::string name;
    return QualifiedSelectName(node, &name) ? activation.Find(name) : nullptr;
  }
  for (const std::string& name : node.candidates) {
    if (const Value* v = activation.Find(name)) return v;
  }
  return nullptr;
}

Value Evaluator::EvalSelect(const PlannedNode& node, bool test_only) {
  if (!test_only && node.qualified && activation.has_dotted_names()) {
    if (const Value* v = FindVariable(node)) return *v;
  }
  Value operand = Eval(*node.children[0]);
  if (operand.is_error()) return operand;
  if (operand.kind() == Kind::kOptional) {
    // Selecting on an optional chains (cel-go): none stays none, a missing field is none.
    Value found = OptionalLookup(operand, node.constant);
    if (!test_only || found.is_error()) return found;
    return Value::Bool(found.optional_value() != nullptr);
  }
  if (operand.kind() != Kind::kMap) {
    return Value::Error("type '" + std::string(operand.TypeName()) +
                        "' does not support field selection");
  }
  const MapData& map = operand.map();
  const Value* found = map.Find(node.constant);
  if (test_only) return Value::Bool(found != nullptr || map.defaulting);
  if (found != nullptr) return *found;
  if (map.defaulting) return Value::MapRef(&EmptyMap());
  return NoSuchKey(node.constant);
}

Value Evaluator::EvalLogic(const PlannedNode& node, bool is_and) {
  Value error;
  bool have_error = false;
  for (const auto& child : node.children) {
    Value v = Eval(*child);
    if (v.is_bool()) {
      if (v.bool_value() != is_and) return v;  // false for &&, true for ||
    } else if (!have_error) {
      error = v.is_error() ? v : NoSuchOverload();
      have_error = true;
    }
  }
  return have_error ? error : Value::Bool(is_and);
}

// Arguments live in a std::array sized for the arity: a fixed 4-element array was
// zero-filled with `rep stos` on every call, the largest cost of a two-lookup selector.
template <size_t N>
Value Evaluator::CallWithArity(const PlannedNode& node) {
  std::array<Value, N> args;
  for (size_t i = 0; i < N; ++i) {
    args[i] = Eval(*node.children[i]);
    if (args[i].is_error()) return args[i];
  }
  if (node.prepared.fn != nullptr) {
    return node.prepared.fn(std::span<const Value>(args.data(), N), node.prepared.data.get(), state);
  }
  if (node.fn == nullptr) return Value::Error("no such overload: " + node.name);
  return node.fn(std::span<const Value>(args.data(), N), state);
}

Value Evaluator::EvalCall(const PlannedNode& node) {
  switch (node.children.size()) {
    case 1: return CallWithArity<1>(node);
    case 2: return CallWithArity<2>(node);
    case 3: return CallWithArity<3>(node);
    default: break;
  }
  std::vector<Value> args(node.children.size());
  for (size_t i = 0; i < node.children.size(); ++i) {
    args[i] = Eval(*node.children[i]);
    if (args[i].is_error()) return args[i];
  }
  if (node.fn == nullptr) return Value::Error("no such overload: " + node.name);
  return node.fn(args, state);
}

Value Evaluator::EvalList(const PlannedNode& node) {
  auto list = std::make_shared<ListData>();
  list->elements.reserve(node.children.size());
  for (size_t i = 0; i < node.children.size(); ++i) {
    Value v = Eval(*node.children[i]);
    if (v.is_error()) return v;
    if (node.optional[i]) {
      if (v.kind() != Kind::kOptional) return NoSuchOverload();
      if (v.optional_value() == nullptr) continue;
      v = *v.optional_value();
    }
    list->elements.push_back(std::move(v));
  }
  return Value::List(std::move(list));
}

Value Evaluator::EvalMap(const PlannedNode& node) {
  auto map = std::make_shared<MapData>();
  for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
    Value key = Eval(*node.children[i]);
    if (key.is_error()) return key;
    Value value = Eval(*node.children[i + 1]);
    if (value.is_error()) return value;
    Kind k = key.kind();
    if (k != Kind::kString && k != Kind::kInt && k != Kind::kUint && k != Kind::kBool) {
      return Value::Error("unsupported key type: " + std::string(key.TypeName()));
    }
    if (node.optional[i / 2]) {
      if (value.kind() != Kind::kOptional) return NoSuchOverload();
      if (value.optional_value() == nullptr) continue;
      value = *value.optional_value();
    }
    if (map->Find(key) != nullptr) {
      return Value::Error("Failed with repeated key: " + key.DebugString());
    }
    map->entries.emplace_back(std::move(key), std::move(value));
  }
  return Value::Map(std::move(map));
}

Value Evaluator::EvalComprehension(const PlannedNode& node) {
  Value range = Eval(*node.children[0]);
  if (range.is_error()) return range;
  if (range.kind() != Kind::kList && range.kind() != Kind::kMap) return NoSuchOverload();
  std::vector<Value>& slots = state.slots_;
  slots[static_cast<size_t>(node.accu_slot)] = Eval(*node.children[1]);
  const size_t n = range.kind() == Kind::kList ? range.list().elements.size()
                                               : range.map().entries.size();
  for (size_t i = 0; i < n && !cancelled; ++i) {
    ++state.iterations_;
    if (state.iterations_ > options.comprehension_max_iterations) {
      cancelled = true;
      cancel_reason = kIterationsExceeded;
      break;
    }
    if (state.interrupt && options.interrupt_check_frequency > 0 &&
        state.iterations_ % options.interrupt_check_frequency == 0 && state.interrupt()) {
      cancelled = true;
      cancel_reason = kInterrupted;
      break;
    }
    if (range.kind() == Kind::kList) {
      const Value& element = range.list().elements[i];
      if (node.slot2 >= 0) {
        slots[static_cast<size_t>(node.slot)] = Value::Int(static_cast<int64_t>(i));
        slots[static_cast<size_t>(node.slot2)] = element;
      } else {
        slots[static_cast<size_t>(node.slot)] = element;
      }
    } else {
      const auto& entry = range.map().entries[i];
      slots[static_cast<size_t>(node.slot)] = entry.first;
      if (node.slot2 >= 0) slots[static_cast<size_t>(node.slot2)] = entry.second;
    }
    Value cond = Eval(*node.children[2]);
    if (!cond.is_bool() || !cond.bool_value()) break;
    slots[static_cast<size_t>(node.accu_slot)] = Eval(*node.children[3]);
  }
  if (cancelled) return Value::ErrorView(cancel_reason);
  return Eval(*node.children[4]);
}

}  // namespace draguard::cel
