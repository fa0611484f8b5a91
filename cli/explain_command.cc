// `draguard explain [PATH|-]... [flags]`: can the claims among the inputs be allocated, and
// if not, why? Inventory (ResourceSlices, DeviceClasses, Nodes, allocated claims,
// DeviceTaintRules) comes from the inputs and from --inventory paths; every ResourceClaim
// without status.allocation, every ResourceClaimTemplate and every pod with claims is
// checked (policy/lint/satisfiability.h). The inputs are validated first, with the linter's
// validation phase (policy/lint/validate_phase.h): what the API server would reject is not
// allocated, its verdict is `error` with the validation errors.
//
// Exit status: 0 every subject satisfiable (or none found), 1 any unsatisfiable, error or
// undecided (undecided is not a "yes": a CI gate must not pass on it), 2 usage or I/O, or
// --inventory objects that could not be read (cli/inventory_flag.h).
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cluster_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/inventory_flag.h"
#include "policy/allocator/options.h"
#include "policy/common/status_macros.h"
#include "policy/lint/gated_fields.h"
#include "policy/lint/inputs.h"
#include "policy/lint/render_text.h"
#include "policy/lint/satisfiability.h"
#include "policy/lint/validate_phase.h"

namespace draguard::cli {
namespace {

constexpr char kExplainUsage[] = "draguard explain [PATH|-]... [flags]";
constexpr char kExplainDescription[] =
    "Decide whether the ResourceClaims, ResourceClaimTemplates and pod claims among the\n"
    "inputs can be allocated on the cluster the inputs and --inventory describe, as\n"
    "kube-scheduler would, and explain every \"no\". PATH is a file, a directory or -.\n"
    "Exit status: 0 all satisfiable, 1 any unsatisfiable, error or undecided, 2 usage or\n"
    "I/O problem, or --inventory objects that could not be read.\n\n";

struct ExplainFlags {
  std::string output = "text";
  ClusterFlags cluster;
  std::vector<std::string> inventory;
  std::string budget = "100ms";
  bool help = false;

  void Register(FlagSet& flags) {
    flags.AddString("output", &output, "FORMAT", "Output format: text or json");
    cluster.Register(flags);
    flags.AddList("inventory", &inventory, "PATH",
                  "More cluster objects (e.g. a kubectl export); repeatable");
    flags.AddString("budget", &budget, "DURATION",
                    "Search time per claim or pod (e.g. 100ms, 2s); past it: undecided");
    flags.AddBool("help", &help, "Show this help");
  }
};

struct ExplainSettings {
  alloc::AllocatorOptions allocator;
  validate::ValidationOptions validation;
};

StatusOr<ExplainSettings> ToSettings(const ExplainFlags& flags, std::ostream& err) {
  if (flags.output != "text" && flags.output != "json") {
    return InvalidArgumentError("invalid value \"" + flags.output +
                                "\" for --output: expected text or json");
  }
  StatusOr<ClusterSettings> settings = ResolveClusterFlags(flags.cluster, err);
  if (!settings.ok()) return settings.status();
  ExplainSettings out{.allocator = settings->allocator, .validation = settings->Validation()};
  StatusOr<std::chrono::milliseconds> budget = ParseDuration("budget", flags.budget);
  if (!budget.ok()) return budget.status();
  out.allocator.time_budget = *budget;
  return out;
}

std::string Subject(const lint::SatisfiabilityResult& r) {
  std::string ns = r.ref.name_space.empty() ? "" : r.ref.name_space + "/";
  return r.ref.kind + " " + ns + r.ref.name;
}

std::string ClaimLabel(const lint::SatisfiabilityResult& r, size_t claim) {
  return claim < r.pod_claims.size() && !r.pod_claims.empty() ? "claim " + r.pod_claims[claim] + ": "
                                                               : "";
}

// Every line of `text` indented by two spaces.
std::string Indented(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    out += "  " + text.substr(start, end - start);
    start = end;
  }
  return out;
}

void RenderText(const std::vector<lint::SatisfiabilityResult>& results, std::ostream& out) {
  if (results.empty()) out << "no unallocated ResourceClaim, ResourceClaimTemplate or pod claim found\n";
  for (const lint::SatisfiabilityResult& r : results) {
    const alloc::AllocationVerdict& v = r.verdict;
    out << Subject(r) << ": " << alloc::VerdictName(v.kind);
    if (v.kind == alloc::VerdictKind::kSatisfiable) {
      out << " on node " << v.node << " (" << v.feasible_nodes.size()
          << (v.nodes_exhaustive ? "" : "+") << " feasible node"
          << (v.feasible_nodes.size() == 1 ? "" : "s") << ")\n";
      for (size_t c = 0; c < v.allocations.size(); ++c) {
        for (const auto& d : v.allocations[c].devices.results) {
          out << "  " << ClaimLabel(r, c) << d.request << " -> " << d.driver << "/" << d.pool
              << "/" << d.device << (d.admin_access.value_or(false) ? " (admin access)" : "")
              << "\n";
        }
      }
      continue;
    }
    out << "\n";
    for (const Diagnostic& d : r.errors) out << Indented(lint::RenderTextDiagnostic(d, nullptr, {}));
    for (const alloc::Reason& reason : v.reasons) {
      out << "  " << ClaimLabel(r, reason.claim) << reason.message << " [" << reason.code << "]\n";
    }
  }
}

nlohmann::json RequirementsJson(const std::vector<k8s::NodeSelectorRequirement>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : list) {
    out.push_back({{"key", r.key}, {"operator", r.op}, {"values", r.values}});
  }
  return out;
}

