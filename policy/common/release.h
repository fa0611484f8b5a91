// One row per Kubernetes release draguard reproduces: everything that differs between
// releases (gate defaults and locks, served API versions, validation dialect and limits, CEL
// environment knobs, allocator semantics) is data here, and every version-dependent decision
// reads it. Adding a release is a new row plus the rules that are truly new; code never
// compares KubernetesVersion values. The rows and their upstream sources are listed for users
// in docs/k8s-releases.md.
#ifndef DRAGUARD_POLICY_COMMON_RELEASE_H_
#define DRAGUARD_POLICY_COMMON_RELEASE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "policy/common/kubernetes_version.h"

namespace draguard {

// A gate as one release's kube-apiserver knows it.
struct GateState {
  bool known = false;   // false: "unrecognized feature gate"
  bool on = false;      // the release's default
  bool locked = false;  // setting the other value makes kube-apiserver refuse to start
};

// How a release serves one kind in one resource.k8s.io version (register.go and
// zz_generated.prerelease-lifecycle.go at the release tag). Minor versions; 0 = none.
struct ServedKind {
  std::string_view kind;
  std::string_view version;  // "v1beta2"
  bool by_default;           // served without --runtime-config
  int deprecated_minor;      // the API server warns from this minor on
  int removed_minor;         // named in the deprecation warning
};

// How ResourceSlice counters are modelled and validated.
enum class CounterModel {
  kSliceTotals,  // 1.34: sharedCounters beside devices, per-slice totals, slice scope
  kCounterSets,  // 1.35+: counter sets xor devices, per-device consumption limits, pool scope
};

// Differences of kube-apiserver validation (pkg/apis/resource/validation at the tag).
struct ValidationDialect {
  // An over-limit list gets TooMany only; items and uniqueness are not checked (1.35+).
  bool too_many_short_circuits;
  // Duplicate keys are reported at list[i] (1.35+) instead of list[i].<name field>.
  bool duplicate_at_item;
  // Taint and toleration effect "None" is supported.
  bool taint_effect_none;
  // A bad attribute/capacity key is reported at the map (1.35+) instead of map[key].
  bool attribute_key_error_at_map;
  // ResourceClaim update re-validates the stored spec (StoredExpressions selectors).
  bool claim_update_revalidates_spec;
  // DeviceClass update validates the new object as on create (no ratcheting).
  bool class_update_validates_as_create;
  size_t max_taints_per_device;  // DeviceTaintsMaxLength
  // ResourceSliceMaxDevicesWithTaintsOrConsumesCounters applies (64 instead of 128).
  bool device_limit_for_taints_and_counters;
  // DeviceTaintRule selector still has deviceClassName and CEL selectors (1.34).
  bool taint_rule_selector_has_class_and_cel;
  // DeviceTaintRule update re-validates an unchanged taint effect (1.34).
  bool taint_rule_update_revalidates_effect;
  // The gate that serves DeviceTaintRule and applies rule taints.
  Gate taint_rule_gate;
};

// Differences of the device-selector CEL environment (dynamic-resource-allocation cel/).
struct CelDialect {
  // cel-go lists v3 is declared for NewExpressions: the compatibility version (release - 1)
  // is at least 1.34, where base.go introduces it.
  bool lists_v3_in_new_expressions;
  // The release's DRA CEL package knows list-typed attributes (1.36): the `includes` member
  // function (always in StoredExpressions, in NewExpressions with DRAListTypeAttributes) and,
  // with that gate, attribute values of type dyn that may be lists.
  bool list_type_attributes;
};

// Differences of the scheduler's structured allocator that draguard reproduces.
struct AllocatorSemantics {
  // Encountering an invalid pool fails the allocation (1.34) instead of skipping the pool.
  bool invalid_pool_fatal;
  // Every taint effect blocks (1.34); otherwise only NoSchedule and NoExecute.
  bool all_taint_effects_block;
  // DeviceTaintRule taints apply without their own gate (1.34: DRADeviceTaints suffices).
  bool rule_taints_without_rule_gate;
  // Allocation results carry the request's tolerations (with DRADeviceTaints on).
  bool result_tolerations;
  // Slices holding only sharedCounters join their pool on every node.
  bool counter_slices_visible_everywhere;
  // Pool completeness counts the slices of all nodes, not only the ones a node sees.
  bool pool_completeness_counts_all_nodes;
  // An incomplete pool is still used (1.34).
  bool incomplete_pool_usable;
  // A generation older than the newest seen anywhere is skipped.
  bool skip_obsolete_generation;
  // firstAvailable with allocationMode All works (1.36, kubernetes/kubernetes#137347). Before,
  // an All subrequest at index >= 1 used the selector results of its predecessor's cache slot
  // and, after its first device, continued as subrequest 0 would at its second device.
  bool first_available_all_fixed;
};

// Optional features of the scheduler's structured allocator (structured/internal/types.go
// `Features`), one bit each. 1.34 splits DeviceBindingAndStatus into DeviceBinding and
// DeviceStatus; draguard models both as one feature (see EnabledAllocatorFeatures).
enum class AllocatorFeature : uint8_t {
  kAdminAccess,
  kConsumableCapacity,
  kDeviceBindingAndStatus,
  kDeviceTaints,
  kListTypeAttributes,
  kPartitionableDevices,
  kPrioritizedList,
};
using AllocatorFeatures = uint32_t;  // bit i = AllocatorFeature i

constexpr AllocatorFeatures FeatureBit(AllocatorFeature f) {
  return AllocatorFeatures{1} << static_cast<unsigned>(f);
}
constexpr bool HasFeature(AllocatorFeatures set, AllocatorFeature f) {
  return (set & FeatureBit(f)) != 0;
}

// One implementation of the structured allocator (structured/internal/{stable,incubating,
// experimental}) as one release ships it. `NewAllocator` (structured/allocator.go) runs the
// first channel, stable -> incubating -> experimental, whose `supported` is a superset of the
// enabled features. What a channel does with a claim follows from its features:
//  * distinctAttribute is understood only by channels supporting ConsumableCapacity; the
//    others fail the claim with "empty constraint (unsupported constraint type?)";
//  * channels supporting ConsumableCapacity reject a request with `capacity` while the
//    feature is disabled ("has capacity requests, but the DRAConsumableCapacity feature is
//    disabled"); the others ignore `capacity`;
//  * channels supporting DeviceBindingAndStatus search pools that hold a device with binding
//    conditions after all other pools.
struct AllocatorChannel {
  std::string_view name;  // "incubating"
  AllocatorFeatures supported;
  // Pools are searched in (driver, pool name) order and the slices of a pool by name
  // (1.36 incubating/experimental `sortPoolsByID`, `sortSlicesByName`). Otherwise the order is
  // Go map order for pools and informer order for slices; draguard then uses (driver, pool
  // name) and the input order of the slices.
  bool sorts_slices_by_name;

