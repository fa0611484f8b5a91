// The CEL abstract syntax tree, shared by the parser, checker, cost estimator and evaluator.
//
// The shape follows cel-spec's `Expr` proto (and cel-go/cel-cpp): constants, identifiers,
// selects, calls, list and map literals and comprehensions. Macros are expanded by the
// parser into comprehensions (or, for `has`, a test-only select), exactly as cel-go does,
// so later stages never see macro calls. Operators are calls with cel-go's internal names
// (operators.h): `a + b` is Call("_+_", {a, b}); `a.?b` is Call("_?._", {a, "b"});
// `a[?b]` is Call("_[?_]", {a, b}).
//
// Every node has an id unique within its Ast (ids start at 1) and the byte offset of the
// node's first character in the source text; the Ast keeps the source for positions.
//
// Ownership: a node owns its children through ExprPtr; nodes are not shared. The storage of
// every node comes from an ExprArena (internal/expr_factory.h makes all nodes), which the Ast
// owns: an ExprPtr's deleter only runs the node's destructor, and the arena releases its few
// blocks when the Ast goes, instead of one heap block per node (a selector's parse and its
// eviction from a cache were a malloc and a free per node). Thread compatible: a const Ast
// may be read from several threads.
#ifndef DRAGUARD_POLICY_CEL_AST_H_
#define DRAGUARD_POLICY_CEL_AST_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "policy/common/node_arena.h"
#include "policy/common/source.h"

namespace draguard::cel {

// Literal values. Bytes are kept as raw bytes in a std::string.
struct NullValueTag {
  friend bool operator==(NullValueTag, NullValueTag) { return true; }
};
struct BytesConstant {
  std::string value;
  friend bool operator==(const BytesConstant&, const BytesConstant&) = default;
};
using Constant =
    std::variant<NullValueTag, bool, int64_t, uint64_t, double, std::string, BytesConstant>;

struct Expr;
// Held by its parent; the storage belongs to the tree's ExprArena (node_arena.h).
using ExprPtr = NodePtr<Expr>;
using ExprArena = NodeArena<Expr>;


struct ConstExpr {
  Constant value;
};

// A (possibly dotted) name as written. The parser produces one IdentExpr per identifier;
// qualified names like `a.b.c` are Select chains, resolved by the checker. `name` may start
// with '.' for a root-scoped reference (`.x`).
struct IdentExpr {
  std::string name;
};

// operand.field, or, with test_only, the presence test produced by `has(operand.field)`.
struct SelectExpr {
  ExprPtr operand;
  std::string field;
  bool test_only = false;
};

// function(args) when target is null, target.function(args) otherwise.
struct CallExpr {
  ExprPtr target;
  std::string function;
  std::vector<ExprPtr> args;
};

// [e1, e2, ?e3]: optional_indices lists the positions written with `?`.
struct ListExpr {
  std::vector<ExprPtr> elements;
  std::vector<int32_t> optional_indices;
};

// {k: v, ?k2: v2} map literal, or Type{field: v} message literal when message_name is set.
struct StructEntry {
  int64_t id = 0;
  int32_t offset = 0;     // offset of the key (or field name)
  std::string field;      // message literal: the field name; map literal: empty
  ExprPtr key;            // map literal: the key expression; message literal: null
  ExprPtr value;
  bool optional = false;  // written as `?k: v`
};
struct StructExpr {
  std::string message_name;  // empty for a map literal
  std::vector<StructEntry> entries;
};

// The expansion target of every macro, as in cel-spec:
//   accu = accu_init
//   for (iter_var[, iter_var2] in iter_range) {
//     if (!loop_condition) break;
//     accu = loop_step;
//   }
//   return result;
// iter_var2 is set for two-variable comprehensions (index/key, value).
struct ComprehensionExpr {
  std::string iter_var;
  std::string iter_var2;
  ExprPtr iter_range;
  std::string accu_var;
  ExprPtr accu_init;
  ExprPtr loop_condition;
  ExprPtr loop_step;
  ExprPtr result;
};

// The accumulator name cel-go uses in macro expansions ("@result"). Users cannot write it.
inline constexpr char kAccumulatorName[] = "@result";

enum class ExprKind { kUnspecified, kConst, kIdent, kSelect, kCall, kList, kStruct, kComprehension };

struct Expr {
  int64_t id = 0;
  int32_t offset = 0;  // byte offset in the source text
  std::variant<std::monostate, ConstExpr, IdentExpr, SelectExpr, CallExpr, ListExpr, StructExpr,
               ComprehensionExpr>
      kind;

