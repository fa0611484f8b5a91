#include "cli/cluster_flags.h"

#include "policy/common/release.h"
#include "policy/common/status_macros.h"
#include "policy/config/load_config.h"
#include "policy/lint/render_text.h"

namespace draguard::cli {
namespace {

std::string JoinGates(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (item.empty()) continue;
    if (!out.empty()) out += ',';
    out += item;
  }
  return out;
}

}  // namespace

std::string_view VersionSourceName(VersionSource source) {
  switch (source) {
    case VersionSource::kFlag:
      return "flag";
    case VersionSource::kConfig:
      return "config";
    case VersionSource::kApiServer:
      return "apiserver";
    case VersionSource::kDefault:
      break;
  }
  return "default";
}

void ClusterFlags::Register(FlagSet& flags) {
  std::string releases;
  for (const Release& release : KnownReleases()) {
    if (!releases.empty()) releases += '|';
    releases += release.name;
  }
  flags.AddString("kubernetes-version", &kubernetes_version, releases,
                  "Check as this Kubernetes release does (default: the policy file's, else " +
                      std::string(KubernetesVersionName(kDefaultKubernetesVersion)) + ")");
  flags.AddList("feature-gates", &feature_gates, "A=true,B=false",
                "Feature gates, kube syntax, on top of the release's defaults and the policy "
                "file's");
  flags.AddString("config", &config, "FILE",
                  "Policy file: version, gates, per-code severities, exempt namespaces "
                  "(docs/policy.md)");
}

validate::ValidationOptions ClusterSettings::Validation() const {
  validate::ValidationOptions options = validate::ValidationOptions::ForVersion(version);
  options.gates = gates;
  return options;
}

StatusOr<ClusterSettings> ResolveClusterFlags(const ClusterFlags& flags, std::ostream& err,
                                              const DiscoverRelease& discover) {
  ClusterSettings settings;
  if (!flags.config.empty()) {
    DRAGUARD_ASSIGN_OR_RETURN(config::LoadedConfig loaded,
                              config::ReadPolicyConfig(flags.config));
    for (const Diagnostic& d : loaded.diagnostics) err << lint::RenderTextDiagnostic(d, nullptr, {});
    if (!loaded.ok()) {
      return InvalidArgumentError("the policy file " + flags.config + " has errors");
    }
    settings.policy = std::move(loaded.config);
  }
  if (!flags.kubernetes_version.empty()) {
    DRAGUARD_ASSIGN_OR_RETURN(settings.version,
                              ParseKubernetesVersion(flags.kubernetes_version));
    settings.version_source = VersionSource::kFlag;
  } else if (settings.policy.kubernetes_version) {
    settings.version = *settings.policy.kubernetes_version;
    settings.version_source = VersionSource::kConfig;
  } else if (discover) {
    if (std::optional<KubernetesVersion> found = discover()) {
      settings.version = *found;
      settings.version_source = VersionSource::kApiServer;
    }
  }
  const std::string flag_gates = JoinGates(flags.feature_gates);
  DRAGUARD_ASSIGN_OR_RETURN(settings.gates,
                            config::EffectiveGates(settings.policy, settings.version, flag_gates));

  settings.allocator.version = settings.version;
  settings.allocator.gates = settings.gates;
  return settings;
}

}  // namespace draguard::cli
