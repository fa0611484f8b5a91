// Table tests for ResourceClaim create validation: every rule of validation.go's
// `ValidateResourceClaim` at and
// past its boundary, with 1.34/1.35 and feature-gate differences. Expected findings come
// from upstream's rules (code @ API-server field path).
#include "policy/validate/resource_claim.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <ostream>

#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders
using Mut = std::function<void(k8s::ResourceClaim&)>;

constexpr char kReq[] = "spec.devices.requests[0]";
constexpr char kExact[] = "spec.devices.requests[0].exactly";

struct ClaimCase {
  std::string name;
  Mut mutate;
  std::vector<std::string> want;
  KubernetesVersion version = KubernetesVersion::k1_35;
  std::string gates;
  NamespaceLabels namespaces = {};
};

k8s::DeviceConstraint Distinct(std::string attribute) {
  k8s::DeviceConstraint c;
  c.distinct_attribute = std::move(attribute);
  return c;
}

void PrintTo(const ClaimCase& c, std::ostream* os) { *os << c.name; }

class ResourceClaimTest : public ::testing::TestWithParam<ClaimCase> {};

TEST_P(ResourceClaimTest, Findings) {
  const ClaimCase& c = GetParam();
  k8s::ResourceClaim claim = Claim();
  if (c.mutate) c.mutate(claim);
  ValidationOptions options = Options(c.version, c.gates);
  options.namespace_labels = c.namespaces;
  Diagnostics d;
  ValidateResourceClaim(claim, options, d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
}

k8s::ExactDeviceRequest& X(k8s::ResourceClaim& c, size_t i = 0) {
  return *c.spec.devices.requests[i].exactly;
}

void ManyRequests(k8s::ResourceClaim& c, size_t n) {
  c.spec.devices.requests.clear();
  for (size_t i = 0; i < n; ++i) c.spec.devices.requests.push_back(Exact("r" + std::to_string(i)));
}

const NamespaceLabels kAdminNs = {{"ns", {{"resource.kubernetes.io/admin-access", "true"}}}};

INSTANTIATE_TEST_SUITE_P(
    Requests, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "Valid", .mutate = nullptr, .want = {}},
        ClaimCase{.name = "NoRequests",
                  .mutate = [](auto& c) { c.spec.devices.requests.clear(); },
                  .want = {}},
        ClaimCase{.name = "ThirtyTwoRequests",
                  .mutate = [](auto& c) { ManyRequests(c, 32); },
                  .want = {}},
        ClaimCase{.name = "ThirtyThreeRequests",
                  .mutate = [](auto& c) { ManyRequests(c, 33); },
                  .want = {"E claim.requests.too-many @ spec.devices.requests"}},
        ClaimCase{.name = "OverLimitShortCircuits135",
                  .mutate =
                      [](auto& c) {
                        ManyRequests(c, 33);
                        c.spec.devices.requests[0].name = "BAD";
                        c.spec.devices.requests[2].name = "r1";
                      },
                  .want = {"E claim.requests.too-many @ spec.devices.requests"}},
        ClaimCase{.name = "OverLimitValidatesItems134",
                  .mutate =
                      [](auto& c) {
                        ManyRequests(c, 33);
                        c.spec.devices.requests[0].name = "BAD";
                        c.spec.devices.requests[2].name = "r1";
                      },
                  .want = {"E claim.requests.too-many @ spec.devices.requests",
                           "E claim.request.name.invalid @ spec.devices.requests[0].name",
                           "E claim.request.name.duplicate @ spec.devices.requests[2].name"},
                  .version = KubernetesVersion::k1_34},
        ClaimCase{.name = "UpperCaseName",
                  .mutate = [](auto& c) { c.spec.devices.requests[0].name = "GPU"; },
                  .want = {"E claim.request.name.invalid @ spec.devices.requests[0].name"}},
        ClaimCase{.name = "EmptyNameIsInvalidNotRequired",
                  .mutate = [](auto& c) { c.spec.devices.requests[0].name = ""; },
                  .want = {"E claim.request.name.invalid @ spec.devices.requests[0].name"}},
        ClaimCase{.name = "Name63",
                  .mutate = [](auto& c) { c.spec.devices.requests[0].name = Repeat('a', 63); },
                  .want = {}},
        ClaimCase{.name = "Name64",
                  .mutate = [](auto& c) { c.spec.devices.requests[0].name = Repeat('a', 64); },
                  .want = {"E claim.request.name.invalid @ spec.devices.requests[0].name"}},
        ClaimCase{.name = "DuplicateName135",
                  .mutate = [](auto& c) { c.spec.devices.requests.push_back(Exact("gpu")); },
                  .want = {"E claim.request.name.duplicate @ spec.devices.requests[1]"}},
        ClaimCase{.name = "DuplicateName134",
                  .mutate = [](auto& c) { c.spec.devices.requests.push_back(Exact("gpu")); },
                  .want = {"E claim.request.name.duplicate @ spec.devices.requests[1].name"},
                  .version = KubernetesVersion::k1_34},
        ClaimCase{.name = "NeitherExactlyNorFirstAvailable",
                  .mutate = [](auto& c) { c.spec.devices.requests[0].exactly.reset(); },
                  .want = {At("E claim.request.exactly-or-first-available.missing @ ", kReq)}},
        ClaimCase{.name = "BothSkipsNestedValidation",
                  .mutate =
                      [](auto& c) {
                        X(c).device_class_name = "";
                        c.spec.devices.requests[0].first_available.push_back(Sub("BAD"));
                      },
                  .want = {At("E claim.request.exactly-or-first-available.both @ ", kReq)}},
        ClaimCase{.name = "MissingClass",
                  .mutate = [](auto& c) { X(c).device_class_name = ""; },
                  .want = {At("E claim.request.device-class-name.required @ ", kExact) +
                           ".deviceClassName"}},
        ClaimCase{.name = "InvalidClass",
                  .mutate = [](auto& c) { X(c).device_class_name = "Gpu_Class"; },
                  .want = {At("E claim.request.device-class-name.invalid @ ", kExact) +
                           ".deviceClassName"}},
        ClaimCase{.name = "Class253",
                  .mutate = [](auto& c) { X(c).device_class_name = Repeat('a', 253); },
                  .want = {}},
        ClaimCase{.name = "Class254",
                  .mutate = [](auto& c) { X(c).device_class_name = Repeat('a', 254); },
                  .want = {At("E claim.request.device-class-name.invalid @ ", kExact) +
                           ".deviceClassName"}}),
    [](const auto& test_case) { return test_case.param.name; });

