// EvaluateDirect against the planned program: every expression is parsed, planned (general
// evaluator alone) and, when DirectlyEvaluable, decided from its tree on the same devices;
// wherever the tree decides, the program must give that boolean. Expressions come from a
// table and from a seeded generator that mixes types on purpose, over devices with
// attributes missing, of other types and too long, so that missing keys, type errors and
// cross-type comparisons (where the tree must bail) are all exercised.
#include "policy/cel/direct_predicate.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "policy/cel/dra/device.h"
#include "policy/cel/parser.h"
#include "policy/cel/program.h"

namespace draguard::cel {
namespace {

const std::string kTooLong(DirectLimits::kMaxText + 1, 'x');

std::vector<PreparedDevice> DirectTestDevices() {
  std::vector<DeviceData> data(4);
  data[0].driver = "gpu.example.com";
  data[0].attributes["model"].string_value = "A100";
  data[0].attributes["index"].int_value = 3;
  data[0].attributes["driverVersion"].version_value = "1.2.3";
  data[0].attributes["dra.net/rdma"].bool_value = true;
  data[0].capacity["memory"] = "80Gi";
  data[1].driver = "dra.net";
  data[1].attributes["rdma"].bool_value = false;
  data[1].attributes["model"].int_value = 100;  // another type under the same name
  data[1].attributes["index"].string_value = "3";
  data[2].driver = "gpu.example.com";  // no attributes at all
  data[3].driver = "gpu.example.com";
  data[3].attributes["model"].string_value = kTooLong;  // past the subset's string bound
  std::vector<PreparedDevice> out;
  for (const DeviceData& d : data) out.push_back(*PreparedDevice::Prepare(d));
  return out;
}

// Returns 1 when the tree decided (and agreed with the program), 0 when it bailed.
int ExpectDirectAgrees(const std::string& expr, const PreparedDevice& device) {
  ParseResult parsed = Parse(expr);
  if (!parsed.ok()) return 0;
  StatusOr<Program> program = Plan(*parsed.ast, RuntimeOptions{.fast_path = false});
  const bool evaluable = DirectlyEvaluable(parsed.ast->root(), "device");
  // Nothing in the subset fails to plan: a tree decided is never a planning error hidden.
  if (!program.ok()) {
    EXPECT_FALSE(evaluable) << expr;
    return 0;
  }
  if (!evaluable) return 0;
  const DirectOutcome direct = EvaluateDirect(parsed.ast->root(), "device", device.device());
  if (direct == DirectOutcome::kBail) return 0;
  EvalState state;
  Value want = program->Evaluate("device", device.device(), state);
  EXPECT_TRUE(want.is_bool()) << expr << ": the tree decided " << (direct == DirectOutcome::kTrue)
                              << ", the program gave " << want.DebugString();
  if (want.is_bool()) {
    EXPECT_EQ(direct == DirectOutcome::kTrue, want.bool_value()) << expr;
  }
  return 1;
}

TEST(DirectPredicateTest, TableAgreesWithPlannedProgram) {
  const std::vector<std::string> exprs = {
      R"(device.driver == "gpu.example.com")",
      R"("gpu.example.com" != device.driver)",
      R"(device.attributes["gpu.example.com"].model == "A100")",
      R"(device.attributes["gpu.example.com"]["model"] != "A100")",
      R"(device.attributes["gpu.example.com"].model.startsWith("A1") && device.attributes["gpu.example.com"].model != "x-1")",
      R"(device.attributes["gpu.example.com"].model.startsWith("A1") && device.attributes["gpu.example.com"].model == "x-1")",
      R"(device.attributes["gpu.example.com"].model.endsWith("00") || device.driver == "dra.net")",
      R"(device.attributes["gpu.example.com"].model.contains("10"))",
      R"(device.attributes["gpu.example.com"].index == 3)",
      R"(device.attributes["gpu.example.com"].index == "3")",
      R"(device.attributes["gpu.example.com"].index == 3u)",
      R"(device.attributes["dra.net"].rdma)",
      R"(!device.attributes["dra.net"].rdma)",
      R"(device.attributes["dra.net"].rdma == false)",
      R"(device.attributes["dra.net"].rdma != true)",
      R"(true != false)",
      R"(device.attributes["gpu.example.com"].index != 3)",
      R"(device.attributes["gpu.example.com"].index != 4 && device.attributes["gpu.example.com"].model.endsWith("A"))",
      R"(device.attributes["gpu.example.com"].model.contains("A10") || device.attributes["gpu.example.com"].model.startsWith("00"))",
      R"(device.attributes["nowhere.io"].model == "A100")",
      R"(device.attributes["gpu.example.com"].missing == "x" || true)",
      R"(false && device.attributes["gpu.example.com"].missing == "x")",
      R"(device.attributes["gpu.example.com"].model.startsWith(""))",
      R"(device.attributes["gpu.example.com"].driverVersion == "1.2.3")",
      R"(device.driver.model == "x")",
      R"(device == "x")",
      R"(device.driver)",
      R"(true)",
      R"("a" == "a")",
      R"(device.attributes["gpu.example.com"].model == ")" + kTooLong + R"(")",
      // Outside the subset: never decided from the tree, some not even plannable.
      R"(int("x") == 1 || device.driver == "gpu.example.com")",
      R"(device.driver.matches("^gpu") && device.driver == "dra.net")",
      R"(device.attributes["gpu.example.com"].index > 2)",
      R"(has(device.attributes["gpu.example.com"].model))",
      R"(other.driver == "x")",
  };
  int decided = 0;
  for (const std::string& expr : exprs) {
    for (const PreparedDevice& d : DirectTestDevices()) decided += ExpectDirectAgrees(expr, d);
  }
  EXPECT_GT(decided, 25);  // the tree must decide most, or the comparison proves nothing
}

TEST(DirectPredicateTest, SubsetLeavesOutWhatMayFailToPlan) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {R"(device.driver == "x" && device.attributes["a"].b.startsWith("c"))", true},
      {R"(device.driver == "x" || int("x") == 1)", false},
      {R"(device.driver.matches("("))", false},
      {R"(device.driver == "x" && other == "y")", false},
      {R"(device.attributes[device.driver].b == "x")", false},
      {R"(device.driver == 1.5)", false},
      {R"(device.driver == ")" + kTooLong + R"(")", false},
      {R"(has(device.driver))", false},
  };
  for (const auto& [expr, want] : cases) {
    ParseResult parsed = Parse(expr);
    ASSERT_TRUE(parsed.ok()) << expr;
    EXPECT_EQ(DirectlyEvaluable(parsed.ast->root(), "device"), want) << expr;
  }
  std::string many = R"(device.driver == "x")";
  for (size_t i = 0; i < DirectLimits::kMaxNodes; ++i) many += R"( || device.driver == "x")";
  ParseResult parsed = Parse(many);
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(DirectlyEvaluable(parsed.ast->root(), "device"));
}

// A random expression over the devices' names, types mixed on purpose.
class DirectGenerator {
 public:
  explicit DirectGenerator(uint32_t seed) : rng_(seed) {}

