// FastPredicate: a second, leaner evaluator for the shape almost every device selector
// has — boolean logic over function calls whose arguments are constants or chains of
// constant field/key lookups on a variable (`device.attributes["d"].model == "A100"`).
//
// The general evaluator (evaluator.h) walks the planned tree returning a Value per node
// and charging cost per node. Here a chain is resolved with one probe of the variable's
// path index when it has one (a prepared device does: path_index.h) or by chasing pointers
// through the borrowed maps, equality of strings is compared in place, and the cost is the
// static sum of the evaluated parts. The commonest leaves are functions of their own whose
// quick route neither calls nor loops (small stack frames) and falls back on their general
// route with a tail call. Whenever anything leaves the plain path — a missing key, an
// error or non-bool result, an optional, a non-map receiver — evaluation answers kBail
// and the caller runs the general evaluator from scratch, so every result that is not a
// plain true/false comes from the general evaluator. A completed evaluation returns the
// same boolean and the same actual cost the general evaluator would (the differential
// test in tests/policy/cel/fast_predicate_test.cc holds both to it).
#ifndef DRAGUARD_POLICY_CEL_FAST_PREDICATE_H_
#define DRAGUARD_POLICY_CEL_FAST_PREDICATE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/activation.h"
#include "policy/cel/functions/registry.h"
#include "policy/cel/internal/same_bytes.h"
#include "policy/cel/path_index.h"
#include "policy/cel/value.h"

namespace draguard::cel {

struct PlannedNode;

class EvalState;

class FastPredicate {
 public:
  enum class Outcome : uint8_t { kFalse, kTrue, kBail };

  // Builds the fast form of `root`, or returns nullptr when the tree has a node outside
  // the subset, or when its total cost could exceed `cost_limit` (0: no limit) — then
  // only the general evaluator can cancel correctly. The result borrows from `root`'s
  // constants: `root` must outlive it.
  static std::unique_ptr<FastPredicate> Build(const PlannedNode& root, uint64_t cost_limit);

  // An estimate of the heap this form holds besides what it borrows (Program::ApproximateBytes).
  size_t ApproximateBytes() const;
  // A bound of ApproximateBytes() of Build(root)'s result, without building it (for a
  // program whose fast form is built later: RuntimeOptions::fast_path_after).
  static size_t BoundBytes(const PlannedNode& root);
  // The same from the counts BoundBytes(root) takes of `root`'s tree, for a caller walking the
  // tree anyway: CountForBound on each of its planned nodes, then BoundBytes(nodes, text).
  static void CountForBound(const PlannedNode& node, size_t& nodes, size_t& text);
  static size_t BoundBytes(size_t nodes, size_t text);

  // Evaluates against `activation`; on kTrue/kFalse sets `cost` to the actual cost the
  // general evaluator would report. `state` is handed to library functions only.
  // Thread-safe (const, no shared scratch).
  Outcome Evaluate(const Activation& activation, EvalState& state, uint64_t& cost) const;
  // A variable's value (null: unbound) and, when it is a map with one, its path index
  // (path_index.h). Bind() makes one; a caller that evaluates many selectors against the
  // same value may make it once (a prepared device does).
  struct Binding {
    const Value* value = nullptr;
    const PathIndex* index = nullptr;
  };
  static Binding Bind(const Value* value) {
    if (value == nullptr) return {};
    return {value, value->kind() == Kind::kMap ? value->map().path_index : nullptr};
  }

  // The same with `name` the only bound variable, bound as `bound` (no Activation to
  // build). `cost` is written on kBail too. Inline: a selector's whole evaluation is often
  // shorter than a call.
  Outcome EvaluateOne(std::string_view name, const Binding& bound, EvalState& state,
                      uint64_t& cost) const {
    if (bail_on_one_) return Outcome::kBail;  // see Build()
    static constexpr Binding kUnbound;
    const bool same = only_variable_.size() == name.size() &&
                      internal::SameBytes(only_variable_.data(), name.data(), name.size());
    Context cx{.bindings = same ? &bound : &kUnbound, .state = state};
    cost = 0;
    return root_eval_(*this, *root_, cx, cost);
  }

  FastPredicate(const FastPredicate&) = delete;
  FastPredicate& operator=(const FastPredicate&) = delete;
  ~FastPredicate();

 private:
  // kChainEquals (`==` or, negated, `!=`), kChainIn and kChainCall are fused forms of the
  // commonest leaves, "chain == constant", "chain in constant list" and
  // "chain.method(constant)" (or "chain < constant"): the chain's fields are copied into
  // the node, so that one step resolves and compares without visiting the children (kept
  // for the rare operands that need the general comparison).
  // kPathEquals is a kChainEquals whose whole chain is a path (Node::path, at most
  // PathIndex::kMaxFirstKey long) and whose constant is a string of at most
  // PathIndex::kHeadBytes, an int or a bool: one probe and a comparison of summaries
  // (PathIndex::Summary) when the variable has a path index, the path is in the first slot
  // probed and the value has the constant's kind; kChainEquals otherwise.
  // kChainText is "chain.contains(s)", "chain.startsWith(s)" or "chain.endsWith(s)" with a
  // constant string s, tested in place (internal/find_bytes.h).
  enum class Op : uint8_t {
    kConst, kChain, kHas, kCall, kEquals, kNotEquals, kAnd, kOr,
    kChainEquals, kPathEquals, kChainIn, kChainCall, kChainText,
  };
  enum class Order : uint8_t { kNone, kLess, kLessEquals, kGreater, kGreaterEquals };
  enum class TextTest : uint8_t { kContains, kStartsWith, kEndsWith };

