// The release table: one row per known release, and the facts each row must carry
// (docs/k8s-releases.md part A).
#include "policy/common/release.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace draguard {
namespace {

TEST(ReleaseTest, RowsAreIndexedByVersion) {
  for (const Release& release : KnownReleases()) {
    EXPECT_EQ(&ReleaseFor(release.version), &release) << release.name;
    EXPECT_EQ(KubernetesVersionName(release.version), release.name);
    EXPECT_EQ(*ParseKubernetesVersion(release.name), release.version);
  }
  EXPECT_EQ(KnownReleases().size(), 3u);
  EXPECT_EQ(KnownReleaseList(), "1.34, 1.35 and 1.36");
}

// A gate's state in each release: {1.34, 1.35, 1.36}.
struct GateCase {
  std::string name;
  Gate gate;
  std::array<GateState, 3> states;
};

void PrintTo(const GateCase& c, std::ostream* os) { *os << c.name; }

class ReleaseGateTest : public ::testing::TestWithParam<GateCase> {};

TEST_P(ReleaseGateTest, StatePerRelease) {
  const GateCase& c = GetParam();
  for (size_t i = 0; i < c.states.size(); ++i) {
    const Release& release = KnownReleases()[i];
    const GateState& got = release.gate(c.gate);
    EXPECT_EQ(got.known, c.states[i].known) << release.name;
    EXPECT_EQ(got.on, c.states[i].on) << release.name;
    EXPECT_EQ(got.locked, c.states[i].locked) << release.name;
  }
}

constexpr GateState kUnknown{};
constexpr GateState kOff{.known = true};
constexpr GateState kOn{.known = true, .on = true};
constexpr GateState kLocked{.known = true, .on = true, .locked = true};

INSTANTIATE_TEST_SUITE_P(
    Gates, ReleaseGateTest,
    ::testing::Values(
        GateCase{"Dra", Gate::kDynamicResourceAllocation, {kOn, kLocked, kLocked}},
        GateCase{"AdminAccess", Gate::kDRAAdminAccess, {kOn, kOn, kLocked}},
        GateCase{"PrioritizedList", Gate::kDRAPrioritizedList, {kOn, kOn, kOn}},
        GateCase{"DeviceTaints", Gate::kDRADeviceTaints, {kOff, kOff, kOn}},
        GateCase{"DeviceTaintRules", Gate::kDRADeviceTaintRules, {kUnknown, kOff, kOff}},
        GateCase{"ConsumableCapacity", Gate::kDRAConsumableCapacity, {kOff, kOff, kOn}},
        GateCase{"BindingConditions", Gate::kDRADeviceBindingConditions, {kOff, kOff, kOn}},
        GateCase{"ExtendedResource", Gate::kDRAExtendedResource, {kOff, kOff, kOn}},
        GateCase{"Partitionable", Gate::kDRAPartitionableDevices, {kOff, kOff, kOn}},
        GateCase{"ListTypeAttributes", Gate::kDRAListTypeAttributes, {kUnknown, kUnknown, kOff}},
        GateCase{"GranularStatusAuthz",
                 Gate::kDRAResourceClaimGranularStatusAuthorization,
                 {kUnknown, kUnknown, kOn}},
        GateCase{"DeclarativeValidation", Gate::kDeclarativeValidation, {kOn, kOn, kLocked}}),
    [](const auto& test_case) { return test_case.param.name; });

// Served versions: {kind, version} -> registered in 1.34 / 1.35 / 1.36.
struct ServedCase {
  std::string name;
  std::string kind, version;
  std::array<bool, 3> registered;
  bool by_default = false;
  int deprecated_minor = 0;
};

void PrintTo(const ServedCase& c, std::ostream* os) { *os << c.name; }

class ReleaseServedTest : public ::testing::TestWithParam<ServedCase> {};

TEST_P(ReleaseServedTest, PerRelease) {
  const ServedCase& c = GetParam();
  for (size_t i = 0; i < c.registered.size(); ++i) {
    const Release& release = KnownReleases()[i];
    const ServedKind* served = release.Served(c.kind, c.version);
    ASSERT_EQ(served != nullptr, c.registered[i]) << release.name;
    if (served == nullptr) continue;
    EXPECT_EQ(served->by_default, c.by_default) << release.name;
    EXPECT_EQ(served->deprecated_minor, c.deprecated_minor) << release.name;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Served, ReleaseServedTest,
    ::testing::Values(
        ServedCase{"ClaimV1", "ResourceClaim", "v1", {true, true, true}, true, 0},
        ServedCase{"ClassV1beta2", "DeviceClass", "v1beta2", {true, true, true}, false, 36},
        ServedCase{"SliceV1beta1", "ResourceSlice", "v1beta1", {true, true, true}, false, 35},
        ServedCase{"ClaimV1alpha3", "ResourceClaim", "v1alpha3", {false, false, false}},
        ServedCase{"TaintRuleV1alpha3", "DeviceTaintRule", "v1alpha3", {true, true, true}, false,
                   36},
        ServedCase{"TaintRuleV1beta2", "DeviceTaintRule", "v1beta2", {false, false, true}, false,
                   39},
        ServedCase{"TaintRuleV1", "DeviceTaintRule", "v1", {false, false, false}},
        ServedCase{"PoolStatusRequest", "ResourcePoolStatusRequest", "v1alpha3",
                   {false, false, true}, false, 39}),
    [](const auto& test_case) { return test_case.param.name; });

// Validation and allocator dialects: 1.36 keeps the 1.35 rules; only the gates differ.
TEST(ReleaseTest, Dialects) {
  const Release& r134 = ReleaseFor(KubernetesVersion::k1_34);
  const Release& r135 = ReleaseFor(KubernetesVersion::k1_35);
  const Release& r136 = ReleaseFor(KubernetesVersion::k1_36);
  EXPECT_EQ(r134.validation.max_taints_per_device, 4u);
  EXPECT_EQ(r135.validation.max_taints_per_device, 16u);
  EXPECT_EQ(r136.validation.max_taints_per_device, 16u);
  EXPECT_FALSE(r134.validation.taint_effect_none);
  EXPECT_TRUE(r136.validation.taint_effect_none);
  EXPECT_EQ(r134.counters, CounterModel::kSliceTotals);
  EXPECT_EQ(r136.counters, CounterModel::kCounterSets);
  EXPECT_EQ(r134.validation.taint_rule_gate, Gate::kDRADeviceTaints);
  EXPECT_EQ(r136.validation.taint_rule_gate, Gate::kDRADeviceTaintRules);
  EXPECT_FALSE(r134.cel.lists_v3_in_new_expressions);
  EXPECT_TRUE(r136.cel.lists_v3_in_new_expressions);
  EXPECT_TRUE(r134.alloc.all_taint_effects_block);
  EXPECT_FALSE(r136.alloc.all_taint_effects_block);
  EXPECT_EQ(r135.alloc.skip_obsolete_generation, r136.alloc.skip_obsolete_generation);
}

// The allocator channel kube-scheduler runs per release and feature-gate set
// (structured/allocator.go NewAllocator; SupportedFeatures at v0.34.0, v0.35.0, v0.36.0).
struct ChannelCase {
  std::string name;
  std::string gates;                 // on top of each release's defaults
  std::array<std::string, 3> want;  // channel in 1.34, 1.35, 1.36 ("" = gates not parsable)
};

void PrintTo(const ChannelCase& c, std::ostream* os) { *os << c.name; }

class ReleaseChannelTest : public ::testing::TestWithParam<ChannelCase> {};

TEST_P(ReleaseChannelTest, PerRelease) {
  const ChannelCase& c = GetParam();
  for (size_t i = 0; i < c.want.size(); ++i) {
    const Release& release = KnownReleases()[i];
    StatusOr<FeatureGates> gates = FeatureGates::Parse(c.gates, release.version);
    if (c.want[i].empty()) {
      EXPECT_FALSE(gates.ok()) << release.name;
      continue;
    }
    ASSERT_TRUE(gates.ok()) << release.name << ": " << gates.status();
    EXPECT_EQ(SelectAllocatorChannel(release, *gates).name, c.want[i]) << release.name;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Channels, ReleaseChannelTest,
    ::testing::Values(
        ChannelCase{"Defaults", "", {"incubating", "incubating", "incubating"}},
        ChannelCase{"ConsumableCapacity", "DRAConsumableCapacity=true",
                    {"experimental", "experimental", "incubating"}},
        ChannelCase{"BindingConditions", "DRADeviceBindingConditions=true",
                    {"experimental", "experimental", "incubating"}},
        // DeviceBindingAndStatus needs both gates: one alone selects nothing new.
        ChannelCase{"BindingWithoutDeviceStatus",
                    "DRADeviceBindingConditions=true,DRAResourceClaimDeviceStatus=false",
                    {"incubating", "incubating", "incubating"}},
        ChannelCase{"NoCapacityNoBinding136",
                    "DRAConsumableCapacity=false,DRADeviceBindingConditions=false",
                    {"incubating", "incubating", "stable"}},
        ChannelCase{"NothingOptional",
                    "DRAPrioritizedList=false,DRAConsumableCapacity=false,"
                    "DRADeviceBindingConditions=false,DRADeviceTaints=false,"
                    "DRAPartitionableDevices=false",
                    {"incubating", "incubating", "stable"}},
        ChannelCase{"ListTypeAttributes", "DRAListTypeAttributes=true",
                    {"", "", "experimental"}}));

TEST(ReleaseChannelTest, FeaturesPerChannel) {
  const Release& r136 = ReleaseFor(KubernetesVersion::k1_36);
  const Release& r135 = ReleaseFor(KubernetesVersion::k1_35);
  // distinctAttribute and the capacity check come with ConsumableCapacity.
  EXPECT_FALSE(r135.channels[1].KnowsDistinctAttribute());
  EXPECT_TRUE(r135.channels[2].KnowsDistinctAttribute());
  EXPECT_FALSE(r136.channels[0].KnowsDistinctAttribute());
  EXPECT_TRUE(r136.channels[1].KnowsDistinctAttribute());
  EXPECT_TRUE(r136.channels[1].ChecksCapacityGate());
  // Only 1.36 incubating and experimental sort slices by name.
  for (const Release& r : KnownReleases()) {
    for (const AllocatorChannel& ch : r.channels) {
      bool want = r.version == KubernetesVersion::k1_36 && ch.name != "stable";
      EXPECT_EQ(ch.sorts_slices_by_name, want) << r.name << " " << ch.name;
    }
  }
  EXPECT_TRUE(r136.channels[2].Supports(AllocatorFeature::kListTypeAttributes));
  EXPECT_FALSE(r136.channels[1].Supports(AllocatorFeature::kListTypeAttributes));
}

}  // namespace
}  // namespace draguard