nlohmann::json AllocationJson(const k8s::AllocationResult& a) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& d : a.devices.results) {
    nlohmann::json r = {{"request", d.request}, {"driver", d.driver}, {"pool", d.pool},
                        {"device", d.device}};
    if (d.admin_access.value_or(false)) r["adminAccess"] = true;
    results.push_back(std::move(r));
  }
  nlohmann::json config = nlohmann::json::array();
  for (const auto& c : a.devices.config) {
    nlohmann::json entry = {{"source", c.source}, {"requests", c.requests}};
    if (c.opaque) entry["opaque"] = {{"driver", c.opaque->driver}};
    config.push_back(std::move(entry));
  }
  nlohmann::json out = {{"devices", {{"results", results}, {"config", config}}}};
  if (a.node_selector) {
    nlohmann::json terms = nlohmann::json::array();
    for (const auto& t : a.node_selector->node_selector_terms) {
      nlohmann::json term = nlohmann::json::object();
      if (!t.match_expressions.empty()) term["matchExpressions"] = RequirementsJson(t.match_expressions);
      if (!t.match_fields.empty()) term["matchFields"] = RequirementsJson(t.match_fields);
      terms.push_back(std::move(term));
    }
    out["nodeSelector"] = {{"nodeSelectorTerms", terms}};
  }
  return out;
}

// Claims and templates: status.allocation. Pods: one status.allocation per pod claim name.
nlohmann::json WitnessJson(const lint::SatisfiabilityResult& r) {
  const auto& allocations = r.verdict.allocations;
  if (r.pod_claims.empty()) {
    return allocations.empty() ? nlohmann::json::object() : AllocationJson(allocations.front());
  }
  nlohmann::json out = nlohmann::json::object();
  for (size_t c = 0; c < allocations.size() && c < r.pod_claims.size(); ++c) {
    out[r.pod_claims[c]] = AllocationJson(allocations[c]);
  }
  return out;
}

nlohmann::json ReasonJson(const lint::SatisfiabilityResult& r, const alloc::Reason& reason) {
  nlohmann::json out = {{"code", reason.code}, {"message", reason.message}};
  if (!r.pod_claims.empty() && reason.claim < r.pod_claims.size()) {
    out["claim"] = r.pod_claims[reason.claim];
  }
  if (!reason.request.empty()) out["request"] = reason.request;
  if (!reason.node.empty()) out["node"] = reason.node;
  if (!reason.device.empty()) out["device"] = reason.device;
  return out;
}

// A validation error of a rejected subject: a reason with where it is.
nlohmann::json ErrorJson(const Diagnostic& d) {
  nlohmann::json out = {{"code", d.code}, {"message", d.message}, {"field", d.field},
                        {"file", d.file}, {"line", d.position.line},
                        {"column", d.position.column}};
  if (!d.suggestion.empty()) out["suggestion"] = d.suggestion;
  return out;
}

