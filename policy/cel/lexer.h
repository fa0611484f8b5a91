// The CEL lexer: turns an expression into tokens as cel-go's ANTLR lexer (CEL.g4) does.
//
// Tokens carry byte ranges only; literal values are decoded by the parser (see
// DecodeStringLiteral and friends in policy/cel/internal/literals.h). Whitespace (space, tab,
// CR, LF, FF) and `//` comments are skipped. A character no token can start with is reported
// as `Syntax error: token recognition error at: '<c>'` and skipped, as ANTLR does.
#ifndef DRAGUARD_POLICY_CEL_LEXER_H_
#define DRAGUARD_POLICY_CEL_LEXER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"

namespace draguard::cel {

enum class TokenKind : uint8_t {
  kEof,
  kIdentifier,
  kIntLit,     // 123, 0x1F
  kUintLit,    // 123u, 0x1Fu
  kDoubleLit,  // 1.5, .5, 1e3, 1.5e-3
  kStringLit,  // any quote form, optional r/R prefix
  kBytesLit,   // b/B prefix, optionally with r/R
  kTrue,
  kFalse,
  kNull,
  kIn,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kDot,
  kComma,
  kColon,
  kQuestion,
  kNot,
  kMinus,
  kPlus,
  kStar,
  kSlash,
  kPercent,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
};

// How the token is shown in cel-go syntax errors: "'+'", "IDENTIFIER", "<EOF>" ...
std::string_view TokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEof;
  int32_t offset = 0;  // byte offset of the first character
  int32_t length = 0;  // bytes
};

// Lexes `text` (at most INT32_MAX bytes; callers bound it far lower). The result always ends
// with one kEof token whose offset is text.size(). Unrecognised characters and unterminated
// strings are added to `issues` as cel.syntax-error diagnostics (value_offset/value_length
// set, field empty); lexing stops adding issues after `max_issues` of them.
// Never throws; time and memory are linear in the input.
std::vector<Token> Lex(std::string_view text, Diagnostics& issues, int max_issues = 100);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_LEXER_H_
