// Allocator options: Kubernetes version, feature gates and the search budget.
//
// The allocator reproduces kube-scheduler's structured allocator for one release and one
// feature-gate set (../shared/spec/allocator.md §2, §18). Defaults are those of a default
// cluster of that release.
#ifndef DRAGUARD_POLICY_ALLOCATOR_OPTIONS_H_
#define DRAGUARD_POLICY_ALLOCATOR_OPTIONS_H_

#include <chrono>
#include <cstdint>
#include <string_view>

#include "policy/common/status_or.h"

namespace draguard::alloc {

enum class KubeVersion { k1_34, k1_35 };

// Parses "1.34", "v1.35", "1.35.2". InvalidArgument for other versions.
StatusOr<KubeVersion> ParseKubeVersion(std::string_view text);

// The gates that change allocation (spec §2). Field names follow the upstream gate names.
struct FeatureGates {
  bool prioritized_list = true;               // DRAPrioritizedList (beta, on)
  bool admin_access = true;                   // DRAAdminAccess (beta, on)
  bool resource_claim_device_status = true;   // DRAResourceClaimDeviceStatus (beta, on)
  bool device_taints = false;                 // DRADeviceTaints (alpha)
  bool device_taint_rules = false;            // DRADeviceTaintRules (alpha, 1.35 only)
  bool partitionable_devices = false;         // DRAPartitionableDevices (alpha)
  bool consumable_capacity = false;           // DRAConsumableCapacity (alpha)
  bool device_binding_conditions = false;     // DRADeviceBindingConditions (alpha)

  // Both binding-condition gates (DeviceBindingAndStatus in the allocator).
  bool binding_and_status() const {
    return device_binding_conditions && resource_claim_device_status;
  }
};

// The default gates of `version` (identical for 1.34 and 1.35).
FeatureGates DefaultFeatureGates(KubeVersion version);

// Applies kube-style "Name=true,Other=false" to `gates`. Unknown names (DRA-unrelated gates)
// are ignored; a malformed entry or a value other than true/false is InvalidArgument.
Status ApplyFeatureGates(std::string_view spec, FeatureGates& gates);

struct AllocatorOptions {
  KubeVersion version = KubeVersion::k1_35;
  FeatureGates gates = DefaultFeatureGates(KubeVersion::k1_35);
  // Wall-clock budget for one CheckClaim/CheckPod call; exhausted -> kUndecided.
  std::chrono::milliseconds time_budget{100};
  // Search steps (device placements tried) for one call; exhausted -> kUndecided.
  int64_t max_steps = 2'000'000;
  // Results per claim (AllocationResultsMaxSize).
  int max_results_per_claim = 32;
  // Check every node (fills feasible_nodes) instead of stopping at the first feasible one.
  bool all_nodes = true;
};

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_OPTIONS_H_
