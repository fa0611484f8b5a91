// Recursive descent over the token vector, one function per precedence level of CEL.g4:
//   expr     = or ['?' or ':' expr]          (right-associative; the true branch is `or`)
//   or/and   = and {'||' and} / rel {'&&' rel}   built as balanced trees, as cel-go does
//   relation = calc {relop calc}             left-associative, `in` included
//   calc     = additive / multiplicative levels, left-associative
//   unary    = member | '!'+ member | '-'+ member   (an even count cancels out, as cel-go)
//   member   = primary {'.' ['?'] id ['(' args ')'] | '[' ['?'] expr ']'}
//   primary  = ['.'] id ['(' args ')'] | ['.'] id {'.' id} '{' fields '}' | '(' expr ')'
//            | '[' elems ']' | '{' entries '}' | literal      (`-` NUM is a signed literal)
// The first syntax error stops parsing (cel-go recovers and may report more; the first one
// is the one users act on). Non-structural errors (reserved words, bad literals, macro
// misuse) are recorded and parsing continues. Depth counts every nesting level and every
// link of a left-associative chain, so the tree depth never exceeds the recursion limit.
#include "policy/cel/parser.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "policy/cel/internal/expr_factory.h"
#include "policy/cel/internal/literals.h"
#include "policy/cel/lexer.h"
#include "policy/cel/macros.h"
#include "policy/cel/operators.h"

namespace draguard::cel {
namespace {

using internal::ExprFactory;
using internal::Exprs;

constexpr char kPrimaryExpected[] =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
    "STRING, BYTES, IDENTIFIER}";

// Bound on nodes (macro expansions included) per input byte, so copies stay linear.
constexpr size_t kMaxNodesPerByte = 64;
constexpr size_t kMinNodeBudget = 4096;

bool IsReserved(std::string_view id) {
  static constexpr std::string_view kReserved[] = {
      "as",      "break",   "const",     "continue", "else", "for",  "function", "if",
      "import",  "let",     "loop",      "package",  "namespace", "return", "var", "void",
      "while"};
  for (std::string_view r : kReserved) {
    if (r == id) return true;
  }
  return false;
}

const char* RelationOp(TokenKind k) {
  switch (k) {
    case TokenKind::kEq: return op::kEquals;
    case TokenKind::kNe: return op::kNotEquals;
    case TokenKind::kLt: return op::kLess;
    case TokenKind::kLe: return op::kLessEquals;
    case TokenKind::kGt: return op::kGreater;
    case TokenKind::kGe: return op::kGreaterEquals;
    case TokenKind::kIn: return op::kIn;
    default: return nullptr;
  }
}

const char* AdditiveOp(TokenKind k) {
  if (k == TokenKind::kPlus) return op::kAdd;
  return k == TokenKind::kMinus ? op::kSubtract : nullptr;
}

const char* MultiplicativeOp(TokenKind k) {
  if (k == TokenKind::kStar) return op::kMultiply;
  if (k == TokenKind::kSlash) return op::kDivide;
  return k == TokenKind::kPercent ? op::kModulo : nullptr;
}

class Parser {
 public:
  // Lexes `text` at once: the token count sizes the node arena's first block. Most nodes take
  // two tokens or more (`.field`, `f(`, `[i]`, operators and their operand), so half the
  // tokens holds the usual expression in one block; a denser one or a macro expansion takes
  // a second block, twice as large.
  Parser(std::string_view text, const ParserOptions& options, Diagnostics& issues)
      : text_(text),
        options_(options),
        issues_(issues),
        tokens_(Lex(text_, issues_, options_.error_recovery_limit)),
        factory_(tokens_.size() / 2 + 4) {}

  ExprPtr Run() {
    if (static_cast<int>(issues_.size()) >= options_.error_recovery_limit) {
      // The lexer stopped reporting: add the limit note and skip parsing.
      int32_t at = issues_.empty() ? 0 : issues_.items().back().value_offset;
      Report("cel.syntax-error", at, 0, "");
      return ErrorNode(0);
    }
    ExprPtr root = ParseExpr();
    if (!aborted_ && Peek().kind != TokenKind::kEof) {
      SyntaxError(Peek(), "Syntax error: extraneous input '" + TokenText(Peek()) +
                              "' expecting <EOF>");
    }
    return root;
  }

  int64_t max_id() const { return factory_.last_id(); }
  std::unique_ptr<ExprArena> TakeArena() { return factory_.TakeArena(); }