  ExprKind expr_kind() const { return static_cast<ExprKind>(kind.index()); }
  const ConstExpr* as_const() const { return std::get_if<ConstExpr>(&kind); }
  const IdentExpr* as_ident() const { return std::get_if<IdentExpr>(&kind); }
  const SelectExpr* as_select() const { return std::get_if<SelectExpr>(&kind); }
  const CallExpr* as_call() const { return std::get_if<CallExpr>(&kind); }
  const ListExpr* as_list() const { return std::get_if<ListExpr>(&kind); }
  const StructExpr* as_struct() const { return std::get_if<StructExpr>(&kind); }
  const ComprehensionExpr* as_comprehension() const {
    return std::get_if<ComprehensionExpr>(&kind);
  }
  ConstExpr* as_const() { return std::get_if<ConstExpr>(&kind); }
  IdentExpr* as_ident() { return std::get_if<IdentExpr>(&kind); }
  SelectExpr* as_select() { return std::get_if<SelectExpr>(&kind); }
  CallExpr* as_call() { return std::get_if<CallExpr>(&kind); }
  ListExpr* as_list() { return std::get_if<ListExpr>(&kind); }
  StructExpr* as_struct() { return std::get_if<StructExpr>(&kind); }
  ComprehensionExpr* as_comprehension() { return std::get_if<ComprehensionExpr>(&kind); }
};

// Calls `f(const Expr&)` on each direct child of `e`, in source order (call target first,
// map keys before values, comprehension parts in declaration order).
template <typename F>
void ForEachChild(const Expr& e, F&& f) {
  if (const CallExpr* call = e.as_call()) {
    if (call->target) f(*call->target);
    for (const ExprPtr& a : call->args) f(*a);
  } else if (const SelectExpr* sel = e.as_select()) {
    f(*sel->operand);
  } else if (const ListExpr* list = e.as_list()) {
    for (const ExprPtr& el : list->elements) f(*el);
  } else if (const StructExpr* st = e.as_struct()) {
    for (const StructEntry& entry : st->entries) {
      if (entry.key) f(*entry.key);
      if (entry.value) f(*entry.value);
    }
  } else if (const ComprehensionExpr* c = e.as_comprehension()) {
    for (const ExprPtr* p : {&c->iter_range, &c->accu_init, &c->loop_condition, &c->loop_step,
                             &c->result}) {
      if (*p) f(**p);
    }
  }
}

// The dotted name an identifier/select chain spells ("a.b.c"; a root-scoped `.a.b` keeps its
// leading dot), or false when `e` is anything else or contains a presence test.
inline bool ToQualifiedName(const Expr& e, std::string* out) {
  if (const IdentExpr* ident = e.as_ident()) {
    *out = ident->name;
    return true;
  }
  const SelectExpr* sel = e.as_select();
  if (sel == nullptr || sel->test_only || !ToQualifiedName(*sel->operand, out)) return false;
  out->push_back('.');
  out->append(sel->field);
  return true;
}

// A parsed expression with its source. Positions of nodes come from `offset`; for macro
// expansions the synthesized nodes carry the offset of the macro call.
class Ast {
 public:
  // `arena` holds the storage of every node of `root`.
  Ast(std::unique_ptr<ExprArena> arena, ExprPtr root, SourceText source, int64_t max_id)
      : arena_(std::move(arena)),
        root_(std::move(root)),
        source_(std::move(source)),
        max_id_(max_id) {}
  Ast(Ast&&) = default;
  // Member-wise, the old arena would go before the old nodes (node_arena.h).
  Ast& operator=(Ast&&) = delete;

  const Expr& root() const { return *root_; }
  Expr& mutable_root() { return *root_; }
  const SourceText& source() const { return source_; }
  // The largest node id in the tree; a later stage may allocate ids above it.
  int64_t max_id() const { return max_id_; }
  // The heap the nodes' storage takes (their strings and vectors not included).
  size_t arena_bytes() const { return arena_->bytes(); }

 private:
  // Declared before root_, so destroyed after the nodes it holds.
  std::unique_ptr<ExprArena> arena_;
  ExprPtr root_;
  SourceText source_;
  int64_t max_id_;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_AST_H_
