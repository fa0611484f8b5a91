// Substring tests of short strings for the fast evaluation path (fast_predicate.h):
// selectors test attribute values of a few dozen bytes (`.contains("dranet-net")`), where
// libc's memchr and memcmp calls cost more than the search itself.
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_FIND_BYTES_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_FIND_BYTES_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/cel/internal/same_bytes.h"

namespace draguard::cel::internal {

// Whether `haystack` contains `needle` (an empty needle is contained in every string);
// precondition: haystack.size() <= kMaxShortBytes. No call (see SameShortBytes).
// Eight candidate positions at a time: a position can only match where both the needle's
// first and last bytes match, which a word-wide zero-byte test finds for eight positions
// with two loads (the "generic SIMD" method, in one register); each flagged position is
// then compared in full. The test may flag a position falsely (a borrow from a lower zero
// byte), never miss one.
[[gnu::always_inline]] inline bool ShortContainsBytes(std::string_view haystack,
                                                      std::string_view needle) {
  const size_t m = needle.size();
  if (m == 0) return true;
  if (m > haystack.size()) return false;
  const char* h = haystack.data();
  const char* n = needle.data();
  const size_t positions = haystack.size() - m + 1;
  if (positions < 8 || std::endian::native != std::endian::little) {
    for (size_t i = 0; i < positions; ++i) {
      if (h[i] == n[0] && h[i + m - 1] == n[m - 1] && SameShortBytes(h + i, n, m)) return true;
    }
    return false;
  }
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHighs = 0x8080808080808080ull;
  const uint64_t first = kOnes * static_cast<unsigned char>(n[0]);
  const uint64_t last = kOnes * static_cast<unsigned char>(n[m - 1]);
  // Blocks of positions [i, i + 8); the last block is moved back to end at `positions`
  // (rechecking a few positions), so that no load reads past the haystack: the last
  // position's last byte is the haystack's last.
  for (size_t i = 0;; i += 8) {
    if (i + 8 > positions) i = positions - 8;
    const uint64_t t = (Load64(h + i) ^ first) | (Load64(h + i + m - 1) ^ last);
    for (uint64_t flagged = (t - kOnes) & ~t & kHighs; flagged != 0; flagged &= flagged - 1) {
      const size_t at = i + static_cast<size_t>(std::countr_zero(flagged) / 8);
      if (SameShortBytes(h + at, n, m)) return true;
    }
    if (i + 8 == positions) return false;
  }
}

// Whether `haystack` contains `needle`: ShortContainsBytes, or string_view::find (whose
// vectorised memchr overtakes the word loop) for haystacks over kMaxShortBytes.
[[gnu::always_inline]] inline bool ContainsBytes(std::string_view haystack,
                                                 std::string_view needle) {
  if (haystack.size() > kMaxShortBytes) return haystack.find(needle) != std::string_view::npos;
  return ShortContainsBytes(haystack, needle);
}

// Prefix and suffix tests; precondition: s.size() <= kMaxShortBytes. No call.
[[gnu::always_inline]] inline bool StartsWithBytes(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && SameShortBytes(s.data(), prefix.data(), prefix.size());
}

[[gnu::always_inline]] inline bool EndsWithBytes(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         SameShortBytes(s.data() + s.size() - suffix.size(), suffix.data(), suffix.size());
}

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_FIND_BYTES_H_
