// Small string helpers every layer shares (one way to trim, to test for digits, to quote).
#ifndef DRAGUARD_POLICY_COMMON_STRINGS_H_
#define DRAGUARD_POLICY_COMMON_STRINGS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "policy/common/ascii.h"
#include "policy/common/hash.h"

namespace draguard {

// A hash of std::string keys that also takes string_views (with std::equal_to<>): an
// unordered_map<std::string, V, StringHash, std::equal_to<>> is looked up by a view without
// building a string.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return static_cast<size_t>(HashText(s)); }
};

// Keys made of several parts (cache, memo and interning keys: compared and hashed, never
// shown): a number in its fixed-width bytes, a string after its length, so that no two
// sequences of parts write the same key whatever bytes the strings hold.
inline void AppendKeyInt(std::string& key, int64_t v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof v);
}
inline void AppendKeyString(std::string& key, std::string_view s) {
  const auto size = static_cast<uint32_t>(s.size());
  key.append(reinterpret_cast<const char*>(&size), sizeof size);
  key.append(s);
}

// A YAML blank, and HTTP's optional whitespace: space or tab.
inline bool IsSpaceOrTab(char c) { return c == ' ' || c == '\t'; }

// The C locale's isspace: space, \t, \n, \v, \f, \r.
inline bool IsAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// `s` without leading and trailing IsAsciiSpace bytes.
inline std::string_view TrimAsciiSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// True when `s` is non-empty and every byte is 0-9.
inline bool AllAsciiDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsAsciiDigit(c)) return false;
  }
  return true;
}

// `s` in double quotes with `"` and `\` escaped: a valid CEL (and Go) string literal for any
// text without control characters, and how messages name user-given values.
// AppendQuoted appends it to `out` (messages built in place allocate once). Plain runs are
// appended whole: a byte at a time cost ~15 instructions a byte, and Quote's `out + "\""`
// copied the result again (findings quote several names on every admission request).
inline void AppendQuoted(std::string_view s, std::string& out) {
  out.reserve(out.size() + s.size() + 2);
  out += '"';
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '"' && s[i] != '\\') continue;
    out.append(s.data() + run, i - run);
    out += '\\';
    run = i;  // the escaped byte starts the next run
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

inline std::string Quote(std::string_view s) {
  std::string out;
  AppendQuoted(s, out);
  return out;
}

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_STRINGS_H_