 private:
  // ---- tokens and errors ----
  // pos_ never passes the final kEof token (Advance stops there), so the current token
  // needs no bounds check: the parser peeks at it several times per token.
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Peek(size_t ahead) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Advance() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool Accept(TokenKind kind) {
    if (Peek().kind != kind) return false;
    Advance();
    return true;
  }
  std::string TokenText(const Token& t) const {
    if (t.kind == TokenKind::kEof) return "<EOF>";
    return std::string(text_.substr(static_cast<size_t>(t.offset), static_cast<size_t>(t.length)));
  }
  std::string_view Text(const Token& t) const {
    return text_.substr(static_cast<size_t>(t.offset), static_cast<size_t>(t.length));
  }

  void Report(const char* code, int32_t offset, int32_t length, std::string message) {
    int limit = options_.error_recovery_limit;
    if (static_cast<int>(issues_.size()) > limit) return;
    if (static_cast<int>(issues_.size()) == limit) {
      Diagnostic& d = issues_.Error("cel.too-many-errors", {},
                                    "More than " + std::to_string(limit) + " syntax errors");
      d.value_offset = offset;
      d.value_length = 0;
      aborted_ = true;
      return;
    }
    Diagnostic& d = issues_.Error(code, {}, std::move(message));
    d.value_offset = offset;
    // Keep the range inside the text (a limit hit at the end of input has no character).
    d.value_length = std::min(length, static_cast<int32_t>(text_.size()) - offset);
  }
  // Adds a suggestion to the issue just reported (if it was reported).
  void SuggestLast(std::string suggestion) {
    if (!issues_.empty() && issues_.items().back().suggestion.empty() &&
        issues_.items().back().code != "cel.too-many-errors") {
      issues_.mutable_items().back().suggestion = std::move(suggestion);
    }
  }
  ExprPtr SyntaxError(const Token& at, std::string message) {
    if (!aborted_) Report("cel.syntax-error", at.offset, at.length, std::move(message));
    aborted_ = true;
    return ErrorNode(at.offset);
  }
  ExprPtr ErrorNode(int32_t offset) { return factory_.New(factory_.NextId(), offset); }
  bool Expect(TokenKind kind) {
    if (Accept(kind)) return true;
    SyntaxError(Peek(), "Syntax error: mismatched input '" + TokenText(Peek()) + "' expecting " +
                            std::string(TokenKindName(kind)));
    return false;
  }

  // ---- depth ----
  bool Enter(int32_t offset) {
    if (++depth_ <= options_.max_recursion_depth) return true;
    if (!aborted_) {
      Report("cel.recursion-limit", offset, 1,
             "expression recursion limit exceeded: " +
                 std::to_string(options_.max_recursion_depth));
    }
    aborted_ = true;
    return false;
  }
  struct DepthScope {
    explicit DepthScope(Parser& p) : parser(p), saved(p.depth_) {}
    ~DepthScope() { parser.depth_ = saved; }
    Parser& parser;
    int saved;
  };

  // ---- expressions ----
  ExprPtr ParseExpr() {
    DepthScope scope(*this);
    if (aborted_ || !Enter(Peek().offset)) return ErrorNode(Peek().offset);
    ExprPtr cond = ParseLogical(TokenKind::kOr);
    if (aborted_ || Peek().kind != TokenKind::kQuestion) return cond;
    const Token& q = Advance();
    int64_t id = factory_.NextId();
    ExprPtr then_branch = ParseLogical(TokenKind::kOr);
    if (!Expect(TokenKind::kColon)) return then_branch;
    ExprPtr else_branch = ParseExpr();
    return factory_.Call(id, q.offset, op::kConditional,
                         Exprs(std::move(cond), std::move(then_branch), std::move(else_branch)));
  }

