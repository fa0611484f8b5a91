// Planning: one pass over the Ast. A scope stack maps comprehension variable names to
// slots; identifiers not in scope become activation lookups (or type constants such
// as `int`), tried under the container's candidate names as cel-go does for unchecked
// expressions; a select chain `a.b` rooted at such an identifier first tries the qualified
// variable "a.b"; `optional.of(x)`-style calls whose target spells a namespace resolve to
// the qualified function. After children are planned, constant list/map
// literals and constant conversions are evaluated once (cel-go's constant folding in
// Kubernetes), a conversion error failing the plan. Calls of matches/find/findAll with a
// constant pattern get the pattern compiled once; an invalid one fails the plan too.
#include "policy/cel/program.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "policy/cel/evaluator.h"
#include "policy/cel/fast_predicate.h"
#include "policy/cel/internal/container_names.h"
#include "policy/cel/operators.h"
#include "policy/cel/types.h"
#include "policy/common/bounded_cache.h"
#include "policy/common/status_macros.h"

namespace draguard::cel {
namespace {

using PlannedPtr = NodePtr<PlannedNode>;
using PlannedArena = NodeArena<PlannedNode>;

Status InstantiationError(std::string_view what) {
  return InvalidArgumentError("program instantiation failed: " + std::string(what));
}

bool IsTypeName(std::string_view name) {
  static constexpr std::array<std::string_view, 11> kTypes = {
      "int",  "uint", "double",    "bool", "string",       "bytes",
      "list", "map",  "null_type", "type", "optional_type"};
  for (std::string_view t : kTypes) {
    if (t == name) return true;
  }
  return false;
}

bool IsConversion(std::string_view name) {
  return name == "int" || name == "uint" || name == "double" || name == "string" ||
         name == "bool" || name == "bytes";
}

PlannedPtr ConstNode(PlannedArena& arena, Value v) {
  PlannedPtr node = arena.New();
  node->constant = v.Borrowed();
  node->keep = std::make_shared<const Value>(std::move(v));
  return node;
}

// A constant without a payload to own (a scalar, a type: static text).
PlannedPtr ScalarNode(PlannedArena& arena, Value v) {
  PlannedPtr node = arena.New();
  node->constant = v;
  return node;
}

// A string or bytes literal, its text held by the node itself (a short one inline): no
// shared block to allocate, and nothing to free but the text.
PlannedPtr TextNode(PlannedArena& arena, std::string_view text, bool bytes) {
  PlannedPtr node = arena.New();
  node->name.assign(text);
  node->constant = bytes ? Value::BytesView(node->name) : Value::StringView(node->name);
  return node;
}

// The node kind of a call of `fn`: the logical operators and the conditional are planned
// apart. Operators start with '_' or '@'; other names are told apart by one comparison.
NodeOp CallOp(std::string_view fn) {
  if (fn.empty() || (fn[0] != '_' && fn[0] != '@')) return NodeOp::kCall;
  if (fn == op::kLogicalAnd) return NodeOp::kAnd;
  if (fn == op::kLogicalOr) return NodeOp::kOr;
  if (fn == op::kConditional) return NodeOp::kTernary;
  if (fn == op::kNotStrictlyFalse) return NodeOp::kNotStrictlyFalse;
  return NodeOp::kCall;
}

class Planner {
 public:
  // `expected_nodes` sizes the arena's first block (the Ast's node count: a plan has about
  // as many nodes).
  Planner(const Registry& registry, std::string_view container, size_t expected_nodes)
      : registry_(registry),
        container_(container),
        arena_(std::make_unique<PlannedArena>(expected_nodes)) {}

  // The storage of every node planned so far, for the Program.
  std::unique_ptr<PlannedArena> TakeArena() { return std::move(arena_); }

  StatusOr<PlannedPtr> PlanExpr(const Expr& e);
  int slot_count() const { return slot_count_; }

