// The fast path's byte helpers (internal/same_bytes.h, internal/find_bytes.h) against the
// standard library: every length up to past the word-loop limits, a difference at every
// position, and random haystacks over a two-letter alphabet (so that partial matches and
// false candidates are frequent).
#include "policy/cel/internal/find_bytes.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "policy/cel/internal/same_bytes.h"

namespace draguard::cel::internal {
namespace {

TEST(SameBytesTest, EqualAndEachSingleDifferenceForEveryLength) {
  for (size_t n = 0; n <= 2 * kMaxShortBytes + 3; ++n) {
    // The operands sit in padding that differs between them ('x' and 'y'): a load past
    // either end changes the answer for equal operands.
    std::string a(n + 16, 'x'), b(n + 16, 'y');
    for (size_t i = 0; i < n; ++i) a[8 + i] = b[8 + i] = static_cast<char>('a' + i % 26);
    const char* pa = a.data() + 8;
    const char* pb = b.data() + 8;
    EXPECT_TRUE(SameBytes(pa, pb, n)) << n;
    if (n <= kMaxShortBytes) {
      EXPECT_TRUE(SameShortBytes(pa, pb, n)) << n;
    }
    for (size_t i = 0; i < n; ++i) {
      b[8 + i] = '#';
      EXPECT_FALSE(SameBytes(pa, pb, n)) << n << " at " << i;
      if (n <= kMaxShortBytes) {
        EXPECT_FALSE(SameShortBytes(pa, pb, n)) << n << " at " << i;
      }
      b[8 + i] = a[8 + i];
    }
  }
}

TEST(FindBytesTest, ContainsAgreesWithFindOnRandomStrings) {
  std::mt19937 rng(20261126);
  auto random_string = [&](size_t size) {
    std::string s(size, 'a');
    for (char& c : s) c = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? 'b' : 'a';
    return s;
  };
  for (int round = 0; round < 20000; ++round) {
    const size_t h_size = std::uniform_int_distribution<size_t>(0, kMaxShortBytes + 8)(rng);
    const size_t n_size = std::uniform_int_distribution<size_t>(0, 12)(rng);
    // Exact-size heap copies: a read past either string is a sanitizer report.
    const std::string h = random_string(h_size), n = random_string(n_size);
    const bool want = std::string_view(h).find(n) != std::string_view::npos;
    EXPECT_EQ(ContainsBytes(h, n), want) << '"' << h << "\" \"" << n << '"';
    if (h.size() <= kMaxShortBytes) {
      EXPECT_EQ(ShortContainsBytes(h, n), want) << '"' << h << "\" \"" << n << '"';
    }
  }
}

struct TextCase {
  std::string_view text, arg;
  bool contains, starts, ends;
};

TEST(FindBytesTest, PrefixSuffixAndContainsTable) {
  const TextCase cases[] = {
      {"", "", true, true, true},
      {"abc", "", true, true, true},
      {"", "a", false, false, false},
      {"abc", "abcd", false, false, false},
      {"abc", "abc", true, true, true},
      {"projects/x/dranet-net", "dranet-net", true, false, true},
      {"projects/x/dranet-net", "projects", true, true, false},
      {"projects/x/dranet-net", "x/d", true, false, false},
      {"projects/x/dranet-net", "dranet-nets", false, false, false},
      // A candidate whose first and last bytes match but whose middle does not.
      {"aXcaYcaZc", "aZc", true, false, true},
      {"aXcaYcaWc", "aZc", false, false, false},
      // Bytes above 0x7f and zero bytes (the zero-byte test works on XORed words).
      {std::string_view("\x00\x80\xff\x01\x00", 5), std::string_view("\xff\x01", 2), true, false,
       false},
      {std::string_view("\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00", 10),
       std::string_view("\x01\x00", 2), true, false, true},
  };
  for (const TextCase& c : cases) {
    EXPECT_EQ(ShortContainsBytes(c.text, c.arg), c.contains) << c.text << " / " << c.arg;
    EXPECT_EQ(StartsWithBytes(c.text, c.arg), c.starts) << c.text << " / " << c.arg;
    EXPECT_EQ(EndsWithBytes(c.text, c.arg), c.ends) << c.text << " / " << c.arg;
  }
}

}  // namespace
}  // namespace draguard::cel::internal