  // `||` (kOr) over `&&` terms, or `&&` (kAnd) over relations; balanced like cel-go.
  ExprPtr ParseLogical(TokenKind kind) {
    auto term = [&] {
      return kind == TokenKind::kOr ? ParseLogical(TokenKind::kAnd) : ParseRelation();
    };
    ExprPtr first = term();
    if (aborted_ || Peek().kind != kind) return first;
    const char* fn = kind == TokenKind::kOr ? op::kLogicalOr : op::kLogicalAnd;
    int32_t offset = Advance().offset;
    ExprPtr second = term();
    int64_t id = factory_.NextId();
    if (aborted_ || Peek().kind != kind) {
      // One operator, the usual selector's `a && b`: the node Balance would build, without
      // the two vectors a chain needs.
      return factory_.Call(id, offset, fn, Exprs(std::move(first), std::move(second)));
    }
    std::vector<ExprPtr> terms;
    std::vector<std::pair<int64_t, int32_t>> ops;  // id, offset
    terms.reserve(4);
    ops.reserve(3);
    terms.push_back(std::move(first));
    terms.push_back(std::move(second));
    ops.emplace_back(id, offset);
    while (!aborted_ && Peek().kind == kind) {
      offset = Advance().offset;
      terms.push_back(term());
      ops.emplace_back(factory_.NextId(), offset);
    }
    return Balance(fn, terms, ops, 0, static_cast<int>(ops.size()) - 1);
  }

  ExprPtr Balance(const char* fn, std::vector<ExprPtr>& terms,
                  const std::vector<std::pair<int64_t, int32_t>>& ops, int lo, int hi) {
    int mid = (lo + hi + 1) / 2;
    ExprPtr left = mid == lo ? std::move(terms[static_cast<size_t>(mid)])
                             : Balance(fn, terms, ops, lo, mid - 1);
    ExprPtr right = mid == hi ? std::move(terms[static_cast<size_t>(mid) + 1])
                              : Balance(fn, terms, ops, mid + 1, hi);
    const auto& [id, offset] = ops[static_cast<size_t>(mid)];
    return factory_.Call(id, offset, fn, Exprs(std::move(left), std::move(right)));
  }

  // One left-associative level: operands from `next`, operators from `op_of`.
  template <typename Next>
  ExprPtr ParseBinary(const char* (*op_of)(TokenKind), Next next) {
    DepthScope scope(*this);
    ExprPtr lhs = next();
    while (!aborted_) {
      const char* fn = op_of(Peek().kind);
      if (fn == nullptr) break;
      const Token& t = Advance();
      if (!Enter(t.offset)) break;
      int64_t id = factory_.NextId();
      ExprPtr rhs = next();
      lhs = factory_.Call(id, t.offset, fn, Exprs(std::move(lhs), std::move(rhs)));
    }
    return lhs;
  }
  ExprPtr ParseRelation() {
    return ParseBinary(RelationOp, [this] { return ParseAdditive(); });
  }
  ExprPtr ParseAdditive() {
    return ParseBinary(AdditiveOp, [this] { return ParseMultiplicative(); });
  }
  ExprPtr ParseMultiplicative() {
    return ParseBinary(MultiplicativeOp, [this] { return ParseUnary(); });
  }

  ExprPtr ParseUnary() {
    const Token& t = Peek();
    bool signed_number =
        t.kind == TokenKind::kMinus &&
        (Peek(1).kind == TokenKind::kIntLit || Peek(1).kind == TokenKind::kDoubleLit);
    if (signed_number) {
      Advance();
      return ParseMember(ParseNumber(Advance(), /*negative=*/true, t.offset));
    }
    if (t.kind != TokenKind::kNot && t.kind != TokenKind::kMinus) return ParseMember(ParsePrimary());
    TokenKind kind = t.kind;
    int count = 0;
    while (Peek().kind == kind) {
      Advance();
      ++count;
    }
    if (count % 2 == 0) return ParseMember(ParsePrimary());
    DepthScope scope(*this);
    if (!Enter(t.offset)) return ErrorNode(t.offset);
    int64_t id = factory_.NextId();
    ExprPtr operand = ParseMember(ParsePrimary());
    const char* fn = kind == TokenKind::kNot ? op::kLogicalNot : op::kNegate;
    return factory_.Call(id, t.offset, fn, Exprs(std::move(operand)));
  }

  ExprPtr ParseMember(ExprPtr operand) {
    DepthScope scope(*this);
    while (!aborted_) {
      TokenKind k = Peek().kind;
      if (k != TokenKind::kDot && k != TokenKind::kLBracket) break;
      if (!Enter(Peek().offset)) break;
      operand = k == TokenKind::kDot ? ParseSelectOrCall(std::move(operand))
                                     : ParseIndex(std::move(operand));
    }
    return operand;
  }

