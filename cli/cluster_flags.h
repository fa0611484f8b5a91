// The flags every subcommand shares to describe the cluster it checks for:
// --kubernetes-version, --feature-gates and --config (the policy file, docs/policy.md).
// One place resolves them, so lint, explain, cel and serve agree on precedence: flags, then
// the policy file, then the release's defaults.
#ifndef DRAGUARD_CLI_CLUSTER_FLAGS_H_
#define DRAGUARD_CLI_CLUSTER_FLAGS_H_

#include <ostream>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "policy/allocator/options.h"
#include "policy/common/status_or.h"
#include "policy/config/policy_config.h"
#include "policy/validate/options.h"

namespace draguard::cli {

struct ClusterFlags {
  std::string kubernetes_version;           // empty: the policy file's, else the default
  std::vector<std::string> feature_gates;   // each "A=true,B=false"; repeats are joined
  std::string config;                       // policy file path; empty: none

  void Register(FlagSet& flags);
};

struct ClusterSettings {
  KubernetesVersion version = kDefaultKubernetesVersion;
  FeatureGates gates;
  config::PolicyConfig policy;
  // The allocator's view of the same version and gates.
  alloc::AllocatorOptions allocator;

  // Validation options for this version and these gates (namespace labels, selector checker
  // and limits at their defaults).
  validate::ValidationOptions Validation() const;
};

// Reads the policy file (its findings are printed to `err` in compiler style; any error
// fails), then applies the flags. InvalidArgument with a message for the user; NotFound
// when the policy file cannot be read.
StatusOr<ClusterSettings> ResolveClusterFlags(const ClusterFlags& flags, std::ostream& err);

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_CLUSTER_FLAGS_H_
