// DeviceTaintRule validation (validation.go `ValidateDeviceTaintRule`) including the 1.34/1.35
// differences.
#include "policy/validate/device_taint_rule.h"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

struct RuleCase {
  std::string name;
  std::function<void(k8s::DeviceTaintRule&)> mutate;
  std::vector<std::string> want;
  KubernetesVersion version = KubernetesVersion::k1_35;
  std::string gates = "DRADeviceTaintRules=true";
};

void PrintTo(const RuleCase& c, std::ostream* os) { *os << c.name; }

class DeviceTaintRuleTest : public ::testing::TestWithParam<RuleCase> {};

TEST_P(DeviceTaintRuleTest, Findings) {
  const RuleCase& c = GetParam();
  k8s::DeviceTaintRule rule = TaintRule();
  if (c.mutate) c.mutate(rule);
  Diagnostics d;
  ValidateDeviceTaintRule(rule, Options(c.version, c.gates), d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
}

INSTANTIATE_TEST_SUITE_P(
    Rule, DeviceTaintRuleTest,
    ::testing::Values(
        RuleCase{.name = "Valid", .mutate = nullptr, .want = {}},
        RuleCase{.name = "ApiDisabled",
                 .mutate = nullptr,
                 .want = {"E taintrule.api-disabled @ "},
                 .gates = ""},
        RuleCase{.name = "KeyRequired",
                 .mutate = [](auto& r) { r.spec.taint.key = ""; },
                 .want = {"E taint.key.required @ spec.taint.key"}},
        RuleCase{.name = "EffectRequired",
                 .mutate = [](auto& r) { r.spec.taint.effect = ""; },
                 .want = {"E taint.effect.required @ spec.taint.effect"}},
        RuleCase{.name = "EffectNone135",
                 .mutate = [](auto& r) { r.spec.taint.effect = "None"; },
                 .want = {}},
        RuleCase{.name = "EffectNone134",
                 .mutate = [](auto& r) { r.spec.taint.effect = "None"; },
                 .want = {"E taint.effect.unsupported @ spec.taint.effect"},
                 .version = KubernetesVersion::k1_34,
                 .gates = "DRADeviceTaints=true"},
        RuleCase{.name = "BadValue",
                 .mutate = [](auto& r) { r.spec.taint.value = Repeat('v', 64); },
                 .want = {"E taint.value.invalid @ spec.taint.value"}},
        RuleCase{.name = "SelectorFields",
                 .mutate =
                     [](auto& r) {
                       r.spec.device_selector =
                           k8s::DeviceTaintSelector{.device_class_name = std::nullopt,
                                                    .driver = "",
                                                    .pool = "a/B",
                                                    .device = "Dev",
                                                    .selector_count = 0};
                     },
                 .want = {"E taintrule.selector.driver.invalid @ spec.deviceSelector.driver",
                          "E taintrule.selector.driver.invalid @ spec.deviceSelector.driver",
                          "E taintrule.selector.pool.invalid @ spec.deviceSelector.pool",
                          "E taintrule.selector.device.invalid @ spec.deviceSelector.device"}},
        RuleCase{.name = "ClassNameRemovedIn135",
                 .mutate =
                     [](auto& r) {
                       r.spec.device_selector.emplace();
                       r.spec.device_selector->device_class_name = "gpu";
                     },
                 .want = {"W taintrule.selector.field.removed @ "
                          "spec.deviceSelector.deviceClassName"}},
        RuleCase{.name = "ClassNameValidatedIn134",
                 .mutate =
                     [](auto& r) {
                       r.spec.device_selector.emplace();
                       r.spec.device_selector->device_class_name = "Gpu";
                     },
                 .want = {"E taintrule.selector.device-class-name.invalid @ "
                          "spec.deviceSelector.deviceClassName"},
                 .version = KubernetesVersion::k1_34,
                 .gates = "DRADeviceTaints=true"}),
    [](const auto& test_case) { return test_case.param.name; });

TEST(DeviceTaintRuleUpdateTest, EffectRevalidatedOnlyWhenChangedIn135) {
  k8s::DeviceTaintRule old_rule = TaintRule();
  old_rule.spec.taint.effect = "Bogus";
  k8s::DeviceTaintRule new_rule = old_rule;
  new_rule.spec.taint.value = "v2";
  ValidationOptions options = Options(KubernetesVersion::k1_35, "DRADeviceTaintRules=true");
  Diagnostics unchanged;
  ValidateDeviceTaintRuleUpdate(old_rule, new_rule, options, unchanged);
  EXPECT_EQ(Findings(unchanged), std::vector<std::string>{});
  new_rule.spec.taint.effect = "Other";
  Diagnostics changed;
  ValidateDeviceTaintRuleUpdate(old_rule, new_rule, options, changed);
  EXPECT_EQ(Findings(changed),
            std::vector<std::string>{"E taint.effect.unsupported @ spec.taint.effect"});
}

// Issue 14 item 2: the text names the version that was checked, not always v1alpha3.
TEST(DeviceTaintRuleApiDisabledTest, NamesTheVersionChecked) {
  for (const char* api_version : {"resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"}) {
    k8s::DeviceTaintRule rule = TaintRule();
    rule.source_api_version = api_version;
    Diagnostics d;
    ValidateDeviceTaintRule(rule, Options(KubernetesVersion::k1_36, ""), d);
    ASSERT_EQ(d.size(), 1u) << api_version;
    const Diagnostic& found = *d.begin();
    EXPECT_EQ(found.code, "taintrule.api-disabled");
    const std::string version = std::string(api_version).substr(16);
    EXPECT_NE(found.message.find(std::string("(") + api_version + ")"), std::string::npos)
        << found.message;
    EXPECT_NE(found.message.find("the " + version + " API"), std::string::npos) << found.message;
    EXPECT_NE(found.message.find("DRADeviceTaintRules"), std::string::npos) << found.message;
  }
}

}  // namespace
}  // namespace draguard::validate