 private:
  StatusOr<PlannedPtr> PlanConst(const Constant& c);
  StatusOr<PlannedPtr> PlanIdent(const IdentExpr& ident);
  StatusOr<PlannedPtr> PlanSelect(const SelectExpr& select);
  StatusOr<PlannedPtr> PlanCall(const CallExpr& call);
  StatusOr<PlannedPtr> PlanList(const ListExpr& list);
  StatusOr<PlannedPtr> PlanMap(const StructExpr& map);
  StatusOr<PlannedPtr> PlanComprehension(const ComprehensionExpr& c);
  StatusOr<PlannedPtr> Fold(PlannedPtr node);
  int Lookup(std::string_view name) const;
  bool QualifiedName(const Expr& e, std::string* out) const;
  std::string ResolveFunction(std::string_view name, int arity) const;

  const Registry& registry_;
  std::string_view container_;
  std::unique_ptr<PlannedArena> arena_;
  std::vector<std::pair<std::string, int>> scopes_;
  int slot_count_ = 0;
};

int Planner::Lookup(std::string_view name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  return -1;
}

StatusOr<PlannedPtr> Planner::PlanExpr(const Expr& e) {
  switch (e.expr_kind()) {
    case ExprKind::kConst: return PlanConst(e.as_const()->value);
    case ExprKind::kIdent: return PlanIdent(*e.as_ident());
    case ExprKind::kSelect: return PlanSelect(*e.as_select());
    case ExprKind::kCall: return PlanCall(*e.as_call());
    case ExprKind::kList: return PlanList(*e.as_list());
    case ExprKind::kStruct: return PlanMap(*e.as_struct());
    case ExprKind::kComprehension: return PlanComprehension(*e.as_comprehension());
    case ExprKind::kUnspecified: break;
  }
  return InstantiationError("unspecified expression");
}

StatusOr<PlannedPtr> Planner::PlanConst(const Constant& c) {
  struct Visitor {
    PlannedArena& arena;
    PlannedPtr operator()(NullValueTag) const { return ScalarNode(arena, Value::Null()); }
    PlannedPtr operator()(bool b) const { return ScalarNode(arena, Value::Bool(b)); }
    PlannedPtr operator()(int64_t i) const { return ScalarNode(arena, Value::Int(i)); }
    PlannedPtr operator()(uint64_t u) const { return ScalarNode(arena, Value::Uint(u)); }
    PlannedPtr operator()(double d) const { return ScalarNode(arena, Value::Double(d)); }
    PlannedPtr operator()(const std::string& s) const { return TextNode(arena, s, false); }
    PlannedPtr operator()(const BytesConstant& b) const { return TextNode(arena, b.value, true); }
  };
  return std::visit(Visitor{*arena_}, c);
}

// `a.b.c` for a select chain whose root identifier is not a comprehension variable (a
// root-scoped `.a.b` keeps its dot); the chain may then spell a qualified variable name.
bool Planner::QualifiedName(const Expr& e, std::string* out) const {
  if (!ToQualifiedName(e, out) || out->empty()) return false;
  return (*out)[0] == '.' || Lookup(std::string_view(*out).substr(0, out->find('.'))) < 0;
}

// The registered function `name` resolves to under the container (cel-go tries the most
// qualified candidate first), or `name` itself when none is registered.
std::string Planner::ResolveFunction(std::string_view name, int arity) const {
  if (container_.empty() && (name.empty() || name[0] != '.')) return std::string(name);
  for (std::string& candidate : internal::ContainerCandidates(container_, name)) {
    if (registry_.Find(candidate, arity) != nullptr) return candidate;
  }
  return std::string(!name.empty() && name[0] == '.' ? name.substr(1) : name);
}

StatusOr<PlannedPtr> Planner::PlanIdent(const IdentExpr& ident) {
  std::string_view name = ident.name;
  const bool rooted = !name.empty() && name[0] == '.';
  if (rooted) name.remove_prefix(1);
  if (int slot = rooted ? -1 : Lookup(name); slot >= 0) {
    auto node = arena_->New();
    node->op = NodeOp::kSlot;
    node->slot = slot;
    return node;
  }
  if (IsTypeName(name)) return ScalarNode(*arena_, Value::Type(name));
  auto node = arena_->New();
  node->op = NodeOp::kGlobal;
  node->name = std::string(name);
  if (!container_.empty() && !rooted) {
    node->candidates = internal::ContainerCandidates(container_, name);
  }
  return node;
}

StatusOr<PlannedPtr> Planner::PlanSelect(const SelectExpr& select) {
  auto node = arena_->New();
  node->op = select.test_only ? NodeOp::kTestOnly : NodeOp::kSelect;
  node->name = select.field;
  node->constant = Value::StringView(node->name);
  std::string qualified;
  if (!select.test_only && QualifiedName(*select.operand, &qualified)) {
    // The type identifiers of the Kubernetes network types.
    if (qualified == "net") {  // "net.IP", "net.CIDR"; a rooted ".net.IP" is not one
      if (select.field == "IP") return ScalarNode(*arena_, Value::Type(kIpTypeName));
      if (select.field == "CIDR") return ScalarNode(*arena_, Value::Type(kCidrTypeName));
    }
    node->qualified = true;
  }
  DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr operand, PlanExpr(*select.operand));
  // Without a container the chain's only candidate is its own name, which the evaluator
  // spells from the planned chain when an activation has dotted names (QualifiedSelectName):
  // most selectors start with `device.attributes`, and building and keeping the name cost
  // ~500 instructions a selector. Else (a container, or a chain not planned as one) they are
  // listed now.
  const bool chain = operand->op == NodeOp::kGlobal ||
                     (operand->op == NodeOp::kSelect && operand->qualified &&
                      operand->candidates.empty());
  if (node->qualified && (!container_.empty() || !chain)) {
    node->candidates = internal::ContainerCandidates(container_, qualified + "." + select.field);
  }
  node->children.push_back(std::move(operand));
  return node;
}

StatusOr<PlannedPtr> Planner::PlanCall(const CallExpr& call) {
  auto node = arena_->New();
  const std::string& fn = call.function;
  const Expr* target = call.target.get();
  const int arg_count = static_cast<int>(call.args.size());
  std::string name = target == nullptr ? ResolveFunction(fn, arg_count) : fn;
  std::string qualified;
  if (target != nullptr && QualifiedName(*target, &qualified)) {
    std::string namespaced = ResolveFunction(qualified + "." + fn, arg_count);
    if (registry_.Find(namespaced, arg_count) != nullptr) {
      name = std::move(namespaced);  // namespaced global: optional.of(x)
      target = nullptr;
    }
  }
  node->op = CallOp(fn);
  node->children.reserve(call.args.size() + (target != nullptr ? 1 : 0));
  if (target != nullptr) {
    DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr t, PlanExpr(*target));
    node->children.push_back(std::move(t));
  }
  for (const ExprPtr& arg : call.args) {
    DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr a, PlanExpr(*arg));
    node->children.push_back(std::move(a));
  }
  if (node->op != NodeOp::kCall) return node;
  const int arity = static_cast<int>(node->children.size());
  node->fn = registry_.Find(name, arity);
  node->name = std::move(name);
  // An unknown function (fn stays null) is a runtime error, as in cel-go for unchecked
  // expressions, so that `||`/`&&` can still absorb it. A checked expression gets here
  // only for a declared function without a runtime implementation.
  if (node->fn == nullptr) return node;
  if (arity >= 2 && node->children[1]->op == NodeOp::kConst) {
    StatusOr<PreparedCall> prepared =
        PrepareRegexCall(node->name, arity, node->children[1]->constant);
    if (!prepared.ok()) return InstantiationError(prepared.status().message());
    node->prepared = std::move(*prepared);
  }
  return Fold(std::move(node));
}

