// Node construction with id allocation, shared by the parser and the macro expander
// (private to the parser stage).
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_EXPR_FACTORY_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_EXPR_FACTORY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "policy/cel/ast.h"

namespace draguard::cel::internal {

// Number of nodes in the tree of `e`, counting stops once `limit` is reached.
size_t CountNodes(const Expr& e, size_t limit);

// Builds a vector of nodes from move-only arguments.
template <typename... T>
std::vector<ExprPtr> Exprs(T&&... e) {
  std::vector<ExprPtr> out;
  out.reserve(sizeof...(e));
  (out.push_back(std::forward<T>(e)), ...);
  return out;
}

// Sets `e`'s kind to a K made of `args`, in place where the compiler has parenthesized
// aggregate initialization (C++20, P0960: gcc 10, clang 16): one string or vector move less
// per node than a temporary moved into the variant; elsewhere through that temporary.
template <typename K, typename... A>
void SetKind(Expr& e, A&&... args) {
#if defined(__cpp_aggregate_paren_init) && __cpp_aggregate_paren_init >= 201902L
  e.kind.emplace<K>(std::forward<A>(args)...);
#else
  e.kind.emplace<K>(K{std::forward<A>(args)...});
#endif
}

// Allocates ids 1, 2, 3 ... and creates nodes, in an arena of its own. Not thread safe; one
// per parse. The nodes must be destroyed before the factory, unless TakeArena() has moved
// their storage to whoever outlives them (the Ast).
class ExprFactory {
 public:
  // `expected_nodes` sizes the arena's first block (the parser passes its token count).
  explicit ExprFactory(size_t expected_nodes = 16)
      : arena_(std::make_unique<ExprArena>(expected_nodes)) {}

  int64_t NextId() { return ++last_id_; }
  int64_t last_id() const { return last_id_; }
  // The storage of every node made so far, for the Ast; the factory makes no more nodes.
  std::unique_ptr<ExprArena> TakeArena() { return std::move(arena_); }

  ExprPtr New(int64_t id, int32_t offset) {
    ExprPtr e = arena_->New();
    e->id = id;
    e->offset = offset;
    return e;
  }
  ExprPtr Const(int64_t id, int32_t offset, Constant value) {
    ExprPtr e = New(id, offset);
    SetKind<ConstExpr>(*e, std::move(value));
    return e;
  }
  ExprPtr Ident(int64_t id, int32_t offset, std::string name) {
    ExprPtr e = New(id, offset);
    SetKind<IdentExpr>(*e, std::move(name));
    return e;
  }
  ExprPtr Select(int64_t id, int32_t offset, ExprPtr operand, std::string field,
                 bool test_only = false) {
    ExprPtr e = New(id, offset);
    SetKind<SelectExpr>(*e, std::move(operand), std::move(field), test_only);
    return e;
  }
  ExprPtr Call(int64_t id, int32_t offset, std::string function, std::vector<ExprPtr> args,
               ExprPtr target = nullptr) {
    ExprPtr e = New(id, offset);
    SetKind<CallExpr>(*e, std::move(target), std::move(function), std::move(args));
    return e;
  }
  ExprPtr List(int64_t id, int32_t offset, std::vector<ExprPtr> elements,
               std::vector<int32_t> optional_indices = {}) {
    ExprPtr e = New(id, offset);
    SetKind<ListExpr>(*e, std::move(elements), std::move(optional_indices));
    return e;
  }
  ExprPtr Comprehension(int64_t id, int32_t offset, ComprehensionExpr c) {
    ExprPtr e = New(id, offset);
    e->kind = std::move(c);
    return e;
  }

  // Gives every node of the tree whose id is 0 a fresh id, children before parents
  // (comprehension parts in the order range, init, condition, step, result).
  void AssignPendingIds(Expr& e);

  // Deep copy of `e` with fresh ids (cel-go's ExprHelper.Copy), same offsets.
  ExprPtr Copy(const Expr& e);

 private:
  std::unique_ptr<ExprArena> arena_;
  int64_t last_id_ = 0;
};

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_EXPR_FACTORY_H_