INSTANTIATE_TEST_SUITE_P(
    SelectorsAndCounts, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "ThirtyTwoSelectors",
                  .mutate = [](auto& c) { X(c).selectors.assign(32, Cel("true")); },
                  .want = {}},
        ClaimCase{.name = "ThirtyThreeSelectors",
                  .mutate = [](auto& c) { X(c).selectors.assign(33, Cel("true")); },
                  .want = {At("E selector.too-many @ ", kExact) + ".selectors"}},
        ClaimCase{.name = "SelectorWithoutCel",
                  .mutate = [](auto& c) { X(c).selectors.push_back(k8s::DeviceSelector{}); },
                  .want = {At("E selector.cel.required @ ", kExact) + ".selectors[0].cel"}},
        ClaimCase{.name = "Expression10240",
                  .mutate = [](auto& c) { X(c).selectors.push_back(Cel(Repeat('x', 10240))); },
                  .want = {}},
        ClaimCase{.name = "Expression10241",
                  .mutate = [](auto& c) { X(c).selectors.push_back(Cel(Repeat('x', 10241))); },
                  .want = {At("E selector.expression.too-long @ ", kExact) +
                           ".selectors[0].cel.expression"}},
        ClaimCase{.name = "LowerCaseMode",
                  .mutate = [](auto& c) { X(c).allocation_mode = "all"; },
                  .want = {At("E claim.request.allocation-mode.unsupported @ ", kExact) +
                           ".allocationMode"}},
        ClaimCase{.name = "CountUnsetDefaultsToOne",
                  .mutate = [](auto& c) { X(c).count = 0; },
                  .want = {}},
        ClaimCase{.name = "ExplicitCountZeroWarns",
                  .mutate =
                      [](auto& c) {
                        X(c).count = 0;
                        X(c).count_set = true;
                      },
                  .want = {At("W claim.request.count.defaulted @ ", kExact) + ".count"}},
        ClaimCase{.name = "ExplicitCountZeroWithAllIsFine",
                  .mutate =
                      [](auto& c) {
                        X(c).allocation_mode = "All";
                        X(c).count_set = true;
                      },
                  .want = {}},
        ClaimCase{.name = "CountOne", .mutate = [](auto& c) { X(c).count = 1; }, .want = {}},
        ClaimCase{.name = "CountNegative",
                  .mutate = [](auto& c) { X(c).count = -1; },
                  .want = {At("E claim.request.count.invalid @ ", kExact) + ".count"}},
        ClaimCase{.name = "AllWithCount",
                  .mutate =
                      [](auto& c) {
                        X(c).allocation_mode = "All";
                        X(c).count = 2;
                      },
                  .want = {At("E claim.request.count.invalid @ ", kExact) + ".count"}},
        ClaimCase{.name = "AllWithoutCount",
                  .mutate = [](auto& c) { X(c).allocation_mode = "All"; },
                  .want = {}}),
    [](const auto& test_case) { return test_case.param.name; });

constexpr char kSub0[] = "spec.devices.requests[0].firstAvailable[0]";

