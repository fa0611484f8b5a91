#include "policy/cel/internal/expr_factory.h"

#include <type_traits>

namespace draguard::cel::internal {
namespace {

ExprPtr CopyOrNull(ExprFactory& f, const ExprPtr& e) { return e ? f.Copy(*e) : nullptr; }

std::vector<ExprPtr> CopyAll(ExprFactory& f, const std::vector<ExprPtr>& list) {
  std::vector<ExprPtr> out;
  out.reserve(list.size());
  for (const ExprPtr& e : list) out.push_back(CopyOrNull(f, e));
  return out;
}

size_t CountInto(const Expr& e, size_t limit, size_t& n);

size_t CountAll(const std::vector<ExprPtr>& list, size_t limit, size_t& n) {
  for (const ExprPtr& e : list) {
    if (e && n < limit) CountInto(*e, limit, n);
  }
  return n;
}

size_t CountInto(const Expr& e, size_t limit, size_t& n) {
  if (++n >= limit) return n;
  if (const SelectExpr* s = e.as_select(); s && s->operand) return CountInto(*s->operand, limit, n);
  if (const CallExpr* c = e.as_call()) {
    if (c->target) CountInto(*c->target, limit, n);
    return CountAll(c->args, limit, n);
  }
  if (const ListExpr* l = e.as_list()) return CountAll(l->elements, limit, n);
  if (const StructExpr* s = e.as_struct()) {
    for (const StructEntry& entry : s->entries) {
      if (entry.key && n < limit) CountInto(*entry.key, limit, n);
      if (entry.value && n < limit) CountInto(*entry.value, limit, n);
    }
    return n;
  }
  if (const ComprehensionExpr* c = e.as_comprehension()) {
    for (const ExprPtr* p : {&c->iter_range, &c->accu_init, &c->loop_condition, &c->loop_step,
                             &c->result}) {
      if (*p && n < limit) CountInto(**p, limit, n);
    }
  }
  return n;
}

}  // namespace

size_t CountNodes(const Expr& e, size_t limit) {
  size_t n = 0;
  return CountInto(e, limit, n);
}

void ExprFactory::AssignPendingIds(Expr& e) {
  auto visit = [this](ExprPtr& child) {
    if (child) AssignPendingIds(*child);
  };
  if (SelectExpr* s = e.as_select()) visit(s->operand);
  if (CallExpr* c = e.as_call()) {
    visit(c->target);
    for (ExprPtr& a : c->args) visit(a);
  }
  if (ListExpr* l = e.as_list()) {
    for (ExprPtr& a : l->elements) visit(a);
  }
  if (StructExpr* s = e.as_struct()) {
    for (StructEntry& entry : s->entries) {
      visit(entry.key);
      visit(entry.value);
      if (entry.id == 0) entry.id = NextId();
    }
  }
  if (ComprehensionExpr* c = e.as_comprehension()) {
    visit(c->iter_range);
    visit(c->accu_init);
    visit(c->loop_condition);
    visit(c->loop_step);
    visit(c->result);
  }
  if (e.id == 0) e.id = NextId();
}

// Recursion depth equals the copied tree's depth, which the parser's recursion limit bounds.
ExprPtr ExprFactory::Copy(const Expr& e) {
  ExprPtr out = New(NextId(), e.offset);
  std::visit(
      [&](const auto& k) {
        using K = std::decay_t<decltype(k)>;
        if constexpr (std::is_same_v<K, std::monostate> || std::is_same_v<K, ConstExpr> ||
                      std::is_same_v<K, IdentExpr>) {
          out->kind = k;
        } else if constexpr (std::is_same_v<K, SelectExpr>) {
          out->kind = SelectExpr{CopyOrNull(*this, k.operand), k.field, k.test_only};
        } else if constexpr (std::is_same_v<K, CallExpr>) {
          ExprPtr target = CopyOrNull(*this, k.target);
          out->kind = CallExpr{std::move(target), k.function, CopyAll(*this, k.args)};
        } else if constexpr (std::is_same_v<K, ListExpr>) {
          out->kind = ListExpr{CopyAll(*this, k.elements), k.optional_indices};
        } else if constexpr (std::is_same_v<K, StructExpr>) {
          StructExpr s{k.message_name, {}};
          s.entries.reserve(k.entries.size());
          for (const StructEntry& entry : k.entries) {
            s.entries.push_back(StructEntry{NextId(), entry.offset, entry.field,
                                            CopyOrNull(*this, entry.key),
                                            CopyOrNull(*this, entry.value), entry.optional});
          }
          out->kind = std::move(s);
        } else {
          ComprehensionExpr c;
          c.iter_var = k.iter_var;
          c.iter_var2 = k.iter_var2;
          c.iter_range = CopyOrNull(*this, k.iter_range);
          c.accu_var = k.accu_var;
          c.accu_init = CopyOrNull(*this, k.accu_init);
          c.loop_condition = CopyOrNull(*this, k.loop_condition);
          c.loop_step = CopyOrNull(*this, k.loop_step);
          c.result = CopyOrNull(*this, k.result);
          out->kind = std::move(c);
        }
      },
      e.kind);
  return out;
}

}  // namespace draguard::cel::internal