  ExprPtr ParseSelectOrCall(ExprPtr operand) {
    const Token& dot = Advance();
    bool optional = false;
    if (Peek().kind == TokenKind::kQuestion) {
      optional = true;
      RequireOptionalSyntax(Advance(), ".?");
    }
    if (Peek().kind != TokenKind::kIdentifier) {
      return SyntaxError(Peek(), "Syntax error: mismatched input '" + TokenText(Peek()) +
                                     "' expecting IDENTIFIER");
    }
    const Token& name = Advance();
    if (!optional && Peek().kind == TokenKind::kLParen) {
      const Token& open = Advance();
      int64_t id = factory_.NextId();
      std::vector<ExprPtr> args = ParseArgs();
      return CallOrMacro(id, open.offset, std::string(Text(name)), std::move(operand),
                         std::move(args));
    }
    int64_t id = factory_.NextId();
    if (!optional) return factory_.Select(id, dot.offset, std::move(operand), std::string(Text(name)));
    ExprPtr field = factory_.Const(factory_.NextId(), name.offset, std::string(Text(name)));
    return factory_.Call(id, dot.offset, op::kOptSelect, Exprs(std::move(operand), std::move(field)));
  }

  ExprPtr ParseIndex(ExprPtr operand) {
    const Token& open = Advance();
    bool optional = false;
    if (Peek().kind == TokenKind::kQuestion) {
      optional = true;
      RequireOptionalSyntax(Advance(), "[?");
    }
    int64_t id = factory_.NextId();
    ExprPtr index = ParseExpr();
    Expect(TokenKind::kRBracket);
    return factory_.Call(id, open.offset, optional ? op::kOptIndex : op::kIndex,
                         Exprs(std::move(operand), std::move(index)));
  }

  void RequireOptionalSyntax(const Token& at, const char* syntax) {
    if (options_.enable_optional_syntax) return;
    Report("cel.unsupported-syntax", at.offset, at.length,
           std::string("unsupported syntax '") + syntax + "'");
  }

  // After '(' has been consumed: expr {',' expr} ')'.
  std::vector<ExprPtr> ParseArgs() {
    std::vector<ExprPtr> args;
    if (Accept(TokenKind::kRParen)) return args;
    while (!aborted_) {
      args.push_back(ParseExpr());
      if (!Accept(TokenKind::kComma)) break;
    }
    if (!aborted_) Expect(TokenKind::kRParen);
    return args;
  }

  ExprPtr CallOrMacro(int64_t id, int32_t offset, std::string name, ExprPtr target,
                      std::vector<ExprPtr> args) {
    if (!aborted_ && IsMacroCall(name, target.get(), args.size(), options_)) {
      // optMap/optFlatMap/sortBy copy their target; chaining them doubles the tree each time.
      size_t budget = kMaxNodesPerByte * text_.size() + kMinNodeBudget;
      size_t used = static_cast<size_t>(factory_.last_id());
      if (target && (used >= budget || internal::CountNodes(*target, budget - used) >= budget - used)) {
        Report("cel.expression-too-large", offset, 1, "expression too complex to expand macros");
        aborted_ = true;
        return ErrorNode(offset);
      }
      MacroError error;
      bool target_was_null = target == nullptr;
      bool two_vars = args.size() >= 3 && name != "bind" && name != "map";
      ExprPtr expanded =
          ExpandMacro(factory_, offset, name, std::move(target), std::move(args), error);
      if (expanded) return expanded;
      bool duplicate = error.message.rfind("duplicate", 0) == 0;
      Report("cel.macro-invalid", error.offset, error.length, std::move(error.message));
      if (duplicate) {
        SuggestLast("give the two iteration variables different names, e.g. k, v");
      } else if (!target_was_null) {
        SuggestLast("the first argument" + std::string(two_vars ? "s" : "") +
                    " of " + name + "() must be a plain variable name, e.g. x");
      } else {
        SuggestLast("has() takes a field selection, e.g. has(device.attributes.model)");
      }
      return ErrorNode(offset);
    }
    return factory_.Call(id, offset, std::move(name), std::move(args), std::move(target));
  }

