// UTF-8 validation shared by the review scanner (which rejects invalid UTF-8, as the API
// server never sends it) and the response writer (which repairs it to U+FFFD).
#ifndef DRAGUARD_WEBHOOK_ADMISSION_UTF8_H_
#define DRAGUARD_WEBHOOK_ADMISSION_UTF8_H_

#include <cstddef>
#include <string_view>

namespace draguard::webhook {

// Length (2-4) of the well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates,
// at most U+10FFFF) starting at text[i], whose first byte is >= 0x80; 0 when it is invalid.
inline size_t Utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  size_t len = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (lead >= 0xF5 || len == 0 || i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  unsigned char second = byte(i + 1);
  if (lead == 0xE0 && second < 0xA0) return 0;  // overlong
  if (lead == 0xED && second >= 0xA0) return 0;  // surrogate
  if (lead == 0xF0 && second < 0x90) return 0;  // overlong
  if (lead == 0xF4 && second >= 0x90) return 0;  // beyond U+10FFFF
  return len;
}

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_UTF8_H_