void Subs(k8s::ResourceClaim& c, size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back("s" + std::to_string(i));
  c.spec.devices.requests[0] = FirstAvailable("gpu", names);
}

INSTANTIATE_TEST_SUITE_P(
    FirstAvailable, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "EightSubrequests", .mutate = [](auto& c) { Subs(c, 8); }, .want = {}},
        ClaimCase{.name = "NineSubrequests",
                  .mutate = [](auto& c) { Subs(c, 9); },
                  .want = {"E claim.request.first-available.too-many @ "
                           "spec.devices.requests[0].firstAvailable"}},
        ClaimCase{.name = "BadSubrequestName",
                  .mutate =
                      [](auto& c) {
                        Subs(c, 1);
                        c.spec.devices.requests[0].first_available[0].name = "Sub";
                      },
                  .want = {At("E claim.subrequest.name.invalid @ ", kSub0) + ".name"}},
        ClaimCase{.name = "DuplicateSubrequest",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.requests[0] = FirstAvailable("gpu", {"a", "a"});
                      },
                  .want = {"E claim.subrequest.name.duplicate @ "
                           "spec.devices.requests[0].firstAvailable[1]"}},
        ClaimCase{
            .name = "SubrequestMayShareRequestName",
            .mutate = [](auto& c) { c.spec.devices.requests[0] = FirstAvailable("gpu", {"gpu"}); },
            .want = {}},
        ClaimCase{.name = "SubrequestFieldsValidated",
                  .mutate =
                      [](auto& c) {
                        Subs(c, 2);
                        c.spec.devices.requests[0].first_available[0].device_class_name = "";
                        c.spec.devices.requests[0].first_available[1].count = -2;
                      },
                  .want = {At("E claim.request.device-class-name.required @ ", kSub0) +
                               ".deviceClassName",
                           "E claim.request.count.invalid @ "
                           "spec.devices.requests[0].firstAvailable[1].count"}},
        ClaimCase{.name = "PrioritizedListOffDropsFirstAvailable",
                  .mutate = [](auto& c) { Subs(c, 2); },
                  .want = {"W claim.request.first-available.dropped @ "
                           "spec.devices.requests[0].firstAvailable",
                           At("E claim.request.exactly-or-first-available.missing @ ", kReq)},
                  .gates = "DRAPrioritizedList=false"}),
    [](const auto& test_case) { return test_case.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Tolerations, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "DroppedWhileGateOff",
                  .mutate = [](auto& c) { X(c).tolerations.push_back(Toleration("k", "bogus")); },
                  .want = {At("W claim.request.tolerations.dropped @ ", kExact) + ".tolerations"}},
        // V8: DRADeviceTaints is on by default in 1.36, so tolerations are validated.
        ClaimCase{.name = "TolerationValidatedByDefault136",
                  .mutate = [](auto& c) { X(c).tolerations.push_back(Toleration("k", "bogus")); },
                  .want = {At("E toleration.operator.unsupported @ ", kExact) +
                           ".tolerations[0].operator"},
                  .version = KubernetesVersion::k1_36},
        ClaimCase{.name = "TolerationEffectNone136",
                  .mutate =
                      [](auto& c) {
                        X(c).tolerations.push_back(Toleration("k", "Exists", "", "None"));
                      },
                  .want = {},
                  .version = KubernetesVersion::k1_36},
        ClaimCase{.name = "ValidWithGate",
                  .mutate =
                      [](auto& c) {
                        X(c).tolerations.push_back(
                            Toleration("example.com/k", "", "v", "NoSchedule"));
                        X(c).tolerations.push_back(Toleration("k", "Exists", "", "NoExecute"));
                      },
                  .want = {},
                  .gates = "DRADeviceTaints=true"},
        ClaimCase{.name = "BadOperator",
                  .mutate = [](auto& c) { X(c).tolerations.push_back(Toleration("k", "exists")); },
                  .want = {At("E toleration.operator.unsupported @ ", kExact) +
                           ".tolerations[0].operator"},
                  .gates = "DRADeviceTaints=true"},
        ClaimCase{
            .name = "ExistsWithValue",
            .mutate = [](auto& c) { X(c).tolerations.push_back(Toleration("k", "Exists", "v")); },
            .want = {At("E toleration.value.invalid @ ", kExact) + ".tolerations[0].value"},
            .gates = "DRADeviceTaints=true"},
        ClaimCase{
            .name = "BadKey",
            .mutate = [](auto& c) { X(c).tolerations.push_back(Toleration("bad key", "Exists")); },
            .want = {At("E toleration.key.invalid @ ", kExact) + ".tolerations[0].key"},
            .gates = "DRADeviceTaints=true"},
        ClaimCase{
            .name = "EffectNone135",
            .mutate =
                [](auto& c) { X(c).tolerations.push_back(Toleration("k", "Exists", "", "None")); },
            .want = {},
            .gates = "DRADeviceTaints=true"},
        ClaimCase{
            .name = "EffectNone134",
            .mutate =
                [](auto& c) { X(c).tolerations.push_back(Toleration("k", "Exists", "", "None")); },
            .want = {At("E toleration.effect.unsupported @ ", kExact) + ".tolerations[0].effect"},
            .version = KubernetesVersion::k1_34,
            .gates = "DRADeviceTaints=true"},
        ClaimCase{
            .name = "EmptyKeyWithEqualWarns",
            .mutate = [](auto& c) { X(c).tolerations.push_back(Toleration("", "")); },
            .want = {At("W toleration.key.empty-needs-exists @ ", kExact) + ".tolerations[0].key"},
            .gates = "DRADeviceTaints=true"},
        ClaimCase{.name = "SeventeenTolerationsWarn",
                  .mutate = [](auto& c) { X(c).tolerations.assign(17, Toleration("k", "Exists")); },
                  .want = {At("W toleration.too-many @ ", kExact) + ".tolerations"},
                  .gates = "DRADeviceTaints=true"},
        ClaimCase{.name = "SixteenTolerations",
                  .mutate = [](auto& c) { X(c).tolerations.assign(16, Toleration("k", "Exists")); },
                  .want = {},
                  .gates = "DRADeviceTaints=true"},
        ClaimCase{.name = "CapacityDroppedWhileGateOff",
                  .mutate =
                      [](auto& c) {
                        X(c).capacity = k8s::CapacityRequirements{{{"mem", "1Gi"}}};
                      },
                  .want = {At("W claim.request.capacity.dropped @ ", kExact) + ".capacity"}},
        ClaimCase{.name = "CapacityKeyAdvice",
                  .mutate =
                      [](auto& c) {
                        X(c).capacity = k8s::CapacityRequirements{{{"a/b/c", "1"}, {"9x", "-1"}}};
                      },
                  .want = {At("W claim.request.capacity.key.invalid @ ", kExact) +
                               ".capacity.requests[9x]",
                           At("W claim.request.capacity.value.not-positive @ ", kExact) +
                               ".capacity.requests[9x]"},
                  .gates = "DRAConsumableCapacity=true"}),
    [](const auto& test_case) { return test_case.param.name; });

