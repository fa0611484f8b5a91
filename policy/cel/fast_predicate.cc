// Evaluating the fast form (fast_predicate.h; building is in fast_predicate_build.cc).
// EvalBool only dispatches; each leaf is a function of its own, whose quick route (a path
// index probe and an in-place comparison) neither calls nor loops, and whose general route
// (key-by-key resolution, library calls) is reached with a tail call.
#include "policy/cel/fast_predicate.h"

#include <array>
#include <new>
#include <optional>

#include "policy/cel/evaluator.h"
#include "policy/cel/internal/find_bytes.h"
#include "policy/cel/internal/same_bytes.h"
#include "policy/cel/path_index.h"

namespace draguard::cel {
namespace {

// The value a defaulting map yields for a missing key (evaluator.cc does the same).
const Value& EmptyMapValue() {
  static const Value* empty = new Value(Value::MapRef(&EmptyMap()));
  return *empty;
}

using internal::SameBytes;

// A string-keyed lookup in `map`, as MapData::Find does for a string key.
[[gnu::always_inline]] inline const Value* FindString(const MapData& map, std::string_view key) {
  for (const auto& entry : map.entries) {
    const Value& k = entry.first;
    if (k.kind() != Kind::kString) continue;
    std::string_view text = k.text();
    if (text.size() == key.size() && SameBytes(text.data(), key.data(), key.size())) {
      return &entry.second;
    }
  }
  return nullptr;
}

}  // namespace

FastPredicate::Outcome FastPredicate::Evaluate(const Activation& activation, EvalState& state,
                                               uint64_t& cost) const {
  // A dotted variable name ("device.attributes") would take precedence over selecting the
  // field of `device` (cel-go's qualified-name resolution): left to the general evaluator.
  if (activation.has_dotted_names()) return Outcome::kBail;
  std::array<Binding, Activation::kMaxVariables> bindings;
  for (size_t i = 0; i < variables_.size(); ++i) {
    bindings[i] = Bind(activation.Find(variables_[i]));
  }
  Context cx{.bindings = bindings.data(), .state = state};
  cost = 0;
  return root_eval_(*this, *root_, cx, cost);
}

// Inlined into its callers: this runs for every chain of every evaluation. On a device
// (a map with a path index) a chain starts with one probe and usually ends there; anything
// else goes key by key, out of line, so that the inlined part needs few registers.
[[gnu::always_inline]] inline const Value* FastPredicate::ResolveChain(const Node& node,
                                                                      Context cx) const {
  const uint32_t steps = node.op == Op::kHas ? node.key_count - 1 : node.key_count;
  if (node.path_starts_chain) {
    if (const Value* found = FindPath(node, cx)) {
      return steps == node.path_keys ? found : ResolveKeys(node, found, node.path_keys, steps);
    }
  }
  return ResolveKeys(node, cx.bindings[node.variable].value, 0, steps);
}

// Keys [first, steps) of the chain from `from` (null: an unbound variable, so null).
[[gnu::noinline]] const Value* FastPredicate::ResolveKeys(const Node& node, const Value* from,
                                                          uint32_t first, uint32_t steps) const {
  const Value* cur = from;
  if (cur == nullptr) return nullptr;
  for (uint32_t i = first; i < steps; ++i) {
    if (cur->kind() != Kind::kMap) return nullptr;
    const MapData& map = cur->map();
    const Value* found = FindString(map, keys_[node.first_key + i]);
    if (found == nullptr) {
      if (!map.defaulting) return nullptr;
      found = &EmptyMapValue();
    }
    cur = found;
  }
  return cur;
}

// The value at the chain's path when its variable's map has a path index that has it;
// nullptr means "resolve key by key" (also when the path is absent).
[[gnu::always_inline]] inline const Value* FastPredicate::FindPath(const Node& node,
                                                                  Context cx) {
  const PathIndex* index = cx.bindings[node.variable].index;
  if (index == nullptr || node.path.joined.empty()) return nullptr;
  if (node.path.joined.size() <= PathIndex::kMaxFirstKey) {
    if (const Value* v = index->FindFirst(node.path).value) return v;
  }
  return index->Find(node.path);
}

// The value of a chain with Node::quick_path when its variable's path index has it in the
// first slot probed; nullptr means "take the general route". No call: the leaves below try
// this first and call nothing else on their quick route, so that they need few registers,
// and fall back on their general route with a tail call.
[[gnu::always_inline]] inline const Value* FastPredicate::QuickPathValue(const Node& node,
                                                                        Context cx) {
  const PathIndex* index = cx.bindings[node.variable].index;
  if (index == nullptr || !node.quick_path) return nullptr;
  return index->FindFirst(node.path).value;
}

// `_<_` and friends on two ints, compared in place (what CompareValues does for them).
std::optional<bool> FastPredicate::IntOrder(const Node& node, const Value& a, const Value& b) {
  if (a.kind() != Kind::kInt || b.kind() != Kind::kInt) return std::nullopt;
  const int64_t x = a.int_value(), y = b.int_value();
  switch (node.order) {
    case Order::kLess: return x < y;
    case Order::kLessEquals: return x <= y;
    case Order::kGreater: return x > y;
    case Order::kGreaterEquals: return x >= y;
    case Order::kNone: break;
  }
  return std::nullopt;
}

// The arguments are copied into raw storage (copy-constructed, not default-constructed
// and assigned), since Function takes a contiguous span of Values.
template <size_t N>
const Value* FastPredicate::Call(const Node& node, Context cx,
                                 std::optional<Value>& scratch) const {
  alignas(Value) unsigned char storage[N * sizeof(Value)];
  Value* args = reinterpret_cast<Value*>(storage);
  size_t built = 0;
  uint64_t inner = 0;  // included in node.cost
  for (; built < N; ++built) {
    const Node& child = nodes_[children_[node.first_child + built]];
    std::optional<Value> arg_scratch;
    const Value* arg = child.op == Op::kConst   ? child.constant
                       : child.op == Op::kChain ? ResolveChain(child, cx)
                                                : Resolve(child, cx, arg_scratch, inner);
    if (arg == nullptr) break;
    new (&args[built]) Value(*arg);
  }
  if (built == N) {
    std::optional<bool> ordered;
    if constexpr (N == 2) {
      if (node.order != Order::kNone) ordered = IntOrder(node, args[0], args[1]);
    }
    if (ordered) {
      scratch.emplace(Value::Bool(*ordered));
    } else {
      const std::span<const Value> span(args, N);
      scratch.emplace(node.prepared != nullptr ? node.prepared(span, node.prepared_data, cx.state)
                                               : node.fn(span, cx.state));
    }
  }
  for (size_t i = 0; i < built; ++i) args[i].~Value();
  if (built != N || scratch->is_error()) return nullptr;
  return &*scratch;
}

// Call<2> for a chain and a constant, without visiting the children: the receiver is
// resolved in place and the constant copied next to it (a function takes one span).
[[gnu::always_inline]] inline const Value* FastPredicate::ChainCall(
    const Node& node, Context cx, std::optional<Value>& scratch) const {
  const Value* receiver = ResolveChain(node, cx);
  if (receiver == nullptr) return nullptr;
  if (node.order != Order::kNone) {
    if (std::optional<bool> ordered = IntOrder(node, *receiver, *node.constant)) {
      return &scratch.emplace(Value::Bool(*ordered));
    }
  }
  const std::array<Value, 2> args = {*receiver, *node.constant};
  scratch.emplace(node.prepared != nullptr ? node.prepared(args, node.prepared_data, cx.state)
                                           : node.fn(args, cx.state));
  return scratch->is_error() ? nullptr : &*scratch;
}

const Value* FastPredicate::Resolve(const Node& node, Context cx, std::optional<Value>& scratch,
                                    uint64_t& cost) const {
  const Value* v = nullptr;
  switch (node.op) {
    case Op::kConst: return node.constant;
    case Op::kChain: v = ResolveChain(node, cx); break;
    case Op::kCall:
      switch (node.child_count) {
        case 1: v = Call<1>(node, cx, scratch); break;
        case 2: v = Call<2>(node, cx, scratch); break;
        default: v = Call<3>(node, cx, scratch); break;
      }
      break;
    case Op::kChainCall: v = ChainCall(node, cx, scratch); break;
    default: {
      Outcome o = EvalBool(node, cx, cost);
      if (o == Outcome::kBail) return nullptr;
      scratch.emplace(Value::Bool(o == Outcome::kTrue));
      return &*scratch;
    }
  }
  if (v != nullptr) cost += node.cost;
  return v;
}

// EvalBool, which every boolean position goes through, only dispatches (tail calls): the
// leaves are functions of their own, each with the small stack frame it needs rather than
// the largest one any of them needs.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalChainEquality(
    const Node& node, Context cx, uint64_t& cost) const {
  const Value* v = ResolveChain(node, cx);
  if (v == nullptr) return Outcome::kBail;
  const Value& c = *node.constant;
  bool equal;
  if (v->kind() == c.kind() && c.kind() == Kind::kString) {
    std::string_view x = v->text(), y = c.text();
    equal = x.size() == y.size() && SameBytes(x.data(), y.data(), x.size());
  } else if (v->kind() == c.kind() && (c.kind() == Kind::kInt || c.kind() == Kind::kBool)) {
    equal = c.kind() == Kind::kInt ? v->int_value() == c.int_value()
                                   : v->bool_value() == c.bool_value();
  } else {
    return ChainEqualityByEqual(node, *v, cost);
  }
  cost += node.cost;
  return equal != node.negated ? Outcome::kTrue : Outcome::kFalse;
}

