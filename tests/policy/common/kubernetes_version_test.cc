// The Kubernetes versions and feature gates shared by every stage.
#include "policy/common/kubernetes_version.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace draguard {
namespace {

struct GateParseCase {
  std::string name;
  std::string text;
  KubernetesVersion version = KubernetesVersion::k1_35;
  bool ok = true;
  std::string error = "";
};

void PrintTo(const GateParseCase& c, std::ostream* os) { *os << c.name; }

class FeatureGatesParseTest : public ::testing::TestWithParam<GateParseCase> {};

TEST_P(FeatureGatesParseTest, Parse) {
  const GateParseCase& c = GetParam();
  StatusOr<FeatureGates> gates = FeatureGates::Parse(c.text, c.version);
  ASSERT_EQ(gates.ok(), c.ok) << gates.status();
  if (!c.ok) {
    EXPECT_EQ(gates.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(gates.status().message(), c.error);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Gates, FeatureGatesParseTest,
    ::testing::Values(
        GateParseCase{.name = "Empty", .text = ""},
        GateParseCase{.name = "Two", .text = "DRADeviceTaints=true,DRAAdminAccess=false"},
        GateParseCase{.name = "SpacesAndEmptyItems", .text = " DRADeviceTaints = T ,,"},
        GateParseCase{.name = "Unknown",
                      .text = "DRAFoo=true",
                      .ok = false,
                      .error = "unrecognized feature gate: DRAFoo"},
        GateParseCase{.name = "CaseSensitive",
                      .text = "dradevicetaints=true",
                      .ok = false,
                      .error = "unrecognized feature gate: dradevicetaints"},
        GateParseCase{.name = "BadValue",
                      .text = "DRADeviceTaints=yes",
                      .ok = false,
                      .error = "invalid value of DRADeviceTaints=yes, err: strconv.ParseBool: "
                               "parsing \"yes\": invalid syntax"},
        GateParseCase{.name = "MissingValue",
                      .text = "DRADeviceTaints",
                      .ok = false,
                      .error = "missing bool value for DRADeviceTaints"},
        GateParseCase{.name = "LockedIn135",
                      .text = "DynamicResourceAllocation=false",
                      .ok = false,
                      .error = "cannot set feature gate DynamicResourceAllocation to false, "
                               "feature is locked to true"},
        GateParseCase{.name = "NotLockedIn134",
                      .text = "DynamicResourceAllocation=false",
                      .version = KubernetesVersion::k1_34},
        GateParseCase{.name = "TaintRulesUnknownIn134",
                      .text = "DRADeviceTaintRules=true",
                      .version = KubernetesVersion::k1_34,
                      .ok = false,
                      .error = "unrecognized feature gate: DRADeviceTaintRules"}),
    [](const auto& test_case) { return test_case.param.name; });

TEST(FeatureGatesTest, Defaults) {
  for (KubernetesVersion v : {KubernetesVersion::k1_34, KubernetesVersion::k1_35}) {
    FeatureGates gates(v);
    EXPECT_TRUE(gates.Enabled(Gate::kDRAPrioritizedList));
    EXPECT_TRUE(gates.Enabled(Gate::kDRAAdminAccess));
    EXPECT_TRUE(gates.Enabled(Gate::kDRAResourceClaimDeviceStatus));
    EXPECT_FALSE(gates.Enabled(Gate::kDRADeviceTaints));
    EXPECT_FALSE(gates.Enabled(Gate::kDRAConsumableCapacity));
    EXPECT_FALSE(gates.Enabled(Gate::kDRAExtendedResource));
    EXPECT_FALSE(gates.Enabled(Gate::kDRAPartitionableDevices));
    EXPECT_FALSE(gates.Enabled(Gate::kDRADeviceTaintRules));
  }
  StatusOr<FeatureGates> parsed =
      FeatureGates::Parse("DRADeviceTaints=true,DRAAdminAccess=0", KubernetesVersion::k1_35);
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->Enabled(Gate::kDRADeviceTaints));
  EXPECT_FALSE(parsed->Enabled(Gate::kDRAAdminAccess));
}

TEST(KubernetesVersionTest, Parse) {
  EXPECT_EQ(*ParseKubernetesVersion("1.34"), KubernetesVersion::k1_34);
  EXPECT_EQ(*ParseKubernetesVersion("v1.35"), KubernetesVersion::k1_35);
  EXPECT_EQ(*ParseKubernetesVersion("1.35.2"), KubernetesVersion::k1_35);
  EXPECT_FALSE(ParseKubernetesVersion("1.33").ok());
  EXPECT_FALSE(ParseKubernetesVersion("1.345").ok());
  EXPECT_FALSE(ParseKubernetesVersion("1.35.").ok());
}

}  // namespace
}  // namespace draguard
