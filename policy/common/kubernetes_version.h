// The Kubernetes release draguard reproduces, and its feature gates: one type for every
// stage (validation, CEL environments, the allocator), resolved once from the flags and the
// policy file (cli/cluster_flags.h).
#ifndef DRAGUARD_POLICY_COMMON_KUBERNETES_VERSION_H_
#define DRAGUARD_POLICY_COMMON_KUBERNETES_VERSION_H_

#include <array>
#include <cstddef>
#include <string_view>

#include "policy/common/status_or.h"

namespace draguard {

// The Kubernetes minor versions whose API server and scheduler draguard reproduces. Only an
// index into the release table (policy/common/release.h): behaviour never branches on it.
enum class KubernetesVersion { k1_34, k1_35, k1_36 };

inline constexpr KubernetesVersion kDefaultKubernetesVersion = KubernetesVersion::k1_36;

// Accepts "1.36", "v1.35", "1.35.2" (the patch level does not change validation) for every
// release in the table. Returns InvalidArgument for anything else, listing the known releases.
StatusOr<KubernetesVersion> ParseKubernetesVersion(std::string_view text);

// "1.34", "1.35" or "1.36".
std::string_view KubernetesVersionName(KubernetesVersion version);

// The feature gates that change how resource.k8s.io objects are validated or allocated, and
// the DRA gates a release knows without draguard modelling them (so that a gate list copied
// from a real cluster parses). Which release knows which gate: release.h.
enum class Gate {
  kDynamicResourceAllocation,
  kDRAPrioritizedList,
  kDRAAdminAccess,
  kDRAResourceClaimDeviceStatus,
  kDRADeviceTaints,
  kDRADeviceTaintRules,  // 1.35+
  kDRAConsumableCapacity,
  kDRADeviceBindingConditions,
  kDRAExtendedResource,
  kDRAPartitionableDevices,
  kDeclarativeValidation,
  kDeclarativeValidationTakeover,
  kDRASchedulerFilterTimeout,
  kDRAListTypeAttributes,       // 1.36+
  kDRANodeAllocatableResources,  // 1.36+
  kDRAWorkloadResourceClaims,   // 1.36+
  kDRAResourcePoolStatus,       // 1.36+
  kDRAResourceClaimGranularStatusAuthorization,  // 1.36+
  kDeclarativeValidationBeta,   // 1.36+
};
inline constexpr size_t kGateCount = 19;

// The gate's name as kube-apiserver spells it ("DRAPrioritizedList").
std::string_view GateName(Gate gate);

// A set of gate values for one Kubernetes version. Copyable value type.
class FeatureGates {
 public:
  // The kube-apiserver defaults of `version` (Release::gates).
  explicit FeatureGates(KubernetesVersion version = kDefaultKubernetesVersion);

  // Parses kube syntax, `Name=true,Other=false` (spaces around names and values allowed,
  // empty items skipped, values as Go's strconv.ParseBool), on top of the defaults of
  // `version`. Errors are InvalidArgument with kube-apiserver's text: "missing bool value
  // for X", "invalid value of X=y, err: ...", "unrecognized feature gate: X" (gates that
  // `version` does not know included), "cannot set feature gate X to false, feature is
  // locked to true".
  static StatusOr<FeatureGates> Parse(std::string_view text, KubernetesVersion version);

  // Sets one gate by name with the same checks as Parse.
  Status Set(std::string_view name, bool enabled);

  bool Enabled(Gate gate) const { return enabled_[static_cast<size_t>(gate)]; }
  void SetEnabled(Gate gate, bool enabled) { enabled_[static_cast<size_t>(gate)] = enabled; }
  KubernetesVersion version() const { return version_; }

 private:
  KubernetesVersion version_;
  std::array<bool, kGateCount> enabled_{};
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_KUBERNETES_VERSION_H_