  bool Supports(AllocatorFeature f) const { return HasFeature(supported, f); }
  bool KnowsDistinctAttribute() const { return Supports(AllocatorFeature::kConsumableCapacity); }
  bool ChecksCapacityGate() const { return Supports(AllocatorFeature::kConsumableCapacity); }
  bool BindingPoolsLast() const { return Supports(AllocatorFeature::kDeviceBindingAndStatus); }
};

struct Release {
  KubernetesVersion version;
  std::string_view name;  // "1.36"
  int minor;              // 36
  std::array<GateState, kGateCount> gates;
  std::span<const ServedKind> served;
  CounterModel counters;  // validation and the allocator's counter scope
  ValidationDialect validation;
  CelDialect cel;
  AllocatorSemantics alloc;
  std::array<AllocatorChannel, 3> channels;  // stable, incubating, experimental

  const GateState& gate(Gate g) const { return gates[static_cast<size_t>(g)]; }
  // The row for (kind, version), or null when this release does not register it.
  const ServedKind* Served(std::string_view kind, std::string_view api_version) const;
};

// The allocator features `gates` enable (kube-scheduler `AllocatorFeatures`): each from its
// gate, DeviceBindingAndStatus from DRADeviceBindingConditions and
// DRAResourceClaimDeviceStatus together, ListTypeAttributes from DRAListTypeAttributes.
AllocatorFeatures EnabledAllocatorFeatures(const FeatureGates& gates);

// The channel `NewAllocator` runs for `gates` in `release`: the first whose supported features
// include every enabled one (the last channel supports every feature its release knows).
const AllocatorChannel& SelectAllocatorChannel(const Release& release, const FeatureGates& gates);

// The row of `version`. Never fails: every enumerator has a row.
const Release& ReleaseFor(KubernetesVersion version);

// Every known release, oldest first.
std::span<const Release> KnownReleases();

// "1.34, 1.35 and 1.36", for help texts and errors.
const std::string& KnownReleaseList();

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_RELEASE_H_
