#include "policy/common/sighting_filter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "policy/common/hash.h"

namespace draguard {
namespace {

TEST(SightingFilterTest, AKeyIsSeenFromItsSecondSighting) {
  SightingFilter filter(64);
  const uint64_t a = HashText("device.driver == \"a\"");
  const uint64_t b = HashText("device.driver == \"b\"");
  EXPECT_FALSE(filter.Saw(a));
  EXPECT_TRUE(filter.Saw(a));
  EXPECT_TRUE(filter.Saw(a));
  EXPECT_FALSE(filter.Saw(b));
  EXPECT_TRUE(filter.Saw(b));
}

TEST(SightingFilterTest, AKeyWhoseSlotWasTakenLooksUnseenAgain) {
  SightingFilter filter(1);  // one slot: every key takes it
  EXPECT_EQ(filter.bytes(), sizeof(uint64_t));
  EXPECT_FALSE(filter.Saw(HashText("a")));
  EXPECT_FALSE(filter.Saw(HashText("b")));
  EXPECT_FALSE(filter.Saw(HashText("a")));
  EXPECT_TRUE(filter.Saw(HashText("a")));
}

TEST(SightingFilterTest, RemembersAboutAsManyKeysAsSlots) {
  SightingFilter filter(1000);  // rounded up to 1,024
  EXPECT_EQ(filter.bytes(), 1024 * sizeof(uint64_t));
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 256; ++i) hashes.push_back(HashText("selector-" + std::to_string(i)));
  for (uint64_t h : hashes) EXPECT_FALSE(filter.Saw(h));
  size_t seen = 0;
  for (uint64_t h : hashes) seen += filter.Saw(h) ? 1 : 0;
  // 256 keys in 1,024 slots: a few share a slot (~30 keys lose theirs to a later key), and
  // in this second pass each such miss takes the slot back from its taker: ~3/4 stay.
  EXPECT_GT(seen, 160u);
  // Zero and one are one tag (the low bit marks a used slot), never an empty slot's.
  SightingFilter zero(4);
  EXPECT_FALSE(zero.Saw(0));
  EXPECT_TRUE(zero.Saw(0));
}

}  // namespace
}  // namespace draguard