constexpr char kCon0[] = "spec.devices.constraints[0]";

INSTANTIATE_TEST_SUITE_P(
    Constraints, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "MatchAttribute",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(
                            Match("gpu.example.com/model", {"gpu"}));
                      },
                  .want = {}},
        ClaimCase{
            .name = "ThirtyThreeConstraints",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.assign(33, Match("example.com/m")); },
            .want = {"E claim.constraints.too-many @ spec.devices.constraints"}},
        ClaimCase{.name = "AttributeWithoutDomain",
                  .mutate = [](auto& c) { c.spec.devices.constraints.push_back(Match("model")); },
                  .want = {At("E claim.constraint.match-attribute.invalid @ ", kCon0) +
                           ".matchAttribute"}},
        ClaimCase{.name = "AttributeIdentifier33",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Match("a.com/" + Repeat('x', 33)));
                      },
                  .want = {At("E claim.constraint.match-attribute.invalid @ ", kCon0) +
                           ".matchAttribute"}},
        ClaimCase{.name = "AttributeIdentifier32",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Match("a.com/" + Repeat('x', 32)));
                      },
                  .want = {}},
        ClaimCase{
            .name = "UpperCaseDomainAccepted",
            .mutate = [](auto& c) { c.spec.devices.constraints.push_back(Match("GPU.com/m")); },
            .want = {}},
        ClaimCase{
            .name = "ThreeSegmentsPassWithWarning",
            .mutate = [](auto& c) { c.spec.devices.constraints.push_back(Match("a.com/b/c")); },
            .want = {At("W claim.constraint.attribute.unchecked @ ", kCon0) + ".matchAttribute"}},
        ClaimCase{
            .name = "NoAttribute",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(k8s::DeviceConstraint{}); },
            .want = {At("E claim.constraint.attribute.required @ ", kCon0) + ".matchAttribute"}},
        ClaimCase{
            .name = "NoAttributeConsumableCapacity",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(k8s::DeviceConstraint{}); },
            .want = {At("E claim.constraint.attribute.required @ ", kCon0)},
            .gates = "DRAConsumableCapacity=true"},
        // The API server never drops distinctAttribute (V5/V6): with DRAConsumableCapacity off
        // (1.34/1.35 default) it is validated and kept, and a warning says the scheduler fails.
        ClaimCase{
            .name = "DistinctKeptWhileGateOff",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Distinct("example.com/id")); },
            .want = {At("W claim.constraint.distinct-attribute.gate-off @ ", kCon0) +
                     ".distinctAttribute"}},
        ClaimCase{
            .name = "DistinctKeptWhileGateOff134",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Distinct("example.com/id")); },
            .want = {At("W claim.constraint.distinct-attribute.gate-off @ ", kCon0) +
                     ".distinctAttribute"},
            .version = KubernetesVersion::k1_34},
        ClaimCase{.name = "Distinct136",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Distinct("example.com/id"));
                      },
                  .want = {},
                  .version = KubernetesVersion::k1_36},
        // The warning follows the allocator channel the gates select (release.h), not the gate
        // alone: with both binding-condition gates on, 1.35 runs experimental and 1.36
        // incubating, both honour distinctAttribute; 1.36 without them runs stable.
        ClaimCase{.name = "DistinctGateOffExperimental135",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Distinct("example.com/id"));
                      },
                  .want = {},
                  .version = KubernetesVersion::k1_35,
                  .gates = "DRADeviceBindingConditions=true"},
        ClaimCase{.name = "DistinctGateOffIncubating136",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Distinct("example.com/id"));
                      },
                  .want = {},
                  .version = KubernetesVersion::k1_36,
                  .gates = "DRAConsumableCapacity=false"},
        ClaimCase{.name = "DistinctGateOffStable136",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Distinct("example.com/id"));
                      },
                  .want = {At("W claim.constraint.distinct-attribute.gate-off @ ", kCon0) +
                           ".distinctAttribute"},
                  .version = KubernetesVersion::k1_36,
                  .gates = "DRAConsumableCapacity=false,DRADeviceBindingConditions=false"},
        ClaimCase{
            .name = "DistinctInvalidWhileGateOff",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Distinct("id")); },
            .want = {At("W claim.constraint.distinct-attribute.gate-off @ ", kCon0) +
                         ".distinctAttribute",
                     At("E claim.constraint.distinct-attribute.invalid @ ", kCon0) +
                         ".distinctAttribute"}},
        ClaimCase{.name = "NoAttribute136",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(k8s::DeviceConstraint{});
                      },
                  .want = {At("E claim.constraint.attribute.required @ ", kCon0)},
                  .version = KubernetesVersion::k1_36},
        ClaimCase{.name = "DistinctWithGate",
                  .mutate =
                      [](auto& c) { c.spec.devices.constraints.push_back(Distinct("id")); },
                  .want = {At("E claim.constraint.distinct-attribute.invalid @ ", kCon0) +
                           ".distinctAttribute"},
                  .gates = "DRAConsumableCapacity=true"},
        ClaimCase{
            .name = "BothAttributesWarn",
            .mutate =
                [](auto& c) {
                  k8s::DeviceConstraint con = Match("example.com/m");
                  con.distinct_attribute = "example.com/id";
                  c.spec.devices.constraints.push_back(con);
                },
            .want = {At("W claim.constraint.attribute.both @ ", kCon0) + ".distinctAttribute"},
            .gates = "DRAConsumableCapacity=true"},
        ClaimCase{
            .name = "UnknownRequest",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Match("a.com/m", {"nope"})); },
            .want = {At("E claim.constraint.requests.unknown @ ", kCon0) + ".requests[0]"}},
        ClaimCase{.name = "DuplicateRequestRef",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.constraints.push_back(Match("a.com/m", {"gpu", "gpu"}));
                      },
                  .want = {At("E claim.constraint.requests.duplicate @ ", kCon0) + ".requests[1]"}},
        ClaimCase{
            .name = "ThreeSegmentRef",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Match("a.com/m", {"a/b/c"})); },
            .want = {At("E claim.constraint.requests.invalid @ ", kCon0) + ".requests[0]"}},
        ClaimCase{
            .name = "BadSegmentRef",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Match("a.com/m", {"Gpu"})); },
            .want = {At("E claim.constraint.requests.invalid @ ", kCon0) + ".requests[0]",
                     At("E claim.constraint.requests.unknown @ ", kCon0) + ".requests[0]"}},
        ClaimCase{
            .name = "SubrequestRefOfExactlyRequest",
            .mutate =
                [](auto& c) { c.spec.devices.constraints.push_back(Match("a.com/m", {"gpu/x"})); },
            .want = {At("E claim.constraint.requests.unknown @ ", kCon0) + ".requests[0]"}},
        ClaimCase{
            .name = "SubrequestRef",
            .mutate =
                [](auto& c) {
                  c.spec.devices.requests[0] = FirstAvailable("gpu", {"big", "small"});
                  c.spec.devices.constraints.push_back(Match("a.com/m", {"gpu/small", "gpu"}));
                },
            .want = {}},
        ClaimCase{
            .name = "ThirtyTwoRefs",
            .mutate =
                [](auto& c) {
                  ManyRequests(c, 32);
                  std::vector<std::string> refs;
                  for (int i = 0; i < 32; ++i) refs.push_back("r" + std::to_string(i));
                  c.spec.devices.constraints.push_back(Match("a.com/m", refs));
                  c.spec.devices.config.push_back(Opaque("d.com", refs));
                },
            .want = {}},
        ClaimCase{
            .name = "ThirtyThreeRefs",
            .mutate =
                [](auto& c) {
                  c.spec.devices.constraints.push_back(
                      Match("a.com/m", std::vector<std::string>(33, "gpu")));
                },
            .want = {At("E claim.constraint.requests.too-many @ ", kCon0) + ".requests"}}),
    [](const auto& test_case) { return test_case.param.name; });

