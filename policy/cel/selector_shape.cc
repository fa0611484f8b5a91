#include "policy/cel/selector_shape.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>

#include "policy/cel/checker_internal/format_validator.h"
#include "policy/cel/checker_internal/literal_validators.h"
#include "policy/cel/cost.h"
#include "policy/cel/internal/literals.h"
#include "policy/cel/parser_options.h"
#include "policy/common/source.h"
#include "policy/common/strings.h"

namespace draguard::cel {
namespace {

bool IsValueLiteral(TokenKind k) {
  return k == TokenKind::kIntLit || k == TokenKind::kUintLit || k == TokenKind::kDoubleLit ||
         k == TokenKind::kStringLit || k == TokenKind::kBytesLit;
}

std::string_view TextOf(std::string_view text, const Token& t) {
  return text.substr(static_cast<size_t>(t.offset), static_cast<size_t>(t.length));
}

// The constant the parser makes of literal token `t` (preceded by '-' when `negative`), or
// nullopt where the parser reports an error.
std::optional<Constant> Decode(std::string_view text, const Token& t, bool negative) {
  const std::string_view lit = TextOf(text, t);
  switch (t.kind) {
    case TokenKind::kIntLit:
      if (auto v = internal::ParseIntLiteral(lit, negative)) return Constant(*v);
      return std::nullopt;
    case TokenKind::kDoubleLit:
      if (auto v = internal::ParseDoubleLiteral(lit, negative)) return Constant(*v);
      return std::nullopt;
    case TokenKind::kUintLit:
      if (negative) return std::nullopt;
      if (auto v = internal::ParseUintLiteral(lit)) return Constant(*v);
      return std::nullopt;
    case TokenKind::kStringLit:
    case TokenKind::kBytesLit: {
      if (negative) return std::nullopt;
      const bool is_bytes = t.kind == TokenKind::kBytesLit;
      std::string value;
      if (internal::DecodeQuotedLiteral(lit, is_bytes, value)) return std::nullopt;
      if (is_bytes) return Constant(BytesConstant{std::move(value)});
      return Constant(std::move(value));
    }
    default:
      return std::nullopt;
  }
}

// Index of the token starting at `offset`, or -1.
int32_t TokenAt(const std::vector<Token>& tokens, int32_t offset) {
  auto it = std::lower_bound(tokens.begin(), tokens.end(), offset,
                             [](const Token& t, int32_t o) { return t.offset < o; });
  if (it == tokens.end() || it->offset != offset) return -1;
  return static_cast<int32_t>(it - tokens.begin());
}

}  // namespace

bool IsAbstractedLiteral(const std::vector<Token>& tokens, size_t i) {
  if (!IsValueLiteral(tokens[i].kind)) return false;
  if (i > 0 && tokens[i - 1].kind == TokenKind::kLBracket) return false;
  if (i > 1 && tokens[i - 1].kind == TokenKind::kQuestion &&
      tokens[i - 2].kind == TokenKind::kLBracket) {
    return false;
  }
  return i + 1 >= tokens.size() || tokens[i + 1].kind != TokenKind::kColon;
}

bool AppendSelectorShape(std::string_view text, const std::vector<Token>& tokens,
                         std::string& key) {
  key.reserve(key.size() + text.size() + tokens.size());
  bool abstracted = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    key.push_back(static_cast<char>(t.kind));
    if (t.kind == TokenKind::kIdentifier) {
      // Unprefixed: identifier characters are all above every kind's byte, so the next
      // token's kind ends the name.
      static_assert(static_cast<int>(TokenKind::kOr) < '0');
      key.append(TextOf(text, t));
    } else if (IsValueLiteral(t.kind)) {
      if (IsAbstractedLiteral(tokens, i)) {
        abstracted = true;
      } else {
        AppendKeyString(key, TextOf(text, t));
      }
    }
  }
  return abstracted;
}