// Folds a conversion with a constant argument, as cel-go's optimiser does with Kubernetes'
// cel.OptOptimize (interpreter/decorators.go, maybeOptimizeConstUnary). Constant
// quantity()/semver() calls are folded too, but only when they succeed, so that an
// invalid literal still fails at evaluation time as in Kubernetes.
StatusOr<PlannedPtr> Planner::Fold(PlannedPtr node) {
  // Only calls of constants fold; most calls have a variable argument (checked first: a
  // pointer test, where the names below are eight comparisons).
  for (const PlannedPtr& child : node->children) {
    if (child->op != NodeOp::kConst) return node;
  }
  const bool conversion = IsConversion(node->name) && node->children.size() == 1;
  const bool pure = node->name == "quantity" || node->name == "semver";
  if (!conversion && !pure) return node;
  std::array<Value, 2> args;
  if (node->children.size() > args.size()) return node;
  for (size_t i = 0; i < node->children.size(); ++i) {
    if (node->children[i]->op != NodeOp::kConst) return node;
    args[i] = node->children[i]->constant;
  }
  EvalState scratch;
  Value v = node->fn(std::span<const Value>(args.data(), node->children.size()), scratch);
  if (v.is_error()) {
    if (conversion) return InstantiationError(v.text());
    return node;
  }
  // An identity conversion (string('a'), bytes(b'a')) returns its argument, which borrows
  // from the child nodes destroyed with `node`: give the folded constant its own copy.
  if (v.kind() == Kind::kString) v = Value::String(std::string(v.text()));
  if (v.kind() == Kind::kBytes) v = Value::Bytes(std::string(v.text()));
  return ConstNode(*arena_, std::move(v));
}

