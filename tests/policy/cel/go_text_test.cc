// Go-compatible renderings (policy/cel/internal/go_text.h) against Go's documented output.
#include "policy/cel/internal/go_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace draguard::cel::internal {
namespace {

struct QuoteCase {
  std::string in;
  std::string want;
};

class GoQuoteTest : public testing::TestWithParam<QuoteCase> {};

TEST_P(GoQuoteTest, MatchesStrconvQuote) { EXPECT_EQ(GoQuote(GetParam().in), GetParam().want); }

INSTANTIATE_TEST_SUITE_P(
    Strconv, GoQuoteTest,
    testing::Values(QuoteCase{"abc", "\"abc\""}, QuoteCase{"a\"b\\c", "\"a\\\"b\\\\c\""},
                    QuoteCase{"\a\b\f\n\r\t\v", "\"\\a\\b\\f\\n\\r\\t\\v\""},
                    QuoteCase{std::string("\x00\x1f\x7f", 3), "\"\\x00\\x1f\\x7f\""},
                    QuoteCase{"héllo ☺", "\"héllo ☺\""},
                    QuoteCase{"\u00a0\u200b\u2028\ufeff", "\"\\u00a0\\u200b\\u2028\\ufeff\""},
                    QuoteCase{"\U000f0000", "\"\\U000f0000\""},
                    QuoteCase{"\xff", "\"\\xff\""}));

struct FloatCase {
  double in;
  std::string want;
};

class GoShortestTest : public testing::TestWithParam<FloatCase> {};

TEST_P(GoShortestTest, MatchesFormatFloatG) {
  EXPECT_EQ(GoFormatShortest(GetParam().in), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Strconv, GoShortestTest,
    testing::Values(FloatCase{0.0, "0"}, FloatCase{-0.0, "-0"}, FloatCase{1.0, "1"},
                    FloatCase{56.8, "56.8"}, FloatCase{0.1, "0.1"}, FloatCase{1e-4, "0.0001"},
                    FloatCase{1e-5, "1e-05"}, FloatCase{123456.0, "123456"},
                    FloatCase{1234567.0, "1.234567e+06"}, FloatCase{1e21, "1e+21"},
                    FloatCase{1e100, "1e+100"}, FloatCase{5e-324, "5e-324"},
                    FloatCase{-2.5, "-2.5"}, FloatCase{HUGE_VAL, "+Inf"},
                    FloatCase{-HUGE_VAL, "-Inf"}, FloatCase{std::nan(""), "NaN"}));

TEST(GoTextTest, FixedAndEnUs) {
  EXPECT_EQ(GoFormatFixed(3.14, 6), "3.140000");
  EXPECT_EQ(GoFormatFixed(-HUGE_VAL, 6), "-Inf");
  EXPECT_EQ(EnUsFormatFixed(999.9996, 3), "1,000.000");
  EXPECT_EQ(EnUsFormatFixed(0.5, 0), "0");  // exact half rounds to even
  EXPECT_EQ(EnUsFormatFixed(-0.0, 1), "0.0");
  EXPECT_EQ(EnUsFormatScientific(0.0, 0), "0.000000\u202F\u00D7\u202F10\u2070\u2070");
  EXPECT_EQ(EnUsFormatScientific(9.9999999, 0), "1.000000\u202F\u00D7\u202F10\u2070\u00B9");
}

}  // namespace
}  // namespace draguard::cel::internal
