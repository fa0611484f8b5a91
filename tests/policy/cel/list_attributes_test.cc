// The 1.36 selector environment for list-typed attributes (dynamic-resource-allocation
// v0.36.0 cel/compile.go; issue #14 item 3): `includes` and dyn attribute values per release,
// mode and DRAListTypeAttributes, and the costs of upstream compile_test.go.
#include <gtest/gtest.h>

#include <string>

#include "policy/cel/compiler.h"

namespace draguard::cel {
namespace {

// One expression's verdict per environment: "" accepted, else the first issue's code.
struct EnvCase {
  std::string name;
  std::string expr;
  std::string new134;      // 1.34 and 1.35, NewExpressions
  std::string stored135;   // 1.35 StoredExpressions
  std::string new136;      // 1.36 NewExpressions, default gates (list gate off)
  std::string stored136;   // 1.36 StoredExpressions, list gate off
  std::string new136_on;   // 1.36 NewExpressions with DRAListTypeAttributes
};

void PrintTo(const EnvCase& c, std::ostream* os) { *os << c.name; }

std::string Verdict(const std::string& expr, EnvOptions env) {
  SelectorCompileResult r = CompileSelector(expr, env);
  if (r.ok()) return "";
  return r.issues.items()[0].code;
}

class ListEnvTest : public testing::TestWithParam<EnvCase> {};

TEST_P(ListEnvTest, VerdictPerRelease) {
  const EnvCase& c = GetParam();
  const EnvOptions::Mode kNew = EnvOptions::kNewExpressions;
  const EnvOptions::Mode kStored = EnvOptions::kStoredExpressions;
  EXPECT_EQ(Verdict(c.expr, {.version = KubernetesVersion::k1_34, .mode = kNew}), c.new134);
  EXPECT_EQ(Verdict(c.expr, {.version = KubernetesVersion::k1_35, .mode = kNew}), c.new134);
  EXPECT_EQ(Verdict(c.expr, {.version = KubernetesVersion::k1_35, .mode = kStored}), c.stored135);
  EXPECT_EQ(Verdict(c.expr, {.version = KubernetesVersion::k1_36, .mode = kNew}), c.new136);
  EXPECT_EQ(Verdict(c.expr, {.version = KubernetesVersion::k1_36, .mode = kStored}), c.stored136);
  EXPECT_EQ(Verdict(c.expr, {.version = KubernetesVersion::k1_36,
                             .mode = kNew,
                             .list_type_attributes_gate = true}),
            c.new136_on);
}

constexpr char kUndeclared[] = "cel.undeclared-reference";

INSTANTIATE_TEST_SUITE_P(
    Releases, ListEnvTest,
    testing::Values(
        // docs/k8s-releases.md C.9 C2/C3: includes() is declared from 1.36 on, in new
        // expressions only with the gate; stored expressions always declare it.
        EnvCase{"IncludesOnAttribute", "device.attributes['d'].n.includes(1)", kUndeclared,
                kUndeclared, kUndeclared, "", ""},
        // The overload is (dyn, dyn): any receiver type-checks.
        EnvCase{"IncludesOnString", "device.driver.includes('gpu')", kUndeclared, kUndeclared,
                kUndeclared, "", ""},
        // C4: comprehensions need dyn attribute values (any is no range).
        EnvCase{"ExistsOverAttribute", "device.attributes['d'].n.exists(x, x > 0)",
                "cel.comprehension-range", "cel.comprehension-range", "cel.comprehension-range",
                "cel.comprehension-range", ""},
        // C5: a dyn result is accepted only with the gate.
        EnvCase{"DynResult", "dyn(true)", "cel.result-type", "cel.result-type", "cel.result-type",
                "cel.result-type", ""},
        EnvCase{"ScalarComparisonUnchanged", "device.attributes['d'].n == 1", "", "", "", "", ""}),
    [](const auto& p) { return p.param.name; });

struct ListCostCase {
  std::string name;
  std::string expr;
  uint64_t cost;
};

class ListCostTest : public testing::TestWithParam<ListCostCase> {};

// Upstream compile_test.go v0.36.0 with DRAListTypeAttributes on.
TEST_P(ListCostTest, MatchesUpstream) {
  const ListCostCase& c = GetParam();
  SelectorCompileResult r = CompileSelector(
      c.expr, {.version = KubernetesVersion::k1_36,
               .mode = EnvOptions::kStoredExpressions,
               .list_type_attributes_gate = true});
  ASSERT_TRUE(r.ok()) << r.issues.items()[0].message;
  EXPECT_EQ(r.cost.max, c.cost);
}

INSTANTIATE_TEST_SUITE_P(
    Upstream, ListCostTest,
    testing::Values(
        ListCostCase{"IncludesBool", "device.attributes[\"dra.example.com\"].name.includes(true)",
                     4 + 48},
        ListCostCase{"IncludesSemver",
                     "device.attributes[\"dra.example.com\"].name.includes(semver(\"1.0.0\"))",
                     4 + 48 + 1},
        ListCostCase{"ExistsGreater", "device.attributes[\"dra.example.com\"].names.exists(x, x > 0)",
                     5 + 6 * 64},
        ListCostCase{"AllNotEmpty", "device.attributes[\"dra.example.com\"].names.all(x, x != \"\")",
                     5 + 4 * 64}),
    [](const auto& p) { return p.param.name; });

}  // namespace
}  // namespace draguard::cel