constexpr char kCfg0[] = "spec.devices.config[0]";

k8s::OpaqueDeviceConfiguration& Op(k8s::ResourceClaim& c) {
  if (c.spec.devices.config.empty()) c.spec.devices.config.push_back(Opaque());
  return *c.spec.devices.config[0].opaque;
}

INSTANTIATE_TEST_SUITE_P(
    Config, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "ValidConfig",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.config.push_back(Opaque("GPU.Example.com", {"gpu"}));
                      },
                  .want = {}},
        ClaimCase{.name = "ThirtyThreeConfigs",
                  .mutate = [](auto& c) { c.spec.devices.config.assign(33, Opaque()); },
                  .want = {"E claim.config.too-many @ spec.devices.config"}},
        ClaimCase{
            .name = "OpaqueMissing",
            .mutate =
                [](auto& c) { c.spec.devices.config.push_back(k8s::DeviceClaimConfiguration{}); },
            .want = {At("E config.opaque.required @ ", kCfg0) + ".opaque"}},
        ClaimCase{.name = "DriverEmpty",
                  .mutate = [](auto& c) { Op(c).driver = ""; },
                  .want = {At("E config.driver.invalid @ ", kCfg0) + ".opaque.driver",
                           At("E config.driver.invalid @ ", kCfg0) + ".opaque.driver"}},
        ClaimCase{.name = "Driver63",
                  .mutate = [](auto& c) { Op(c).driver = Repeat('a', 63); },
                  .want = {}},
        ClaimCase{.name = "Driver64",
                  .mutate = [](auto& c) { Op(c).driver = Repeat('a', 64); },
                  .want = {At("E config.driver.invalid @ ", kCfg0) + ".opaque.driver"}},
        ClaimCase{.name = "ParametersNull",
                  .mutate = [](auto& c) { Op(c).parameters_json = "null"; },
                  .want = {At("E config.parameters.required @ ", kCfg0) + ".opaque.parameters"}},
        ClaimCase{.name = "Parameters10240",
                  .mutate = [](auto& c) { Op(c).parameters_raw_size = 10240; },
                  .want = {}},
        ClaimCase{.name = "Parameters10241",
                  .mutate = [](auto& c) { Op(c).parameters_raw_size = 10241; },
                  .want = {At("E config.parameters.too-long @ ", kCfg0) + ".opaque.parameters"}},
        ClaimCase{.name = "ParametersNotObject",
                  .mutate =
                      [](auto& c) {
                        Op(c).parameters_json = "[1]";
                        Op(c).parameters_is_object = false;
                      },
                  .want = {At("E config.parameters.invalid @ ", kCfg0) + ".opaque.parameters"}},
        ClaimCase{
            .name = "UnknownRequestInConfig",
            .mutate = [](auto& c) { c.spec.devices.config.push_back(Opaque("d.com", {"tpu"})); },
            .want = {At("E claim.config.requests.unknown @ ", kCfg0) + ".requests[0]"}},
        // A config's references take the same checks as a constraint's (and the same
        // shortcut for a clean list: these must still be found).
        ClaimCase{
            .name = "DuplicateRequestInConfig",
            .mutate =
                [](auto& c) { c.spec.devices.config.push_back(Opaque("d.com", {"gpu", "gpu"})); },
            .want = {At("E claim.config.requests.duplicate @ ", kCfg0) + ".requests[1]"}},
        ClaimCase{
            .name = "BadSegmentRefInConfig",
            .mutate = [](auto& c) { c.spec.devices.config.push_back(Opaque("d.com", {"Gpu"})); },
            .want = {At("E claim.config.requests.invalid @ ", kCfg0) + ".requests[0]",
                     At("E claim.config.requests.unknown @ ", kCfg0) + ".requests[0]"}},
        ClaimCase{
            .name = "ThreeSegmentRefInConfig",
            .mutate = [](auto& c) { c.spec.devices.config.push_back(Opaque("d.com", {"a/b/c"})); },
            .want = {At("E claim.config.requests.invalid @ ", kCfg0) + ".requests[0]"}},
        ClaimCase{
            .name = "ThirtyThreeRefsInConfig",
            .mutate =
                [](auto& c) {
                  c.spec.devices.config.push_back(
                      Opaque("d.com", std::vector<std::string>(33, "gpu")));
                },
            .want = {At("E claim.config.requests.too-many @ ", kCfg0) + ".requests"}}),
    [](const auto& test_case) { return test_case.param.name; });