// Walks a template's tree: records every node's token (Make), or copies the tree for a new
// text (Instantiate). Recursion depth is the tree's, which the parser bounds.
class SelectorShape::Copier {
 public:
  // Make: fills `shape.slots_` from the template's tree and `tokens`.
  static bool Index(SelectorShape& shape, std::string_view text,
                    const std::vector<Token>& tokens) {
    const Ast& ast = *shape.result_->ast;
    shape.slots_.assign(static_cast<size_t>(std::max<int64_t>(ast.max_id(), 0)) + 1, Slot{});
    std::vector<int> uses(tokens.size(), 0);
    Copier c(shape.slots_, text, tokens, nullptr);
    c.mutable_slots_ = &shape.slots_;
    c.validates_literals_ = &shape.validates_literals_;
    c.validates_format_ = &shape.validates_format_;
    if (!c.IndexNode(ast.root(), uses)) return false;
    bool any = false;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (!IsAbstractedLiteral(tokens, i)) continue;
      if (uses[i] != 1) return false;  // not exactly one constant: a macro copied it, ...
      any = true;
    }
    return any;
  }

  // For Instantiate's CopyNode: `arena` receives the copy.
  Copier(const std::vector<Slot>& slots, std::string_view text, const std::vector<Token>& tokens,
         ExprArena* arena)
      : slots_(slots), text_(text), tokens_(tokens), arena_(arena) {}

  // The template's tree with the offsets and abstracted literals of `text`; check failed_
  // (a literal that does not decode) before using it.
  ExprPtr CopyNode(const Expr& e) {
    ExprPtr out = arena_->New();
    out->id = e.id;
    out->offset = NewOffset(e.id);
    CopyKind(e, *out);
    return out;
  }

  bool failed_ = false;
  // The code points or bytes of every abstracted string or bytes literal, in tree order: what
  // the cost estimate depends on besides the template's tree and types.
  std::string sizes_;

 private:

  bool Record(int64_t id, int32_t offset) {
    if (id <= 0 || static_cast<size_t>(id) >= mutable_slots_->size()) return false;
    Slot& slot = (*mutable_slots_)[static_cast<size_t>(id)];
    if (slot.token != -1) return false;  // ids are unique
    slot.token = TokenAt(tokens_, offset);
    return slot.token >= 0;
  }

  bool IndexNode(const Expr& e, std::vector<int>& uses) {
    if (!Record(e.id, e.offset)) return false;
    if (const ConstExpr* c = e.as_const()) {
      Slot& slot = (*mutable_slots_)[static_cast<size_t>(e.id)];
      size_t lit = static_cast<size_t>(slot.token);
      const bool negative = tokens_[lit].kind == TokenKind::kMinus;
      if (negative) ++lit;
      if (lit < tokens_.size() && IsAbstractedLiteral(tokens_, lit)) {
        // The constant must be this literal's, as the parser decodes it.
        std::optional<Constant> v = Decode(text_, tokens_[lit], negative);
        if (!v || !(*v == c->value)) return false;
        slot.literal = static_cast<int32_t>(lit);
        ++uses[lit];
      }
    }
    if (const StructExpr* st = e.as_struct()) {
      for (const StructEntry& entry : st->entries) {
        if (!Record(entry.id, entry.offset)) return false;
      }
    }
    if (const CallExpr* call = e.as_call()) {
      // As the checker decides whether to run the validators' walks (checker.cc VisitCall):
      // on call names and constant kinds, which all texts of the shape share.
      *validates_literals_ = *validates_literals_ || checker_internal::IsLiteralValidatedCall(*call);
      *validates_format_ = *validates_format_ || call->function == "format";
    }
    bool ok = true;
    ForEachChild(e, [&](const Expr& child) { ok = ok && IndexNode(child, uses); });
    return ok;
  }

  int32_t NewOffset(int64_t id) const {
    return tokens_[static_cast<size_t>(slots_[static_cast<size_t>(id)].token)].offset;
  }

  ExprPtr CopyChild(const ExprPtr& p) { return p ? CopyNode(*p) : ExprPtr(); }

  void CopyKind(const Expr& e, Expr& out) {
    switch (e.expr_kind()) {
      case ExprKind::kConst: {
        const Slot& slot = slots_[static_cast<size_t>(e.id)];
        if (slot.literal < 0) {
          out.kind.emplace<ConstExpr>(*e.as_const());
          break;
        }
        const size_t lit = static_cast<size_t>(slot.literal);
        std::optional<Constant> v = Decode(
            text_, tokens_[lit], tokens_[static_cast<size_t>(slot.token)].kind == TokenKind::kMinus);
        if (!v) {
          failed_ = true;
          break;
        }
        // The cost estimator reads a constant's value only as a string's code points or
        // bytes' length (cost.cc ComputeSize).
        if (const std::string* str = std::get_if<std::string>(&*v)) {
          AppendKeyInt(sizes_, static_cast<int64_t>(CountCodePoints(*str)));
        } else if (const BytesConstant* b = std::get_if<BytesConstant>(&*v)) {
          AppendKeyInt(sizes_, static_cast<int64_t>(b->value.size()));
        }
        out.kind.emplace<ConstExpr>(ConstExpr{std::move(*v)});
        break;
      }
      case ExprKind::kIdent:
        out.kind.emplace<IdentExpr>(*e.as_ident());
        break;
      case ExprKind::kSelect: {
        const SelectExpr& s = *e.as_select();
        SelectExpr& copy = out.kind.emplace<SelectExpr>();
        copy.operand = CopyChild(s.operand);
        copy.field = s.field;
        copy.test_only = s.test_only;
        break;
      }
      case ExprKind::kCall: {
        const CallExpr& c = *e.as_call();
        CallExpr& copy = out.kind.emplace<CallExpr>();
        copy.target = CopyChild(c.target);
        copy.function = c.function;
        copy.args.reserve(c.args.size());
        for (const ExprPtr& a : c.args) copy.args.push_back(CopyChild(a));
        break;
      }
      case ExprKind::kList: {
        const ListExpr& l = *e.as_list();
        ListExpr& copy = out.kind.emplace<ListExpr>();
        copy.elements.reserve(l.elements.size());
        for (const ExprPtr& el : l.elements) copy.elements.push_back(CopyChild(el));
        copy.optional_indices = l.optional_indices;
        break;
      }
      case ExprKind::kStruct: {
        const StructExpr& s = *e.as_struct();
        StructExpr& copy = out.kind.emplace<StructExpr>();
        copy.message_name = s.message_name;
        copy.entries.reserve(s.entries.size());
        for (const StructEntry& entry : s.entries) {
          StructEntry& c = copy.entries.emplace_back();
          c.id = entry.id;
          c.offset = NewOffset(entry.id);
          c.field = entry.field;
          c.key = CopyChild(entry.key);
          c.value = CopyChild(entry.value);
          c.optional = entry.optional;
        }
        break;
      }
      case ExprKind::kComprehension: {
        const ComprehensionExpr& c = *e.as_comprehension();
        ComprehensionExpr& copy = out.kind.emplace<ComprehensionExpr>();
        copy.iter_var = c.iter_var;
        copy.iter_var2 = c.iter_var2;
        copy.iter_range = CopyChild(c.iter_range);
        copy.accu_var = c.accu_var;
        copy.accu_init = CopyChild(c.accu_init);
        copy.loop_condition = CopyChild(c.loop_condition);
        copy.loop_step = CopyChild(c.loop_step);
        copy.result = CopyChild(c.result);
        break;
      }
      case ExprKind::kUnspecified:
        break;
    }
  }

  const std::vector<Slot>& slots_;
  std::vector<Slot>* mutable_slots_ = nullptr;  // Index only
  bool* validates_literals_ = nullptr;           // Index only
  bool* validates_format_ = nullptr;             // Index only
  std::string_view text_;
  const std::vector<Token>& tokens_;
  ExprArena* arena_;
};

