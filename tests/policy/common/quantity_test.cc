#include "policy/common/quantity.h"

#include <gtest/gtest.h>

namespace draguard {
namespace {

// Canonical strings as apimachinery's Quantity.String() prints them.
struct CanonicalCase {
  const char* input;
  const char* canonical;
};

class QuantityCanonicalTest : public testing::TestWithParam<CanonicalCase> {};

TEST_P(QuantityCanonicalTest, PrintsLikeKubernetes) {
  StatusOr<Quantity> q = Quantity::Parse(GetParam().input);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->String(), GetParam().canonical);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, QuantityCanonicalTest,
    testing::Values(CanonicalCase{.input = "0", .canonical = "0"},
                    CanonicalCase{.input = "-0", .canonical = "0"},
                    CanonicalCase{.input = "0Gi", .canonical = "0"},
                    CanonicalCase{.input = "1", .canonical = "1"},
                    CanonicalCase{.input = "+5", .canonical = "5"},
                    CanonicalCase{.input = "1000", .canonical = "1k"},
                    CanonicalCase{.input = "1500", .canonical = "1500"},
                    CanonicalCase{.input = "1.5k", .canonical = "1500"},
                    CanonicalCase{.input = "0.5", .canonical = "500m"},
                    CanonicalCase{.input = ".5", .canonical = "500m"},
                    CanonicalCase{.input = "1.", .canonical = "1"},
                    CanonicalCase{.input = "100m", .canonical = "100m"},
                    CanonicalCase{.input = "1000m", .canonical = "1"},
                    CanonicalCase{.input = "1Gi", .canonical = "1Gi"},
                    CanonicalCase{.input = "1024Mi", .canonical = "1Gi"},
                    CanonicalCase{.input = "1536Mi", .canonical = "1536Mi"},
                    CanonicalCase{.input = "0.5Gi", .canonical = "512Mi"},
                    CanonicalCase{.input = "1Ki", .canonical = "1Ki"},
                    CanonicalCase{.input = "0.5Ki", .canonical = "512"},
                    CanonicalCase{.input = "1.5Ki", .canonical = "1536"},
                    CanonicalCase{.input = "-1Gi", .canonical = "-1Gi"},
                    CanonicalCase{.input = "80Gi", .canonical = "80Gi"},
                    CanonicalCase{.input = "1e3", .canonical = "1e3"},
                    CanonicalCase{.input = "1E3", .canonical = "1e3"},
                    CanonicalCase{.input = "12e2", .canonical = "1200"},
                    CanonicalCase{.input = "1e-3", .canonical = "1e-3"},
                    CanonicalCase{.input = "1e+6", .canonical = "1e6"},
                    CanonicalCase{.input = "1M", .canonical = "1M"},
                    CanonicalCase{.input = "1E", .canonical = "1E"},
                    CanonicalCase{.input = "1n", .canonical = "1n"},
                    CanonicalCase{.input = "1u", .canonical = "1u"},
                    CanonicalCase{.input = "0.1n", .canonical = "1n"},
                    CanonicalCase{.input = "-0.1n", .canonical = "-1n"},
                    CanonicalCase{.input = "1e-20", .canonical = "1e-9"},
                    CanonicalCase{.input = "8Ei", .canonical = "9223372036854775807"}));

class QuantityRejectTest : public testing::TestWithParam<const char*> {};

TEST_P(QuantityRejectTest, RejectsBadSyntax) {
  StatusOr<Quantity> q = Quantity::Parse(GetParam());
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().code(), StatusCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(Cases, QuantityRejectTest,
                         testing::Values("", "1GB", "200K", "Mi", "10Mo", "1ki", "1e", "1 Gi",
                                         " 1", "1Gi ", ".", "-", "1.2.3", "1e1.5", "abc",
                                         "1Kib", "--1", "1m5", "0x10"));

TEST(QuantityTest, ComparesExactly) {
  EXPECT_EQ(Quantity::Parse("1Gi")->Cmp(*Quantity::Parse("1024Mi")), 0);
  EXPECT_EQ(Quantity::Parse("1G")->Cmp(*Quantity::Parse("1Gi")), -1);
  EXPECT_EQ(Quantity::Parse("40Gi")->Cmp(*Quantity::Parse("40G")), 1);
  EXPECT_EQ(Quantity::Parse("1")->Cmp(*Quantity::Parse("999m")), 1);
  EXPECT_EQ(Quantity::Parse("-1")->Cmp(*Quantity::Parse("0")), -1);
  EXPECT_TRUE(*Quantity::Parse("1k") == *Quantity::Parse("1000"));
}

TEST(QuantityTest, AddAndSubAreExact) {
  StatusOr<Quantity> sum = Quantity::Parse("1Gi")->Add(*Quantity::Parse("1Gi"));
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(sum->String(), "2Gi");
  StatusOr<Quantity> diff = Quantity::Parse("1")->Sub(*Quantity::Parse("1m"));
  ASSERT_TRUE(diff.ok());
  EXPECT_EQ(diff->String(), "999m");
  StatusOr<Quantity> from_zero = Quantity::Parse("0")->Add(*Quantity::Parse("2Ki"));
  ASSERT_TRUE(from_zero.ok());
  EXPECT_EQ(from_zero->String(), "2Ki");  // format taken from the other operand
  StatusOr<Quantity> plus_int = Quantity::Parse("1k")->Add(Quantity::FromInt64(24));
  ASSERT_TRUE(plus_int.ok());
  EXPECT_EQ(plus_int->String(), "1024");
}

TEST(QuantityTest, ArithmeticPastTheBoundFails) {
  StatusOr<Quantity> big = Quantity::Parse("9e27");
  ASSERT_TRUE(big.ok());
  StatusOr<Quantity> sum = big->Add(*big);
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(Quantity::Parse("1e40").status().code(), StatusCode::kOutOfRange);
}

TEST(QuantityTest, IntegerConversion) {
  EXPECT_EQ(Quantity::Parse("1Ki")->AsInt64(), 1024);
  EXPECT_EQ(Quantity::Parse("-3")->AsInt64(), -3);
  EXPECT_EQ(Quantity::Parse("1500m")->AsInt64(), std::nullopt);
  EXPECT_FALSE(Quantity::Parse("1500m")->IsInteger());
  EXPECT_TRUE(Quantity::Parse("2k")->IsInteger());
  EXPECT_EQ(Quantity::Parse("9223372036854775807")->AsInt64(), INT64_MAX);
  EXPECT_EQ(Quantity::Parse("9223372036854775808")->AsInt64(), std::nullopt);
  EXPECT_FALSE(Quantity::Parse("10E")->IsInteger());  // 1e19 overflows int64
}

TEST(QuantityTest, SignAndApproximateDouble) {
  EXPECT_EQ(Quantity::Parse("-5m")->Sign(), -1);
  EXPECT_EQ(Quantity::Parse("0")->Sign(), 0);
  EXPECT_EQ(Quantity::Parse("5m")->Sign(), 1);
  EXPECT_DOUBLE_EQ(Quantity::Parse("1.5")->AsApproximateDouble(), 1.5);
  EXPECT_DOUBLE_EQ(Quantity::Parse("1Ki")->AsApproximateDouble(), 1024.0);
}

}  // namespace
}  // namespace draguard