std::string RenderJson(const std::vector<lint::SatisfiabilityResult>& results) {
  nlohmann::json claims = nlohmann::json::array();
  for (const lint::SatisfiabilityResult& r : results) {
    nlohmann::json reasons = nlohmann::json::array();
    for (const Diagnostic& d : r.errors) reasons.push_back(ErrorJson(d));
    for (const alloc::Reason& reason : r.verdict.reasons) reasons.push_back(ReasonJson(r, reason));
    claims.push_back({{"kind", r.ref.kind},
                      {"namespace", r.ref.name_space},
                      {"name", r.ref.name},
                      {"verdict", std::string(alloc::VerdictName(r.verdict.kind))},
                      {"nodes", r.verdict.feasible_nodes},
                      {"allocation", WitnessJson(r)},
                      {"reasons", std::move(reasons)}});
  }
  nlohmann::json doc = {{"claims", std::move(claims)}};
  // Replace invalid UTF-8 (names come from user files) instead of throwing.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

StatusOr<std::vector<lint::SatisfiabilityResult>> Explain(
    const std::vector<std::string>& paths, const ExplainFlags& flags,
    const ExplainSettings& settings, CommandContext& context,
    std::vector<k8s::DecodeResult>& decoded) {
  lint::InputOptions input;
  input.stdin_stream = &context.in;
  std::vector<lint::Input> inputs;
  for (const std::string& path : paths) inputs.push_back({path});
  StatusOr<std::vector<SourceText>> sources = lint::ReadInputs(inputs, input);
  if (!sources.ok()) return sources.status();
  k8s::DecodeOptions decode;
  decode.strict = false;  // exports carry newer fields; lint reports them, explain need not
  decode.version = settings.validation.version;
  for (const SourceText& source : *sources) decoded.push_back(k8s::Decode(source, decode));
  inventory::ClusterObjects extra;
  if (!flags.inventory.empty()) {
    DRAGUARD_ASSIGN_OR_RETURN(extra, LoadInventoryFlag(flags.inventory, input, settings.validation.version, context.err));
  }
  // Validated as lint validates (phase 2), so that nothing the API server rejects is allocated.
  const validate::ValidationOptions validation = lint::ValidationFor(decoded, settings.validation);
  std::vector<std::vector<Diagnostic>> per_file;
  for (const k8s::DecodeResult& file : decoded) per_file.push_back(lint::ValidateFile(file, validation));
  const lint::ObjectErrors rejected = lint::ErrorsByObject(decoded, per_file);
  inventory::ClusterObjects cluster = lint::MergeClusterObjects(&extra, decoded);
  // As lint: gated fields are dropped as the API server drops them on create.
  lint::DropDisabledFields(cluster, validation);
  return lint::CheckSatisfiability(decoded, cluster, settings.allocator, &rejected);
}

}  // namespace

int RunExplain(const std::vector<std::string>& args, CommandContext& context) {
  ExplainFlags raw;
  FlagSet flags(kExplainUsage);
  raw.Register(flags);
  std::vector<std::string> paths;
  Status parsed = flags.Parse(args, &paths);
  if (!parsed.ok()) {
    context.err << "draguard explain: " << parsed.message() << "\nRun 'draguard explain --help'.\n";
    return kExitUsage;
  }
  if (raw.help) {
    context.out << kExplainDescription << flags.Help();
    return kExitOk;
  }
  StatusOr<ExplainSettings> settings = ToSettings(raw, context.err);
  if (!settings.ok()) {
    context.err << "draguard explain: " << settings.status().message() << "\n";
    return kExitUsage;
  }
  if (paths.empty()) paths.push_back("-");
  std::vector<k8s::DecodeResult> decoded;
  StatusOr<std::vector<lint::SatisfiabilityResult>> results =
      Explain(paths, raw, *settings, context, decoded);
  if (!results.ok()) {
    context.err << "draguard explain: " << results.status().message() << "\n";
    return kExitUsage;
  }
  if (raw.output == "json") {
    context.out << RenderJson(*results);
  } else {
    RenderText(*results, context.out);
  }
  for (const lint::SatisfiabilityResult& r : *results) {
    if (r.verdict.kind != alloc::VerdictKind::kSatisfiable) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace draguard::cli
