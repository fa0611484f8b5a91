#include "cli/lint_flags.h"

#include <charconv>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "cli/inventory_flag.h"
#include "policy/common/status_macros.h"
#include "policy/config/load_config.h"

namespace draguard::cli {
namespace {

StatusOr<size_t> ParseJobs(const std::string& text) {
  size_t jobs = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), jobs);
  if (ec != std::errc() || end != text.data() + text.size() || jobs > 256) {
    return InvalidArgumentError("invalid value \"" + text +
                                "\" for --jobs: expected a number from 0 (one per CPU) to 256");
  }
  return jobs;
}

StatusOr<Severity> ParseUnsatisfiable(const std::string& text) {
  if (text == "warning") return Severity::kWarning;
  if (text == "error") return Severity::kError;
  return InvalidArgumentError("invalid value \"" + text +
                              "\" for --unsatisfiable: expected warning or error");
}

// --inventory, --unsatisfiable, and the allocator's view of --kubernetes-version and
// --feature-gates (it ignores gates that do not change allocation).
Status ApplySatisfiabilityFlags(const LintFlags& flags, const ClusterSettings& cluster,
                                lint::LintOptions& options, std::ostream& err) {
  pipeline::SatisfiabilityOptions& sat = options.satisfiability;
  DRAGUARD_ASSIGN_OR_RETURN(sat.unsatisfiable_severity, ParseUnsatisfiable(flags.unsatisfiable));
  sat.allocator = cluster.allocator;
  if (flags.inventory.empty()) return OkStatus();
  DRAGUARD_ASSIGN_OR_RETURN(inventory::ClusterObjects objects,
                            LoadInventoryFlag(flags.inventory, options.input, cluster.version, err));
  // Not created const: lint::Lint(inputs, LintOptions&&) may take it over (linter.h).
  options.inventory = std::make_shared<inventory::ClusterObjects>(std::move(objects));
  return OkStatus();
}

// --schema, --no-builtin-schema, --strict-schema.
Status ApplySchemaFlags(const LintFlags& flags, lint::LintOptions& options) {
  pipeline::SchemaPhaseOptions& schema = options.schema;
  schema.builtin_catalog = !flags.no_builtin_schema;
  schema.strict = flags.strict_schema;
  for (const std::string& path : flags.schema) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return NotFoundError("cannot read --schema file " + path);
    std::stringstream text;
    text << in.rdbuf();
    if (in.bad()) return UnavailableError("error reading --schema file " + path);
    schema.files.emplace_back(path, text.str());
  }
  return OkStatus();
}

std::string JoinGateFlags(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (item.empty()) continue;
    out += (out.empty() ? "" : ",") + item;
  }
  return out;
}

// --upgrade-to and --upgrade-feature-gates: the target release's options are the source's
// with the release, gates and allocator view of the target. The target's gates are its
// defaults, the policy file's featureGates and --upgrade-feature-gates, or --feature-gates
// when that flag is not given (a cluster keeps its gate flags across an upgrade).
Status ApplyUpgradeFlags(const LintFlags& flags, const config::PolicyConfig& policy,
                         LintSettings& settings) {
  if (flags.upgrade_to.empty()) {
    if (!flags.upgrade_feature_gates.empty()) {
      return InvalidArgumentError("--upgrade-feature-gates needs --upgrade-to");
    }
    return OkStatus();
  }
  StatusOr<KubernetesVersion> target = ParseKubernetesVersion(flags.upgrade_to);
  if (!target.ok()) return InvalidArgumentError("--upgrade-to: " + target.status().message());
  const std::string gates = JoinGateFlags(flags.upgrade_feature_gates.empty()
                                              ? flags.cluster.feature_gates
                                              : flags.upgrade_feature_gates);
  StatusOr<FeatureGates> target_gates = config::EffectiveGates(policy, *target, gates);
  if (!target_gates.ok()) {
    return InvalidArgumentError("feature gates for --upgrade-to " +
                                std::string(KubernetesVersionName(*target)) + ": " +
                                target_gates.status().message() +
                                " (set the target's gates with --upgrade-feature-gates)");
  }
  lint::LintOptions to = settings.options;
  to.validation.version = *target;
  to.validation.gates = *target_gates;
  to.satisfiability.allocator.version = *target;
  to.satisfiability.allocator.gates = *target_gates;
  settings.upgrade_to = std::move(to);
  return OkStatus();
}

}  // namespace