  // ---- primaries ----
  ExprPtr ParsePrimary() {
    if (aborted_) return ErrorNode(Peek().offset);
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kDot:
      case TokenKind::kIdentifier:
        return ParseName();
      case TokenKind::kLParen: {
        Advance();
        ExprPtr inner = ParseExpr();
        Expect(TokenKind::kRParen);
        return inner;
      }
      case TokenKind::kLBracket:
        return ParseList();
      case TokenKind::kLBrace:
        return ParseMap();
      case TokenKind::kIntLit:
      case TokenKind::kDoubleLit:
        return ParseNumber(Advance(), /*negative=*/false, t.offset);
      case TokenKind::kUintLit:
        return ParseUint(Advance());
      case TokenKind::kStringLit:
      case TokenKind::kBytesLit:
        return ParseQuoted(Advance());
      case TokenKind::kTrue:
      case TokenKind::kFalse:
        Advance();
        return factory_.Const(factory_.NextId(), t.offset, t.kind == TokenKind::kTrue);
      case TokenKind::kNull:
        Advance();
        return factory_.Const(factory_.NextId(), t.offset, NullValueTag{});
      default:
        return SyntaxError(t, "Syntax error: mismatched input '" + TokenText(t) + "' expecting " +
                                  kPrimaryExpected);
    }
  }

  // ['.'] IDENT, ['.'] IDENT '(' args ')', or ['.'] IDENT {'.' IDENT} '{' fields '}'.
  ExprPtr ParseName() {
    const Token& first = Peek();
    bool leading_dot = Accept(TokenKind::kDot);
    if (Peek().kind != TokenKind::kIdentifier) {
      return SyntaxError(Peek(), "Syntax error: mismatched input '" + TokenText(Peek()) +
                                     "' expecting IDENTIFIER");
    }
    if (IsMessageName()) return ParseMessage(leading_dot);
    const Token& name = Advance();
    std::string_view id = Text(name);
    if (IsReserved(id)) {
      Report("cel.reserved-identifier", name.offset, name.length,
             "reserved identifier: " + std::string(id));
      SuggestLast("'" + std::string(id) +
                  "' is reserved in CEL and cannot name a variable or function; rename it or "
                  "select it as a field of its map, e.g. m['" + std::string(id) + "']");
    }
    std::string full = leading_dot ? "." + std::string(id) : std::string(id);
    if (Peek().kind == TokenKind::kLParen) {
      const Token& open = Advance();
      int64_t call_id = factory_.NextId();
      std::vector<ExprPtr> args = ParseArgs();
      if (leading_dot) return factory_.Call(call_id, open.offset, std::move(full), std::move(args));
      return CallOrMacro(call_id, open.offset, std::move(full), nullptr, std::move(args));
    }
    return factory_.Ident(factory_.NextId(), first.offset, std::move(full));
  }

  // At an identifier: does IDENT {'.' IDENT} '{' follow?
  bool IsMessageName() const {
    size_t i = 0;
    while (true) {
      if (Peek(i).kind != TokenKind::kIdentifier) return false;
      TokenKind next = Peek(i + 1).kind;
      if (next == TokenKind::kLBrace) return true;
      if (next != TokenKind::kDot) return false;
      i += 2;
    }
  }

  ExprPtr ParseMessage(bool leading_dot) {
    std::string name = leading_dot ? "." : "";
    name += Text(Advance());
    while (Accept(TokenKind::kDot)) {
      name += '.';
      name += Text(Advance());
    }
    const Token& open = Advance();  // '{'
    ExprPtr msg = factory_.New(factory_.NextId(), open.offset);
    StructExpr s{std::move(name), {}};
    ParseEntries(s, /*message=*/true);
    msg->kind = std::move(s);
    return msg;
  }

  ExprPtr ParseMap() {
    const Token& open = Advance();
    ExprPtr map = factory_.New(factory_.NextId(), open.offset);
    StructExpr s;
    ParseEntries(s, /*message=*/false);
    map->kind = std::move(s);
    return map;
  }

  // After '{': entries separated by ',' (trailing comma allowed), then '}'.
  void ParseEntries(StructExpr& s, bool message) {
    while (!aborted_ && Peek().kind != TokenKind::kRBrace) {
      StructEntry entry;
      entry.optional = Peek().kind == TokenKind::kQuestion;
      if (entry.optional) RequireOptionalSyntax(Advance(), "?");
      entry.offset = Peek().offset;
      if (message) {
        if (Peek().kind != TokenKind::kIdentifier) {
          SyntaxError(Peek(), "Syntax error: mismatched input '" + TokenText(Peek()) +
                                  "' expecting IDENTIFIER");
          return;
        }
        entry.field = std::string(Text(Advance()));
        entry.id = factory_.NextId();
      } else {
        entry.id = factory_.NextId();
        entry.key = ParseExpr();
      }
      if (!Expect(TokenKind::kColon)) return;
      entry.value = ParseExpr();
      s.entries.push_back(std::move(entry));
      if (!Accept(TokenKind::kComma)) break;
    }
    if (!aborted_) Expect(TokenKind::kRBrace);
  }

