// nlohmann::json::accept as the reference for the webhook's JSON readers, where it differs
// from Go's encoding/json (the API server's), which the readers follow.
#ifndef DRAGUARD_FUZZ_JSON_REFERENCE_H_
#define DRAGUARD_FUZZ_JSON_REFERENCE_H_

#include <string_view>

namespace draguard::fuzz {

// Whether `text` has a \uD800-\uDFFF escape. Go decodes a lone surrogate to U+FFFD and so do
// the webhook's readers (json_lexer.h); nlohmann refuses it. Conservative: an escaped
// backslash followed by "uD8.." also counts.
inline bool HasSurrogateEscape(std::string_view text) {
  for (size_t i = text.find("\\u"); i != std::string_view::npos; i = text.find("\\u", i + 1)) {
    if (i + 3 < text.size() && (text[i + 2] == 'd' || text[i + 2] == 'D') &&
        std::string_view("89abcdefABCDEF").find(text[i + 3]) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// Whether `text` may hold a number beyond double's range: an exponent of three or more
// digits, or a run of 300 digits. Conservative.
inline bool MayOverflowDouble(std::string_view text) {
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    run = digit ? run + 1 : 0;
    if (run >= 300) return true;
    if ((text[i] == 'e' || text[i] == 'E') && i + 1 < text.size()) {
      size_t j = i + 1;
      if (text[j] == '+' || text[j] == '-') ++j;
      size_t digits = 0;
      while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j, ++digits;
      if (digits >= 3) return true;
    }
  }
  return false;
}

// Whether nlohmann's verdict on `text` is meant to match the readers': not where one of
// nlohmann's differences from Go applies (surrogate escapes; a leading byte order mark, which
// nlohmann skips and Go refuses; a NUL byte, where nlohmann's lexer sees the end of the input
// and accepts "null\0garbage"; a number beyond double's range, which nlohmann refuses and the
// readers keep, as Go keeps the raw bytes of opaque parameters).
inline bool ReferenceApplies(std::string_view text) {
  return !HasSurrogateEscape(text) && !text.starts_with("\xEF\xBB\xBF") &&
         text.find('\0') == std::string_view::npos && !MayOverflowDouble(text);
}

}  // namespace draguard::fuzz

#endif  // DRAGUARD_FUZZ_JSON_REFERENCE_H_
