#include "policy/common/suggest.h"

#include <gtest/gtest.h>

namespace draguard {
namespace {

struct DistanceCase {
  const char* a;
  const char* b;
  size_t want;
};

class EditDistanceTest : public testing::TestWithParam<DistanceCase> {};

TEST_P(EditDistanceTest, MatchesDefinition) {
  EXPECT_EQ(EditDistance(GetParam().a, GetParam().b), GetParam().want);
  EXPECT_EQ(EditDistance(GetParam().b, GetParam().a), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(Cases, EditDistanceTest,
                         testing::Values(DistanceCase{"", "", 0}, DistanceCase{"abc", "", 3},
                                         DistanceCase{"kitten", "sitting", 3},
                                         DistanceCase{"productname", "productName", 1},
                                         DistanceCase{"slectors", "selectors", 1},
                                         DistanceCase{"ab", "ba", 1},
                                         DistanceCase{"devce", "device", 1}));

TEST(EditDistanceTest, StopsAtTheBound) {
  EXPECT_EQ(EditDistance("aaaaaaaa", "bbbbbbbb", 2), 3u);
  EXPECT_EQ(EditDistance("a", "abcdefgh", 2), 3u);
}

class FoldedEditDistanceTest : public testing::TestWithParam<DistanceCase> {};

TEST_P(FoldedEditDistanceTest, IgnoresLetterCase) {
  EXPECT_EQ(FoldedEditDistance(GetParam().a, GetParam().b), GetParam().want);
  EXPECT_EQ(FoldedEditDistance(GetParam().b, GetParam().a), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(Cases, FoldedEditDistanceTest,
                         testing::Values(DistanceCase{"productname", "productName", 0},
                                         DistanceCase{"GPU.Nvida.com", "gpu.nvidia.com", 1},
                                         DistanceCase{"nic.example.com", "net.example.com", 2},
                                         DistanceCase{"", "ABC", 3}));

TEST(ClosestMatchTest, PrefersCaseInsensitiveMatch) {
  EXPECT_EQ(ClosestMatch("productname", {"productName", "productFamily"}), "productName");
  EXPECT_EQ(ClosestMatch("deviceClasName", {"deviceClassName", "count"}), "deviceClassName");
  EXPECT_EQ(ClosestMatch("zzz", {"deviceClassName", "count"}), std::nullopt);
  EXPECT_EQ(ClosestMatch("count", {"count"}), std::nullopt);
}

}  // namespace
}  // namespace draguard
