// A single forward pass over the bytes. Each token is recognised by its first character;
// numbers and strings follow CEL.g4's rules with ANTLR's longest-match behaviour (`1.` lexes
// as INT then DOT, `1e` as INT then IDENTIFIER). String bodies are only delimited here;
// escapes are validated when the literal is decoded.
#include "policy/cel/lexer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "policy/common/ascii.h"

namespace draguard::cel {
namespace {

bool IsHexDigit(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsIdentStart(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// Byte classes, so that the scans over identifiers and string bodies (most of a selector's
// bytes) test one table entry per character.
constexpr uint8_t kIdentChar = 1;    // [A-Za-z0-9_]
constexpr uint8_t kStringStop = 2;   // a quote, a backslash or a line break: ends or changes a
                                     // string body
constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool ident = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9');
    const bool stop = c == '"' || c == '\'' || c == '\\' || c == '\n' || c == '\r';
    t[static_cast<size_t>(c)] = static_cast<uint8_t>((ident ? kIdentChar : 0) | (stop ? kStringStop : 0));
  }
  return t;
}();
bool IsIdentChar(char c) { return (kByteClass[static_cast<unsigned char>(c)] & kIdentChar) != 0; }
bool IsStringStop(char c) { return (kByteClass[static_cast<unsigned char>(c)] & kStringStop) != 0; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

class Lexer {
 public:
  Lexer(std::string_view text, Diagnostics& issues, int max_issues)
      : text_(text), issues_(issues), max_issues_(max_issues) {}

  std::vector<Token> Run() {
    std::vector<Token> tokens;
    tokens.reserve(text_.size() / 3 + 2);
    while (SkipSpaceAndComments()) {
      size_t start = pos_;
      TokenKind kind = Next();
      if (pos_ == start) continue;  // an unrecognised character was skipped
      if (kind == TokenKind::kEof) continue;
      tokens.push_back({kind, static_cast<int32_t>(start), static_cast<int32_t>(pos_ - start)});
    }
    tokens.push_back({TokenKind::kEof, static_cast<int32_t>(text_.size()), 0});
    return tokens;
  }

 private:
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  // The first position at or after `from` whose byte fails `pred` (or the end). The scan
  // runs on locals: a store to a char may alias the members, so a loop on pos_ and text_
  // would reload them after every byte (identifiers and string bodies are most bytes).
  template <typename Pred>
  size_t ScanWhile(size_t from, Pred pred) const {
    const char* const data = text_.data();
    const size_t size = text_.size();
    size_t i = from;
    while (i < size && pred(data[i])) ++i;
    return i;
  }

  // Returns false at the end of the input.
  bool SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      if (IsSpace(text_[pos_])) {
        ++pos_;
      } else if (text_[pos_] == '/' && At(pos_ + 1) == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return true;
      }
    }
    return false;
  }

  // Lexes one token starting at pos_; kEof with pos_ advanced means "error, skipped".
  TokenKind Next() {
    char c = text_[pos_];
    if (IsAsciiDigit(c) || (c == '.' && IsAsciiDigit(At(pos_ + 1)))) return Number();
    if (c == '"' || c == '\'') return String(TokenKind::kStringLit, /*raw=*/false, pos_);
    if (IsIdentStart(c)) return IdentOrPrefixedString();
    return Punctuation(c);
  }

