// The memory estimates that bound the webhook's caches (issue 17 item 0) hold what is really
// allocated: SelectorCompileResult::ApproximateBytes and Program::ApproximateBytes are at
// least the measured heap of the result, and not wildly more (a cache that overestimates
// tenfold holds a tenth of what it could). Measured with the allocator's own count
// (tests/policy/common/allocated_bytes.h), in this binary of its own.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/cel/compiler.h"
#include "policy/cel/program.h"
#include "tests/policy/common/allocated_bytes.h"

namespace draguard::cel {
namespace {

using ::draguard::testing::MeasureHeld;

std::string Repeat(const std::string& part, const std::string& separator, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? separator : "") + part + std::to_string(i);
  return out;
}

struct EstimateCase {
  const char* name;
  std::string expression;
};

std::vector<EstimateCase> Cases() {
  return {
      {"Driver", R"(device.driver == "gpu.example.com")"},
      {"AttributeAndCapacity",
       R"(device.attributes["gpu.example.com"].model == "a100" && )"
       R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)"},
      {"LongString", "device.driver == \"" + std::string(9000, 'x') + "\""},
      {"IntList", "1 in [" + Repeat("", ",", 1500) + "]"},
      {"StringList", "device.driver in [" + Repeat("\"d", "\",", 600) + "\"]"},
      {"ManyTerms", Repeat("device.attributes[\"gpu.example.com\"].a", " == 1 || ", 150) + " == 1"},
      {"Macros", R"([1, 2, 3].all(x, [4, 5].exists(y, x + y > 2)) && )"
                 R"(["a"].map(s, s + "b").size() == 1)"},
      {"Regex", R"(device.driver.matches("^(gpu|tpu)[0-9]{1,3}\\.example\\.com$"))"},
      {"LargeRegex", R"(device.driver.matches("[a-z]{200}[0-9]{200}"))"},
      {"SyntaxError", "device.driver == == " + std::string(5000, 'y')},
      {"TypeErrors", Repeat("device.nosuch", " && ", 200)},
  };
}

class MemoryEstimateTest : public ::testing::TestWithParam<EstimateCase> {
 protected:
  static void SetUpTestSuite() {
    // The first compile and plan build the environment's and registry's tables.
    SelectorCompileResult warm = CompileSelector("device.driver.matches(\"a\")", EnvOptions{});
    ASSERT_TRUE(Plan(*warm.ast).ok());
  }
};

void ExpectCovers(size_t estimate, size_t measured, const char* what) {
  EXPECT_GE(estimate, measured) << what << ": the estimate is below the measured heap";
  EXPECT_LE(estimate, 4 * measured + 16 * 1024)
      << what << ": the estimate is far above the measured heap (" << measured << ")";
}

TEST_P(MemoryEstimateTest, CompileResultEstimateCoversItsHeap) {
  const std::string& expression = GetParam().expression;
  size_t estimate = 0;
  const size_t measured = MeasureHeld([&] {
    auto r = std::make_unique<SelectorCompileResult>(CompileSelector(expression, EnvOptions{}));
    estimate = r->ApproximateBytes();
    return r;
  });
  ExpectCovers(estimate, measured, "compile result");
}

TEST_P(MemoryEstimateTest, ProgramEstimateCoversItsHeap) {
  const SelectorCompileResult compiled = CompileSelector(GetParam().expression, EnvOptions{});
  if (compiled.ast == nullptr) GTEST_SKIP() << "does not parse: nothing to plan";
  size_t estimate = 0;
  const size_t measured = MeasureHeld([&] {
    StatusOr<Program> program = Plan(*compiled.ast);
    EXPECT_TRUE(program.ok()) << program.status();
    auto held = std::make_unique<Program>(std::move(program).value());
    estimate = held->ApproximateBytes();
    return held;
  });
  ExpectCovers(estimate, measured, "program");
}

INSTANTIATE_TEST_SUITE_P(Expressions, MemoryEstimateTest, ::testing::ValuesIn(Cases()),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace draguard::cel
