// Finding the bytes of a JSON string that need attention, eight at a time. The webhook's JSON
// reader and every JSON string writer of the project step over plain runs with this and copy
// each run in one append: an AdmissionReview and its response are mostly such runs.
#ifndef DRAGUARD_POLICY_COMMON_JSON_TEXT_H_
#define DRAGUARD_POLICY_COMMON_JSON_TEXT_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace draguard {

// True for a byte that JSON text carries as is inside a string: printable ASCII other than
// the quote and the backslash.
inline bool IsPlainJsonByte(unsigned char c) {
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

// The bytes of `w` (eight bytes of text, little-endian) that are not plain: a quote, a
// backslash, a control byte or a non-ASCII byte. Each such byte's high bit is set in the
// result. These are the classic SWAR "has zero byte" tests: a borrow can also flag bytes
// after a true hit, never before it, so the lowest set bit is exact.
inline uint64_t NonPlainJsonBytes(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto zero_bytes = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  const uint64_t below_space = (w - 0x20 * kOnes) & ~w & kHigh;
  const uint64_t quote = zero_bytes(w ^ ('"' * kOnes));
  const uint64_t backslash = zero_bytes(w ^ ('\\' * kOnes));
  return (w & kHigh) | below_space | quote | backslash;
}

#if defined(__SSE2__)
// The bytes of the sixteen at `p` that are not plain, as NonPlainJsonBytes says, one bit
// each (bit i for p[i]).
inline unsigned NonPlainJsonMask16(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // As signed bytes, control bytes and non-ASCII bytes (0x80-0xff, negative) are all below
  // a space.
  const __m128i special =
      _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  return static_cast<unsigned>(_mm_movemask_epi8(special));
}
#endif

// The position of the first byte at or after `pos` that is not plain (see IsPlainJsonByte),
// or text.size() when there is none. Requires pos <= text.size(). Sixteen bytes a step where
// SSE2 is there (every x86-64), then eight (NonPlainJsonBytes), then one.
inline size_t FindNonPlainJsonByte(std::string_view text, size_t pos) {
  const char* const data = text.data();
  const size_t size = text.size();
#if defined(__SSE2__)
  while (size - pos >= 16) {
    if (const unsigned mask = NonPlainJsonMask16(data + pos); mask != 0) {
      return pos + static_cast<size_t>(std::countr_zero(mask));
    }
    pos += 16;
  }
#endif
  while (size - pos >= 8) {
    uint64_t word;
    std::memcpy(&word, data + pos, 8);
    if (const uint64_t special = NonPlainJsonBytes(word); special != 0) {
      return pos + static_cast<size_t>(std::countr_zero(special)) / 8;
    }
    pos += 8;
  }
  while (pos < size && IsPlainJsonByte(static_cast<unsigned char>(data[pos]))) ++pos;
  return pos;
}

// Appends the escape of an ASCII byte that is not plain (c < 0x80, !IsPlainJsonByte(c)) as
// nlohmann's dump() writes it: the short escapes where JSON has one, else \u00XX.
inline void AppendEscapedJsonAscii(unsigned char c, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  out += "\\u00";
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

// What AppendJsonString does with the bytes of `text` at or above 0x80.
enum class NonAsciiJson {
  // Well-formed UTF-8 (Utf8SequenceLength) is copied as is and every byte of an ill-formed
  // sequence is written as \ufffd, as Go's encoding/json does: the API server reads the
  // result.
  kUtf8,
  // Nothing is decided: AppendJsonString stops and returns false, for a caller that must
  // match nlohmann's own treatment of such text and hands it to nlohmann instead.
  kRefuse,
};

// Appends `text` as a quoted JSON string: plain runs copied, ASCII escaped as nlohmann's dump()
// writes it (AppendEscapedJsonAscii), other bytes as `non_ascii` says. Returns false only
// under NonAsciiJson::kRefuse, with `out` then holding a partial string.
bool AppendJsonString(std::string_view text, std::string& out,
                      NonAsciiJson non_ascii = NonAsciiJson::kUtf8);

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_JSON_TEXT_H_
