// Building the fast form (fast_predicate.h; evaluation is in fast_predicate.cc): one
// recursive pass over the planned tree that either maps every node into the subset or
// gives up, fusing the common leaves and computing each chain's path key (path_index.h).
// Costs mirror Evaluator::Eval: 1 per non-constant node; a chain of n lookups on a
// variable costs n + 1, a call 1 plus its arguments, `&&`/`||` 1 plus the children
// actually evaluated.
#include "policy/cel/fast_predicate.h"

#include <optional>
#include <string>
#include <vector>

#include "policy/cel/evaluator.h"
#include "policy/cel/operators.h"
#include "policy/cel/path_index.h"
#include "policy/common/bounded_cache.h"

namespace draguard::cel {
namespace {

constexpr size_t kMaxCallArity = 3;

bool IsConstString(const PlannedNode& node) {
  return node.op == NodeOp::kConst && node.constant.kind() == Kind::kString;
}

}  // namespace

class FastPredicate::Builder {
 public:
  explicit Builder(FastPredicate& out) : out_(out) {}

  // Adds `node` as a boolean position (root or child of &&/||); nullopt when unsupported.
  std::optional<uint32_t> AddBool(const PlannedNode& node) {
    if (node.op == NodeOp::kAnd || node.op == NodeOp::kOr) {
      std::vector<uint32_t> kids;
      for (const auto& child : node.children) {
        std::optional<uint32_t> k = AddBool(*child);
        if (!k) return std::nullopt;
        kids.push_back(*k);
      }
      Node n;
      n.op = node.op == NodeOp::kAnd ? Op::kAnd : Op::kOr;
      n.cost = 1;
      max_cost_ += 1;
      return Push(n, kids);
    }
    return AddValue(node);
  }

  uint64_t max_cost() const { return max_cost_; }

 private:
  // Adds a node whose whole subtree is always evaluated (no short-circuit inside).
  std::optional<uint32_t> AddValue(const PlannedNode& node) {
    if (node.op == NodeOp::kConst) {
      Node n;
      n.constant = &node.constant;
      return Push(n, {});
    }
    if (node.op == NodeOp::kTestOnly) return AddChain(node, Op::kHas);
    if (IsChainStep(node)) return AddChain(node, Op::kChain);
    if (node.op != NodeOp::kCall || node.fn == nullptr || node.children.empty() ||
        node.children.size() > kMaxCallArity) {
      return std::nullopt;
    }
    std::vector<uint32_t> kids;
    uint32_t cost = 1;
    for (const auto& child : node.children) {
      std::optional<uint32_t> k = AddValue(*child);
      if (!k) return std::nullopt;
      kids.push_back(*k);
      cost += out_.nodes_[*k].cost;
    }
    Node n;
    n.op = node.name == op::kEquals      ? Op::kEquals
           : node.name == op::kNotEquals ? Op::kNotEquals
                                         : Op::kCall;
    if (node.name == op::kLess) n.order = Order::kLess;
    if (node.name == op::kLessEquals) n.order = Order::kLessEquals;
    if (node.name == op::kGreater) n.order = Order::kGreater;
    if (node.name == op::kGreaterEquals) n.order = Order::kGreaterEquals;
    n.fn = node.fn;
    n.prepared = node.prepared.fn;
    n.prepared_data = node.prepared.data.get();
    n.cost = cost;
    if (kids.size() == 2) Fuse(n, node.name, out_.nodes_[kids[0]], out_.nodes_[kids[1]]);
    max_cost_ += 1;
    return Push(n, kids);
  }

  // Turns `n` into a fused leaf when its operands are a chain and a constant (see Op).
  static void Fuse(Node& n, std::string_view name, const Node& a, const Node& b) {
    const bool equality = n.op == Op::kEquals || n.op == Op::kNotEquals;
    const Node* chain = nullptr;
    const Node* constant = nullptr;
    if (a.op == Op::kChain && b.op == Op::kConst) {
      chain = &a;
      constant = &b;
    } else if (equality && a.op == Op::kConst && b.op == Op::kChain) {
      chain = &b;
      constant = &a;
      n.constant_left = true;
    } else {
      return;
    }
    if (equality) {
      n.negated = n.op == Op::kNotEquals;
      const Kind kind = constant->constant->kind();
      const bool short_string = kind == Kind::kString &&
                                constant->constant->text().size() <= PathIndex::kHeadBytes;
      const bool in_place = short_string || kind == Kind::kInt || kind == Kind::kBool;
      n.op = in_place && chain->quick_path ? Op::kPathEquals : Op::kChainEquals;
      n.constant_summary = PathIndex::Summarize(*constant->constant);
    } else if (name == op::kIn && constant->constant->kind() == Kind::kList) {
      n.op = Op::kChainIn;
      n.strings_only = true;
      for (const Value& e : constant->constant->list().elements) {
        n.strings_only = n.strings_only && e.kind() == Kind::kString;
      }
    } else if (std::optional<TextTest> test = TextTestOf(name, *constant->constant)) {
      n.op = Op::kChainText;
      n.text_test = *test;
    } else {
      n.op = Op::kChainCall;
    }
    n.constant = constant->constant;
    n.variable = chain->variable;
    n.first_key = chain->first_key;
    n.key_count = chain->key_count;
    n.path = chain->path;
    n.path_keys = chain->path_keys;
    n.path_starts_chain = chain->path_starts_chain;
    n.quick_path = chain->quick_path;
  }