// See Op::kPathEquals. Out of line from EvalChainEquality, which it falls back on, so that
// its frame stays small.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalPathEquals(const Node& node,
                                                                       Context cx,
                                                                       uint64_t& cost) const {
  const PathIndex* index = cx.bindings[node.variable].index;
  if (index == nullptr) return EvalChainEquality(node, cx, cost);
  const PathIndex::Entry entry = index->FindFirst(node.path);
  const PathIndex::Summary& c = node.constant_summary;
  if (entry.value == nullptr || entry.summary->kind != c.kind) {
    return EvalChainEquality(node, cx, cost);
  }
  // Same kind: the summaries are equal exactly when the values are (PathIndex::Summary).
  const PathIndex::Summary& v = *entry.summary;
  const bool equal =
      ((v.size ^ c.size) | (v.words[0] ^ c.words[0]) | (v.words[1] ^ c.words[1])) == 0;
  cost += node.cost;
  return equal != node.negated ? Outcome::kTrue : Outcome::kFalse;
}

// EvalChainEquality for operands not compared in place: through Equal(), out of line (its
// Value result has a destructor, which would widen the common path's stack frame).
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::ChainEqualityByEqual(const Node& node,
                                                                             const Value& v,
                                                                             uint64_t& cost) {
  const Value& c = *node.constant;
  // Operand order matters here: Equal() errs for some left-hand types (Quantity, Semver).
  Value r = node.constant_left ? Equal(c, v) : Equal(v, c);
  if (!r.is_bool()) return Outcome::kBail;
  cost += node.cost;
  return r.bool_value() != node.negated ? Outcome::kTrue : Outcome::kFalse;
}

