// UTF-8 and hex helpers shared by every hand-written decoder: CEL string literals, the
// admission review scanner and the response writer.
#ifndef DRAGUARD_POLICY_COMMON_UTF8_H_
#define DRAGUARD_POLICY_COMMON_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace draguard {

// Appends the UTF-8 encoding of `code_point` (assumed a valid scalar value) to `out`.
void AppendUtf8(uint32_t code_point, std::string& out);

// The value of a hex digit (0-9, a-f, A-F), or -1.
int HexValue(char c);

// Length (2-4) of the well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates,
// at most U+10FFFF) starting at text[i], whose first byte is >= 0x80; 0 when it is invalid.
size_t Utf8SequenceLength(std::string_view text, size_t i);

// Whether all of `text` is well-formed UTF-8 in the sense of Utf8SequenceLength.
bool IsValidUtf8(std::string_view text);

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_UTF8_H_