std::shared_ptr<const SelectorShape> SelectorShape::Make(
    std::shared_ptr<const SelectorCompileResult> result, const std::vector<Token>& tokens) {
  if (result == nullptr || result->ast == nullptr || !result->issues.empty() || !result->ok()) {
    return nullptr;
  }
  auto shape = std::make_shared<SelectorShape>();
  shape->result_ = std::move(result);
  shape->token_count_ = tokens.size();
  const std::string_view text = shape->result_->ast->source().text();
  if (!Copier::Index(*shape, text, tokens)) return nullptr;
  // The template's own literal sizes, as Instantiate collects them.
  auto arena = std::make_unique<ExprArena>(shape->slots_.size());
  Copier copier(shape->slots_, text, tokens, arena.get());
  ExprPtr copy = copier.CopyNode(shape->result_->ast->root());
  if (copier.failed_) return nullptr;
  shape->template_sizes_ = std::move(copier.sizes_);
  return shape;
}

std::unique_ptr<SelectorCompileResult> SelectorShape::Instantiate(
    std::string_view text, const std::vector<Token>& tokens, const EnvOptions& options) const {
  if (tokens.size() != token_count_ || text.size() > kMaxSelectorExpressionBytes) return nullptr;
  const Ast& tmpl = *result_->ast;
  auto arena = std::make_unique<ExprArena>(slots_.size());
  Copier copier(slots_, text, tokens, arena.get());
  ExprPtr root = copier.CopyNode(tmpl.root());
  if (copier.failed_) return nullptr;
  auto out = std::make_unique<SelectorCompileResult>();
  out->ast = std::make_unique<Ast>(std::move(arena), std::move(root),
                                   SourceText(tmpl.source().name(), std::string(text)),
                                   tmpl.max_id());
  out->checked = result_->checked;
  // The checks that read literal values, as Check runs them on an expression that checked.
  const std::shared_ptr<const Environment> env = Environment::ForDraSelector(options);
  if (validates_literals_ && env->literal_validators()) {
    checker_internal::ValidateLiterals(out->ast->root(), out->issues);
  }
  if (validates_format_ && env->HasLibrary(Library::kStringsV2)) {
    checker_internal::ValidateFormatCalls(out->ast->root(), out->checked, out->issues);
  }
  if (!out->issues.empty()) return nullptr;
  if (copier.sizes_ == template_sizes_) {
    out->cost = result_->cost;  // a pure function of the tree, the types and these sizes
  } else if (!costs_->Find(copier.sizes_, &out->cost)) {
    CostOptions cost_options;
    cost_options.sizes = &DraSizeEstimator();
    out->cost = EstimateCost(*out->ast, out->checked, cost_options);
    costs_->Add(std::move(copier.sizes_), out->cost);
  }
  if (out->cost.max > kMaxSelectorCost) return nullptr;
  return out;
}

bool SelectorShape::CostMemo::Find(const std::string& sizes, CostEstimate* cost) {
  std::lock_guard lock(mu_);
  for (const auto& [s, c] : entries_) {
    if (s == sizes) {
      *cost = c;
      return true;
    }
  }
  return false;
}

void SelectorShape::CostMemo::Add(std::string sizes, CostEstimate cost) {
  std::lock_guard lock(mu_);
  if (entries_.size() < kEntries) {
    entries_.emplace_back(std::move(sizes), cost);
  } else {
    entries_[next_] = {std::move(sizes), cost};
    next_ = (next_ + 1) % kEntries;
  }
}

size_t SelectorShape::ApproximateBytes() const {
  // The cost memo's keys: 8 bytes a literal, kEntries of them.
  return sizeof(*this) + sizeof(CostMemo) + slots_.capacity() * sizeof(Slot) +
         (CostMemo::kEntries + 1) * (template_sizes_.size() + 32) + result_->ApproximateBytes();
}

}  // namespace draguard::cel