StatusOr<PlannedPtr> Planner::PlanList(const ListExpr& list) {
  auto node = arena_->New();
  node->op = NodeOp::kList;
  bool all_const = list.optional_indices.empty();
  for (const ExprPtr& e : list.elements) {
    DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr child, PlanExpr(*e));
    all_const = all_const && child->op == NodeOp::kConst;
    node->children.push_back(std::move(child));
  }
  node->optional.assign(node->children.size(), false);
  for (int32_t i : list.optional_indices) {
    if (i >= 0 && static_cast<size_t>(i) < node->optional.size()) node->optional[static_cast<size_t>(i)] = true;
  }
  if (!all_const) return node;
  auto data = std::make_shared<ListData>();
  for (const PlannedPtr& child : node->children) data->elements.push_back(child->constant);
  // Children hold the payloads the elements borrow; keep them alive with the list.
  auto holder = std::make_shared<std::pair<std::shared_ptr<ListData>, std::vector<PlannedPtr>>>(
      data, std::move(node->children));
  PlannedPtr folded = arena_->New();
  folded->constant = Value::ListRef(data.get());
  folded->keep = std::move(holder);
  return folded;
}

StatusOr<PlannedPtr> Planner::PlanMap(const StructExpr& map) {
  if (!map.message_name.empty()) {
    return InstantiationError("unknown type: " + map.message_name);
  }
  auto node = arena_->New();
  node->op = NodeOp::kMap;
  for (const StructEntry& entry : map.entries) {
    DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr key, PlanExpr(*entry.key));
    DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr value, PlanExpr(*entry.value));
    node->children.push_back(std::move(key));
    node->children.push_back(std::move(value));
    node->optional.push_back(entry.optional);
  }
  return node;
}