// A string in a list of strings is a byte comparison per element; any other operand
// goes through the registered `@in`.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalChainIn(
    const Node& node, Context cx, uint64_t& cost) const {
  const Value* v = QuickPathValue(node, cx);
  if (v == nullptr || !node.strings_only || v->kind() != Kind::kString ||
      v->text().size() > internal::kMaxShortBytes) {
    return ChainInSlow(node, cx, cost);
  }
  const std::string_view x = v->text();
  bool found = false;
  for (const Value& e : node.constant->list().elements) {
    const std::string_view y = e.text();
    if (x.size() == y.size() && internal::SameShortBytes(x.data(), y.data(), x.size())) {
      found = true;
      break;
    }
  }
  cost += node.cost;
  return found ? Outcome::kTrue : Outcome::kFalse;
}

// EvalChainIn's general route.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::ChainInSlow(
    const Node& node, Context cx, uint64_t& cost) const {
  const Value* v = ResolveChain(node, cx);
  if (v == nullptr) return Outcome::kBail;
  bool found = false;
  if (node.strings_only && v->kind() == Kind::kString) {
    const std::string_view x = v->text();
    for (const Value& e : node.constant->list().elements) {
      const std::string_view y = e.text();
      if (x.size() == y.size() && SameBytes(x.data(), y.data(), x.size())) {
        found = true;
        break;
      }
    }
  } else {
    std::optional<Value> scratch;
    const Value* r = Call<2>(node, cx, scratch);
    if (r == nullptr || !r->is_bool()) return Outcome::kBail;
    found = r->bool_value();
  }
  cost += node.cost;
  return found ? Outcome::kTrue : Outcome::kFalse;
}