  TokenKind Punctuation(char c) {
    char n = At(pos_ + 1);
    auto two = [&](TokenKind k) { pos_ += 2; return k; };
    auto one = [&](TokenKind k) { pos_ += 1; return k; };
    switch (c) {
      case '(': return one(TokenKind::kLParen);
      case ')': return one(TokenKind::kRParen);
      case '[': return one(TokenKind::kLBracket);
      case ']': return one(TokenKind::kRBracket);
      case '{': return one(TokenKind::kLBrace);
      case '}': return one(TokenKind::kRBrace);
      case '.': return one(TokenKind::kDot);
      case ',': return one(TokenKind::kComma);
      case ':': return one(TokenKind::kColon);
      case '?': return one(TokenKind::kQuestion);
      case '-': return one(TokenKind::kMinus);
      case '+': return one(TokenKind::kPlus);
      case '*': return one(TokenKind::kStar);
      case '/': return one(TokenKind::kSlash);
      case '%': return one(TokenKind::kPercent);
      case '!': return n == '=' ? two(TokenKind::kNe) : one(TokenKind::kNot);
      case '<': return n == '=' ? two(TokenKind::kLe) : one(TokenKind::kLt);
      case '>': return n == '=' ? two(TokenKind::kGe) : one(TokenKind::kGt);
      case '=':
        if (n == '=') return two(TokenKind::kEq);
        break;
      case '&':
        if (n == '&') return two(TokenKind::kAnd);
        break;
      case '|':
        if (n == '|') return two(TokenKind::kOr);
        break;
      default:
        break;
    }
    // ANTLR shows the characters it consumed: for a lone '=', '&' or '|' it has also read
    // the next one while trying '==', '&&' or '||'.
    bool partial = (c == '=' || c == '&' || c == '|') && pos_ + 1 < text_.size();
    size_t shown = CharLength(pos_) + (partial ? CharLength(pos_ + 1) : 0);
    RecognitionError(pos_, CharLength(pos_), shown, SuggestionFor(c));
    pos_ += CharLength(pos_);
    return TokenKind::kEof;
  }

  static const char* SuggestionFor(char c) {
    switch (c) {
      case '=': return "compare with '=='";
      case '&': return "use '&&' for logical and";
      case '|': return "use '||' for logical or";
      case '#': return "comments start with '//'";
      default: return "";
    }
  }