StatusOr<PlannedPtr> Planner::PlanComprehension(const ComprehensionExpr& c) {
  auto node = arena_->New();
  node->op = NodeOp::kComprehension;
  DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr range, PlanExpr(*c.iter_range));
  node->children.push_back(std::move(range));
  node->accu_slot = slot_count_++;
  scopes_.emplace_back(c.accu_var, node->accu_slot);
  DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr init, PlanExpr(*c.accu_init));
  node->children.push_back(std::move(init));
  node->slot = slot_count_++;
  scopes_.emplace_back(c.iter_var, node->slot);
  size_t pushed = 2;
  if (!c.iter_var2.empty()) {
    node->slot2 = slot_count_++;
    scopes_.emplace_back(c.iter_var2, node->slot2);
    ++pushed;
  }
  for (const ExprPtr* e : {&c.loop_condition, &c.loop_step}) {
    DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr child, PlanExpr(**e));
    node->children.push_back(std::move(child));
  }
  scopes_.resize(scopes_.size() - pushed + 1);  // result sees only the accumulator
  DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr result, PlanExpr(*c.result));
  node->children.push_back(std::move(result));
  scopes_.pop_back();
  return node;
}

}  // namespace

Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&& other) noexcept {
  if (this == &other) return *this;
  // The fast forms borrow from the nodes, and the nodes live in the arena: drop them in that
  // order before taking the other's (member-wise, the old arena would go first).
  lazy_.reset();
  fast_.reset();
  root_.reset();
  arena_ = std::move(other.arena_);
  root_ = std::move(other.root_);
  fast_ = std::move(other.fast_);
  lazy_ = std::move(other.lazy_);
  slot_count_ = other.slot_count_;
  options_ = std::move(other.options_);
  return *this;
}
Program::~Program() = default;

const FastPredicate* Program::BuildFastFormWhenDue() const {
  if (lazy_->decided.load(std::memory_order_acquire)) return nullptr;  // there is none
  if (lazy_->general_runs.fetch_add(1, std::memory_order_relaxed) < options_.fast_path_after) {
    return nullptr;
  }
  std::call_once(lazy_->once, [&] {
    lazy_->built = FastPredicate::Build(*root_, options_.cost_limit);
    lazy_->ready.store(lazy_->built.get(), std::memory_order_release);
    lazy_->decided.store(true, std::memory_order_release);
  });
  return lazy_->ready.load(std::memory_order_acquire);
}

Value Program::Evaluate(const Activation& activation, EvalState& state) const {
  if (const FastPredicate* fast = FastForm()) {
    uint64_t cost = 0;
    FastPredicate::Outcome o = fast->Evaluate(activation, state, cost);
    if (o != FastPredicate::Outcome::kBail) {
      state.cost_ = cost;
      state.iterations_ = 0;
      return Value::Bool(o == FastPredicate::Outcome::kTrue);
    }
  }
  return EvaluateGeneral(activation, state);
}

Value Program::Evaluate(std::string_view name, const Value& value, EvalState& state) const {
  if (std::optional<bool> fast = TryFast(name, value, state)) return Value::Bool(*fast);
  return EvaluateGeneral(name, value, state);
}

Value Program::EvaluateGeneral(std::string_view name, const Value& value,
                               EvalState& state) const {
  Activation activation;
  activation.Bind(name, value);
  return EvaluateGeneral(activation, state);
}

Value Program::EvaluateGeneral(const Activation& activation, EvalState& state) const {
  state.cost_ = 0;
  state.iterations_ = 0;
  if (state.slots_.size() < static_cast<size_t>(slot_count_)) {
    state.slots_.resize(static_cast<size_t>(slot_count_));
  }
  Evaluator evaluator{.options = options_, .activation = activation, .state = state};
  Value result = evaluator.Eval(*root_);
  if (evaluator.cancelled) return Value::ErrorView(evaluator.cancel_reason);
  return result;
}