  // One node; children are indexes into nodes_.
  struct Node {
    Op op = Op::kConst;
    const Value* constant = nullptr;  // kConst; the constant operand of the fused ops
    uint32_t variable = 0;            // chains (kChain/kHas/fused): index into variables_
    uint32_t first_key = 0;           // chains: keys_[first_key, first_key + key_count)
    uint32_t key_count = 0;
    // Chains: the lookup key (path_index.h) of their first three keys when
    // PathIndex::Joinable() allows, else of their first key, to look them up in one probe
    // when the variable's map has a path index.
    PathIndex::Key path;
    uint8_t path_keys = 0;            // keys in `path`: 3, 1, or 0 (no keys, no path)
    bool path_starts_chain = false;   // whether ResolveChain may start from the path
    // The path is the whole chain (for kHas, the operand and the field) and at most
    // PathIndex::kMaxFirstKey long: see QuickPathValue().
    bool quick_path = false;
    PathIndex::Summary constant_summary;  // kPathEquals: of `constant`
    bool constant_left = false;       // kChainEquals/kPathEquals: `constant == chain`
    bool negated = false;             // kChainEquals/kPathEquals: `!=`
    bool strings_only = false;        // kChainIn: every element of the list is a string
    TextTest text_test = TextTest::kContains;  // kChainText
    Function fn = nullptr;            // kCall
    PreparedFunction prepared = nullptr;  // kCall prepared at plan time (constant regex)
    const void* prepared_data = nullptr;
    Order order = Order::kNone;       // kCall of an ordering operator
    uint32_t first_child = 0;         // kCall/kEquals/kNotEquals/kAnd/kOr: children_[...]
    uint32_t child_count = 0;
    uint32_t cost = 0;                // this node's own charge plus, for leaves, its parts
  };

  FastPredicate() = default;
  class Builder;

  // Passed by value (two registers).
  struct Context {
    const Binding* bindings;  // per variables_ entry
    EvalState& state;
  };
  // Resolves a value-producing node. Returns a pointer to borrowed data or to `scratch`;
  // nullptr means bail. `scratch` holds a computed value (calls); chains and constants are
  // returned in place.
  const Value* Resolve(const Node& node, Context cx, std::optional<Value>& scratch,
                       uint64_t& cost) const;
  static std::optional<bool> IntOrder(const Node& node, const Value& a, const Value& b);
  template <size_t N>
  const Value* Call(const Node& node, Context cx, std::optional<Value>& scratch) const;
  const Value* ResolveChain(const Node& node, Context cx) const;
  const Value* ResolveKeys(const Node& node, const Value* from, uint32_t first,
                           uint32_t steps) const;
  static const Value* FindPath(const Node& node, Context cx);
  static const Value* QuickPathValue(const Node& node, Context cx);
  const Value* ChainCall(const Node& node, Context cx, std::optional<Value>& scratch) const;
  Outcome EvalBool(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalValue(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalLogic(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalCall(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalEquality(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalChainEquality(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalPathEquals(const Node& node, Context cx, uint64_t& cost) const;
  static Outcome ChainEqualityByEqual(const Node& node, const Value& v, uint64_t& cost);
  Outcome EvalChainIn(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalChainText(const Node& node, Context cx, uint64_t& cost) const;
  Outcome EvalHas(const Node& node, Context cx, uint64_t& cost) const;
  Outcome ChainInSlow(const Node& node, Context cx, uint64_t& cost) const;
  Outcome ChainTextSlow(const Node& node, Context cx, uint64_t& cost) const;
  Outcome HasSlow(const Node& node, Context cx, uint64_t& cost) const;

  const Node* root_ = nullptr;  // in nodes_ (children are stored before their parents)
  // EvalBool(*root_) without its dispatch: the root's own Eval function (through Thunk).
  using EvalFunction = Outcome (*)(const FastPredicate&, const Node&, Context, uint64_t&);
  template <Outcome (FastPredicate::*kEval)(const Node&, Context, uint64_t&) const>
  static Outcome Thunk(const FastPredicate& self, const Node& node, Context cx, uint64_t& cost) {
    return (self.*kEval)(node, cx, cost);
  }
  static EvalFunction EvalFunctionFor(Op op);
  EvalFunction root_eval_ = nullptr;
  std::vector<Node> nodes_;
  std::vector<uint32_t> children_;
  std::vector<std::string_view> keys_;
  std::deque<std::string> paths_;  // the chains' joined keys (Node::path points here)
  std::vector<std::string_view> variables_;  // at most Activation::kMaxVariables
  bool dotted_variable_ = false;             // some variable's name contains a dot
  // For EvaluateOne: the variable when there is exactly one (else empty), and whether it
  // must give up at once (several variables, or a dotted one: see Evaluate()).
  std::string_view only_variable_;
  bool bail_on_one_ = false;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_FAST_PREDICATE_H_
