// Equality of short byte strings with word loads, for the fast evaluation path
// (fast_predicate.h, path_index.h): attribute names, domains and values are mostly 4-30
// bytes, where a libc memcmp call costs more than the comparison itself.
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

// The bits that differ between the 16 bytes at `a` and `b` (zero when equal).
[[gnu::always_inline]] inline uint64_t Diff16(const char* a, const char* b) {
  return (Load64(a) ^ Load64(b)) | (Load64(a + 8) ^ Load64(b + 8));
}

// The longest strings SameShortBytes() compares: its callers' quick routes must not need
// more registers than a call would spare (a 64-byte case made them save five).
inline constexpr size_t kMaxShortBytes = 32;

// Whether the `n` bytes at `a` and `b` are equal; precondition: n <= kMaxShortBytes.
// Overlapping word loads, no branch on the contents and no call (a caller with no other
// call keeps a small stack frame).
[[gnu::always_inline]] inline bool SameShortBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    if (n <= 16) return ((Load64(a) ^ Load64(b)) | (Load64(a + n - 8) ^ Load64(b + n - 8))) == 0;
    return (Diff16(a, b) | Diff16(a + n - 16, b + n - 16)) == 0;
  }
  if (n >= 4) return ((Load32(a) ^ Load32(b)) | (Load32(a + n - 4) ^ Load32(b + n - 4))) == 0;
  if (n == 0) return true;
  return ((a[0] ^ b[0]) | (a[n / 2] ^ b[n / 2]) | (a[n - 1] ^ b[n - 1])) == 0;  // 1 to 3 bytes
}

// Whether the `n` bytes at `a` and `b` are equal: SameShortBytes, word loads up to 64
// bytes (a PathIndex key holds a domain and a name, such as "resource.kubernetes.io"
// "pcieRoot"), memcmp beyond.
[[gnu::always_inline]] inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n <= kMaxShortBytes) return SameShortBytes(a, b, n);
  if (n > 2 * kMaxShortBytes) return std::memcmp(a, b, n) == 0;
  return (Diff16(a, b) | Diff16(a + 16, b + 16) | Diff16(a + n - 32, b + n - 32) |
          Diff16(a + n - 16, b + n - 16)) == 0;
}

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_SAME_BYTES_H_
