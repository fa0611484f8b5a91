// Allocator options: Kubernetes version and feature gates (policy/common/kubernetes_version.h)
// and the search budget.
//
// The allocator reproduces kube-scheduler's structured allocator for one release and one
// feature-gate set (structured/allocator.go `NewAllocator` picks the stable, incubating or
// experimental implementation by the gates: AllocatorOptions::channel()). Defaults are those
// of a default cluster of that release.
#ifndef DRAGUARD_POLICY_ALLOCATOR_OPTIONS_H_
#define DRAGUARD_POLICY_ALLOCATOR_OPTIONS_H_

#include <chrono>
#include <cstdint>
#include <string_view>

#include "policy/common/kubernetes_version.h"
#include "policy/common/release.h"

namespace draguard::alloc {

// Both binding-condition gates: what the allocator calls DeviceBindingAndStatus.
inline bool BindingAndStatus(const FeatureGates& gates) {
  return gates.Enabled(Gate::kDRADeviceBindingConditions) &&
         gates.Enabled(Gate::kDRAResourceClaimDeviceStatus);
}

struct AllocatorOptions {
  KubernetesVersion version = kDefaultKubernetesVersion;
  // Must be built for `version` (FeatureGates(version) or FeatureGates::Parse).
  FeatureGates gates{kDefaultKubernetesVersion};
  // Wall-clock budget for one CheckClaim/CheckPod call; exhausted -> kUndecided.
  std::chrono::milliseconds time_budget{100};
  // Search steps (device placements tried) for one call; exhausted -> kUndecided.
  int64_t max_steps = 2'000'000;
  // Results per claim (AllocationResultsMaxSize).
  int max_results_per_claim = 32;
  // Check every node (fills feasible_nodes) instead of stopping at the first feasible one.
  bool all_nodes = true;
  // Decide a claim none of whose requests any device of the cluster can serve (no device
  // passes an alternative's selectors) without searching node by node: the same verdict and
  // reasons (tests turn it off to compare with the per-node search).
  bool cluster_wide_decisions = true;
  // Build the witness of a satisfiable verdict (AllocationVerdict::allocations, in
  // status.allocation form). A caller that reads only the verdict and the nodes (the webhook)
  // turns it off: the verdict, `node`, the feasible nodes and the reasons stay the same.
  bool witness = true;

  // What differs in `version`'s scheduler (policy/common/release.h).
  const Release& release() const { return ReleaseFor(version); }
  // The allocator implementation kube-scheduler runs for `gates` (structured/allocator.go
  // `NewAllocator`): decides distinctAttribute, the capacity check and the search order.
  const AllocatorChannel& channel() const { return SelectAllocatorChannel(release(), gates); }
};

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_OPTIONS_H_