INSTANTIATE_TEST_SUITE_P(
    AdminAccessAndMeta, ResourceClaimTest,
    ::testing::Values(
        ClaimCase{.name = "AdminAllowed",
                  .mutate = [](auto& c) { X(c).admin_access = true; },
                  .want = {},
                  .namespaces = kAdminNs},
        ClaimCase{.name = "AdminLabelMissing",
                  .mutate = [](auto& c) { X(c).admin_access = true; },
                  .want = {"E claim.admin-access.forbidden @ spec.devices.requests[0].adminAccess"},
                  .namespaces = {{"ns", {{"team", "a"}}}}},
        ClaimCase{.name = "AdminLabelValueCaseSensitive",
                  .mutate = [](auto& c) { X(c).admin_access = true; },
                  .want = {"E claim.admin-access.forbidden @ spec.devices.requests[0].adminAccess"},
                  .namespaces = {{"ns", {{"resource.kubernetes.io/admin-access", "True"}}}}},
        ClaimCase{.name = "AdminOldLabelKeyRejected",
                  .mutate = [](auto& c) { X(c).admin_access = true; },
                  .want = {"E claim.admin-access.forbidden @ spec.devices.requests[0].adminAccess"},
                  .namespaces = {{"ns", {{"resource.k8s.io/admin-access", "true"}}}}},
        ClaimCase{
            .name = "AdminNamespaceUnknown",
            .mutate = [](auto& c) { X(c).admin_access = true; },
            .want = {"W claim.admin-access.unverified @ spec.devices.requests[0].adminAccess"}},
        ClaimCase{.name = "AdminFalseNeverChecked",
                  .mutate = [](auto& c) { X(c).admin_access = false; },
                  .want = {}},
        ClaimCase{.name = "AdminFirstRequestOnly",
                  .mutate =
                      [](auto& c) {
                        c.spec.devices.requests.push_back(Exact("b"));
                        c.spec.devices.requests.push_back(Exact("c"));
                        X(c, 1).admin_access = true;
                        X(c, 2).admin_access = true;
                      },
                  .want = {"E claim.admin-access.forbidden @ spec.devices.requests[1].adminAccess"},
                  .namespaces = {{"ns", {}}}},
        ClaimCase{.name = "AdminDroppedWhileGateOff",
                  .mutate = [](auto& c) { X(c).admin_access = true; },
                  .want = {At("W claim.admin-access.dropped @ ", kExact) + ".adminAccess"},
                  .gates = "DRAAdminAccess=false",
                  .namespaces = {{"ns", {}}}},
        ClaimCase{.name = "NameMissing",
                  .mutate = [](auto& c) { c.metadata.name = ""; },
                  .want = {"E meta.name.required @ metadata.name"}},
        ClaimCase{.name = "GenerateNameOnly",
                  .mutate =
                      [](auto& c) {
                        c.metadata.name = "";
                        c.metadata.generate_name = "claim-";
                      },
                  .want = {}},
        ClaimCase{.name = "BadName",
                  .mutate = [](auto& c) { c.metadata.name = "My_Claim"; },
                  .want = {"E meta.name.invalid @ metadata.name"}},
        ClaimCase{.name = "BadLabel",
                  .mutate = [](auto& c) { c.metadata.labels["a b"] = "ok"; },
                  .want = {"E meta.labels.invalid @ metadata.labels"}},
        ClaimCase{.name = "BadLabelValue",
                  .mutate = [](auto& c) { c.metadata.labels["ok"] = "-bad"; },
                  .want = {"E meta.labels.invalid @ metadata.labels"}},
        ClaimCase{.name = "BadLabelKeyAndValue",
                  .mutate = [](auto& c) { c.metadata.labels["a b"] = "-bad"; },
                  .want = {"E meta.labels.invalid @ metadata.labels",
                           "E meta.labels.invalid @ metadata.labels"}},
        // Annotation keys are checked lowered (apimachinery ValidateAnnotations).
        ClaimCase{.name = "UpperCaseAnnotationKey",
                  .mutate = [](auto& c) { c.metadata.annotations["Example.COM/Key"] = "v"; },
                  .want = {}},
        ClaimCase{.name = "BadUpperCaseAnnotationKey",
                  .mutate = [](auto& c) { c.metadata.annotations["Bad_Prefix.com/Key"] = "v"; },
                  .want = {"E meta.annotations.invalid @ metadata.annotations"}},
        ClaimCase{.name = "BadAnnotationKey",
                  .mutate = [](auto& c) { c.metadata.annotations["a/b/c"] = "v"; },
                  .want = {"E meta.annotations.invalid @ metadata.annotations"}},
        ClaimCase{.name = "BadGenerateName",
                  .mutate =
                      [](auto& c) {
                        c.metadata.name = "";
                        c.metadata.generate_name = "Claim-";
                      },
                  .want = {"E meta.generate-name.invalid @ metadata.generateName"}},
        ClaimCase{
            .name = "AnnotationsAtLimit",
            .mutate = [](auto& c) { c.metadata.annotations["a"] = Repeat('v', 256 * 1024 - 1); },
            .want = {}},
        ClaimCase{.name = "AnnotationsTooLong",
                  .mutate = [](auto& c) { c.metadata.annotations["a"] = Repeat('v', 256 * 1024); },
                  .want = {"E meta.annotations.too-long @ metadata.annotations"}},
        ClaimCase{.name = "StatusIgnoredOnCreate",
                  .mutate = [](auto& c) { c.status.emplace(); },
                  .want = {"W claim.status.ignored @ status"}}),
    [](const auto& test_case) { return test_case.param.name; });

