// Evaluating list-typed attributes and includes() as the 1.36 scheduler does
// (dynamic-resource-allocation v0.36.0 cel/compile.go: getAttributeValue, includesFunc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "policy/cel/dra/device.h"
#include "policy/cel/parser.h"

namespace draguard::cel {
namespace {

DeviceData ListDevice() {
  DeviceData d;
  d.driver = "dra.example.com";
  d.attributes["model"].string_value = "H100";
  d.attributes["cores"].int_values = std::vector<int64_t>{1, 2, 3};
  d.attributes["flags"].bool_values = std::vector<bool>{true};
  d.attributes["names"].string_values = std::vector<std::string>{"fish", "cat"};
  d.attributes["versions"].version_values = std::vector<std::string>{"1.0.0", "2.1.0"};
  std::vector<int64_t> many;
  for (int64_t i = 0; i < 49; ++i) many.push_back(i);
  d.attributes["many"].int_values = many;
  return d;
}

struct IncludesCase {
  std::string expr;
  bool matched = false;
  std::string error;  // expected Status message; empty: no error
};

void PrintTo(const IncludesCase& c, std::ostream* os) { *os << c.expr; }

StatusOr<bool> EvaluateOn(const std::string& expr, const DeviceData& data, bool lists) {
  StatusOr<PreparedDevice> device = PreparedDevice::Prepare(data, {.list_type_attributes = lists});
  if (!device.ok()) return device.status();
  ParseResult parsed = Parse(expr);
  if (!parsed.ok()) return InvalidArgumentError("parse");
  StatusOr<Program> program = Plan(*parsed.ast);
  if (!program.ok()) return program.status();
  EvalState state;
  return EvaluateSelector(*program, *device, state);
}

class IncludesTest : public testing::TestWithParam<IncludesCase> {};

TEST_P(IncludesTest, EvaluatesLikeTheScheduler) {
  const IncludesCase& c = GetParam();
  StatusOr<bool> r = EvaluateOn(c.expr, ListDevice(), /*lists=*/true);
  if (!c.error.empty()) {
    ASSERT_FALSE(r.ok()) << *r;
    EXPECT_EQ(r.status().message(), c.error);
    return;
  }
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, c.matched);
}

constexpr char kAttrs[] = "device.attributes['dra.example.com'].";

std::string A(const std::string& tail) { return kAttrs + tail; }

INSTANTIATE_TEST_SUITE_P(
    Cases, IncludesTest,
    testing::Values(
        IncludesCase{A("cores.includes(2)"), true},
        IncludesCase{A("cores.includes(4)"), false},
        // cel-go equality: numbers compare across types.
        IncludesCase{A("cores.includes(2u)"), true},
        IncludesCase{A("cores.includes(2.0)"), true},
        IncludesCase{A("cores.includes('2')"), false},
        IncludesCase{A("flags.includes(true)"), true},
        IncludesCase{A("names.includes('cat')"), true},
        IncludesCase{A("versions.includes(semver('2.1.0'))"), true},
        // Semver against a string: no equality, so not included (not an error).
        IncludesCase{A("versions.includes('2.1.0')"), false},
        // A scalar target is compared whole: not a substring test.
        IncludesCase{A("model.includes('H100')"), true},
        IncludesCase{A("model.includes('H1')"), false},
        IncludesCase{A("cores.exists(c, c > 2)"), true},
        IncludesCase{A("names == 'fish'"), false},
        IncludesCase{"size(" + A("names") + ") == 2", true},
        // The 49th element is beyond the 48 includes() may scan.
        IncludesCase{A("many.includes(47)"), true},
        IncludesCase{A("many.includes(48)"), false,
                     "CEL runtime error: 'includes' function cannot be applied to lists longer "
                     "than 48 values"}),
    [](const auto& p) { return "Case" + std::to_string(p.index); });

// Without DRAListTypeAttributes the scheduler cannot build the device: every selector fails,
// even one that never reads the list (docs/k8s-releases.md C.9 C7).
TEST(ListAttributeDeviceTest, ListAttributeWithoutGateFailsEverySelector) {
  StatusOr<bool> r = EvaluateOn("true", ListDevice(), /*lists=*/false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "attribute cores: unsupported attribute value");
}

TEST(ListAttributeDeviceTest, BadVersionInListIsADeviceError) {
  DeviceData d;
  d.driver = "dra.example.com";
  d.attributes["v"].version_values = std::vector<std::string>{"1.0.0", "one"};
  StatusOr<bool> r = EvaluateOn("true", d, /*lists=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("attribute v: parse semantic version"), std::string::npos);
}

}  // namespace
}  // namespace draguard::cel
