#include "cli/lint_flags.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "policy/common/status_macros.h"
#include "policy/lint/inventory_files.h"

namespace draguard::cli {
namespace {

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::string Join(const std::vector<std::string>& items, char sep) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

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
Status ApplySatisfiabilityFlags(const LintFlags& flags, lint::LintOptions& options) {
  lint::SatisfiabilityOptions& sat = options.satisfiability;
  DRAGUARD_ASSIGN_OR_RETURN(sat.unsatisfiable_severity, ParseUnsatisfiable(flags.unsatisfiable));
  DRAGUARD_ASSIGN_OR_RETURN(sat.allocator.version, alloc::ParseKubeVersion(flags.kubernetes_version));
  sat.allocator.gates = alloc::DefaultFeatureGates(sat.allocator.version);
  DRAGUARD_RETURN_IF_ERROR(alloc::ApplyFeatureGates(Join(flags.feature_gates, ','), sat.allocator.gates));
  if (flags.inventory.empty()) return OkStatus();
  std::vector<lint::Input> inputs;
  for (const std::string& path : flags.inventory) inputs.push_back({path});
  DRAGUARD_ASSIGN_OR_RETURN(lint::LoadedInventory loaded,
                            lint::LoadInventoryFiles(inputs, options.input));
  options.inventory =
      std::make_shared<const inventory::ClusterObjects>(std::move(loaded.objects));
  return OkStatus();
}

// --schema, --no-builtin-schema, --strict-schema.
Status ApplySchemaFlags(const LintFlags& flags, lint::LintOptions& options) {
  lint::SchemaPhaseOptions& schema = options.schema;
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

}  // namespace

void LintFlags::Register(FlagSet& flags) {
  flags.AddString("output", &output, "FORMAT", "Output format: text, json, sarif or junit");
  flags.AddString("kubernetes-version", &kubernetes_version, "VERSION",
                  "Validate as this kube-apiserver version does: 1.34 or 1.35");
  flags.AddList("feature-gates", &feature_gates, "A=true,B=false",
                "Feature gates, kube syntax, on top of the version's defaults");
  flags.AddList("namespace-labels", &namespace_labels, "NS:KEY=VALUE,...",
                "Labels of namespaces not among the inputs (admin access)");
  flags.AddBool("warnings-as-errors", &warnings_as_errors,
                "Report warnings as errors (exit 1 on any warning)");
  flags.AddString("jobs", &jobs, "N", "Files linted in parallel; 0 = one per CPU");
  flags.AddBool("quiet", &quiet, "Print nothing when there is nothing to report; hide infos");
  flags.AddList("inventory", &inventory, "PATH",
                "Cluster objects (ResourceSlices, DeviceClasses, Nodes, allocated claims) to "
                "check claims against; reports alloc.unsatisfiable");
  flags.AddString("unsatisfiable", &unsatisfiable, "SEVERITY",
                  "Severity of alloc.unsatisfiable: warning or error");
  flags.AddList("schema", &schema, "FILE",
                "Attribute schema of private drivers (docs/schema.md); repeatable");
  flags.AddBool("no-builtin-schema", &no_builtin_schema,
                "Do not use the built-in attribute catalog of known drivers");
  flags.AddBool("strict-schema", &strict_schema,
                "Report attributes, capacities and domains the schema lacks as errors");
  flags.AddBool("help", &help, "Show this help");
}

Status ParseNamespaceLabels(std::string_view text, validate::NamespaceLabels& labels) {
  for (std::string_view item : Split(text, ',')) {
    if (item.empty()) continue;
    size_t colon = item.find(':');
    size_t eq = item.find('=', colon == std::string_view::npos ? 0 : colon);
    if (colon == std::string_view::npos || colon == 0 || eq == std::string_view::npos ||
        eq == colon + 1) {
      return InvalidArgumentError("invalid --namespace-labels item \"" + std::string(item) +
                                  "\": expected NAMESPACE:KEY=VALUE");
    }
    std::string ns(item.substr(0, colon));
    std::string key(item.substr(colon + 1, eq - colon - 1));
    labels[ns][key] = std::string(item.substr(eq + 1));
  }
  return OkStatus();
}

StatusOr<LintSettings> ToLintSettings(const LintFlags& flags) {
  LintSettings settings;
  DRAGUARD_ASSIGN_OR_RETURN(settings.format, lint::ParseOutputFormat(flags.output));
  DRAGUARD_ASSIGN_OR_RETURN(validate::KubernetesVersion version,
                            validate::ParseKubernetesVersion(flags.kubernetes_version));
  validate::ValidationOptions& validation = settings.options.validation;
  validation = validate::ValidationOptions::ForVersion(version);
  DRAGUARD_ASSIGN_OR_RETURN(validation.gates,
                            validate::FeatureGates::Parse(Join(flags.feature_gates, ','), version));
  for (const std::string& text : flags.namespace_labels) {
    DRAGUARD_RETURN_IF_ERROR(ParseNamespaceLabels(text, validation.namespace_labels));
  }
  DRAGUARD_ASSIGN_OR_RETURN(settings.options.jobs, ParseJobs(flags.jobs));
  settings.options.warnings_as_errors = flags.warnings_as_errors;
  settings.quiet = flags.quiet;
  DRAGUARD_RETURN_IF_ERROR(ApplySatisfiabilityFlags(flags, settings.options));
  DRAGUARD_RETURN_IF_ERROR(ApplySchemaFlags(flags, settings.options));
  return settings;
}

}  // namespace draguard::cli