TEST(ResourceClaimTest, MessagesMatchTheApiServer) {
  k8s::ResourceClaim claim = Claim();
  X(claim).count = -1;
  X(claim).allocation_mode = "ExactCount";
  claim.spec.devices.requests.push_back(Exact("gpu"));
  Diagnostics d;
  ValidateResourceClaim(claim, Options(), d);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.items()[0].field, "spec.devices.requests[0].exactly.count");
  EXPECT_EQ(d.items()[0].message, "Invalid value: -1: must be greater than zero");
  EXPECT_EQ(d.items()[1].message, "Duplicate value: \"gpu\"");
}

TEST(ResourceClaimTest, AdminAccessMessage) {
  k8s::ResourceClaim claim = Claim();
  X(claim).admin_access = true;
  ValidationOptions options = Options();
  options.namespace_labels = {{"ns", {}}};
  Diagnostics d;
  ValidateResourceClaim(claim, options, d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items()[0].message,
            "Forbidden: admin access to devices requires the "
            "`resource.kubernetes.io/admin-access: true` label on the containing namespace");
  EXPECT_FALSE(d.items()[0].suggestion.empty());
}

TEST(ResourceClaimTest, Suggestions) {
  k8s::ResourceClaim claim = Claim();
  claim.spec.devices.requests[0].name = "My_GPU";
  X(claim).allocation_mode = "all";
  X(claim).device_class_name = "GPU.Example.com";
  claim.spec.devices.requests.push_back(Exact("tpu"));
  claim.spec.devices.constraints.push_back(Match("a.com/m", {"tpuu"}));
  Diagnostics d;
  ValidateResourceClaim(claim, Options(), d);
  std::map<std::string, std::string> by_code;
  for (const Diagnostic& diag : d) by_code[diag.code] = diag.suggestion;
  EXPECT_EQ(by_code["claim.request.name.invalid"], "my-gpu");
  EXPECT_EQ(by_code["claim.request.allocation-mode.unsupported"], "All");
  EXPECT_EQ(by_code["claim.request.device-class-name.invalid"], "gpu.example.com");
  EXPECT_EQ(by_code["claim.constraint.requests.unknown"], "tpu");
}

