// `draguard explain [PATH|-]... [flags]`: can the claims among the inputs be allocated, and
// if not, why? Inventory (ResourceSlices, DeviceClasses, Nodes, allocated claims,
// DeviceTaintRules) comes from the inputs and from --inventory paths; every ResourceClaim
// without status.allocation, every ResourceClaimTemplate and every pod with claims is
// checked (policy/pipeline/satisfiability_stage.h). The inputs go through the object pipeline
// (policy/pipeline/pipeline.h) as in lint, validation first: what the API server would
// reject is not allocated, its verdict is `error` with the validation errors.
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
#include "cli/verdict_render.h"
#include "policy/allocator/options.h"
#include "policy/common/status_macros.h"
#include "policy/inventory/inputs.h"
#include "policy/pipeline/pipeline.h"

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

void RenderText(const std::vector<pipeline::SatisfiabilityResult>& results, std::ostream& out) {
  if (results.empty()) out << "no unallocated ResourceClaim, ResourceClaimTemplate or pod claim found\n";
  for (const pipeline::SatisfiabilityResult& r : results) {
    const alloc::AllocationVerdict& v = r.verdict;
    out << SubjectName(r) << ": " << alloc::VerdictName(v.kind);
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
    RenderReasonsText(r, out);
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
nlohmann::json WitnessJson(const pipeline::SatisfiabilityResult& r) {
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

std::string RenderJson(const std::vector<pipeline::SatisfiabilityResult>& results) {
  nlohmann::json claims = nlohmann::json::array();
  for (const pipeline::SatisfiabilityResult& r : results) {
    nlohmann::json reasons = ReasonsJson(r);
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

StatusOr<std::vector<pipeline::SatisfiabilityResult>> Explain(
    const std::vector<std::string>& paths, const ExplainFlags& flags,
    const ExplainSettings& settings, CommandContext& context,
    std::vector<k8s::DecodeResult>& decoded) {
  inventory::InputOptions input;
  input.stdin_stream = &context.in;
  std::vector<inventory::Input> inputs;
  for (const std::string& path : paths) inputs.push_back({path});
  StatusOr<std::vector<SourceText>> sources = inventory::ReadInputs(inputs, input);
  if (!sources.ok()) return sources.status();
  k8s::DecodeOptions decode;
  decode.strict = false;  // exports carry newer fields; lint reports them, explain need not
  decode.version = settings.validation.version;
  for (const SourceText& source : *sources) decoded.push_back(k8s::Decode(source, decode));
  inventory::ClusterObjects extra;
  if (!flags.inventory.empty()) {
    DRAGUARD_ASSIGN_OR_RETURN(extra, LoadInventoryFlag(flags.inventory, input, settings.validation.version, context.err));
  }
  // The object pipeline (policy/pipeline/pipeline.h) as lint runs it, with only the stages
  // explain prints: validation first, so that nothing the API server rejects is allocated,
  // then satisfiability against the --inventory objects merged with the inputs'.
  pipeline::PipelineOptions options;
  options.stages = {.references = false, .schema = false, .satisfiability = true};
  options.validation = settings.validation;
  options.satisfiability.allocator = settings.allocator;
  return pipeline::RunBatch(decoded, &extra, options).satisfiability;
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
    context.out << kExplainDescription << flags.Help(context.program);
    return kExitOk;
  }
  StatusOr<ExplainSettings> settings = ToSettings(raw, context.err);
  if (!settings.ok()) {
    context.err << "draguard explain: " << settings.status().message() << "\n";
    return kExitUsage;
  }
  if (paths.empty()) paths.push_back("-");
  std::vector<k8s::DecodeResult> decoded;
  StatusOr<std::vector<pipeline::SatisfiabilityResult>> results =
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
  for (const pipeline::SatisfiabilityResult& r : *results) {
    if (r.verdict.kind != alloc::VerdictKind::kSatisfiable) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace draguard::cli
