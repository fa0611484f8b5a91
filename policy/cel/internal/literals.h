// Decoding of CEL literal tokens into values (private to the parser).
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_LITERALS_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_LITERALS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace draguard::cel::internal {

// Where and why a string literal could not be decoded.
struct LiteralError {
  size_t offset = 0;  // byte offset inside the token text
  size_t length = 0;
  std::string message;
};

// Decodes a whole string or bytes token (prefix and quotes included) into `out`. Strings get
// UTF-8 output; in bytes literals `\x` and octal escapes denote single bytes. Returns the
// first invalid escape (or lone surrogate / out-of-range code point) as an error.
std::optional<LiteralError> DecodeQuotedLiteral(std::string_view token, bool is_bytes,
                                                std::string& out);

// `digits` is a NUM_INT token (decimal or 0x hex), `negative` when a '-' sign precedes it.
// nullopt when it does not fit int64 (so -9223372036854775808 fits, 9223372036854775808 not).
std::optional<int64_t> ParseIntLiteral(std::string_view digits, bool negative);
// `digits` is a NUM_UINT token including its u/U suffix. nullopt when it overflows uint64.
std::optional<uint64_t> ParseUintLiteral(std::string_view digits);
// `digits` is a NUM_FLOAT token; nullopt when it overflows double (Go ParseFloat ErrRange).
std::optional<double> ParseDoubleLiteral(std::string_view digits, bool negative);

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_LITERALS_H_