  size_t CharLength(size_t at) const {
    size_t end = at + 1;
    while (end < text_.size() && (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80) ++end;
    return end - at;
  }

  TokenKind Number() {
    if (text_[pos_] == '0' && (At(pos_ + 1) == 'x' || At(pos_ + 1) == 'X') &&
        IsHexDigit(At(pos_ + 2))) {
      pos_ += 2;
      while (IsHexDigit(At(pos_))) ++pos_;
      return IntSuffix();
    }
    bool is_double = false;
    while (IsAsciiDigit(At(pos_))) ++pos_;
    if (At(pos_) == '.' && IsAsciiDigit(At(pos_ + 1))) {
      is_double = true;
      ++pos_;
      while (IsAsciiDigit(At(pos_))) ++pos_;
    }
    if (At(pos_) == 'e' || At(pos_) == 'E') {
      size_t digits = pos_ + 1;
      if (At(digits) == '+' || At(digits) == '-') ++digits;
      if (IsAsciiDigit(At(digits))) {
        is_double = true;
        pos_ = digits;
        while (IsAsciiDigit(At(pos_))) ++pos_;
      }
    }
    return is_double ? TokenKind::kDoubleLit : IntSuffix();
  }

  TokenKind IntSuffix() {
    if (At(pos_) == 'u' || At(pos_) == 'U') {
      ++pos_;
      return TokenKind::kUintLit;
    }
    return TokenKind::kIntLit;
  }

  TokenKind IdentOrPrefixedString() {
    size_t start = pos_;
    char c = text_[pos_];
    char n = At(pos_ + 1);
    bool bytes = c == 'b' || c == 'B';
    bool raw = c == 'r' || c == 'R';
    if ((bytes || raw) && (n == '"' || n == '\'')) {
      ++pos_;
      return String(bytes ? TokenKind::kBytesLit : TokenKind::kStringLit, raw, start);
    }
    if (bytes && (n == 'r' || n == 'R') && (At(pos_ + 2) == '"' || At(pos_ + 2) == '\'')) {
      pos_ += 2;
      return String(TokenKind::kBytesLit, /*raw=*/true, start);
    }
    pos_ = ScanWhile(pos_, IsIdentChar);
    std::string_view word = text_.substr(start, pos_ - start);
    if (word == "true") return TokenKind::kTrue;
    if (word == "false") return TokenKind::kFalse;
    if (word == "null") return TokenKind::kNull;
    if (word == "in") return TokenKind::kIn;
    return TokenKind::kIdentifier;
  }

  // pos_ is at the opening quote; token_start is where the prefix (if any) began.
  TokenKind String(TokenKind kind, bool raw, size_t token_start) {
    char q = text_[pos_];
    bool triple = At(pos_ + 1) == q && At(pos_ + 2) == q;
    pos_ += triple ? 3 : 1;
    while (pos_ < text_.size()) {
      // Skip the plain bytes at once (byte class kStringStop).
      pos_ = ScanWhile(pos_, [](char b) { return !IsStringStop(b); });
      if (pos_ >= text_.size()) break;
      char c = text_[pos_];
      if (c == '\\' && !raw) {
        pos_ += 2;
        continue;
      }
      if (!triple && (c == '\n' || c == '\r')) break;
      if (c == q && (!triple || (At(pos_ + 1) == q && At(pos_ + 2) == q))) {
        pos_ += triple ? 3 : 1;
        return kind;
      }
      ++pos_;
    }
    if (pos_ > text_.size()) pos_ = text_.size();
    RecognitionError(token_start, pos_ - token_start);
    return TokenKind::kEof;
  }

  // Reports [at, at + length) as unrecognised; the message quotes `shown_length` bytes.
  void RecognitionError(size_t at, size_t length, size_t shown_length = 0,
                        const char* suggestion = "") {
    if (static_cast<int>(issues_.size()) >= max_issues_) return;
    std::string shown(text_.substr(at, std::max(length, shown_length)));
    Diagnostic& d = issues_.Error("cel.syntax-error", {},
                                  "Syntax error: token recognition error at: '" + shown + "'",
                                  suggestion);
    d.value_offset = static_cast<int>(at);
    d.value_length = static_cast<int>(length);
  }

  std::string_view text_;
  Diagnostics& issues_;
  int max_issues_;
  size_t pos_ = 0;
};

}  // namespace

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEof: return "<EOF>";
    case TokenKind::kIdentifier: return "IDENTIFIER";
    case TokenKind::kIntLit: return "NUM_INT";
    case TokenKind::kUintLit: return "NUM_UINT";
    case TokenKind::kDoubleLit: return "NUM_FLOAT";
    case TokenKind::kStringLit: return "STRING";
    case TokenKind::kBytesLit: return "BYTES";
    case TokenKind::kTrue: return "'true'";
    case TokenKind::kFalse: return "'false'";
    case TokenKind::kNull: return "'null'";
    case TokenKind::kIn: return "'in'";
    case TokenKind::kLParen: return "'('";
    case TokenKind::kRParen: return "')'";
    case TokenKind::kLBracket: return "'['";
    case TokenKind::kRBracket: return "']'";
    case TokenKind::kLBrace: return "'{'";
    case TokenKind::kRBrace: return "'}'";
    case TokenKind::kDot: return "'.'";
    case TokenKind::kComma: return "','";
    case TokenKind::kColon: return "':'";
    case TokenKind::kQuestion: return "'?'";
    case TokenKind::kNot: return "'!'";
    case TokenKind::kMinus: return "'-'";
    case TokenKind::kPlus: return "'+'";
    case TokenKind::kStar: return "'*'";
    case TokenKind::kSlash: return "'/'";
    case TokenKind::kPercent: return "'%'";
    case TokenKind::kEq: return "'=='";
    case TokenKind::kNe: return "'!='";
    case TokenKind::kLt: return "'<'";
    case TokenKind::kLe: return "'<='";
    case TokenKind::kGt: return "'>'";
    case TokenKind::kGe: return "'>='";
    case TokenKind::kAnd: return "'&&'";
    case TokenKind::kOr: return "'||'";
  }
  return "?";
}

std::vector<Token> Lex(std::string_view text, Diagnostics& issues, int max_issues) {
  return Lexer(text, issues, max_issues).Run();
}

}  // namespace draguard::cel
