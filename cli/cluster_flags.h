// The flags every subcommand shares to describe the cluster it checks for:
// --kubernetes-version, --feature-gates and --config (the policy file, docs/policy.md).
// One place resolves them, so lint, explain, cel and serve agree on precedence: flags, then
// the policy file, then the release's defaults.
#ifndef DRAGUARD_CLI_CLUSTER_FLAGS_H_
#define DRAGUARD_CLI_CLUSTER_FLAGS_H_

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
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

// Where the release checked for came from, as `serve` logs it and labels
// draguard_kubernetes_release_info: --kubernetes-version, the policy file's
// kubernetesVersion, the API server's /version (serve only), or the built-in default.
enum class VersionSource { kFlag, kConfig, kApiServer, kDefault };
std::string_view VersionSourceName(VersionSource source);  // "flag", "config", "apiserver", ...

struct ClusterSettings {
  KubernetesVersion version = kDefaultKubernetesVersion;
  VersionSource version_source = VersionSource::kDefault;
  FeatureGates gates;
  config::PolicyConfig policy;
  // The allocator's view of the same version and gates.
  alloc::AllocatorOptions allocator;

  // Validation options for this version and these gates (namespace labels, selector checker
  // and limits at their defaults).
  validate::ValidationOptions Validation() const;
};

// Asked for the release when neither --kubernetes-version nor the policy file names one
// (serve asks the API server); nullopt keeps the default.
using DiscoverRelease = std::function<std::optional<KubernetesVersion>()>;

// Reads the policy file (its findings are printed to `err` in compiler style; any error
// fails), then applies the flags. The release: --kubernetes-version, else the policy file's,
// else `discover` (when set and it answers), else the default; the gates are parsed for it.
// InvalidArgument with a message for the user; NotFound when the policy file cannot be read.
StatusOr<ClusterSettings> ResolveClusterFlags(const ClusterFlags& flags, std::ostream& err,
                                              const DiscoverRelease& discover = {});

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_CLUSTER_FLAGS_H_