  ExprPtr ParseList() {
    const Token& open = Advance();
    ExprPtr list = factory_.New(factory_.NextId(), open.offset);
    ListExpr l;
    while (!aborted_ && Peek().kind != TokenKind::kRBracket) {
      if (Peek().kind == TokenKind::kQuestion) {
        RequireOptionalSyntax(Advance(), "?");
        l.optional_indices.push_back(static_cast<int32_t>(l.elements.size()));
      }
      l.elements.push_back(ParseExpr());
      if (!Accept(TokenKind::kComma)) break;
    }
    if (!aborted_) Expect(TokenKind::kRBracket);
    list->kind = std::move(l);
    return list;
  }

  // ---- literals ----
  ExprPtr InvalidLiteral(int32_t offset, int32_t length, std::string message) {
    Report("cel.invalid-literal", offset, length, std::move(message));
    return ErrorNode(offset);
  }

  ExprPtr ParseNumber(const Token& t, bool negative, int32_t offset) {
    int32_t length = t.offset + t.length - offset;
    if (t.kind == TokenKind::kDoubleLit) {
      auto v = internal::ParseDoubleLiteral(Text(t), negative);
      if (!v) return InvalidLiteral(offset, length, "invalid double literal");
      return factory_.Const(factory_.NextId(), offset, *v);
    }
    auto v = internal::ParseIntLiteral(Text(t), negative);
    if (!v) {
      ExprPtr e = InvalidLiteral(offset, length, "invalid int literal");
      SuggestLast("int literals range from -9223372036854775808 to 9223372036854775807; "
                  "use a uint (suffix u) or a double literal for larger values");
      return e;
    }
    return factory_.Const(factory_.NextId(), offset, *v);
  }

  ExprPtr ParseUint(const Token& t) {
    auto v = internal::ParseUintLiteral(Text(t));
    if (!v) return InvalidLiteral(t.offset, t.length, "invalid uint literal");
    return factory_.Const(factory_.NextId(), t.offset, *v);
  }

  ExprPtr ParseQuoted(const Token& t) {
    bool is_bytes = t.kind == TokenKind::kBytesLit;
    std::string value;
    if (auto err = internal::DecodeQuotedLiteral(Text(t), is_bytes, value)) {
      return InvalidLiteral(t.offset + static_cast<int32_t>(err->offset),
                            static_cast<int32_t>(err->length), std::move(err->message));
    }
    if (is_bytes) return factory_.Const(factory_.NextId(), t.offset, BytesConstant{std::move(value)});
    return factory_.Const(factory_.NextId(), t.offset, std::move(value));
  }

  std::string_view text_;
  const ParserOptions& options_;
  Diagnostics& issues_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool aborted_ = false;
  ExprFactory factory_;
};

size_t CountCodePoints(std::string_view text) {
  size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

ParseResult Parse(std::string_view expression, const ParserOptions& options) {
  ParseResult result;
  // A text no longer in bytes than the limit has no more code points either: only a longer
  // one is counted (a byte loop over every selector of every compile, for nothing).
  const bool long_text = expression.size() > options.expression_size_code_point_limit ||
                         expression.size() > static_cast<size_t>(INT32_MAX / 2);
  const size_t code_points = long_text ? CountCodePoints(expression) : expression.size();
  if (code_points > options.expression_size_code_point_limit ||
      expression.size() > static_cast<size_t>(INT32_MAX / 2)) {
    Diagnostic& d = result.issues.Error(
        "cel.expression-too-large", {},
        "expression code point size exceeds limit: size: " + std::to_string(code_points) +
            ", limit " + std::to_string(options.expression_size_code_point_limit));
    d.value_offset = 0;
    d.value_length = 0;
    return result;
  }
  Parser parser(expression, options, result.issues);
  ExprPtr root = parser.Run();
  if (result.issues.has_errors()) return result;
  result.ast = std::make_unique<Ast>(parser.TakeArena(), std::move(root),
                                     SourceText("<input>", std::string(expression)),
                                     parser.max_id());
  return result;
}

}  // namespace draguard::cel
