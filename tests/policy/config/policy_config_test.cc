#include "policy/config/policy_config.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace draguard::config {
namespace {

struct RuleCase {
  std::string name;
  std::vector<Rule> rules;
  std::string code;
  // The pattern of the rule that must win; empty when none matches.
  std::string winner;
};

class RuleForTest : public ::testing::TestWithParam<RuleCase> {};

TEST_P(RuleForTest, PicksMostSpecific) {
  PolicyConfig config;
  config.rules = GetParam().rules;
  const Rule* rule = config.RuleFor(GetParam().code);
  if (GetParam().winner.empty()) {
    EXPECT_EQ(rule, nullptr);
  } else {
    ASSERT_NE(rule, nullptr);
    EXPECT_EQ(rule->pattern, GetParam().winner);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, RuleForTest,
    ::testing::Values(
        RuleCase{"Exact", {{"refs.device-class.not-found", RuleAction::kOff}},
                 "refs.device-class.not-found", "refs.device-class.not-found"},
        RuleCase{"ExactDoesNotMatchOther", {{"refs.device-class.not-found", RuleAction::kOff}},
                 "refs.pod.claim.not-found", ""},
        RuleCase{"Prefix", {{"refs.*", RuleAction::kOff}}, "refs.pod.claim.not-found", "refs.*"},
        RuleCase{"PrefixNeedsWholeSegment", {{"ref.*", RuleAction::kOff}},
                 "refs.pod.claim.not-found", ""},
        RuleCase{"LongerPrefixWins",
                 {{"refs.*", RuleAction::kOff}, {"refs.pod.*", RuleAction::kError}},
                 "refs.pod.claim.not-found", "refs.pod.*"},
        RuleCase{"ExactBeatsPrefix",
                 {{"refs.device-class.not-found", RuleAction::kError}, {"refs.*", RuleAction::kOff}},
                 "refs.device-class.not-found", "refs.device-class.not-found"},
        RuleCase{"StarMatchesAll", {{"*", RuleAction::kWarning}}, "claim.request.count.invalid",
                 "*"},
        RuleCase{"PrefixBeatsStar", {{"claim.*", RuleAction::kOff}, {"*", RuleAction::kWarning}},
                 "claim.request.count.invalid", "claim.*"}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(RuleForTest, LaterRuleWinsATie) {
  PolicyConfig config;
  config.rules = {{"refs.*", RuleAction::kOff}, {"refs.*", RuleAction::kError}};
  ASSERT_NE(config.RuleFor("refs.x"), nullptr);
  EXPECT_EQ(config.RuleFor("refs.x")->action, RuleAction::kError);
}

Diagnostic Make(std::string code, Severity severity, std::string ns = "ml") {
  Diagnostic d;
  d.code = std::move(code);
  d.severity = severity;
  d.object.name_space = std::move(ns);
  return d;
}

TEST(ApplyPolicyTest, DropsOffChangesSeverityKeepsOrder) {
  PolicyConfig config;
  config.rules = {{"refs.*", RuleAction::kOff}, {"schema.*", RuleAction::kError}};
  std::vector<Diagnostic> diags = {Make("schema.attribute.unknown", Severity::kWarning),
                                   Make("refs.pod.claim.not-found", Severity::kWarning),
                                   Make("claim.request.count.invalid", Severity::kError)};
  ApplyPolicy(config, diags);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].code, "schema.attribute.unknown");
  EXPECT_EQ(diags[0].severity, Severity::kError);
  EXPECT_EQ(diags[1].code, "claim.request.count.invalid");
}

TEST(ApplyPolicyTest, ExemptNamespacesButNeverClusterScoped) {
  PolicyConfig config;
  config.exempt_namespaces = {"kube-system"};
  std::vector<Diagnostic> diags = {Make("a.b", Severity::kError, "kube-system"),
                                   Make("a.b", Severity::kError, "ml"),
                                   Make("a.b", Severity::kError, "")};
  ApplyPolicy(config, diags);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].object.name_space, "ml");
  EXPECT_EQ(diags[1].object.name_space, "");
}

TEST(ApplyPolicyTest, WarningsAsErrorsAfterRules) {
  PolicyConfig config;
  config.warnings_as_errors = true;
  config.rules = {{"x.info", RuleAction::kInfo}};
  std::vector<Diagnostic> diags = {Make("x.warn", Severity::kWarning),
                                   Make("x.info", Severity::kWarning)};
  ApplyPolicy(config, diags);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].severity, Severity::kError);
  EXPECT_EQ(diags[1].severity, Severity::kInfo);
}

}  // namespace
}  // namespace draguard::config