  std::string Bool(int depth) {
    switch (Pick(depth > 0 ? 7 : 4)) {
      case 0: return Operand() + " == " + Operand();
      case 1: return Operand() + " != " + Operand();
      case 2: return Chain() + Pick({".contains(\"10\")", ".startsWith(\"A\")", ".endsWith(\"0\")",
                                     ".contains(\"\")", ".startsWith(3)"});
      case 3: return Pick({"true", "false", "device.attributes[\"dra.net\"].rdma", Chain()});
      case 4: return "(" + Bool(depth - 1) + " && " + Bool(depth - 1) + ")";
      case 5: return "(" + Bool(depth - 1) + " || " + Bool(depth - 1) + ")";
      default: return "!(" + Bool(depth - 1) + ")";
    }
  }

 private:
  std::string Operand() {
    if (Pick(3) == 0) {
      return Pick({"\"A100\"", "\"gpu.example.com\"", "\"\"", "\"3\"", "3", "100", "true",
                   "false", "3u", "null"});
    }
    return Chain();
  }

  std::string Chain() {
    if (Pick(6) == 0) return "device.driver";
    std::string c = Pick({"device.attributes", "device.capacity", "device"});
    c += "[\"" + Pick({"gpu.example.com", "gpu.example.com", "dra.net", "nowhere.io"}) + "\"]";
    const std::string name = Pick({"model", "index", "rdma", "driverVersion", "memory", "x"});
    return c + (Pick(2) == 0 ? "." + name : "[\"" + name + "\"]");
  }

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string Pick(std::initializer_list<std::string> options) {
    return *(options.begin() + Pick(static_cast<int>(options.size())));
  }

  std::mt19937 rng_;
};

TEST(DirectPredicateTest, RandomExpressionsAgreeWithPlannedProgram) {
  const std::vector<PreparedDevice> devices = DirectTestDevices();
  DirectGenerator gen(20261128);
  int decided = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string expr = gen.Bool(3);
    for (const PreparedDevice& d : devices) decided += ExpectDirectAgrees(expr, d);
  }
  EXPECT_GT(decided, 1500);
}

}  // namespace
}  // namespace draguard::cel
