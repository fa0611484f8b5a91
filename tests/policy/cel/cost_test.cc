// Calibration points: Kubernetes' own worst-case estimates (the `expectCost` cases of
// dynamic-resource-allocation cel/compile_test.go).
#include "policy/cel/cost.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/checker.h"
#include "policy/cel/compiler.h"
#include "policy/cel/parser.h"

namespace draguard::cel {
namespace {

struct CostCase {
  std::string name;
  std::string expr;
  uint64_t cost;
};

class CostCalibrationTest : public testing::TestWithParam<CostCase> {};

TEST_P(CostCalibrationTest, Runner) {
  const CostCase& c = GetParam();
  SelectorCompileResult r = CompileSelector(c.expr, EnvOptions{});
  ASSERT_NE(r.ast, nullptr) << c.expr;
  for (const Diagnostic& d : r.issues) {
    ASSERT_EQ(d.code, "cel.cost-exceeded") << c.expr << ": " << d.message;
  }
  EXPECT_EQ(r.cost.max, c.cost) << c.expr;
}

// The 15-character domain is "dra.example.com"; the 8-character string is "abcdefgh".
const char kSevenAll[] =
    "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, "
    "[1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, "
    "[1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, "
    "[1,2,3,4,5,6,7,8,9,10].all(g, a + b > 0)))))))";

INSTANTIATE_TEST_SUITE_P(
    Kubernetes, CostCalibrationTest,
    testing::Values(
        CostCase{"EmptyDriver", "device.driver == \"\"", 2},
        CostCase{"DriverCompare", "device.driver == \"dra.example.com\"", 4},
        CostCase{"DomainIn", "\"dra.example.com\" in device.attributes", 3},
        CostCase{"BoolAttribute", "device.attributes[\"dra.example.com\"].ecc", 4},
        CostCase{"AttributeCompare", "device.attributes[\"dra.example.com\"].count > 0", 5},
        CostCase{"Semver",
                 "device.attributes[\"dra.example.com\"].version.isGreaterThan("
                 "semver(\"0.0.1\"))",
                 6},
        CostCase{"Quantity",
                 "device.capacity[\"dra.example.com\"].memory.isGreaterThan(quantity(\"1Ki\"))",
                 6},
        CostCase{"GuardedQuantity",
                 "\"memory\" in device.capacity[\"dra.example.com\"] && "
                 "device.capacity[\"dra.example.com\"].memory.isGreaterThan(quantity(\"1Ki\"))",
                 10},
        CostCase{"Bind", "cel.bind(x, device.attributes[\"dra.example.com\"], x.ecc)", 15},
        CostCase{"ExistsOneDomains",
                 "device.attributes.exists_one(x, x == \"dra.example.com\")", 164},
        CostCase{"ExistsOneIds",
                 "device.attributes[\"dra.example.com\"].exists_one(x, x == \"abcdefgh\")", 133},
        CostCase{"Split",
                 "device.attributes[\"dra.example.com\"].model.split(\"example\").size() >= 2",
                 19},
        CostCase{"Matches",
                 "device.attributes[\"dra.example.com\"].model.matches(\"[^a]?sym\")", 18},
        CostCase{"SevenNestedAll", kSevenAll, 85555551},
        // Issue 19 item 24: cel-go v0.26 sizes an index into a list or map literal and an
        // iteration variable over a literal list by the literal's elements, and the results of
        // bytes(string) and string(bytes); these are cheap, not cel.cost-exceeded.
        CostCase{"IndexListLiteral", "[\"ab\"][0] + \"c\" == \"abc\"", 13},
        CostCase{"IndexMapLiteral", "{\"k\": \"ab\"}[\"k\"] + \"c\" == \"abc\"", 33},
        CostCase{"MapOverLiteral", "[\"a\", \"b\"].map(x, x + \"c\") == [\"ac\", \"bc\"]", 60},
        CostCase{"BytesOfString", "b\"a\" + bytes(\"b\") == b\"ab\"", 3},
        CostCase{"StringOfBytes", "string(b\"ab\") + \"c\" == \"abc\"", 3}),
    [](const auto& p) { return p.param.name; });

struct RangeCase {
  std::string name;
  std::string expr;
  CostEstimate cost;
};

class CostRangeTest : public testing::TestWithParam<RangeCase> {};

// Estimates of expressions of any result type (Check, then EstimateCost, DRA sizes).
TEST_P(CostRangeTest, Runner) {
  const RangeCase& c = GetParam();
  ParseResult parsed = Parse(c.expr);
  ASSERT_TRUE(parsed.ok()) << c.expr;
  CheckResult checked = Check(*parsed.ast, *Environment::ForDraSelector(EnvOptions{}));
  ASSERT_TRUE(checked.ok()) << c.expr << ": " << checked.issues.items().front().message;
  CostOptions options;
  options.sizes = &DraSizeEstimator();
  const CostEstimate got = EstimateCost(*parsed.ast, checked.checked, options);
  EXPECT_EQ(got.min, c.cost.min) << c.expr;
  EXPECT_EQ(got.max, c.cost.max) << c.expr;
}

// format(): cel-go's estimate is the format string's traversal plus the arguments (the
// first three are cel-go's own test expectations). validate(): Kubernetes' estimator,
// ceil(ceil(size × 0.1) × 128 × 0.25); format equality ceil([1, 64] × 0.1).
INSTANTIATE_TEST_SUITE_P(
    Formats, CostRangeTest,
    testing::Values(
        RangeCase{"NoSubstitution", "'no substitution'.format([])", {12, 12}},
        RangeCase{"OneSubstitution", "'str is %s and some more'.format(['filler'])", {13, 13}},
        RangeCase{"ManySubstitutions",
                  "'%d %d %d, %s %s %s, %d %d %d, %s %s %s'.format([1, 2, 3, 'A', 'B', 'C', 4, "
                  "5, 6, 'D', 'E', 'F'])",
                  {14, 14}},
        RangeCase{"Validate", "format.dns1123Label().validate('my-label-name')", {65, 65}},
        // format.uuid() 1, the attribute lookup 4, validate ceil(ceil([0, 64] × 0.1) × 32).
        RangeCase{"ValidateAttribute",
                  "format.uuid().validate(device.attributes['d'].id)",
                  {1 + 4 + 0, 1 + 4 + 7 * 32}},
        RangeCase{"Named", "format.named('uuid')", {1, 1}},
        RangeCase{"FormatEquality", "format.uuid() == format.uuid()", {3, 9}}),
    [](const auto& p) { return p.param.name; });

TEST(CostTest, SevenNestedAllIsRejected) {
  SelectorCompileResult r = CompileSelector(kSevenAll, EnvOptions{});
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues.items()[0].code, "cel.cost-exceeded");
}

TEST(CostTest, UnboundedStringsSaturate) {
  // A string of unknown size (no DRA bound) compared with one of unknown size: unbounded.
  SelectorCompileResult r =
      CompileSelector("device.attributes[\"d\"].a.b == device.attributes[\"d\"].c.d",
                      EnvOptions{});
  ASSERT_NE(r.ast, nullptr);
  EXPECT_GT(r.cost.max, kMaxSelectorCost);
}

TEST(CostTest, DraSizeEstimatorBounds) {
  const SizeEstimator& s = DraSizeEstimator();
  auto max_of = [&s](std::vector<std::string_view> path) { return s.EstimateSize(path)->max; };
  EXPECT_EQ(max_of({"device", "driver"}), 63u);
  EXPECT_EQ(max_of({"device", "attributes"}), 32u);
  EXPECT_EQ(max_of({"device", "attributes", "@keys"}), 63u);
  EXPECT_EQ(max_of({"device", "attributes", "@values", "@keys"}), 32u);
  EXPECT_EQ(max_of({"device", "attributes", "@values", "model"}), 64u);
  const std::vector<std::string_view> other = {"other"};
  EXPECT_FALSE(s.EstimateSize(other).has_value());
}

// A string of unbounded size stays unbounded: concatenating to it is over the limit.
TEST(CostTest, StringOfIntStaysUnbounded) {
  SelectorCompileResult r = CompileSelector("\"a\" + string(1) == \"a1\"", EnvOptions{});
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues.items()[0].code, "cel.cost-exceeded");
}

}  // namespace
}  // namespace draguard::cel
