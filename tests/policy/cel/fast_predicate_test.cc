// FastPredicate against the general evaluator: every expression is planned twice, with
// RuntimeOptions::fast_path on and off, and evaluated on the same devices; the result
// (value, or error text) and the actual cost must be identical. Expressions come from a
// table of the shapes selectors use and from a seeded random generator that mixes types
// freely (the expressions are not type-checked), so that missing keys, type errors,
// cross-type equality and the defaulting maps are all exercised.
#include "policy/cel/fast_predicate.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "policy/cel/dra/device.h"
#include "policy/cel/parser.h"
#include "policy/cel/program.h"

namespace draguard::cel {
namespace {

constexpr std::string_view kLongDomain =
    "a-domain-name-long-enough-that-its-joined-path-passes-64-bytes.example.com";
constexpr const char* kLongText =
    "a description of more than sixty-four bytes, so that comparisons and contains() take "
    "their general route";

struct Planned {
  Program fast;
  Program general;
};

std::optional<Planned> PlanBoth(const std::string& expr) {
  ParseResult parsed = Parse(expr);
  if (!parsed.ok()) return std::nullopt;
  StatusOr<Program> fast = Plan(*parsed.ast, RuntimeOptions{});
  StatusOr<Program> general = Plan(*parsed.ast, RuntimeOptions{.fast_path = false});
  if (!fast.ok() || !general.ok()) return std::nullopt;
  return Planned{*std::move(fast), *std::move(general)};
}

std::string Describe(const Value& v) {
  return std::string(v.TypeName()) + ":" + (v.is_error() ? std::string(v.text()) : v.DebugString());
}

// Evaluates `p` both ways on `device`; returns whether the fast form decided.
bool ExpectSameResult(const std::string& expr, const Planned& p, const PreparedDevice& device) {
  const Value bound = device.device();
  EvalState fast_state, general_state;
  const bool decided = p.fast.TryFast("device", bound, fast_state).has_value();
  Value fast = p.fast.Evaluate("device", bound, fast_state);
  Value general = p.general.Evaluate("device", bound, general_state);
  EXPECT_EQ(Describe(fast), Describe(general)) << expr;
  EXPECT_EQ(fast_state.cost(), general_state.cost()) << expr;
  // The same through an Activation (FastPredicate::Evaluate rather than EvaluateOne).
  Activation activation;
  activation.Bind("device", bound);
  EvalState activation_state;
  Value through_activation = p.fast.Evaluate(activation, activation_state);
  EXPECT_EQ(Describe(through_activation), Describe(general)) << expr;
  EXPECT_EQ(activation_state.cost(), general_state.cost()) << expr;
  return decided;
}

std::vector<PreparedDevice> Devices() {
  std::vector<DeviceData> data(3);
  data[0].driver = "gpu.example.com";
  data[0].attributes["model"].string_value = "A100";
  data[0].attributes["index"].int_value = 3;
  data[0].attributes["driverVersion"].version_value = "1.2.3";
  data[0].attributes["dra.net/rdma"].bool_value = true;
  data[0].attributes["resource.kubernetes.io/pciBusID"].string_value = "0008:06:00.0";
  data[0].capacity["memory"] = "80Gi";
  // A path longer than the quick lookups take (internal::kMaxShortBytes), and a value too.
  data[0].attributes[std::string(kLongDomain) + "/model"].string_value = "long";
  data[0].attributes["description"].string_value = kLongText;
  data[1].driver = "dra.net";
  data[1].attributes["rdma"].bool_value = false;
  data[1].attributes["ifName"].string_value = "eth0";
  data[1].attributes["numaNode"].int_value = 0;
  data[1].capacity["dra.net/bandwidth"] = "100G";
  data[2].driver = "gpu.example.com";  // no attributes at all
  std::vector<PreparedDevice> out;
  for (const DeviceData& d : data) out.push_back(*PreparedDevice::Prepare(d));
  return out;
}

TEST(FastPredicateTest, TableMatchesGeneralEvaluator) {
  const std::vector<std::string> exprs = {
      R"(device.driver == "gpu.example.com")",
      R"(device.driver != "gpu.example.com")",
      R"("gpu.example.com" == device.driver)",
      R"(device.attributes["gpu.example.com"].model == "A100")",
      R"(device.attributes["gpu.example.com"]["model"] == "A100")",
      R"(device.attributes["gpu.example.com"].index == 3)",
      R"(device.attributes["gpu.example.com"].index == 3u)",
      R"(device.attributes["gpu.example.com"].index == 3.0)",
      R"(device.attributes["gpu.example.com"].index == "3")",
      R"(device.attributes["gpu.example.com"].index > 2 && device.attributes["gpu.example.com"].index <= 3)",
      R"(device.attributes["gpu.example.com"].model < "B")",
      R"(device.attributes["dra.net"].rdma)",
      R"(device.attributes["dra.net"].rdma == true || device.attributes["dra.net"].numaNode == 0)",
      R"(!device.attributes["dra.net"].rdma)",
      R"(has(device.attributes["gpu.example.com"].model))",
      R"(has(device.attributes["nowhere.example.com"].model))",
      R"(has(device.attributes.model))",
      R"(device.attributes["nowhere.example.com"].model == "A100")",
      R"(device.attributes["gpu.example.com"].missing == "x" || true)",
      R"(true || device.attributes["gpu.example.com"].missing == "x")",
      R"(false && device.attributes["gpu.example.com"].missing == "x")",
      R"(device.attributes["resource.kubernetes.io"].pciBusID in ["0001:00:00.0", "0008:06:00.0"])",
      R"(device.attributes["gpu.example.com"].index in [1, 3])",
      R"(device.attributes["gpu.example.com"].model in ["A100", 3])",
      R"(device.attributes["gpu.example.com"].index in ["3"])",
      R"(device.attributes["gpu.example.com"].model in {"A100": 1})",
      R"(device.attributes["gpu.example.com"].missing in ["A100"])",
      R"(device.attributes["gpu.example.com"].index < 5)",
      R"(device.attributes["gpu.example.com"].index >= 3u)",
      R"(device.attributes["gpu.example.com"].index < 5.5)",
      R"(device.attributes["gpu.example.com"].model < 5)",
      R"(device.attributes["gpu.example.com"].model.endsWith("00"))",
      R"(!device.attributes["gpu.example.com"].model.contains("A"))",
      R"(device.driver.contains(3))",
      R"(device.attributes["gpu.example.com"].missing.contains("x"))",
      R"(device.attributes["gpu.example.com"].model.size() == 4)",
      R"(device.attributes["gpu.example.com"].model.startsWith("A1"))",
      R"(device.attributes["gpu.example.com"].model.contains("10"))",
      R"(device.attributes["gpu.example.com"].model.matches("^A[0-9]+$"))",
      R"(device.attributes["gpu.example.com"].model.find("[0-9]+") == "100")",
      R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)",
      R"(device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("100Gi")))",
      R"(device.capacity["gpu.example.com"].memory == quantity("80Gi"))",
      R"(quantity("80Gi") == device.capacity["gpu.example.com"].memory)",
      R"(device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.0.0")))",
      R"(device.attributes["gpu.example.com"].driverVersion == semver("1.2.3"))",
      R"(device.attributes["gpu.example.com"].driverVersion.compareTo(semver("2.0.0")) < 0)",
      R"(device.attributes["gpu.example.com"].size() > 2)",
      R"(size(device.attributes) == 3)",
      R"(device.attributes == device.attributes)",
      R"(device.attributes["gpu.example.com"] == {})",
      R"(device.driver)",
      R"(device.attributes["gpu.example.com"].model)",
      R"(device)",
      R"(nodevice.driver == "x")",
      R"(device.driver.model == "x")",
      R"(device.attributes["gpu.example.com"].?model.orValue("") == "A100")",
      R"(device.attributes["gpu.example.com"].model == "A100" ? true : false)",
      R"(device.attributes["gpu.example.com"].all(k, k != ""))",
      R"(1 / 0 == 1 || device.driver == "gpu.example.com")",
      R"(device.attributes["gpu.example.com"].index + 1 == 4)",
      R"(device.attributes["gpu.example.com"].index * 9223372036854775807 > 0)",
      // Quick path lookups (path_index.h) and their fallbacks.
      R"(device.attributes["gpu.example.com"].model != "A100")",
      R"("A100" != device.attributes["gpu.example.com"].model)",
      R"(device.attributes["dra.net"].rdma != false)",
      R"(device.attributes["dra.net"].numaNode != 0)",
      R"(device.attributes["dra.net"].rdma == 1)",
      R"(device.driver != "dra.net" && device.attributes["dra.net"].rdma == true)",
      R"(has(device.driver))",
      R"(has(device.attributes))",
      R"(has(device.nothing))",
      R"(has(device.attributes["dra.net"].rdma))",
      R"(has(device.attributes["gpu.example.com"].model.x))",
      R"(device.attributes["gpu.example.com"].model.x == "A")",
      R"(device.attributes["gpu.example.com"]["model"]["x"]["y"] == "A")",
      R"(device.capacity["gpu.example.com"].memory == device.capacity["gpu.example.com"].memory)",
      R"(device.attributes[")" + std::string(kLongDomain) + R"("].model == "long")",
      R"(has(device.attributes[")" + std::string(kLongDomain) + R"("].model))",
      R"(device.attributes[")" + std::string(300, 'd') + R"("].model == "long")",
      R"(device.attributes["gpu.example.com"].description == ")" + std::string(kLongText) + R"(")",
      R"(device.attributes["gpu.example.com"].description.contains("general route"))",
      R"(device.attributes["gpu.example.com"].description.startsWith("a description"))",
      R"(device.attributes["gpu.example.com"].description.endsWith("route"))",
      R"(device.attributes["gpu.example.com"].description in [")" + std::string(kLongText) + R"("])",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.contains("06:00"))",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.contains(":0"))",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.contains("06:01"))",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.contains(""))",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.contains("0008:06:00.0+"))",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.endsWith(".0"))",
      R"(device.attributes["resource.kubernetes.io"].pciBusID.startsWith("0008:06:00.0"))",
      R"(device.attributes["gpu.example.com"].model.endsWith("A1"))",
      R"(device.attributes["gpu.example.com"].index.contains("3"))",
      R"(device.attributes["gpu.example.com"].index.startsWith("3"))",
      R"("A1".startsWith(device.attributes["gpu.example.com"].model))",
      R"(device.attributes["gpu.example.com"].model in ["B200", "A100"])",
      R"(device.attributes["gpu.example.com"].index in [2, 3])",
  };
  const std::vector<PreparedDevice> devices = Devices();
  int decided = 0;
  for (const std::string& expr : exprs) {
    std::optional<Planned> p = PlanBoth(expr);
    ASSERT_TRUE(p.has_value()) << expr;
    for (const PreparedDevice& d : devices) decided += ExpectSameResult(expr, *p, d);
  }
  // The fast form must actually decide most of these, or the comparison proves nothing.
  EXPECT_GT(decided, static_cast<int>(exprs.size()));
}