FastPredicate::Outcome FastPredicate::EvalBool(const Node& node, Context cx,
                                               uint64_t& cost) const {
  switch (node.op) {
    case Op::kAnd:
    case Op::kOr: return EvalLogic(node, cx, cost);
    case Op::kEquals:
    case Op::kNotEquals: return EvalEquality(node, cx, cost);
    case Op::kChainEquals: return EvalChainEquality(node, cx, cost);
    case Op::kPathEquals: return EvalPathEquals(node, cx, cost);
    case Op::kChainIn: return EvalChainIn(node, cx, cost);
    case Op::kChainText: return EvalChainText(node, cx, cost);
    case Op::kCall:
    case Op::kChainCall: return EvalCall(node, cx, cost);
    case Op::kHas: return EvalHas(node, cx, cost);
    default: return EvalValue(node, cx, cost);
  }
}

// A value-producing node in a boolean position.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalValue(const Node& node, Context cx,
                                                                  uint64_t& cost) const {
  std::optional<Value> scratch;
  const Value* v = Resolve(node, cx, scratch, cost);
  if (v == nullptr || !v->is_bool()) return Outcome::kBail;
  return v->bool_value() ? Outcome::kTrue : Outcome::kFalse;
}

// `has(chain.field)`. When the whole chain, field included, is the path found in the
// variable's path index, the field is present; otherwise the chain is resolved and the
// field looked up.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalHas(const Node& node, Context cx,
                                                                uint64_t& cost) const {
  if (QuickPathValue(node, cx) == nullptr) return HasSlow(node, cx, cost);
  cost += node.cost;
  return Outcome::kTrue;
}

// EvalHas's general route.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::HasSlow(const Node& node, Context cx,
                                                                uint64_t& cost) const {
  if (node.path_keys == node.key_count && FindPath(node, cx) != nullptr) {
    cost += node.cost;
    return Outcome::kTrue;
  }
  const Value* operand = ResolveChain(node, cx);
  if (operand == nullptr || operand->kind() != Kind::kMap) return Outcome::kBail;
  const MapData& map = operand->map();
  cost += node.cost;
  const bool present =
      map.defaulting || FindString(map, keys_[node.first_key + node.key_count - 1]);
  return present ? Outcome::kTrue : Outcome::kFalse;
}

// A string test of a chain against a constant string, in place (see Op::kChainText). A
// receiver that is not a string is left to the general evaluator ("no such overload").
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalChainText(
    const Node& node, Context cx, uint64_t& cost) const {
  const Value* v = QuickPathValue(node, cx);
  if (v == nullptr || v->kind() != Kind::kString ||
      v->text().size() > internal::kMaxShortBytes) {
    return ChainTextSlow(node, cx, cost);
  }
  const std::string_view text = v->text(), arg = node.constant->text();
  bool found = false;
  switch (node.text_test) {
    case TextTest::kContains: found = internal::ShortContainsBytes(text, arg); break;
    case TextTest::kStartsWith: found = internal::StartsWithBytes(text, arg); break;
    case TextTest::kEndsWith: found = internal::EndsWithBytes(text, arg); break;
  }
  cost += node.cost;
  return found ? Outcome::kTrue : Outcome::kFalse;
}

