// RE2 as CEL uses it, shared by the checker's literal validators and the runtime's regex
// functions: the options (no logging) and Go's regexp error texts, which cel-go and
// Kubernetes put into messages ("error parsing regexp: missing closing ): `(`"). RE2 and
// Go's regexp/syntax share their parser design, so error codes and arguments correspond.
// Header-only: the checker and the runtime are separate libraries.
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_REGEX_TEXT_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_REGEX_TEXT_H_

#include <re2/re2.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace draguard::cel::internal {

// Compiles `pattern` as Go's regexp.Compile would (Perl syntax, UTF-8), without logging.
inline std::unique_ptr<RE2> CompileRegex(std::string_view pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  return std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
}

// An estimate of the heap a compiled RE2 holds: the object, the pattern's parsed form and
// program (about 16 bytes an instruction each) and a first share of its DFA state cache,
// which grows while matching, up to RE2's max_mem (8 MiB) in the worst case. Device strings
// are short (attribute strings are at most 64 bytes), so the caches stay small in practice.
inline size_t ApproximateRegexBytes(const RE2& re) {
  constexpr size_t kBytesPerInstruction = 48;  // forward and reverse programs, parsed regexp
  constexpr size_t kDfaShare = 16 * 1024;
  return sizeof(RE2) + 2 * re.pattern().size() +
         static_cast<size_t>(std::max(re.ProgramSize(), 0)) * kBytesPerInstruction + kDfaShare;
}

// Go's regexp.Compile error for a pattern RE2 rejected.
inline std::string GoRegexpError(const RE2& re) {
  const char* code = "invalid or unsupported Perl syntax";
  switch (re.error_code()) {
    case RE2::ErrorBadEscape: code = "invalid escape sequence"; break;
    case RE2::ErrorBadCharClass: code = "invalid character class"; break;
    case RE2::ErrorBadCharRange: code = "invalid character class range"; break;
    case RE2::ErrorMissingBracket: code = "missing closing ]"; break;
    case RE2::ErrorMissingParen: code = "missing closing )"; break;
    case RE2::ErrorUnexpectedParen: code = "unexpected )"; break;
    case RE2::ErrorTrailingBackslash: code = "trailing backslash at end of expression"; break;
    case RE2::ErrorRepeatArgument: code = "missing argument to repetition operator"; break;
    case RE2::ErrorRepeatSize: code = "invalid repeat count"; break;
    case RE2::ErrorRepeatOp: code = "invalid nested repetition operator"; break;
    case RE2::ErrorBadUTF8: code = "invalid UTF-8"; break;
    case RE2::ErrorBadNamedCapture: code = "invalid named capture"; break;
    case RE2::ErrorPatternTooLarge: code = "expression too large"; break;
    default: break;
  }
  return "error parsing regexp: " + std::string(code) + ": `" + re.error_arg() + "`";
}

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_REGEX_TEXT_H_
