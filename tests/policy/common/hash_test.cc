#include "policy/common/hash.h"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

namespace draguard {
namespace {

TEST(HashTextTest, DependsOnTheBytesOnly) {
  const std::string a = "device.attributes[\"gpu.nvidia.com\"].productName";
  const std::string b = a;  // another buffer, the same bytes
  EXPECT_EQ(HashText(a), HashText(b));
  EXPECT_EQ(HashText(std::string_view(a).substr(7, 10)), HashText(b.substr(7, 10)));
}

// Every length up to a few blocks, every byte, every bit: a flip changes the hash (a hash
// that ignored a byte of the tail, of a block, or the length would fail here).
TEST(HashTextTest, EveryBitOfEveryByteMovesTheHash) {
  for (size_t length = 1; length <= 70; ++length) {
    std::string text;
    for (size_t i = 0; i < length; ++i) text.push_back(static_cast<char>('a' + i % 26));
    const uint64_t base = HashText(text);
    for (size_t i = 0; i < length; ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string flipped = text;
        flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
        EXPECT_NE(HashText(flipped), base) << "length " << length << " byte " << i << " bit " << bit;
      }
    }
  }
}

// Zeros that only lengthen the text (the tail words read them as the padding they replace).
TEST(HashTextTest, TheLengthCounts) {
  std::unordered_set<uint64_t> seen;
  for (size_t length = 0; length <= 40; ++length) {
    EXPECT_TRUE(seen.insert(HashText(std::string(length, '\0'))).second) << length;
  }
}

// Tables take the low bits (`hash & mask`): keys that differ in a counter, as device names
// and generated selectors do, spread evenly over 1,024 buckets.
TEST(HashTextTest, LowBitsSpreadSequentialKeys) {
  constexpr size_t kBuckets = 1024;
  constexpr size_t kKeys = 64 * kBuckets;
  for (const std::string prefix : {"gpu-", "device.attributes[\"gpu.nvidia.com\"].productName != \"x"}) {
    std::vector<size_t> load(kBuckets);
    for (size_t i = 0; i < kKeys; ++i) ++load[HashText(prefix + std::to_string(i)) & (kBuckets - 1)];
    // 64 keys a bucket on average; a Poisson(64) bucket passes 110 or stays under 25 about
    // once in 10^7 buckets, a biased hash piles keys far beyond.
    for (size_t bucket = 0; bucket < kBuckets; ++bucket) {
      EXPECT_GT(load[bucket], 25u) << prefix << " bucket " << bucket;
      EXPECT_LT(load[bucket], 110u) << prefix << " bucket " << bucket;
    }
  }
}

}  // namespace
}  // namespace draguard
