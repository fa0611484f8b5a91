// Reading the policy file (docs/policy.md):
//
//   apiVersion: draguard.dev/v1alpha1
//   kind: Policy
//   kubernetesVersion: "1.35"
//   featureGates: "DRAConsumableCapacity=true"   # or a map: {DRAConsumableCapacity: true}
//   warningsAsErrors: false
//   exemptNamespaces: [kube-system]
//   rules:
//     "schema.*": error
//     refs.device-class.not-found: off
//
// Every problem is a diagnostic placed in the file (code config.*); the config is usable
// only when none of them is an error.
#ifndef DRAGUARD_POLICY_CONFIG_LOAD_CONFIG_H_
#define DRAGUARD_POLICY_CONFIG_LOAD_CONFIG_H_

#include <string>
#include <string_view>

#include "policy/common/diagnostic.h"
#include "policy/common/kubernetes_version.h"
#include "policy/common/source.h"
#include "policy/common/status_or.h"
#include "policy/config/policy_config.h"

namespace draguard::config {

inline constexpr char kPolicyApiVersion[] = "draguard.dev/v1alpha1";
inline constexpr char kPolicyKind[] = "Policy";

struct LoadedConfig {
  PolicyConfig config;
  // Located in the source (file, line, column). Unknown rule codes are warnings; the rest
  // are errors.
  Diagnostics diagnostics;
  bool ok() const { return diagnostics.error_count() == 0; }
};

// Parses a policy file already in memory. Never fails: problems are diagnostics.
LoadedConfig ParsePolicyConfig(const SourceText& source);

// Reads and parses `path`. A non-OK status only when the file cannot be read.
StatusOr<LoadedConfig> ReadPolicyConfig(const std::string& path);

// The gates for `version`: the file's featureGates, then `flag_gates` on top (kube syntax
// both). Errors are FeatureGates::Parse's.
StatusOr<FeatureGates> EffectiveGates(const PolicyConfig& config, KubernetesVersion version,
                                      std::string_view flag_gates);

}  // namespace draguard::config

#endif  // DRAGUARD_POLICY_CONFIG_LOAD_CONFIG_H_
