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
                      .error = "unrecognized feature gate: DRADeviceTaintRules"},
        // DRAAdminAccess: beta in 1.34/1.35 (may be turned off), GA and locked in 1.36.
        GateParseCase{.name = "AdminAccessOffIn135", .text = "DRAAdminAccess=false"},
        GateParseCase{.name = "AdminAccessLockedIn136",
                      .text = "DRAAdminAccess=false",
                      .version = KubernetesVersion::k1_36,
                      .ok = false,
                      .error = "cannot set feature gate DRAAdminAccess to false, feature is "
                               "locked to true"},
        GateParseCase{.name = "DeclarativeValidationLockedIn136",
                      .text = "DeclarativeValidation=false",
                      .version = KubernetesVersion::k1_36,
                      .ok = false,
                      .error = "cannot set feature gate DeclarativeValidation to false, "
                               "feature is locked to true"},
        GateParseCase{.name = "PrioritizedListGaNotLockedIn136",
                      .text = "DRAPrioritizedList=false",
                      .version = KubernetesVersion::k1_36},
        // Gates new in 1.36 are unknown before it.
        GateParseCase{.name = "ListTypeAttributesIn136",
                      .text = "DRAListTypeAttributes=true,DRANodeAllocatableResources=true",
                      .version = KubernetesVersion::k1_36},
        GateParseCase{.name = "ListTypeAttributesUnknownIn135",
                      .text = "DRAListTypeAttributes=true",
                      .ok = false,
                      .error = "unrecognized feature gate: DRAListTypeAttributes"},
        GateParseCase{.name = "SchedulerFilterTimeoutIn134",
                      .text = "DRASchedulerFilterTimeout=false",
                      .version = KubernetesVersion::k1_34}),
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

// Defaults that differ between releases (docs/k8s-releases.md A.1).
TEST(FeatureGatesTest, Defaults136) {
  FeatureGates gates(KubernetesVersion::k1_36);
  for (Gate on : {Gate::kDRAPrioritizedList, Gate::kDRAAdminAccess, Gate::kDRADeviceTaints,
                  Gate::kDRAConsumableCapacity, Gate::kDRADeviceBindingConditions,
                  Gate::kDRAExtendedResource, Gate::kDRAPartitionableDevices,
                  Gate::kDRAResourceClaimDeviceStatus}) {
    EXPECT_TRUE(gates.Enabled(on)) << GateName(on);
  }
  for (Gate off : {Gate::kDRADeviceTaintRules, Gate::kDRAListTypeAttributes,
                   Gate::kDRANodeAllocatableResources, Gate::kDRAWorkloadResourceClaims}) {
    EXPECT_FALSE(gates.Enabled(off)) << GateName(off);
  }
}

TEST(KubernetesVersionTest, DefaultIs136) {
  EXPECT_EQ(kDefaultKubernetesVersion, KubernetesVersion::k1_36);
  EXPECT_EQ(FeatureGates().version(), KubernetesVersion::k1_36);
}

TEST(KubernetesVersionTest, Parse) {
  EXPECT_EQ(*ParseKubernetesVersion("1.36"), KubernetesVersion::k1_36);
  EXPECT_EQ(*ParseKubernetesVersion("v1.36.2"), KubernetesVersion::k1_36);
  EXPECT_EQ(KubernetesVersionName(KubernetesVersion::k1_36), "1.36");
  EXPECT_EQ(*ParseKubernetesVersion("1.34"), KubernetesVersion::k1_34);
  EXPECT_EQ(*ParseKubernetesVersion("v1.35"), KubernetesVersion::k1_35);
  EXPECT_EQ(*ParseKubernetesVersion("1.35.2"), KubernetesVersion::k1_35);
  EXPECT_FALSE(ParseKubernetesVersion("1.33").ok());
  EXPECT_FALSE(ParseKubernetesVersion("1.345").ok());
  EXPECT_FALSE(ParseKubernetesVersion("1.35.").ok());
}

// 1.37 is not released in the sources draguard is built from: refused, with the known list.
TEST(KubernetesVersionTest, UnknownListsKnownReleases) {
  StatusOr<KubernetesVersion> v = ParseKubernetesVersion("1.37");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(v.status().message(),
            "unsupported Kubernetes version \"1.37\": supported versions are 1.34, 1.35 and 1.36");
}

}  // namespace
}  // namespace draguard