// A random expression over the devices' names, types mixed on purpose.
class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  std::string Bool(int depth) {
    switch (Pick(depth > 0 ? 9 : 6)) {
      case 0: return Operand() + " == " + Operand();
      case 1: return Operand() + " != " + Operand();
      case 2: return Operand() + Pick({" < ", " <= ", " > ", " >= "}) + Operand();
      case 3: return "has(" + Chain(true) + ")";
      case 4: return Operand() + " in " + Pick({"[\"A100\", \"eth0\"]", "[1, 3]", "device.attributes"});
      case 5: return Chain(false) + Pick({".contains(\"10\")", ".startsWith(\"A\")",
                                          ".endsWith(\"0\")", ".contains(\"\")",
                                          ".compareTo(quantity(\"40Gi\")) >= 0",
                                          ".isGreaterThan(semver(\"1.0.0\"))",
                                          ".matches(\"^[A-Z]\")"});
      case 6: return "(" + Bool(depth - 1) + " && " + Bool(depth - 1) + ")";
      case 7: return "(" + Bool(depth - 1) + " || " + Bool(depth - 1) + ")";
      default: return "!(" + Bool(depth - 1) + ")";
    }
  }

 private:
  std::string Operand() {
    if (Pick(3) == 0) {
      return Pick({"\"A100\"", "\"gpu.example.com\"", "\"\"", "3", "0", "3u", "3.0", "true",
                   "false", "null", "quantity(\"80Gi\")", "semver(\"1.2.3\")", "[1]", "{}"});
    }
    return Chain(false);
  }

  std::string Chain(bool for_has) {
    if (!for_has && Pick(6) == 0) return "device.driver";
    std::string c = Pick({"device.attributes", "device.capacity", "device"});
    c += "[\"" + Pick({"gpu.example.com", "dra.net", "resource.kubernetes.io", "nowhere.io"}) +
         "\"]";
    const std::string name = Pick({"model", "index", "rdma", "driverVersion", "pciBusID",
                                   "memory", "bandwidth", "numaNode", "ifName", "description",
                                   "x"});
    return c + (Pick(2) == 0 ? "." + name : "[\"" + name + "\"]");
  }

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::string Pick(std::initializer_list<const char*> options) {
    return *(options.begin() + Pick(static_cast<int>(options.size())));
  }

  std::mt19937 rng_;
};

