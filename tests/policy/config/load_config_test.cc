#include "policy/config/load_config.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace draguard::config {
namespace {

using ::testing::ElementsAre;

LoadedConfig Parse(const std::string& text) {
  return ParsePolicyConfig(SourceText("policy.yaml", text));
}

constexpr char kHeader[] = "apiVersion: draguard.dev/v1alpha1\nkind: Policy\n";

TEST(LoadConfigTest, ReadsEveryField) {
  LoadedConfig loaded = Parse(std::string(kHeader) +
                              "kubernetesVersion: \"1.34\"\n"
                              "featureGates: {DRAConsumableCapacity: true}\n"
                              "warningsAsErrors: true\n"
                              "exemptNamespaces: [kube-system, monitoring]\n"
                              "rules:\n"
                              "  \"refs.*\": off\n"
                              "  schema.attribute.unknown: error\n");
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.items().front().message;
  const PolicyConfig& c = loaded.config;
  EXPECT_EQ(c.kubernetes_version, KubernetesVersion::k1_34);
  EXPECT_EQ(c.feature_gates, "DRAConsumableCapacity=true");
  EXPECT_TRUE(c.warnings_as_errors);
  EXPECT_THAT(c.exempt_namespaces, ElementsAre("kube-system", "monitoring"));
  ASSERT_EQ(c.rules.size(), 2u);
  EXPECT_EQ(c.rules[0].pattern, "refs.*");
  EXPECT_EQ(c.rules[0].action, RuleAction::kOff);  // YAML 1.1 `off` is false: still "off"
  EXPECT_EQ(c.rules[1].action, RuleAction::kError);
}

TEST(LoadConfigTest, UnquotedVersionNumberIsAccepted) {
  LoadedConfig loaded = Parse(std::string(kHeader) + "kubernetesVersion: 1.35\n");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded.config.kubernetes_version, KubernetesVersion::k1_35);
}

TEST(LoadConfigTest, Release136IsAccepted) {
  LoadedConfig loaded = Parse(std::string(kHeader) + "kubernetesVersion: \"1.36\"\n");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded.config.kubernetes_version, KubernetesVersion::k1_36);
}

TEST(LoadConfigTest, UnknownReleaseIsAnErrorListingTheKnownOnes) {
  LoadedConfig loaded = Parse(std::string(kHeader) + "kubernetesVersion: \"1.37\"\n");
  ASSERT_FALSE(loaded.ok());
  const Diagnostic& d = loaded.diagnostics.items()[0];
  EXPECT_EQ(d.code, "config.kubernetes-version.invalid");
  EXPECT_EQ(d.field, "kubernetesVersion");
  EXPECT_NE(d.message.find("1.34, 1.35 and 1.36"), std::string::npos) << d.message;
}

TEST(LoadConfigTest, GateStringIsCheckedAgainstTheFilesVersion) {
  // DRADeviceTaintRules exists only in 1.35.
  EXPECT_TRUE(Parse(std::string(kHeader) + "featureGates: DRADeviceTaintRules=true\n").ok());
  LoadedConfig loaded = Parse(std::string(kHeader) +
                              "kubernetesVersion: \"1.34\"\n"
                              "featureGates: DRADeviceTaintRules=true\n");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.diagnostics.items()[0].code, "config.feature-gates.invalid");
}

struct BadCase {
  std::string name;
  std::string text;
  std::string code;
  std::string field;
  int line;
  int column;
};

class BadConfigTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadConfigTest, ReportsCodeFieldAndPosition) {
  LoadedConfig loaded = Parse(GetParam().text);
  ASSERT_FALSE(loaded.diagnostics.empty());
  const Diagnostic& d = loaded.diagnostics.items().front();
  EXPECT_EQ(d.code, GetParam().code);
  EXPECT_EQ(d.field, GetParam().field);
  EXPECT_EQ(d.file, "policy.yaml");
  EXPECT_EQ(d.position.line, GetParam().line);
  EXPECT_EQ(d.position.column, GetParam().column);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadConfigTest,
    ::testing::Values(
        BadCase{"UnknownField", std::string(kHeader) + "rule:\n  x: off\n", "config.field.unknown",
                "rule", 3, 1},
        BadCase{"WrongApiVersion", "apiVersion: v1\nkind: Policy\n", "config.api-version.invalid",
                "apiVersion", 1, 13},
        BadCase{"WrongKind", "apiVersion: draguard.dev/v1alpha1\nkind: Config\n",
                "config.kind.invalid", "kind", 2, 7},
        BadCase{"BadVersion", std::string(kHeader) + "kubernetesVersion: \"1.29\"\n",
                "config.kubernetes-version.invalid", "kubernetesVersion", 3, 20},
        BadCase{"BadAction", std::string(kHeader) + "rules:\n  refs.*: loud\n",
                "config.rule.action.invalid", "rules[refs.*]", 4, 11},
        BadCase{"UnknownCode", std::string(kHeader) + "rules:\n  refs.device-clas.not-found: off\n",
                "config.rule.code.unknown", "rules[refs.device-clas.not-found]", 4, 3},
        BadCase{"NamespacesNotAList", std::string(kHeader) + "exemptNamespaces: kube-system\n",
                "config.field.type", "exemptNamespaces", 3, 19},
        BadCase{"WarningsAsErrorsNotBool", std::string(kHeader) + "warningsAsErrors: \"yes\"\n",
                "config.field.type", "warningsAsErrors", 3, 19},
        BadCase{"GateNotBool", std::string(kHeader) + "featureGates:\n  DRAAdminAccess: 1\n",
                "config.field.type", "featureGates.DRAAdminAccess", 4, 19},
        BadCase{"NotAMap", "- a\n- b\n", "config.document.invalid", "", 1, 1},
        BadCase{"TwoDocuments", std::string(kHeader) + "---\n" + kHeader,
                "config.document.invalid", "", 1, 1},
        BadCase{"Syntax", "apiVersion: [unclosed\n", "config.yaml-syntax", "", 2, 1}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(LoadConfigTest, UnknownCodeSuggestsTheClosest) {
  LoadedConfig loaded =
      Parse(std::string(kHeader) + "rules:\n  refs.device-clas.not-found: off\n");
  ASSERT_TRUE(loaded.ok());  // a warning only
  EXPECT_EQ(loaded.diagnostics.items()[0].suggestion, "refs.device-class.not-found");
}

TEST(LoadConfigTest, FlagGatesGoOnTopOfTheFile) {
  PolicyConfig config;
  config.feature_gates = "DRAConsumableCapacity=true";
  StatusOr<FeatureGates> gates =
      EffectiveGates(config, KubernetesVersion::k1_35, "DRAConsumableCapacity=false");
  ASSERT_TRUE(gates.ok());
  EXPECT_FALSE(gates->Enabled(Gate::kDRAConsumableCapacity));
  config.feature_gates = "DRAConsumableCapacity=true";
  gates = EffectiveGates(config, KubernetesVersion::k1_35, "");
  ASSERT_TRUE(gates.ok());
  EXPECT_TRUE(gates->Enabled(Gate::kDRAConsumableCapacity));
}

TEST(LoadConfigTest, MissingFileIsAStatus) {
  EXPECT_FALSE(ReadPolicyConfig("/nonexistent/policy.yaml").ok());
}

}  // namespace
}  // namespace draguard::config