void LintFlags::Register(FlagSet& flags) {
  flags.AddString("output", &output, "FORMAT", "Output format: text, json, sarif or junit");
  cluster.Register(flags);
  flags.AddList("namespace-labels", &namespace_labels, "NS:KEY=VALUE,...",
                "Labels of namespaces not among the inputs (admin access)");
  flags.AddOptionalBool("warnings-as-errors", &warnings_as_errors,
                        "Report warnings as errors (exit 1 on any warning); wins over the policy "
                        "file's warningsAsErrors either way");
  flags.AddString("jobs", &jobs, "N", "Files linted in parallel; 0 = one per CPU");
  flags.AddString("read-twice", &read_twice, "WHEN",
                  "Read the inputs twice so that memory does not grow with the objects "
                  "checked: auto (past 1 MiB of input), always or never");
  flags.AddBool("quiet", &quiet, "Print nothing when there is nothing to report; hide infos");
  flags.AddBool("verbose", &verbose,
                "Name on stderr each directory entry skipped (hidden, upper-case extension, "
                "symlink); without it only their count is printed");
  flags.AddList("inventory", &inventory, "PATH",
                "Cluster objects (ResourceSlices, DeviceClasses, Nodes, allocated claims) to "
                "check claims against; reports alloc.unsatisfiable");
  flags.AddBool("timings", &timings, "Print the wall and CPU time of each phase to stderr");
  flags.AddString("unsatisfiable", &unsatisfiable, "SEVERITY",
                  "Severity of alloc.unsatisfiable: warning or error");
  flags.AddList("schema", &schema, "FILE",
                "Attribute schema of private drivers (docs/schema.md); repeatable");
  flags.AddBool("no-builtin-schema", &no_builtin_schema,
                "Do not use the built-in attribute catalog of known drivers");
  flags.AddBool("strict-schema", &strict_schema,
                "Report attributes, capacities and domains the schema lacks as errors");
  flags.AddString("upgrade-to", &upgrade_to, "RELEASE",
                  "Upgrade check: report what changes for these files when the cluster goes "
                  "from --kubernetes-version to this release (upgrade.* findings only)");
  flags.AddList("upgrade-feature-gates", &upgrade_feature_gates, "A=true,B=false",
                "Feature gates of the --upgrade-to release (default: --feature-gates)");
  flags.AddBool("help", &help, "Show this help");
}

StatusOr<LintSettings> ToLintSettings(const LintFlags& flags, std::ostream& err) {
  LintSettings settings;
  DRAGUARD_ASSIGN_OR_RETURN(settings.format, lint::ParseOutputFormat(flags.output));
  DRAGUARD_ASSIGN_OR_RETURN(ClusterSettings cluster, ResolveClusterFlags(flags.cluster, err));
  validate::ValidationOptions& validation = settings.options.validation;
  validation = cluster.Validation();
  for (const std::string& text : flags.namespace_labels) {
    DRAGUARD_RETURN_IF_ERROR(validate::ParseNamespaceLabels(text, validation.namespace_labels));
  }
  DRAGUARD_ASSIGN_OR_RETURN(settings.options.jobs, ParseJobs(flags.jobs));
  if (flags.read_twice == "always") {
    settings.options.read_twice_from_bytes = 0;
  } else if (flags.read_twice == "never") {
    settings.options.read_twice_from_bytes = SIZE_MAX;
  } else if (flags.read_twice != "auto") {
    return InvalidArgumentError("invalid value \"" + flags.read_twice +
                                "\" for --read-twice: expected auto, always or never");
  }
  settings.options.policy = cluster.policy;
  settings.options.warnings_as_errors = flags.warnings_as_errors;
  settings.quiet = flags.quiet;
  settings.verbose = flags.verbose;
  DRAGUARD_RETURN_IF_ERROR(ApplySatisfiabilityFlags(flags, cluster, settings.options, err));
  DRAGUARD_RETURN_IF_ERROR(ApplySchemaFlags(flags, settings.options));
  DRAGUARD_RETURN_IF_ERROR(ApplyUpgradeFlags(flags, cluster.policy, settings));
  return settings;
}

}  // namespace draguard::cli