TEST(ResourceClaimTest, SelectorCheckerSeesFullPathAndKind) {
  k8s::ResourceClaim claim = Claim();
  X(claim).selectors = {Cel("a"), Cel(Repeat('x', 10241)), Cel("b")};
  ValidationOptions options = Options();
  std::vector<std::string> seen;
  options.selector_checker = [&](std::string_view expr, const FieldPath& field, SelectorKind kind,
                                 Diagnostics& d, cel::CompiledSelectors*) {
    seen.push_back(std::string(expr) + "@" + field.String());
    EXPECT_EQ(kind, SelectorKind::kNewExpression);
    d.Error("cel.test", field, "checked");
  };
  Diagnostics d;
  ValidateResourceClaim(claim, options, d);
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "a@spec.devices.requests[0].exactly.selectors[0].cel.expression",
                      "b@spec.devices.requests[0].exactly.selectors[2].cel.expression"}));
  EXPECT_EQ(d.error_count(), 3u);
}

TEST(ResourceClaimTest, DiagnosticsAreCapped) {
  k8s::ResourceClaim claim = Claim();
  X(claim).selectors.assign(30, k8s::DeviceSelector{});
  ValidationOptions options = Options();
  options.limits.max_diagnostics_per_object = 5;
  Diagnostics d;
  ValidateResourceClaim(claim, options, d);
  ASSERT_EQ(d.size(), 6u);
  EXPECT_EQ(d.items()[5].code, "validate.too-many-diagnostics");
}

}  // namespace
}  // namespace draguard::validate
