#include "policy/common/semver.h"

#include <gtest/gtest.h>

namespace draguard {
namespace {

struct ParseCase {
  const char* input;
  bool normalize = false;
  const char* want;  // String() of the result, or nullptr when parsing must fail
};

class SemverParseTest : public testing::TestWithParam<ParseCase> {};

TEST_P(SemverParseTest, ParsesLikeKubernetes) {
  StatusOr<Semver> v = Semver::Parse(GetParam().input, GetParam().normalize);
  if (GetParam().want == nullptr) {
    ASSERT_FALSE(v.ok()) << v->String();
    EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
    return;
  }
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->String(), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Strict, SemverParseTest,
    testing::Values(ParseCase{.input = "1.2.3", .want = "1.2.3"},
                    ParseCase{.input = "0.0.0", .want = "0.0.0"},
                    ParseCase{.input = "1.0.0-alpha.1", .want = "1.0.0-alpha.1"},
                    ParseCase{.input = "1.0.0-0.3.7", .want = "1.0.0-0.3.7"},
                    ParseCase{.input = "1.0.0-x-y.z", .want = "1.0.0-x-y.z"},
                    ParseCase{.input = "1.0.0+build.5", .want = "1.0.0+build.5"},
                    ParseCase{.input = "1.0.0-rc.1+001", .want = "1.0.0-rc.1+001"},
                    ParseCase{.input = "v1.2.3", .want = nullptr},
                    ParseCase{.input = "1.2", .want = nullptr},
                    ParseCase{.input = "1.2.3.4", .want = nullptr},
                    ParseCase{.input = "01.2.3", .want = nullptr},
                    ParseCase{.input = "1.02.3", .want = nullptr},
                    ParseCase{.input = "1.2.03", .want = nullptr},
                    ParseCase{.input = " 1.2.3", .want = nullptr},
                    ParseCase{.input = "1.2.3 ", .want = nullptr},
                    ParseCase{.input = "1.2.3-01", .want = nullptr},
                    ParseCase{.input = "1.2.3-", .want = nullptr},
                    ParseCase{.input = "1.2.3-a..b", .want = nullptr},
                    ParseCase{.input = "1.2.3+", .want = nullptr},
                    ParseCase{.input = "1.2.3-a_b", .want = nullptr},
                    ParseCase{.input = "", .want = nullptr},
                    ParseCase{.input = "99999999999999999999.0.0", .want = nullptr}));

INSTANTIATE_TEST_SUITE_P(
    Normalize, SemverParseTest,
    testing::Values(ParseCase{.input = "v1.2.3", .normalize = true, .want = "1.2.3"},
                    ParseCase{.input = "1", .normalize = true, .want = "1.0.0"},
                    ParseCase{.input = "v1.2", .normalize = true, .want = "1.2.0"},
                    ParseCase{.input = "01.02.03", .normalize = true, .want = "1.2.3"},
                    ParseCase{.input = "1.2.3-rc.1", .normalize = true, .want = "1.2.3-rc.1"},
                    ParseCase{.input = "1.2-rc.1", .normalize = true, .want = nullptr},
                    ParseCase{.input = "1+build", .normalize = true, .want = nullptr},
                    ParseCase{.input = "vv1.2.3", .normalize = true, .want = nullptr},
                    ParseCase{.input = "1.2.3.4", .normalize = true, .want = nullptr}));

struct OrderCase {
  const char* lower;
  const char* higher;
};

class SemverOrderTest : public testing::TestWithParam<OrderCase> {};

TEST_P(SemverOrderTest, FollowsSemverPrecedence) {
  Semver a = *Semver::Parse(GetParam().lower);
  Semver b = *Semver::Parse(GetParam().higher);
  EXPECT_EQ(a.Compare(b), -1);
  EXPECT_EQ(b.Compare(a), 1);
}

// The chain from semver 2.0.0 section 11, plus numeric ordering of the core.
INSTANTIATE_TEST_SUITE_P(
    Cases, SemverOrderTest,
    testing::Values(OrderCase{"1.0.0-alpha", "1.0.0-alpha.1"},
                    OrderCase{"1.0.0-alpha.1", "1.0.0-alpha.beta"},
                    OrderCase{"1.0.0-alpha.beta", "1.0.0-beta"},
                    OrderCase{"1.0.0-beta", "1.0.0-beta.2"},
                    OrderCase{"1.0.0-beta.2", "1.0.0-beta.11"},
                    OrderCase{"1.0.0-beta.11", "1.0.0-rc.1"},
                    OrderCase{"1.0.0-rc.1", "1.0.0"},
                    OrderCase{"1.9.0", "1.10.0"},
                    OrderCase{"1.0.9", "1.0.10"},
                    OrderCase{"0.9.9", "1.0.0"}));

TEST(SemverTest, BuildMetadataIsIgnored) {
  EXPECT_EQ(Semver::Parse("1.0.0+a")->Compare(*Semver::Parse("1.0.0+b")), 0);
  EXPECT_TRUE(*Semver::Parse("1.0.0+a") == *Semver::Parse("1.0.0"));
}

TEST(SemverTest, Accessors) {
  Semver v = *Semver::Parse("10.20.30-rc.1");
  EXPECT_EQ(v.major(), 10u);
  EXPECT_EQ(v.minor(), 20u);
  EXPECT_EQ(v.patch(), 30u);
  ASSERT_EQ(v.pre_release().size(), 2u);
  EXPECT_TRUE(v.pre_release()[1].numeric);
}

}  // namespace
}  // namespace draguard