// EvalChainText's general route.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::ChainTextSlow(
    const Node& node, Context cx, uint64_t& cost) const {
  const Value* v = ResolveChain(node, cx);
  if (v == nullptr || v->kind() != Kind::kString) return Outcome::kBail;
  const std::string_view text = v->text(), arg = node.constant->text();
  bool found = false;
  switch (node.text_test) {
    case TextTest::kContains: found = internal::ContainsBytes(text, arg); break;
    case TextTest::kStartsWith:
      found = text.size() >= arg.size() && SameBytes(text.data(), arg.data(), arg.size());
      break;
    case TextTest::kEndsWith:
      found = text.size() >= arg.size() &&
              SameBytes(text.data() + text.size() - arg.size(), arg.data(), arg.size());
      break;
  }
  cost += node.cost;
  return found ? Outcome::kTrue : Outcome::kFalse;
}

// A call in a boolean position without the Resolve step (Resolve handles value positions).
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalCall(const Node& node, Context cx,
                                                                 uint64_t& cost) const {
  std::optional<Value> scratch;
  const Value* v;
  if (node.op == Op::kChainCall) {
    v = ChainCall(node, cx, scratch);
  } else {
    switch (node.child_count) {
      case 1: v = Call<1>(node, cx, scratch); break;
      case 2: v = Call<2>(node, cx, scratch); break;
      default: v = Call<3>(node, cx, scratch); break;
    }
  }
  if (v == nullptr || !v->is_bool()) return Outcome::kBail;
  cost += node.cost;
  return v->bool_value() ? Outcome::kTrue : Outcome::kFalse;
}

// Evaluator::EvalLogic with errors left to the general evaluator: the first child that
// decides the result stops the loop.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalLogic(const Node& node, Context cx,
                                                                  uint64_t& cost) const {
  const Outcome decisive = node.op == Op::kAnd ? Outcome::kFalse : Outcome::kTrue;
  cost += node.cost;
  for (uint32_t i = 0; i < node.child_count; ++i) {
    const Node& child = nodes_[children_[node.first_child + i]];
    // The commonest conjunct is called directly rather than through EvalBool's dispatch.
    Outcome o = child.op == Op::kPathEquals ? EvalPathEquals(child, cx, cost)
                                             : EvalBool(child, cx, cost);
    if (o == Outcome::kBail) return o;
    if (o == decisive) return o;
  }
  return decisive == Outcome::kFalse ? Outcome::kTrue : Outcome::kFalse;
}

// Strings, ints and bools are compared in place; anything else through Equal(), which
// is what the registered `_==_`/`_!=_` implement. Constants and chains, the usual
// operands, are resolved without scratch storage.
[[gnu::noinline]] FastPredicate::Outcome FastPredicate::EvalEquality(const Node& node,
                                                                     Context cx,
                                                                     uint64_t& cost) const {
  const Node& left = nodes_[children_[node.first_child]];
  const Node& right = nodes_[children_[node.first_child + 1]];
  std::optional<Value> scratch_a, scratch_b;
  uint64_t inner = 0;  // included in node.cost
  const Value* a = left.op == Op::kConst   ? left.constant
                   : left.op == Op::kChain ? ResolveChain(left, cx)
                                           : Resolve(left, cx, scratch_a, inner);
  if (a == nullptr) return Outcome::kBail;
  const Value* b = right.op == Op::kConst   ? right.constant
                   : right.op == Op::kChain ? ResolveChain(right, cx)
                                            : Resolve(right, cx, scratch_b, inner);
  if (b == nullptr) return Outcome::kBail;
  bool equal;
  if (a->kind() == b->kind() && a->kind() == Kind::kString) {
    std::string_view x = a->text(), y = b->text();
    equal = x.size() == y.size() && SameBytes(x.data(), y.data(), x.size());
  } else if (a->kind() == b->kind() && a->kind() == Kind::kInt) {
    equal = a->int_value() == b->int_value();
  } else if (a->kind() == b->kind() && a->kind() == Kind::kBool) {
    equal = a->bool_value() == b->bool_value();
  } else {
    Value r = Equal(*a, *b);
    if (!r.is_bool()) return Outcome::kBail;
    equal = r.bool_value();
  }
  cost += node.cost;
  return equal == (node.op == Op::kEquals) ? Outcome::kTrue : Outcome::kFalse;
}

}  // namespace draguard::cel
