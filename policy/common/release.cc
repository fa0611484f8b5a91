// The release table (release.h). Sources per column are listed in docs/k8s-releases.md:
// gates from kubernetes/kubernetes defaultVersionedKubernetesFeatureGates (and the website's
// feature-gate pages for DRAResourcePoolStatus and
// DRAResourceClaimGranularStatusAuthorization), served versions from kubernetes/api
// register.go and zz_generated.prerelease-lifecycle.go at v0.34.0 / v0.35.0 / v0.36.0.
#include "policy/common/release.h"

#include <iterator>

namespace draguard {
namespace {

constexpr GateState kUnknown{};
constexpr GateState kOff{.known = true};
constexpr GateState kOn{.known = true, .on = true};
constexpr GateState kLockedOn{.known = true, .on = true, .locked = true};

// One gate's state in 1.34, 1.35 and 1.36 (the ladder's last step at or below the release).
struct GateLadder {
  Gate gate;
  std::array<GateState, 3> per_release;
};

constexpr std::array<GateLadder, kGateCount> kGateLadders = {{
    {Gate::kDynamicResourceAllocation, {kOn, kLockedOn, kLockedOn}},
    {Gate::kDRAPrioritizedList, {kOn, kOn, kOn}},  // GA in 1.36, not locked
    {Gate::kDRAAdminAccess, {kOn, kOn, kLockedOn}},
    {Gate::kDRAResourceClaimDeviceStatus, {kOn, kOn, kOn}},
    {Gate::kDRADeviceTaints, {kOff, kOff, kOn}},
    {Gate::kDRADeviceTaintRules, {kUnknown, kOff, kOff}},  // 1.36: beta, off-by-default API
    {Gate::kDRAConsumableCapacity, {kOff, kOff, kOn}},
    {Gate::kDRADeviceBindingConditions, {kOff, kOff, kOn}},
    {Gate::kDRAExtendedResource, {kOff, kOff, kOn}},
    {Gate::kDRAPartitionableDevices, {kOff, kOff, kOn}},
    {Gate::kDeclarativeValidation, {kOn, kOn, kLockedOn}},
    {Gate::kDeclarativeValidationTakeover, {kOff, kOff, kOff}},  // deprecated in 1.36
    {Gate::kDRASchedulerFilterTimeout, {kOn, kOn, kOn}},
    {Gate::kDRAListTypeAttributes, {kUnknown, kUnknown, kOff}},
    {Gate::kDRANodeAllocatableResources, {kUnknown, kUnknown, kOff}},
    {Gate::kDRAWorkloadResourceClaims, {kUnknown, kUnknown, kOff}},
    {Gate::kDRAResourcePoolStatus, {kUnknown, kUnknown, kOff}},
    {Gate::kDRAResourceClaimGranularStatusAuthorization, {kUnknown, kUnknown, kOn}},
    {Gate::kDeclarativeValidationBeta, {kUnknown, kUnknown, kOn}},
}};

constexpr std::array<GateState, kGateCount> GatesOf(size_t column) {
  std::array<GateState, kGateCount> gates{};
  for (const GateLadder& ladder : kGateLadders) {
    gates[static_cast<size_t>(ladder.gate)] = ladder.per_release[column];
  }
  return gates;
}

// The four core kinds are served alike in every version; DeviceTaintRule differs.
#define DRAGUARD_CORE_KINDS(VERSION, BY_DEFAULT, DEPRECATED, REMOVED)          \
  ServedKind{"ResourceClaim", VERSION, BY_DEFAULT, DEPRECATED, REMOVED},         \
      ServedKind{"ResourceClaimTemplate", VERSION, BY_DEFAULT, DEPRECATED, REMOVED}, \
      ServedKind{"DeviceClass", VERSION, BY_DEFAULT, DEPRECATED, REMOVED},       \
      ServedKind{"ResourceSlice", VERSION, BY_DEFAULT, DEPRECATED, REMOVED}

constexpr ServedKind kServedBefore136[] = {
    DRAGUARD_CORE_KINDS("v1", true, 0, 0),
    DRAGUARD_CORE_KINDS("v1beta2", false, 36, 39),
    DRAGUARD_CORE_KINDS("v1beta1", false, 35, 38),
    ServedKind{"DeviceTaintRule", "v1alpha3", false, 36, 39},
};
constexpr ServedKind kServed136[] = {
    DRAGUARD_CORE_KINDS("v1", true, 0, 0),
    DRAGUARD_CORE_KINDS("v1beta2", false, 36, 39),
    DRAGUARD_CORE_KINDS("v1beta1", false, 35, 38),
    ServedKind{"DeviceTaintRule", "v1beta2", false, 39, 42},
    ServedKind{"DeviceTaintRule", "v1alpha3", false, 36, 39},
    ServedKind{"ResourcePoolStatusRequest", "v1alpha3", false, 39, 42},
};
#undef DRAGUARD_CORE_KINDS

constexpr ValidationDialect kValidation134{
    .too_many_short_circuits = false,
    .duplicate_at_item = false,
    .taint_effect_none = false,
    .attribute_key_error_at_map = false,
    .claim_update_revalidates_spec = true,
    .class_update_validates_as_create = true,
    .max_taints_per_device = 4,
    .device_limit_for_taints_and_counters = false,
    .taint_rule_selector_has_class_and_cel = true,
    .taint_rule_update_revalidates_effect = true,
    .taint_rule_gate = Gate::kDRADeviceTaints,
};
constexpr ValidationDialect kValidation135{
    .too_many_short_circuits = true,
    .duplicate_at_item = true,
    .taint_effect_none = true,
    .attribute_key_error_at_map = true,
    .claim_update_revalidates_spec = false,
    .class_update_validates_as_create = false,
    .max_taints_per_device = 16,
    .device_limit_for_taints_and_counters = true,
    .taint_rule_selector_has_class_and_cel = false,
    .taint_rule_update_revalidates_effect = false,
    .taint_rule_gate = Gate::kDRADeviceTaintRules,
};

constexpr AllocatorSemantics kAlloc134{
    .invalid_pool_fatal = true,
    .all_taint_effects_block = true,
    .rule_taints_without_rule_gate = true,
    .result_tolerations = false,
    .counter_slices_visible_everywhere = false,
    .pool_completeness_counts_all_nodes = false,
    .incomplete_pool_usable = true,
    .skip_obsolete_generation = false,
    .first_available_all_fixed = false,
};
constexpr AllocatorSemantics kAlloc135{
    .invalid_pool_fatal = false,
    .all_taint_effects_block = false,
    .rule_taints_without_rule_gate = false,
    .result_tolerations = true,
    .counter_slices_visible_everywhere = true,
    .pool_completeness_counts_all_nodes = true,
    .incomplete_pool_usable = false,
    .skip_obsolete_generation = true,
    .first_available_all_fixed = false,
};
// 1.36 keeps the 1.35 semantics otherwise; what changes besides is which features are on by
// default (the gates above). List-typed attribute semantics follow DRAListTypeAttributes,
// which only 1.36 knows (the experimental allocator that implements them is the only one
// supporting the feature).
constexpr AllocatorSemantics kAlloc136 = [] {
  AllocatorSemantics sem = kAlloc135;
  sem.first_available_all_fixed = true;
  return sem;
}();

// Allocator channels (SupportedFeatures of structured/internal/*/allocator_*.go at v0.34.0,
// v0.35.0 and v0.36.0 of kubernetes/dynamic-resource-allocation).
using F = AllocatorFeature;
constexpr AllocatorFeatures kBasicFeatures = FeatureBit(F::kAdminAccess) |
                                             FeatureBit(F::kPrioritizedList) |
                                             FeatureBit(F::kPartitionableDevices) |
                                             FeatureBit(F::kDeviceTaints);
constexpr AllocatorFeatures kCapacityAndBinding =
    FeatureBit(F::kConsumableCapacity) | FeatureBit(F::kDeviceBindingAndStatus);
constexpr std::array<AllocatorChannel, 3> kChannelsBefore136 = {{
    {.name = "stable", .supported = 0, .sorts_slices_by_name = false},
    {.name = "incubating", .supported = kBasicFeatures, .sorts_slices_by_name = false},
    {.name = "experimental", .supported = kBasicFeatures | kCapacityAndBinding,
     .sorts_slices_by_name = false},
}};
constexpr std::array<AllocatorChannel, 3> kChannels136 = {{
    {.name = "stable", .supported = kBasicFeatures, .sorts_slices_by_name = false},
    {.name = "incubating", .supported = kBasicFeatures | kCapacityAndBinding,
     .sorts_slices_by_name = true},
    {.name = "experimental",
     .supported = kBasicFeatures | kCapacityAndBinding | FeatureBit(F::kListTypeAttributes),
     .sorts_slices_by_name = true},
}};

// 1.36 validation differs from 1.35 mostly in which gates are on; the text of the rules that
// run is the same (docs/k8s-releases.md A.4).
const Release kReleases[] = {
    {.version = KubernetesVersion::k1_34,
     .name = "1.34",
     .minor = 34,
     .gates = GatesOf(0),
     .served = kServedBefore136,
     .counters = CounterModel::kSliceTotals,
     .validation = kValidation134,
     .cel = {.lists_v3_in_new_expressions = false, .list_type_attributes = false},
     .alloc = kAlloc134,
     .channels = kChannelsBefore136},
    {.version = KubernetesVersion::k1_35,
     .name = "1.35",
     .minor = 35,
     .gates = GatesOf(1),
     .served = kServedBefore136,
     .counters = CounterModel::kCounterSets,
     .validation = kValidation135,
     .cel = {.lists_v3_in_new_expressions = true, .list_type_attributes = false},
     .alloc = kAlloc135,
     .channels = kChannelsBefore136},
    {.version = KubernetesVersion::k1_36,
     .name = "1.36",
     .minor = 36,
     .gates = GatesOf(2),
     .served = kServed136,
     .counters = CounterModel::kCounterSets,
     .validation = kValidation135,
     .cel = {.lists_v3_in_new_expressions = true, .list_type_attributes = true},
     .alloc = kAlloc136,
     .channels = kChannels136},
};

}  // namespace

const ServedKind* Release::Served(std::string_view kind, std::string_view api_version) const {
  for (const ServedKind& s : served) {
    if (s.kind == kind && s.version == api_version) return &s;
  }
  return nullptr;
}

AllocatorFeatures EnabledAllocatorFeatures(const FeatureGates& gates) {
  AllocatorFeatures out = 0;
  auto add = [&](AllocatorFeature f, bool on) {
    if (on) out |= FeatureBit(f);
  };
  add(F::kAdminAccess, gates.Enabled(Gate::kDRAAdminAccess));
  add(F::kPrioritizedList, gates.Enabled(Gate::kDRAPrioritizedList));
  add(F::kPartitionableDevices, gates.Enabled(Gate::kDRAPartitionableDevices));
  add(F::kDeviceTaints, gates.Enabled(Gate::kDRADeviceTaints));
  add(F::kConsumableCapacity, gates.Enabled(Gate::kDRAConsumableCapacity));
  add(F::kDeviceBindingAndStatus, gates.Enabled(Gate::kDRADeviceBindingConditions) &&
                                      gates.Enabled(Gate::kDRAResourceClaimDeviceStatus));
  add(F::kListTypeAttributes, gates.Enabled(Gate::kDRAListTypeAttributes));
  return out;
}

const AllocatorChannel& SelectAllocatorChannel(const Release& release, const FeatureGates& gates) {
  const AllocatorFeatures enabled = EnabledAllocatorFeatures(gates);
  for (const AllocatorChannel& channel : release.channels) {
    if ((channel.supported & enabled) == enabled) return channel;
  }
  return release.channels.back();
}

const Release& ReleaseFor(KubernetesVersion version) {
  return kReleases[static_cast<size_t>(version)];
}

std::span<const Release> KnownReleases() { return kReleases; }

const std::string& KnownReleaseList() {
  static const std::string list = [] {
    std::string out;
    const size_t n = std::size(kReleases);
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) out += i + 1 == n ? " and " : ", ";
      out += kReleases[i].name;
    }
    return out;
  }();
  return list;
}

}  // namespace draguard