TEST(FastPredicateTest, RandomExpressionsMatchGeneralEvaluator) {
  const std::vector<PreparedDevice> devices = Devices();
  Generator gen(20261124);
  int planned = 0, decided = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string expr = gen.Bool(3);
    std::optional<Planned> p = PlanBoth(expr);
    if (!p) continue;  // a constant conversion that fails to plan, the same both ways
    ++planned;
    for (const PreparedDevice& d : devices) decided += ExpectSameResult(expr, *p, d);
  }
  EXPECT_GT(planned, 2500);
  EXPECT_GT(decided, planned / 2);
}

// cel-go resolves `device.attributes` to a variable of that dotted name when one is bound;
// the fast form leaves such activations to the general evaluator.
TEST(FastPredicateTest, DottedVariableNameTakesPrecedence) {
  ParseResult parsed = Parse(R"(device.attributes == "dotted")");
  ASSERT_TRUE(parsed.ok());
  StatusOr<Program> program = Plan(*parsed.ast);
  ASSERT_TRUE(program.ok());
  const std::vector<PreparedDevice> devices = Devices();
  Activation activation;
  activation.Bind("device", devices[0].device());
  activation.Bind("device.attributes", Value::StringView("dotted"));
  EvalState state;
  Value v = program->Evaluate(activation, state);
  ASSERT_TRUE(v.is_bool()) << v.DebugString();
  EXPECT_TRUE(v.bool_value());
}