namespace {

// A constant's payload. Scalars are inline; quantities, semvers and the like are small.
size_t ValueBytes(const Value& v) {
  constexpr size_t kSmallPayload = 64;
  switch (v.kind()) {
    case Kind::kString:
    case Kind::kBytes:
    case Kind::kError:
      return v.text().size() + 16;
    case Kind::kList: {
      size_t bytes = sizeof(ListData) + 16;
      for (const Value& e : v.list().elements) bytes += sizeof(Value) + ValueBytes(e);
      return bytes;
    }
    case Kind::kMap: {
      size_t bytes = sizeof(MapData) + 16;
      for (const auto& [key, value] : v.map().entries) {
        bytes += 2 * sizeof(Value) + ValueBytes(key) + ValueBytes(value);
      }
      return bytes;
    }
    case Kind::kNull:
    case Kind::kBool:
    case Kind::kInt:
    case Kind::kUint:
    case Kind::kDouble:
    case Kind::kDuration:
      return 0;
    default:
      return kSmallPayload;
  }
}

// A folded constant list or map keeps the planned nodes of its elements alive (they own
// the payloads the elements borrow), each with its own kept Value.
size_t FoldedElementsBytes(const Value& v) {
  constexpr size_t kPerElement = 160;  // the node itself is in the arena's bytes
  if (v.kind() == Kind::kList) return v.list().elements.size() * kPerElement;
  if (v.kind() == Kind::kMap) return 2 * v.map().entries.size() * kPerElement;
  return 0;
}

// `nodes` and `text` count what FastPredicate::BoundBytes(nodes, text) takes, so that a
// program whose fast form is still to be built is measured in one walk.
size_t NodeBytes(const PlannedNode& node, size_t& nodes, size_t& text) {
  // Besides the node's slot (in the arena's bytes): a constant's kept Value (a shared block)
  // and the spare capacity of its vectors; measured at about 120 bytes a node.
  constexpr size_t kPerNode = 128;
  FastPredicate::CountForBound(node, nodes, text);
  // A literal's text is its node's name, counted once (TextNode).
  const bool own_text = ConstantIsName(node);
  size_t bytes = kPerNode + HeapBytes(node.name) +
                 (own_text ? 0 : ValueBytes(node.constant)) + FoldedElementsBytes(node.constant) +
                 node.prepared.data_bytes + node.children.capacity() * sizeof(void*) +
                 node.optional.capacity() / 8 + node.candidates.capacity() * sizeof(std::string);
  for (const std::string& c : node.candidates) bytes += HeapBytes(c);
  for (const PlannedPtr& child : node.children) bytes += NodeBytes(*child, nodes, text);
  return bytes;
}

}  // namespace

size_t Program::ApproximateBytes() const {
  constexpr size_t kPerProgram = 512;  // the regex and registry bookkeeping of a plan
  size_t nodes = 0, text = 0;
  const size_t planned = root_ ? NodeBytes(*root_, nodes, text) : 0;
  size_t fast = fast_ ? fast_->ApproximateBytes() : 0;
  if (lazy_ != nullptr && root_ != nullptr) {
    const FastPredicate* built = lazy_->ready.load(std::memory_order_acquire);
    if (built != nullptr) {
      fast = built->ApproximateBytes();
    } else if (lazy_->decided.load(std::memory_order_acquire)) {
      fast = 0;
    } else {
      fast = FastPredicate::BoundBytes(nodes, text);
    }
    fast += sizeof(LazyFastForm);
  }
  return sizeof(Program) + kPerProgram + (arena_ ? arena_->bytes() : 0) + planned + fast;
}

StatusOr<Program> Plan(const Ast& ast, const RuntimeOptions& options) {
  Planner planner(Registry::Default(), options.container,
                  static_cast<size_t>(std::max<int64_t>(ast.max_id(), 0)) + 4);
  DRAGUARD_ASSIGN_OR_RETURN(PlannedPtr root, planner.PlanExpr(ast.root()));
  Program program;
  program.arena_ = planner.TakeArena();
  program.root_ = std::move(root);
  if (options.fast_path && options.fast_path_after == 0) {
    program.fast_ = FastPredicate::Build(*program.root_, options.cost_limit);
  } else if (options.fast_path) {
    program.lazy_ = std::make_unique<Program::LazyFastForm>();
  }
  program.slot_count_ = planner.slot_count();
  program.options_ = options;
  return program;
}

}  // namespace draguard::cel
