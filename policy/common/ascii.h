// ASCII character classes and case folding, as Kubernetes' validation applies them to names,
// keys and domains (byte-wise: a non-ASCII byte is never a letter or a digit). Inline and
// locale-free: names of every admitted object pass through these.
#ifndef DRAGUARD_POLICY_COMMON_ASCII_H_
#define DRAGUARD_POLICY_COMMON_ASCII_H_

#include <string>
#include <string_view>

namespace draguard {

inline bool IsAsciiLower(char c) { return c >= 'a' && c <= 'z'; }
inline bool IsAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAsciiAlnum(char c) { return IsAsciiLower(c) || IsAsciiUpper(c) || IsAsciiDigit(c); }
// The letters and digits of a DNS label: [a-z0-9].
inline bool IsAsciiLowerAlnum(char c) { return IsAsciiLower(c) || IsAsciiDigit(c); }
inline char AsciiToLower(char c) {
  return IsAsciiUpper(c) ? static_cast<char>(c + ('a' - 'A')) : c;
}

// `s` with A-Z folded to a-z; every other byte as is.
inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiToLower(c);
  return out;
}

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_ASCII_H_
