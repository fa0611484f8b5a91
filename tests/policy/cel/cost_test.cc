// Calibration points: Kubernetes' own worst-case estimates (the `expectCost` cases of
// dynamic-resource-allocation cel/compile_test.go).
#include "policy/cel/cost.h"

#include <gtest/gtest.h>

#include <limits>
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

// Every function and overload the coster prices by name or by overload id (the rest cost 1),
// with the estimate it gave when names were looked up in hash maps. Fails if a name is
// missed by the classification (each case then costs its unclassified estimate).
struct PricedCall {
  std::string expr;
  uint64_t min;
  uint64_t max;
};

constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

class ClassifiedCallCostTest : public testing::TestWithParam<PricedCall> {};

TEST_P(ClassifiedCallCostTest, Runner) {
  const PricedCall& c = GetParam();
  SelectorCompileResult r = CompileSelector(c.expr, EnvOptions{});
  ASSERT_NE(r.ast, nullptr) << c.expr;
  for (const Diagnostic& d : r.issues) {
    ASSERT_EQ(d.code, "cel.cost-exceeded") << c.expr << ": " << d.message;
  }
  EXPECT_EQ(r.cost.min, c.min) << c.expr;
  EXPECT_EQ(r.cost.max, c.max) << c.expr;
}

INSTANTIATE_TEST_SUITE_P(
    ByName, ClassifiedCallCostTest,
    testing::Values(
        PricedCall{R"(device.attributes["d.io"].s.lowerAscii() == "a")", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.upperAscii() == "a")", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.substring(1) == "a")", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.trim() == "a")", 5u, 12u},
        PricedCall{R"(isURL(device.attributes["d.io"].s))", 4u, 11u},
        PricedCall{R"(url(device.attributes["d.io"].s).getScheme() == "a")", 6u, 13u},
        PricedCall{R"(isQuantity(device.attributes["d.io"].s))", 4u, 11u},
        PricedCall{R"(quantity(device.attributes["d.io"].s).isInteger())", 5u, 12u},
        PricedCall{R"(isSemver(device.attributes["d.io"].s))", 4u, 11u},
        PricedCall{R"(semver(device.attributes["d.io"].s).major() == 1)", 6u, 13u},
        PricedCall{R"(isCIDR(device.attributes["d.io"].s))", 4u, 11u},
        PricedCall{R"(cidr(device.attributes["d.io"].s).prefixLength() == 1)", 6u, 13u},
        PricedCall{R"(isIP(device.attributes["d.io"].s))", 4u, 11u},
        PricedCall{R"(ip(device.attributes["d.io"].s).family() == 4)", 6u, 13u},
        PricedCall{R"(device.attributes["d.io"].s.replace("a", "b") == "a")", 5u, 18u},
        PricedCall{R"(device.attributes["d.io"].s.split(",").size() == 1)", 6u, 19u},
        PricedCall{R"(device.attributes["d.io"].s.find("a+") == "a")", 6u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.findAll("a+").size() == 1)", 7u, 13u},
        PricedCall{R"(device.attributes["d.io"].s.split(",").isSorted())", 4u, kUnbounded},
        PricedCall{R"([1, 2].sum() == 3)", 13u, 13u},
        PricedCall{R"([1, 2].max() == 3)", 13u, 13u},
        PricedCall{R"([1, 2].min() == 3)", 13u, 13u},
        PricedCall{R"(device.attributes["d.io"].s.indexOf("a") == 1)", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.lastIndexOf("a") == 1)", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.split(",").indexOf("a") == 1)", 5u, kUnbounded},
        PricedCall{R"(device.attributes["d.io"].s.split(",").lastIndexOf("a") == 1)",
                   5u, kUnbounded},
        PricedCall{R"(format.dns1123Label().validate(device.attributes["d.io"].s).hasValue())",
                   6u, 230u},
        PricedCall{R"(device.attributes["d.io"].s.startsWith("a"))", 5u, 5u},
        PricedCall{R"(device.attributes["d.io"].s.endsWith("a"))", 5u, 5u},
        PricedCall{R"(device.attributes["d.io"].s.matches("a+"))", 5u, 11u},
        PricedCall{R"(device.attributes["d.io"].s.contains("a"))", 4u, 11u},
        PricedCall{R"(device.attributes["d.io"].s in ["a", "b"])", 16u, 16u},
        PricedCall{R"(device.attributes["d.io"].s == "a" || device.attributes["d.io"].s == "b")",
                   5u, 10u},
        PricedCall{R"((device.attributes["d.io"].s == "a" ? "x" : )"
                   R"(device.attributes["d.io"].s) == "b")",
                   6u, 10u},
        PricedCall{R"(string(bytes(device.attributes["d.io"].s)) == "a")", 5u, 38u},
        PricedCall{R"(bytes(device.attributes["d.io"].s) == b"a")", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s + "x" == "a")", 6u, 12u},
        PricedCall{R"(bytes(device.attributes["d.io"].s) + b"x" == b"a")", 6u, 38u},
        PricedCall{R"((device.attributes["d.io"].s.split(",") + ["x"]).size() == 1)", 17u, 30u},
        PricedCall{R"(device.attributes["d.io"].s != "a")", 5u, 5u},
        PricedCall{R"(device.attributes["d.io"].s < "a")", 5u, 5u},
        PricedCall{R"(device.attributes["d.io"].s <= "a")", 5u, 5u},
        PricedCall{R"(device.attributes["d.io"].s > "a")", 5u, 5u},
        PricedCall{R"(device.attributes["d.io"].s >= "a")", 5u, 5u},
        PricedCall{R"(bytes(device.attributes["d.io"].s) < b"a")", 5u, 12u},
        PricedCall{R"(bytes(device.attributes["d.io"].s) <= b"a")", 5u, 12u},
        PricedCall{R"(bytes(device.attributes["d.io"].s) > b"a")", 5u, 12u},
        PricedCall{R"(bytes(device.attributes["d.io"].s) >= b"a")", 5u, 12u},
        PricedCall{R"(device.attributes["d.io"].s.split(",")[0] == "a")", 6u, 19u},
        PricedCall{R"(device.attributes["d.io"].s == "a")", 5u, 5u}));

}  // namespace
}  // namespace draguard::cel