  // The string test a call of `name` with the constant argument `arg` is, if any. The
  // registered functions of these names (functions/strings.cc) answer exactly this for a
  // string receiver, and "no such overload" for any other, where the fast form bails.
  static std::optional<TextTest> TextTestOf(std::string_view name, const Value& arg) {
    if (arg.kind() != Kind::kString) return std::nullopt;
    if (name == "contains") return TextTest::kContains;
    if (name == "startsWith") return TextTest::kStartsWith;
    if (name == "endsWith") return TextTest::kEndsWith;
    return std::nullopt;
  }

  // A variable, a field selection or a constant-string index on a chain.
  static bool IsChainStep(const PlannedNode& node) {
    switch (node.op) {
      // A container makes the variable's name a run-time choice: general evaluator only.
      case NodeOp::kGlobal: return node.candidates.empty();
      case NodeOp::kSelect: return IsChainStep(*node.children[0]);
      case NodeOp::kCall:
        return node.name == op::kIndex && node.children.size() == 2 &&
               IsChainStep(*node.children[0]) && IsConstString(*node.children[1]);
      default: return false;
    }
  }

  // Flattens a chain (for kHas: the test-only node's operand chain plus its field).
  std::optional<uint32_t> AddChain(const PlannedNode& node, Op op) {
    std::vector<std::string_view> keys;
    const PlannedNode* cur = &node;
    if (op == Op::kHas) {
      if (!IsChainStep(*node.children[0])) return std::nullopt;
      keys.push_back(node.constant.text());
      cur = node.children[0].get();
    }
    while (cur->op != NodeOp::kGlobal) {
      keys.push_back(cur->op == NodeOp::kSelect ? cur->constant.text()
                                                : cur->children[1]->constant.text());
      cur = cur->children[0].get();
    }
    Node n;
    n.op = op;
    std::optional<uint32_t> variable = Variable(cur->name);
    if (!variable) return std::nullopt;
    n.variable = *variable;
    n.first_key = static_cast<uint32_t>(out_.keys_.size());
    n.key_count = static_cast<uint32_t>(keys.size());
    out_.keys_.insert(out_.keys_.end(), keys.rbegin(), keys.rend());
    AddPath(n);
    n.cost = 1 + n.key_count;  // the variable and one per step (the test-only node included)
    max_cost_ += n.cost;
    return Push(n, {});
  }

  // Sets the chain's joined key and hash for a PathIndex lookup (see Node::path).
  void AddPath(Node& n) {
    if (n.key_count == 0) return;
    const std::string_view* keys = &out_.keys_[n.first_key];
    if (n.key_count >= 3 && PathIndex::Joinable(keys[0], keys[1])) {
      n.path = PathIndex::MakeKey(
          out_.paths_.emplace_back(PathIndex::Join(keys[0], keys[1], keys[2])));
      n.path_keys = 3;
    } else {
      n.path = PathIndex::MakeKey(out_.paths_.emplace_back(PathIndex::JoinOne(keys[0])));
      n.path_keys = 1;
    }
    // has(a.b) resolves only `a`, the path tells presence instead (EvalHas).
    const uint32_t steps = n.op == Op::kHas ? n.key_count - 1 : n.key_count;
    n.path_starts_chain = n.path_keys <= steps;
    n.quick_path = n.path_keys == n.key_count && n.path.joined.size() <= PathIndex::kMaxFirstKey;
  }