TEST(FastPredicateTest, CostLimitLeavesCancellationToGeneralEvaluator) {
  ParseResult parsed = Parse(R"(device.driver == "a" || device.driver == "b")");
  ASSERT_TRUE(parsed.ok());
  StatusOr<Program> program = Plan(*parsed.ast, RuntimeOptions{.cost_limit = 3});
  ASSERT_TRUE(program.ok());
  const std::vector<PreparedDevice> devices = Devices();
  const Value bound = devices[0].device();
  EvalState state;
  EXPECT_FALSE(program->TryFast("device", bound, state).has_value());
  Value v = program->Evaluate("device", bound, state);
  ASSERT_TRUE(v.is_error());
  EXPECT_EQ(v.text(), "operation cancelled: actual cost limit exceeded");
}

// RuntimeOptions::fast_path_after: the first evaluations go to the general evaluator, the
// fast form is built at the next one and decides from then on, with the same results and
// costs as a program planned without it; the cache estimate bounds the form before it is built.
TEST(FastPredicateTest, FastFormBuiltAfterGeneralRuns) {
  const std::string expr =
      R"(device.attributes["gpu.example.com"].model.startsWith("A1") && device.driver != "x")";
  ParseResult parsed = Parse(expr);
  ASSERT_TRUE(parsed.ok());
  RuntimeOptions lazy_options;
  lazy_options.fast_path_after = 2;
  StatusOr<Program> lazy = Plan(*parsed.ast, lazy_options);
  StatusOr<Program> eager = Plan(*parsed.ast);
  StatusOr<Program> general = Plan(*parsed.ast, RuntimeOptions{.fast_path = false});
  ASSERT_TRUE(lazy.ok() && eager.ok() && general.ok());
  const size_t bound = lazy->ApproximateBytes();
  EXPECT_FALSE(lazy->has_fast_form());
  EXPECT_TRUE(eager->has_fast_form());
  const std::vector<PreparedDevice> devices = Devices();
  const Value bound_device = devices[0].device();
  for (int run = 0; run < 4; ++run) {
    EvalState lazy_state, general_state;
    const bool decided = lazy->TryFast("device", bound_device, lazy_state).has_value();
    EXPECT_EQ(decided, run >= 2) << run;
    EXPECT_EQ(lazy->has_fast_form(), run >= 2) << run;
    Value v = decided ? Value::Bool(*lazy->TryFast("device", bound_device, lazy_state))
                      : lazy->EvaluateGeneral("device", bound_device, lazy_state);
    Value want = general->Evaluate("device", bound_device, general_state);
    EXPECT_EQ(Describe(v), Describe(want)) << run;
    EXPECT_EQ(lazy_state.cost(), general_state.cost()) << run;
  }
  // The estimate before the build bounds the one after, and the eager program's.
  EXPECT_GE(bound, lazy->ApproximateBytes());
  EXPECT_GE(bound, eager->ApproximateBytes());
}

}  // namespace
}  // namespace draguard::cel
