// HashText: the project's hash of byte strings, for its hash tables and caches.
//
// Why not std::hash<std::string_view>: libstdc++'s is MurmurHash2 over 8 bytes a step with
// four multiplications and shifts per step (~1.3 instructions a byte). The webhook hashes
// every claim spec it sees whole for the spec memo (~1.2 KB in the benchmark's review) and
// every selector for the compile and schema caches; this takes 16 bytes a step with one
// 64x64->128-bit multiplication (~0.5 instructions a byte) and is no slower on short names.
//
// Not a cryptographic hash and not seeded: like std::hash, it spreads keys over buckets
// (tests/policy/common/hash_test.cc checks that every bit of the input moves the result and
// that the low bits, which tables mask, are balanced); a client able to make colliding keys
// costs a table chain, never a wrong answer (every table compares keys). Values may differ
// between builds: never store or print them.
#ifndef DRAGUARD_POLICY_COMMON_HASH_H_
#define DRAGUARD_POLICY_COMMON_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace draguard {

namespace hash_internal {

// Odd constants with well-spread bits (the golden ratio's and two others of its kind).
inline constexpr uint64_t kK0 = 0x9e3779b97f4a7c15ULL;
inline constexpr uint64_t kK1 = 0xbf58476d1ce4e5b9ULL;
inline constexpr uint64_t kK2 = 0x94d049bb133111ebULL;

#if defined(__SIZEOF_INT128__)
// gcc's and clang's 128-bit integer (`__extension__`: not ISO C++, said once here).
__extension__ typedef unsigned __int128 Uint128;
#endif

// Both halves of the 128-bit product, folded: every input bit reaches every output bit.
inline uint64_t Fold(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  const Uint128 product = static_cast<Uint128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
#else
  // Without a 128-bit type: the four 32x32 products of the halves, summed as the full
  // product's two halves would be (slower, the same spreading).
  const uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  const uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  const uint64_t low = (cross << 32) | (lo_lo & 0xffffffffu);
  const uint64_t high = a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
  return low ^ high;
#endif
}

inline uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline uint64_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

}  // namespace hash_internal

inline uint64_t HashText(std::string_view text) {
  using namespace hash_internal;
  const char* p = text.data();
  size_t n = text.size();
  uint64_t h = kK0 ^ (static_cast<uint64_t>(n) * kK1);  // the length is part of the key
  for (; n > 16; n -= 16, p += 16) {
    h = Fold(Load64(p) ^ kK1, Load64(p + 8) ^ h);
  }
  // The last 1-16 bytes, as two words that may overlap (every byte is read; none twice
  // unless the text is shorter than 16 bytes).
  uint64_t a = 0;
  uint64_t b = 0;
  if (n > 8) {
    a = Load64(p);
    b = Load64(p + n - 8);
  } else if (n >= 4) {
    a = Load32(p);
    b = Load32(p + n - 4);
  } else if (n > 0) {
    a = (static_cast<uint64_t>(static_cast<unsigned char>(p[0])) << 16) |
        (static_cast<uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8) |
        static_cast<uint64_t>(static_cast<unsigned char>(p[n - 1]));
  }
  h = Fold(a ^ kK1, b ^ h ^ kK2);
  return Fold(h ^ kK0, static_cast<uint64_t>(text.size()) ^ kK2);
}

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_HASH_H_