  // The index of `name` in the variable table, added on first use.
  std::optional<uint32_t> Variable(std::string_view name) {
    auto& vars = out_.variables_;
    for (size_t i = 0; i < vars.size(); ++i) {
      if (vars[i] == name) return static_cast<uint32_t>(i);
    }
    if (vars.size() == Activation::kMaxVariables) return std::nullopt;
    vars.push_back(name);
    if (name.find('.') != std::string_view::npos) out_.dotted_variable_ = true;
    return static_cast<uint32_t>(vars.size() - 1);
  }

  uint32_t Push(Node n, const std::vector<uint32_t>& kids) {
    n.first_child = static_cast<uint32_t>(out_.children_.size());
    n.child_count = static_cast<uint32_t>(kids.size());
    out_.children_.insert(out_.children_.end(), kids.begin(), kids.end());
    out_.nodes_.push_back(n);
    return static_cast<uint32_t>(out_.nodes_.size() - 1);
  }

  FastPredicate& out_;
  uint64_t max_cost_ = 0;
};

FastPredicate::~FastPredicate() = default;

size_t FastPredicate::ApproximateBytes() const {
  size_t bytes = sizeof(FastPredicate) + nodes_.capacity() * sizeof(Node) +
                 children_.capacity() * sizeof(uint32_t) +
                 keys_.capacity() * sizeof(std::string_view) +
                 variables_.capacity() * sizeof(std::string_view) + 64;
  for (const std::string& path : paths_) bytes += sizeof(std::string) + HeapBytes(path);
  return bytes;
}

namespace {

// Planned nodes under `node` (itself included) and the bytes of their names and string
// constants, which bound the fast form's nodes, children, keys and joined paths.
void CountTreeForBound(const PlannedNode& node, size_t& nodes, size_t& text) {
  FastPredicate::CountForBound(node, nodes, text);
  for (const NodePtr<PlannedNode>& child : node.children) {
    CountTreeForBound(*child, nodes, text);
  }
}

}  // namespace

// One node's share of the bound (its children are the caller's to count).
void FastPredicate::CountForBound(const PlannedNode& node, size_t& nodes, size_t& text) {
  ++nodes;
  if (!ConstantIsName(node)) text += node.name.size();  // else counted as the constant below
  if (node.constant.kind() == Kind::kString) text += node.constant.text().size();
}

size_t FastPredicate::BoundBytes(const PlannedNode& root) {
  size_t nodes = 0, text = 0;
  CountTreeForBound(root, nodes, text);
  return BoundBytes(nodes, text);
}

size_t FastPredicate::BoundBytes(size_t nodes, size_t text) {
  // Each vector holds at most one entry per planned node, at up to twice its size in
  // capacity; each chain's joined path at most the text of its keys, one per node.
  constexpr size_t kPerNode = 2 * (sizeof(Node) + sizeof(uint32_t) + 2 * sizeof(std::string_view));
  constexpr size_t kPathBlock = 512;  // the deque's first block
  return sizeof(FastPredicate) + 64 + kPathBlock +
         nodes * (kPerNode + sizeof(std::string) + 32) + 2 * text;
}

std::unique_ptr<FastPredicate> FastPredicate::Build(const PlannedNode& root,
                                                    uint64_t cost_limit) {
  std::unique_ptr<FastPredicate> fast(new FastPredicate());
  Builder builder(*fast);
  std::optional<uint32_t> top = builder.AddBool(root);
  if (!top) return nullptr;
  if (cost_limit != 0 && builder.max_cost() > cost_limit) return nullptr;
  // Children are pushed before parents: the root is the last node; keep it first.
  fast->root_ = &fast->nodes_[*top];
  fast->root_eval_ = EvalFunctionFor(fast->root_->op);
  if (fast->variables_.size() == 1) fast->only_variable_ = fast->variables_[0];
  // With a dotted variable bound, or with another variable unbound, the fast form would
  // bail on its chains anyway (nearly always: `true || x.y` is the exception).
  fast->bail_on_one_ = fast->variables_.size() > 1 || fast->dotted_variable_;
  return fast;
}

FastPredicate::EvalFunction FastPredicate::EvalFunctionFor(Op op) {
  switch (op) {
    case Op::kPathEquals: return Thunk<&FastPredicate::EvalPathEquals>;
    case Op::kChainText: return Thunk<&FastPredicate::EvalChainText>;
    case Op::kChainIn: return Thunk<&FastPredicate::EvalChainIn>;
    case Op::kAnd:
    case Op::kOr: return Thunk<&FastPredicate::EvalLogic>;
    default: return Thunk<&FastPredicate::EvalBool>;
  }
}

}  // namespace draguard::cel
