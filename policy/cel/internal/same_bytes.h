// Equality of short byte strings with word loads, for the fast evaluation path
// (fast_predicate.h): attribute names, domains and values are mostly 4-30 bytes, where
// a libc memcmp call costs more than the comparison itself.
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_SAME_BYTES_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_SAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace draguard::cel::internal {

[[gnu::always_inline]] inline uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

[[gnu::always_inline]] inline uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Whether the `n` bytes at `a` and `b` are equal. Up to 32 bytes with overlapping word
// loads and no branch on the contents; longer strings through memcmp.
[[gnu::always_inline]] inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    if (n <= 16) return ((Load64(a) ^ Load64(b)) | (Load64(a + n - 8) ^ Load64(b + n - 8))) == 0;
    if (n > 32) return std::memcmp(a, b, n) == 0;
    return ((Load64(a) ^ Load64(b)) | (Load64(a + 8) ^ Load64(b + 8)) |
            (Load64(a + n - 16) ^ Load64(b + n - 16)) | (Load64(a + n - 8) ^ Load64(b + n - 8))) ==
           0;
  }
  if (n >= 4) return ((Load32(a) ^ Load32(b)) | (Load32(a + n - 4) ^ Load32(b + n - 4))) == 0;
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_SAME_BYTES_H_
