// ResourceSlice validation (validation.go `ValidateResourceSlice*`, 1.34 and 1.35): slice fields,
// node selection, device limits, attributes, capacities, taints, counters, gates and update rules.
#include "policy/validate/resource_slice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

struct SliceCase {
  std::string name;
  std::function<void(k8s::ResourceSlice&)> mutate;
  std::vector<std::string> want;
  KubernetesVersion version = KubernetesVersion::k1_35;
  std::string gates;
};

void PrintTo(const SliceCase& c, std::ostream* os) { *os << c.name; }

class ResourceSliceTest : public ::testing::TestWithParam<SliceCase> {};

TEST_P(ResourceSliceTest, Findings) {
  const SliceCase& c = GetParam();
  k8s::ResourceSlice slice = Slice();
  if (c.mutate) c.mutate(slice);
  Diagnostics d;
  ValidateResourceSlice(slice, Options(c.version, c.gates), d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
}

void Devices(k8s::ResourceSlice& s, size_t n) {
  for (size_t i = 0; i < n; ++i) s.spec.devices.push_back(Device("d" + std::to_string(i)));
}

k8s::Device& D0(k8s::ResourceSlice& s) {
  if (s.spec.devices.empty()) s.spec.devices.push_back(Device("gpu-0"));
  return s.spec.devices[0];
}

k8s::DeviceAttribute Str(std::string v) {
  k8s::DeviceAttribute a;
  a.string_value = std::move(v);
  return a;
}

void Attributes(k8s::Device& d, size_t n) {
  for (size_t i = 0; i < n; ++i) d.attributes["a" + std::to_string(i)] = Str("x");
}

k8s::DeviceAttribute Ver(std::string v) {
  k8s::DeviceAttribute a;
  a.version_value = std::move(v);
  return a;
}

// A shareable device with capacity "mem" of 10Gi and the given request policy.
void Policy(k8s::ResourceSlice& s, k8s::CapacityRequestPolicy policy) {
  D0(s).allow_multiple_allocations = true;
  D0(s).capacity["mem"] = k8s::DeviceCapacity{"10Gi", std::move(policy)};
}

// A request policy on a device that does not allow multiple allocations.
void PolicyWithoutSharing(k8s::ResourceSlice& s) {
  D0(s).capacity["mem"] = k8s::DeviceCapacity{"1Gi", k8s::CapacityRequestPolicy{}};
}

k8s::CapacityRequestPolicy Values(std::vector<std::string> values, std::string def) {
  return k8s::CapacityRequestPolicy{.default_value = std::move(def),
                                    .valid_values = std::move(values),
                                    .valid_range = std::nullopt};
}

k8s::CapacityRequestPolicy Range(std::string min, std::string max, std::string step,
                                 std::string def) {
  return k8s::CapacityRequestPolicy{
      .default_value = std::move(def),
      .valid_values = {},
      .valid_range = k8s::CapacityRequestPolicyRange{
          .min = std::move(min), .max = std::move(max), .step = std::move(step)}};
}

constexpr char kPolicy[] = "spec.devices[0].capacity[mem].requestPolicy";

k8s::DeviceTaint Taint(std::string effect = "NoSchedule") {
  return k8s::DeviceTaint{
      .key = "example.com/t", .value = "", .effect = std::move(effect), .time_added = ""};
}

constexpr char kDev0[] = "spec.devices[0]";

INSTANTIATE_TEST_SUITE_P(
    SliceFields, ResourceSliceTest,
    ::testing::Values(
        SliceCase{.name = "Valid", .mutate = nullptr, .want = {}},
        SliceCase{.name = "DriverUpperCaseAccepted",
                  .mutate = [](auto& s) { s.spec.driver = "GPU.Example.com"; },
                  .want = {}},
        SliceCase{.name = "DriverTooLong",
                  .mutate = [](auto& s) { s.spec.driver = Repeat('a', 64); },
                  .want = {"E slice.driver.invalid @ spec.driver"}},
        SliceCase{.name = "PoolMissing",
                  .mutate = [](auto& s) { s.spec.pool.name = ""; },
                  .want = {"E slice.pool.name.invalid @ spec.pool.name"}},
        SliceCase{.name = "PoolSegments",
                  .mutate = [](auto& s) { s.spec.pool.name = "a/b.c/D"; },
                  .want = {"E slice.pool.name.invalid @ spec.pool.name"}},
        SliceCase{
            .name = "SliceCountZero",
            .mutate = [](auto& s) { s.spec.pool.resource_slice_count = 0; },
            .want = {"E slice.pool.resource-slice-count.invalid @ spec.pool.resourceSliceCount"}},
        SliceCase{.name = "GenerationNegative",
                  .mutate = [](auto& s) { s.spec.pool.generation = -1; },
                  .want = {"E slice.pool.generation.invalid @ spec.pool.generation"}},
        SliceCase{.name = "NoNodeSelection",
                  .mutate = [](auto& s) { s.spec.node_name.reset(); },
                  .want = {"E slice.node-selection.required @ spec"}},
        SliceCase{.name = "TwoNodeSelections",
                  .mutate = [](auto& s) { s.spec.all_nodes = true; },
                  .want = {"E slice.node-selection.multiple @ spec"}},
        // An explicit false (or an empty nodeName) is an error and does not count as a node
        // selection (validateResourceSliceSpec).
        SliceCase{.name = "AllNodesFalse",
                  .mutate =
                      [](auto& s) {
                        s.spec.node_name.reset();
                        s.spec.all_nodes = false;
                      },
                  .want = {"E slice.all-nodes.invalid @ spec.allNodes",
                           "E slice.node-selection.required @ spec"}},
        SliceCase{.name = "AllNodesFalseBesideNodeName",
                  .mutate = [](auto& s) { s.spec.all_nodes = false; },
                  .want = {"E slice.all-nodes.invalid @ spec.allNodes"}},
        SliceCase{.name = "NodeNameEmpty",
                  .mutate = [](auto& s) { s.spec.node_name = ""; },
                  .want = {"E slice.node-name.invalid @ spec.nodeName",
                           "E slice.node-selection.required @ spec"}},
        SliceCase{.name = "NodeSelectorTwoTerms",
                  .mutate =
                      [](auto& s) {
                        s.spec.node_name.reset();
                        s.spec.node_selector = k8s::NodeSelector{{{}, {}}};
                      },
                  .want = {"E slice.node-selector.invalid @ spec.nodeSelector.nodeSelectorTerms"}},
        SliceCase{.name = "PerDeviceNodeSelectionDroppedWhileGateOff",
                  .mutate =
                      [](auto& s) {
                        s.spec.node_name.reset();
                        s.spec.per_device_node_selection = true;
                      },
                  .want = {"W slice.partitionable.dropped @ spec.perDeviceNodeSelection",
                           "E slice.node-selection.required @ spec"}}),
    [](const auto& test_case) { return test_case.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Devices, ResourceSliceTest,
    ::testing::Values(
        SliceCase{.name = "Devices128", .mutate = [](auto& s) { Devices(s, 128); }, .want = {}},
        SliceCase{.name = "Devices129",
                  .mutate = [](auto& s) { Devices(s, 129); },
                  .want = {"E slice.devices.too-many @ spec.devices"}},
        SliceCase{.name = "Devices65WithTaints135",
                  .mutate =
                      [](auto& s) {
                        Devices(s, 65);
                        s.spec.devices[3].taints.push_back(Taint());
                      },
                  .want = {"E slice.devices.too-many @ spec.devices"},
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "Devices64WithTaints135",
                  .mutate =
                      [](auto& s) {
                        Devices(s, 64);
                        s.spec.devices[3].taints.push_back(Taint());
                      },
                  .want = {},
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "Devices65WithTaints134",
                  .mutate =
                      [](auto& s) {
                        Devices(s, 65);
                        s.spec.devices[3].taints.push_back(Taint());
                      },
                  .want = {},
                  .version = KubernetesVersion::k1_34,
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "DuplicateDevice135",
                  .mutate =
                      [](auto& s) {
                        s.spec.devices = {Device("a"), Device("a")};
                      },
                  .want = {"E slice.device.name.duplicate @ spec.devices[1]"}},
        SliceCase{.name = "DuplicateDevice134",
                  .mutate =
                      [](auto& s) {
                        s.spec.devices = {Device("a"), Device("a")};
                      },
                  .want = {"E slice.device.name.duplicate @ spec.devices[1].name"},
                  .version = KubernetesVersion::k1_34},
        SliceCase{.name = "BadDeviceName",
                  .mutate = [](auto& s) { D0(s).name = "GPU"; },
                  .want = {At("E slice.device.name.invalid @ ", kDev0) + ".name"}},
        SliceCase{.name = "ThirtyTwoAttributesAndCapacities",
                  .mutate =
                      [](auto& s) {
                        Attributes(D0(s), 31);
                        D0(s).capacity["mem"] = k8s::DeviceCapacity{"1Gi", std::nullopt};
                      },
                  .want = {}},
        SliceCase{.name = "ThirtyThreeAttributesAndCapacities",
                  .mutate =
                      [](auto& s) {
                        Attributes(D0(s), 32);
                        D0(s).capacity["mem"] = k8s::DeviceCapacity{"1Gi", std::nullopt};
                      },
                  .want = {At("E slice.device.attributes.too-many @ ", kDev0)}},
        SliceCase{.name = "ThirtyThreeAttributesStillChecked",
                  .mutate =
                      [](auto& s) {
                        Attributes(D0(s), 32);
                        D0(s).attributes["a0"] = k8s::DeviceAttribute{};
                        D0(s).capacity["mem"] = k8s::DeviceCapacity{"1Gi", std::nullopt};
                      },
                  .want = {At("E slice.device.attributes.too-many @ ", kDev0),
                           At("E slice.device.attribute.value.invalid @ ", kDev0) +
                               ".attributes[a0]"}},
        SliceCase{.name = "AttributeKeyPath135",
                  .mutate = [](auto& s) { D0(s).attributes["9bad"] = Str("x"); },
                  .want = {At("E slice.device.attribute.name.invalid @ ", kDev0) + ".attributes"}},
        SliceCase{
            .name = "AttributeKeyPath134",
            .mutate = [](auto& s) { D0(s).attributes["9bad"] = Str("x"); },
            .want = {At("E slice.device.attribute.name.invalid @ ", kDev0) + ".attributes[9bad]"},
            .version = KubernetesVersion::k1_34},
        SliceCase{.name = "AttributeDomainAndName",
                  .mutate = [](auto& s) { D0(s).attributes["gpu.example.com/model"] = Str("x"); },
                  .want = {}},
        SliceCase{.name = "AttributeEmptyDomain",
                  .mutate = [](auto& s) { D0(s).attributes["/model"] = Str("x"); },
                  .want = {At("E slice.device.attribute.name.invalid @ ", kDev0) + ".attributes"}},
        SliceCase{
            .name = "AttributeNoValue",
            .mutate = [](auto& s) { D0(s).attributes["a"] = k8s::DeviceAttribute{}; },
            .want = {At("E slice.device.attribute.value.invalid @ ", kDev0) + ".attributes[a]"}},
        SliceCase{
            .name = "AttributeTwoValues",
            .mutate =
                [](auto& s) {
                  k8s::DeviceAttribute a = Str("x");
                  a.bool_value = true;
                  D0(s).attributes["a"] = a;
                },
            .want = {At("E slice.device.attribute.value.invalid @ ", kDev0) + ".attributes[a]"}},
        SliceCase{.name = "String64",
                  .mutate = [](auto& s) { D0(s).attributes["a"] = Str(Repeat('s', 64)); },
                  .want = {}},
        SliceCase{.name = "String65",
                  .mutate = [](auto& s) { D0(s).attributes["a"] = Str(Repeat('s', 65)); },
                  .want = {At("E slice.device.attribute.string.too-long @ ", kDev0) +
                           ".attributes[a].string"}},
        SliceCase{.name = "Version",
                  .mutate = [](auto& s) { D0(s).attributes["v"] = Ver("1.2.3-rc.1+b"); },
                  .want = {}},
        SliceCase{.name = "VersionLeadingZero",
                  .mutate = [](auto& s) { D0(s).attributes["v"] = Ver("01.2.3"); },
                  .want = {At("E slice.device.attribute.version.invalid @ ", kDev0) +
                           ".attributes[v].version"}},
        SliceCase{
            .name = "Version64",
            .mutate = [](auto& s) { D0(s).attributes["v"] = Ver("1.2.3-" + Repeat('a', 58)); },
            .want = {}},
        SliceCase{
            .name = "Version65",
            .mutate = [](auto& s) { D0(s).attributes["v"] = Ver("1.2.3-" + Repeat('a', 59)); },
            .want = {At("E slice.device.attribute.version.invalid @ ", kDev0) +
                     ".attributes[v].version"}},
        // A request policy without allowMultipleAllocations (docs/k8s-releases.md V1/V2):
        // DRAConsumableCapacity off drops every requestPolicy (1.34/1.35 default), on rejects.
        SliceCase{
            .name = "RequestPolicyNeedsMultipleAllocations136",
            .mutate = PolicyWithoutSharing,
            .want = {At("E slice.device.capacity.request-policy.forbidden @ ", kDev0) +
                     ".capacity[mem].requestPolicy"},
            .version = KubernetesVersion::k1_36},
        SliceCase{
            .name = "RequestPolicyDropped135",
            .mutate = PolicyWithoutSharing,
            .want = {At("W slice.device.consumable-capacity.dropped @ ", kDev0) +
                     ".capacity[mem].requestPolicy"}},
        SliceCase{
            .name = "RequestPolicyDropped134",
            .mutate = PolicyWithoutSharing,
            .want = {At("W slice.device.consumable-capacity.dropped @ ", kDev0) +
                     ".capacity[mem].requestPolicy"},
            .version = KubernetesVersion::k1_34},
        SliceCase{
            .name = "RequestPolicyDropped136GateOff",
            .mutate = PolicyWithoutSharing,
            .want = {At("W slice.device.consumable-capacity.dropped @ ", kDev0) +
                     ".capacity[mem].requestPolicy"},
            .version = KubernetesVersion::k1_36,
            .gates = "DRAConsumableCapacity=false"}),
    [](const auto& test_case) { return test_case.param.name; });

INSTANTIATE_TEST_SUITE_P(
    TaintsAndCounters, ResourceSliceTest,
    ::testing::Values(
        SliceCase{.name = "TaintsDroppedWhileGateOff",
                  .mutate = [](auto& s) { D0(s).taints = {Taint("Bogus")}; },
                  .want = {At("W slice.device.taints.dropped @ ", kDev0) + ".taints"}},
        SliceCase{.name = "Taints16",
                  .mutate = [](auto& s) { D0(s).taints.assign(16, Taint()); },
                  .want = {},
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "Taints17",
                  .mutate = [](auto& s) { D0(s).taints.assign(17, Taint()); },
                  .want = {At("E slice.device.taints.too-many @ ", kDev0) + ".taints"},
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "Taints5In134",
                  .mutate = [](auto& s) { D0(s).taints.assign(5, Taint()); },
                  .want = {At("E slice.device.taints.too-many @ ", kDev0) + ".taints"},
                  .version = KubernetesVersion::k1_34,
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "TaintEffectBogus",
                  .mutate = [](auto& s) { D0(s).taints = {Taint("Bogus")}; },
                  .want = {At("E taint.effect.unsupported @ ", kDev0) + ".taints[0].effect"},
                  .gates = "DRADeviceTaints=true"},
        SliceCase{.name = "PolicyValidValues",
                  .mutate =
                      [](auto& s) {
                        Policy(s, Values({"1Gi", "2Gi", "10Gi"}, "1Gi"));
                      },
                  .want = {},
                  .gates = "DRAConsumableCapacity=true"},
        SliceCase{.name = "PolicyValuesUnsortedAndAbove",
                  .mutate =
                      [](auto& s) {
                        Policy(s, Values({"2Gi", "1Gi", "11Gi"}, "1Gi"));
                      },
                  .want = {At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) +
                               ".validValues[1]",
                           At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) +
                               ".validValues[2]"},
                  .gates = "DRAConsumableCapacity=true"},
        SliceCase{.name = "PolicyElevenValues",
                  .mutate =
                      [](auto& s) {
                        std::vector<std::string> v;
                        for (int i = 1; i <= 11; ++i) v.push_back(std::to_string(i));
                        Policy(s, Values(v, "1"));
                      },
                  .want = {At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) +
                           ".validValues"},
                  .gates = "DRAConsumableCapacity=true"},
        SliceCase{
            .name = "PolicyDefaultNotListed",
            .mutate =
                [](auto& s) {
                  Policy(s, Values({"1Gi", "2Gi"}, "3Gi"));
                },
            .want = {At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) + ".default"},
            .gates = "DRAConsumableCapacity=true"},
        SliceCase{.name = "PolicyRange",
                  .mutate = [](auto& s) { Policy(s, Range("1Gi", "8Gi", "1Gi", "2Gi")); },
                  .want = {},
                  .gates = "DRAConsumableCapacity=true"},
        SliceCase{
            .name = "PolicyRangeDefaultNotOnStep",
            .mutate = [](auto& s) { Policy(s, Range("1Gi", "8Gi", "2Gi", "2Gi")); },
            .want = {At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) + ".default"},
            .gates = "DRAConsumableCapacity=true"},
        SliceCase{
            .name = "PolicyRangeMaxBelowMin",
            .mutate = [](auto& s) { Policy(s, Range("4Gi", "2Gi", "1Gi", "4Gi")); },
            .want = {At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) +
                         ".validRange.max",
                     At("E slice.device.capacity.request-policy.invalid @ ", kPolicy) + ".default"},
            .gates = "DRAConsumableCapacity=true"},
        SliceCase{
            .name = "CountersDroppedWhileGateOff",
            .mutate =
                [](auto& s) {
                  s.spec.shared_counters.push_back(k8s::CounterSet{"set", {{"mem", {"1"}}}});
                },
            .want = {"W slice.partitionable.dropped @ spec.sharedCounters"}},
        SliceCase{
            .name = "SharedCountersAndDevicesExclusive135",
            .mutate =
                [](auto& s) {
                  s.spec.shared_counters.push_back(k8s::CounterSet{"set", {{"mem", {"1"}}}});
                  D0(s);
                },
            .want = {"E slice.shared-counters.exclusive @ spec"},
            .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "NineCounterSets",
            .mutate =
                [](auto& s) {
                  for (int i = 0; i < 9; ++i) {
                    s.spec.shared_counters.push_back(
                        k8s::CounterSet{"s" + std::to_string(i), {{"c", {"1"}}}});
                  }
                },
            .want = {"E slice.shared-counters.too-many @ spec.sharedCounters"},
            .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "CounterSetWithoutCounters",
            .mutate =
                [](auto& s) {
                  s.spec.shared_counters.push_back(k8s::CounterSet{"set", {}});
                },
            .want = {"E slice.shared-counters.counters.required @ "
                     "spec.sharedCounters[0].counters"},
            .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "ThreeConsumptions",
            .mutate =
                [](auto& s) {
                  for (std::string n : {"a", "b", "c"}) {
                    D0(s).consumes_counters.push_back({n, {{"c", {"1"}}}});
                  }
                },
            .want = {At("E slice.device.consumes-counters.too-many @ ", kDev0) +
                     ".consumesCounters"},
            .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "UnknownCounterSet134",
            .mutate =
                [](auto& s) {
                  D0(s).consumes_counters.push_back({"a", {{"c", {"1"}}}});
                },
            .want = {At("E slice.device.consumes-counters.unknown @ ", kDev0) +
                     ".consumesCounters[0].counterSet"},
            .version = KubernetesVersion::k1_34,
            .gates = "DRAPartitionableDevices=true"},
        // Issue 19 item 13: one error on the device, as validateDevice reports it.
        SliceCase{.name = "DeviceNodeNameWithoutPerDevice",
                  .mutate = [](auto& s) { D0(s).node_name = "n"; },
                  .want = {At("E slice.device.node-selection.forbidden @ ", kDev0)},
                  .gates = "DRAPartitionableDevices=true"},
        SliceCase{.name = "DeviceSelectorAndAllNodesWithoutPerDevice",
                  .mutate =
                      [](auto& s) {
                        D0(s).node_selector = k8s::NodeSelector{{{}}};
                        D0(s).all_nodes = true;
                      },
                  .want = {At("E slice.device.node-selection.forbidden @ ", kDev0)},
                  .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "PerDeviceTwoSelections",
            .mutate =
                [](auto& s) {
                  s.spec.node_name.reset();
                  s.spec.per_device_node_selection = true;
                  D0(s).node_name = "n";
                  D0(s).all_nodes = true;
                },
            .want = {At("E slice.device.node-selection.multiple @ ", kDev0)},
            .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "PerDeviceEmptyNodeNameAndFalseAllNodes",
            .mutate =
                [](auto& s) {
                  s.spec.node_name.reset();
                  s.spec.per_device_node_selection = true;
                  D0(s).node_name = "";
                  D0(s).all_nodes = false;
                },
            .want = {At("E slice.node-name.invalid @ ", kDev0) + ".nodeName",
                     At("E slice.all-nodes.invalid @ ", kDev0) + ".allNodes",
                     At("E slice.device.node-selection.required @ ", kDev0)},
            .gates = "DRAPartitionableDevices=true"},
        SliceCase{
            .name = "PerDeviceRequiresDeviceSelection",
            .mutate =
                [](auto& s) {
                  s.spec.node_name.reset();
                  s.spec.per_device_node_selection = true;
                  D0(s);
                },
            .want = {At("E slice.device.node-selection.required @ ", kDev0)},
            .gates = "DRAPartitionableDevices=true"},
        // Binding fields are kept only when DRADeviceBindingConditions and
        // DRAResourceClaimDeviceStatus are both on (V4); the warning names the one that is off.
        SliceCase{.name = "BindingDroppedWithoutDeviceStatus",
                  .mutate = [](auto& s) { D0(s).binding_conditions = {"example.com/ready"}; },
                  .want = {At("W slice.device.binding-conditions.dropped @ ", kDev0) +
                           ".bindingConditions"},
                  .gates = "DRADeviceBindingConditions=true,DRAResourceClaimDeviceStatus=false"},
        SliceCase{.name = "BindingDroppedWithoutDeviceStatus136",
                  .mutate = [](auto& s) { D0(s).binding_failure_conditions = {"example.com/f"}; },
                  .want = {At("W slice.device.binding-conditions.dropped @ ", kDev0) +
                           ".bindingFailureConditions"},
                  .version = KubernetesVersion::k1_36,
                  .gates = "DRAResourceClaimDeviceStatus=false"},
        SliceCase{.name = "BindingConditionsDropped135",
                  .mutate = [](auto& s) { D0(s).binding_conditions = {"example.com/ready"}; },
                  .want = {At("W slice.device.binding-conditions.dropped @ ", kDev0) +
                           ".bindingConditions"}},
        // Issue 19 item 13: the missing list is the one reported
        // (validateDeviceBindingParameters).
        SliceCase{.name = "BindingConditionsTogether136",
                  .mutate = [](auto& s) { D0(s).binding_conditions = {"example.com/ready"}; },
                  .want = {At("E slice.device.binding-conditions.invalid @ ", kDev0) +
                           ".bindingFailureConditions"},
                  .version = KubernetesVersion::k1_36},
        SliceCase{.name = "BindingConditionsTogether",
                  .mutate = [](auto& s) { D0(s).binding_conditions = {"example.com/ready"}; },
                  .want = {At("E slice.device.binding-conditions.invalid @ ", kDev0) +
                           ".bindingFailureConditions"},
                  .gates = "DRADeviceBindingConditions=true"},
        SliceCase{.name = "BindingFailureConditionsAlone",
                  .mutate = [](auto& s) { D0(s).binding_failure_conditions = {"example.com/f"}; },
                  .want = {At("E slice.device.binding-conditions.invalid @ ", kDev0) +
                           ".bindingConditions"},
                  .version = KubernetesVersion::k1_36},
        SliceCase{.name = "BindingConditionDuplicateAndOverlap",
                  .mutate =
                      [](auto& s) {
                        D0(s).binding_conditions = {"example.com/a", "example.com/a"};
                        D0(s).binding_failure_conditions = {"example.com/f", "example.com/a"};
                      },
                  .want = {At("E slice.device.binding-conditions.duplicate @ ", kDev0) +
                               ".bindingConditions[1]",
                           At("E slice.device.binding-conditions.invalid @ ", kDev0) +
                               ".bindingFailureConditions[1]"},
                  .version = KubernetesVersion::k1_36}),
    [](const auto& test_case) { return test_case.param.name; });

// Issue 19 item 13: the two messages read as kube-apiserver's (validateDevice,
// validateDeviceBindingParameters).
TEST(ResourceSliceMessageTest, MessagesMatchTheApiServer) {
  k8s::ResourceSlice slice = Slice();
  D0(slice).node_name = "n";
  D0(slice).binding_conditions = {"example.com/ready"};
  Diagnostics d;
  ValidateResourceSlice(
      slice, Options(KubernetesVersion::k1_36, "DRAPartitionableDevices=true"), d);
  std::vector<std::string> lines;
  for (const Diagnostic& x : d) lines.push_back(x.field + ": " + x.message);
  EXPECT_THAT(lines,
              ::testing::UnorderedElementsAre(
                  "spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and "
                  "`allNodes` can only be set if `perDeviceNodeSelection` is set to true in the "
                  "ResourceSlice spec",
                  "spec.devices[0].bindingFailureConditions: Invalid value: []: "
                  "bindingFailureConditions are required to use bindingConditions"));
}

// The drop warning names the gate that is off, not always DRADeviceBindingConditions.
TEST(ResourceSliceDropTest, BindingDropNamesTheGateThatIsOff) {
  k8s::ResourceSlice slice = Slice();
  D0(slice).binding_conditions = {"example.com/ready"};
  Diagnostics d;
  ValidateResourceSlice(
      slice, Options(KubernetesVersion::k1_36, "DRAResourceClaimDeviceStatus=false"), d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items()[0].code, "slice.device.binding-conditions.dropped");
  EXPECT_NE(d.items()[0].message.find("DRAResourceClaimDeviceStatus"), std::string::npos)
      << d.items()[0].message;
}

TEST(ResourceSliceUpdateTest, ImmutableFields) {
  k8s::ResourceSlice old_slice = Slice();
  k8s::ResourceSlice new_slice = Slice();
  new_slice.spec.driver = "other.example.com";
  new_slice.spec.pool.name = "pool2";
  new_slice.spec.node_name = "node-2";
  Diagnostics d;
  ValidateResourceSliceUpdate(old_slice, new_slice, Options(), d);
  EXPECT_EQ(Findings(d), Sorted({"E slice.driver.immutable @ spec.driver",
                                 "E slice.pool.name.immutable @ spec.pool.name",
                                 "E slice.node-name.immutable @ spec.nodeName"}));
}

TEST(ResourceSliceUpdateTest, StoredTaintsKeptAndNotRevalidated) {
  k8s::ResourceSlice old_slice = Slice();
  old_slice.spec.devices.push_back(Device("d"));
  old_slice.spec.devices[0].taints = {Taint("Bogus")};
  k8s::ResourceSlice new_slice = old_slice;
  Diagnostics d;
  ValidateResourceSliceUpdate(old_slice, new_slice, Options(), d);
  EXPECT_EQ(Findings(d), std::vector<std::string>{});
}

}  // namespace
}  // namespace draguard::validate
