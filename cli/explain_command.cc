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
#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/check_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/inventory_flag.h"
#include "cli/verdict_render.h"
#include "policy/allocator/options.h"
#include "policy/common/status_macros.h"
#include "policy/common/timings.h"
#include "policy/inventory/inputs.h"
#include "policy/pipeline/pipeline.h"
#include "webhook/kube/cluster_snapshot.h"
#include "webhook/kube/live_pods.h"

namespace draguard::cli {
namespace {

constexpr char kExplainUsage[] =
    "draguard explain [PATH|-]... [flags]\n       draguard explain pod/NAME... [-n NS] [flags]\n"
    "       draguard explain --pending [-n NS | -A] [flags]";
constexpr char kExplainDescription[] =
    "Decide whether the ResourceClaims, ResourceClaimTemplates and pod claims among the\n"
    "inputs can be allocated on the cluster the inputs and --inventory describe, as\n"
    "kube-scheduler would, and explain every \"no\". PATH is a file, a directory or -.\n"
    "Exit status: 0 all satisfiable, 1 any unsatisfiable, error or undecided, 2 usage or\n"
    "I/O problem, or --inventory objects that could not be read.\n\n"
    "Live cluster (kubeconfig as kubectl finds it, exec credential plugins included, else\n"
    "the pod's service account when run in a pod):\n"
    "pod/NAME explains a Pod's unallocated claims together and lists its allocated ones;\n"
    "--pending explains every Pending pod with unallocated claims, one line each. Files are\n"
    "checked against the live cluster with --kubeconfig/--context, or when neither the files\n"
    "nor --inventory hold cluster objects and a default kubeconfig (or service account)\n"
    "exists. On a terminal, a progress line on standard error counts what is listed.\n\n";

struct ExplainFlags {
  CheckFlags check;  // --output, cluster, kube, --inventory, --budget (cli/check_flags.h)
  bool pending = false;
  bool timings = false;
  bool help = false;

  void Register(FlagSet& flags) {
    check.Register(flags, "Search time per claim or pod (e.g. 100ms, 2s); past it: undecided",
                   /*all_namespaces_flag=*/true);
    flags.AddBool("pending", &pending,
                  "Explain every Pending pod with unallocated claims (live cluster)");
    flags.AddBool("timings", &timings,
                  "Print the wall and CPU time of each phase to stderr (files and --inventory)");
    flags.AddBool("help", &help, "Show this help");
  }
};

using ExplainSettings = CheckSettings;

void RenderText(const std::vector<pipeline::SatisfiabilityResult>& results, std::ostream& out) {
  if (results.empty()) out << "no unallocated ResourceClaim, ResourceClaimTemplate or pod claim found\n";
  for (const pipeline::SatisfiabilityResult& r : results) {
    const alloc::AllocationVerdict& v = r.verdict;
    out << SubjectName(r) << ": " << alloc::VerdictName(v.kind);
    if (v.kind == alloc::VerdictKind::kSatisfiable) {
      const size_t feasible = std::max(v.feasible_node_count, v.feasible_nodes.size());
      out << " on node " << v.node << " (" << feasible << (v.nodes_exhaustive ? "" : "+")
          << " feasible node" << (feasible == 1 ? "" : "s") << ")\n";
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

nlohmann::json EntryJson(const pipeline::SatisfiabilityResult& r) {
  nlohmann::json reasons = ReasonsJson(r);
  return {{"kind", r.ref.kind},
          {"namespace", r.ref.name_space},
          {"name", r.ref.name},
          {"verdict", std::string(alloc::VerdictName(r.verdict.kind))},
          {"nodes", r.verdict.feasible_nodes},
          {"allocation", WitnessJson(r)},
          {"reasons", std::move(reasons)}};
}

std::string DumpClaims(nlohmann::json claims) {
  nlohmann::json doc = {{"claims", std::move(claims)}};
  // Replace invalid UTF-8 (names come from user files) instead of throwing.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RenderJson(const std::vector<pipeline::SatisfiabilityResult>& results) {
  nlohmann::json claims = nlohmann::json::array();
  for (const pipeline::SatisfiabilityResult& r : results) claims.push_back(EntryJson(r));
  return DumpClaims(std::move(claims));
}

pipeline::PipelineOptions BatchOptions(const ExplainSettings& settings) {
  // The object pipeline (policy/pipeline/pipeline.h) as lint runs it, with only the stages
  // explain prints: validation first, so that nothing the API server rejects is allocated,
  // then satisfiability against the cluster objects merged with the inputs'.
  pipeline::PipelineOptions options;
  options.stages = {.references = false, .schema = false, .satisfiability = true};
  options.validation = settings.validation;
  options.satisfiability.allocator = settings.allocator;
  return options;
}

k8s::DecodeOptions InputDecodeOptions(const ExplainSettings& settings) {
  k8s::DecodeOptions decode;
  decode.strict = false;  // exports carry newer fields; lint reports them, explain need not
  decode.version = settings.validation.version;
  return decode;
}

StatusOr<std::vector<k8s::DecodeResult>> DecodeInputs(const std::vector<std::string>& paths,
                                                      const ExplainSettings& settings,
                                                      CommandContext& context) {
  inventory::InputOptions input;
  input.stdin_stream = &context.in;
  std::vector<inventory::Input> inputs;
  for (const std::string& path : paths) inputs.push_back({path});
  DRAGUARD_ASSIGN_OR_RETURN(std::vector<SourceText> sources, inventory::ReadInputs(inputs, input));
  std::vector<k8s::DecodeResult> decoded;
  for (const SourceText& source : sources) {
    decoded.push_back(k8s::Decode(source, InputDecodeOptions(settings)));
  }
  return decoded;
}

// One live pod and its verdict. `decoded` owns what `result` points to.
struct PodExplanation {
  webhook::kube::LivePod pod;
  std::vector<k8s::DecodeResult> decoded;
  // nullopt: every claim of the pod is allocated.
  std::optional<pipeline::SatisfiabilityResult> result;
};

using RunPod = std::function<std::optional<pipeline::SatisfiabilityResult>(
    const inventory::ClusterObjects&)>;

// The scheduler's node filters on top of the device verdict: nodes that the pod's nodeName,
// nodeSelector, required node affinity or untolerated taints exclude cannot host it, whatever
// devices they have. A satisfiable verdict is re-checked on the nodes left; the nodes that
// had the devices but are excluded become reasons `alloc.node.excluded`.
void ApplyNodeFilters(PodExplanation& e, const webhook::kube::ClusterSnapshot& snapshot,
                      const RunPod& run) {
  std::map<std::string, std::string> excluded;
  for (const k8s::Node& node : snapshot.objects.nodes) {
    auto it = snapshot.node_scheduling.find(node.metadata.name);
    const webhook::kube::NodeScheduling* scheduling =
        it == snapshot.node_scheduling.end() ? nullptr : &it->second;
    if (auto why = webhook::kube::NodeExclusion(e.pod.placement, node, scheduling)) {
      excluded[node.metadata.name] = *why;
    }
  }
  if (excluded.empty()) return;
  std::vector<alloc::Reason> node_reasons;
  for (const std::string& node : e.result->verdict.feasible_nodes) {
    auto it = excluded.find(node);
    if (it == excluded.end()) continue;
    node_reasons.push_back({.code = "alloc.node.excluded",
                            .claim = std::numeric_limits<size_t>::max(),
                            .node = node,
                            .message = "node " + node + " has the devices, but " + it->second});
  }
  if (excluded.size() == snapshot.objects.nodes.size()) {
    alloc::AllocationVerdict& v = e.result->verdict;
    v.kind = alloc::VerdictKind::kUnsatisfiable;
    v.allocations.clear();
    v.node.clear();
    v.feasible_nodes.clear();
    v.feasible_node_count = 0;
    v.reasons = std::move(node_reasons);
    return;
  }
  inventory::ClusterObjects filtered = snapshot.objects;
  filtered.nodes.EraseIf([&](const k8s::Node& n) { return excluded.contains(n.metadata.name); });
  std::optional<pipeline::SatisfiabilityResult> second = run(filtered);
  if (!second) return;
  if (second->verdict.kind != alloc::VerdictKind::kSatisfiable) {
    second->verdict.reasons.insert(second->verdict.reasons.begin(), node_reasons.begin(),
                                   node_reasons.end());
  }
  e.result = std::move(second);
}

// Checks one pod alone (the node filters' second pass): results point into e.decoded.
RunPod RunOnePod(PodExplanation& e, const ExplainSettings& settings) {
  return [&e, options = BatchOptions(settings)](const inventory::ClusterObjects& objects)
             -> std::optional<pipeline::SatisfiabilityResult> {
    pipeline::BatchResult batch = pipeline::RunBatch(e.decoded, &objects, options);
    for (pipeline::SatisfiabilityResult& r : batch.satisfiability) {
      if (r.ref.kind == "Pod") return std::move(r);
    }
    return std::nullopt;
  };
}

// Every pod decoded and explained in one batch, so that the cluster's inventory is built
// once for all of them (as for the pods of files; --pending -A on a big cluster), then the
// node filters for each satisfiable pod. Results point into `batch` (or e.decoded), which
// must outlive them.
void ExplainPods(std::deque<PodExplanation>& pods, std::vector<k8s::DecodeResult>& batch,
                 const webhook::kube::ClusterSnapshot& snapshot, const ExplainSettings& settings) {
  batch.reserve(pods.size());
  for (PodExplanation& e : pods) {
    const SourceText source("pod/" + e.pod.name_space + "/" + e.pod.name, e.pod.text);
    e.decoded.push_back(k8s::Decode(source, InputDecodeOptions(settings)));
    batch.push_back(e.decoded.back());
  }
  if (batch.empty()) return;
  pipeline::BatchResult result =
      pipeline::RunBatch(batch, &snapshot.objects, BatchOptions(settings));
  for (size_t i = 0; i < pods.size(); ++i) {
    for (pipeline::SatisfiabilityResult& r : result.satisfiability) {
      bool from_pod = false;
      for (const k8s::DecodedObject& object : batch[i].objects) from_pod |= r.object == &object;
      if (from_pod && r.ref.kind == "Pod") {
        pods[i].result = std::move(r);
        break;
      }
    }
  }
  for (PodExplanation& e : pods) {
    if (e.result && e.result->verdict.kind == alloc::VerdictKind::kSatisfiable) {
      ApplyNodeFilters(e, snapshot, RunOnePod(e, settings));
    }
  }
}

std::string DeviceList(const k8s::AllocationResult& allocation) {
  std::string out;
  for (const auto& d : allocation.devices.results) {
    if (!out.empty()) out += ", ";
    out += d.driver + "/" + d.pool + "/" + d.device;
  }
  return out.empty() ? "no devices" : out;
}

std::string PodVerdict(const PodExplanation& e) {
  return e.result ? std::string(alloc::VerdictName(e.result->verdict.kind)) : "allocated";
}

bool PodOk(const PodExplanation& e) {
  return !e.result || e.result->verdict.kind == alloc::VerdictKind::kSatisfiable;
}

void RenderPodText(const PodExplanation& e, std::ostream& out) {
  if (e.result) {
    RenderText({*e.result}, out);
  } else {
    out << "Pod " << e.pod.name_space << "/" << e.pod.name << ": allocated\n";
  }
  for (const webhook::kube::AllocatedPodClaim& a : e.pod.allocated) {
    out << "  claim " << a.pod_claim << ": allocated (ResourceClaim " << a.claim_name
        << ") -> " << DeviceList(a.allocation) << "\n";
  }
}

// --pending: namespace/pod, verdict, the first reason.
void RenderPendingLine(const PodExplanation& e, std::ostream& out) {
  out << e.pod.name_space << "/" << e.pod.name << ": " << PodVerdict(e);
  if (!e.result) {
    out << "\n";
    return;
  }
  const pipeline::SatisfiabilityResult& r = *e.result;
  if (r.verdict.kind == alloc::VerdictKind::kSatisfiable) {
    out << " on node " << r.verdict.node << "\n";
  } else if (!r.errors.empty()) {
    out << ": " << r.errors.front().message << " [" << r.errors.front().code << "]\n";
  } else if (!r.verdict.reasons.empty()) {
    const alloc::Reason& reason = r.verdict.reasons.front();
    out << ": " << ClaimLabel(r, reason.claim) << reason.message << " [" << reason.code << "]\n";
  } else {
    out << "\n";
  }
}

nlohmann::json PodJson(const PodExplanation& e) {
  nlohmann::json entry;
  if (e.result) {
    entry = EntryJson(*e.result);
  } else {
    entry = {{"kind", "Pod"}, {"namespace", e.pod.name_space}, {"name", e.pod.name},
             {"verdict", "allocated"}, {"nodes", nlohmann::json::array()},
             {"allocation", nlohmann::json::object()}, {"reasons", nlohmann::json::array()}};
  }
  nlohmann::json allocated = nlohmann::json::array();
  for (const webhook::kube::AllocatedPodClaim& a : e.pod.allocated) {
    allocated.push_back({{"claim", a.pod_claim}, {"resourceClaim", a.claim_name},
                         {"allocation", AllocationJson(a.allocation)}});
  }
  entry["allocated"] = std::move(allocated);
  return entry;
}

// Where the inventory comes from and what to check, from the flags and positional arguments.
struct ExplainPlan {
  std::vector<std::string> paths;
  std::vector<std::string> pods;  // pod/NAME arguments, names only
  bool live = false;
};

int Fail(CommandContext& context, const Status& status) {
  context.err << "draguard explain: " << status.message() << "\n";
  return kExitUsage;
}

int RunLive(const ExplainFlags& flags, const ExplainPlan& plan, const ExplainSettings& settings,
            std::vector<k8s::DecodeResult>& decoded, CommandContext& context) {
  const bool json = flags.check.output == "json";
  StatusOr<LiveCluster> live = OpenLiveCluster(flags.check, settings, context, "explain", !json);
  if (!live.ok()) return Fail(context, live.status());
  const std::string name_space = live->config.name_space;
  webhook::kube::ClusterReader& reader = *live->reader;
  const webhook::kube::ClusterSnapshot* snapshot = &live->snapshot;

  std::vector<pipeline::SatisfiabilityResult> file_results;
  if (!decoded.empty()) {
    file_results =
        pipeline::RunBatch(decoded, &snapshot->objects, BatchOptions(settings)).satisfiability;
  }
  std::deque<PodExplanation> pods;
  for (const std::string& name : plan.pods) {
    StatusOr<webhook::kube::LivePod> pod =
        webhook::kube::LoadLivePod(reader, *snapshot, name_space, name);
    if (!pod.ok()) return Fail(context, pod.status());
    pods.push_back({std::move(*pod), {}, std::nullopt});
  }
  if (flags.pending) {
    StatusOr<std::vector<webhook::kube::LivePod>> pending = webhook::kube::LoadPendingPods(
        reader, *snapshot, flags.check.kube.all_namespaces ? "" : name_space);
    if (!pending.ok()) return Fail(context, pending.status());
    for (webhook::kube::LivePod& pod : *pending) pods.push_back({std::move(pod), {}, std::nullopt});
  }
  live->DoneListing();
  std::vector<k8s::DecodeResult> batch;  // what the pods' results point into
  ExplainPods(pods, batch, *snapshot, settings);

  if (json) {
    nlohmann::json claims = nlohmann::json::array();
    for (const pipeline::SatisfiabilityResult& r : file_results) claims.push_back(EntryJson(r));
    for (const PodExplanation& e : pods) claims.push_back(PodJson(e));
    context.out << DumpClaims(std::move(claims));
  } else {
    if (!decoded.empty()) RenderText(file_results, context.out);
    if (flags.pending && pods.empty()) {
      context.out << "no Pending pod with unallocated claims"
                  << (flags.check.kube.all_namespaces ? "" : " in namespace " + name_space) << "\n";
    }
    for (const PodExplanation& e : pods) {
      if (flags.pending) {
        RenderPendingLine(e, context.out);
      } else {
        RenderPodText(e, context.out);
      }
    }
  }
  bool ok = true;
  for (const pipeline::SatisfiabilityResult& r : file_results) {
    ok = ok && r.verdict.kind == alloc::VerdictKind::kSatisfiable;
  }
  for (const PodExplanation& e : pods) ok = ok && PodOk(e);
  return ok ? kExitOk : kExitFindings;
}

}  // namespace

int RunExplain(const std::vector<std::string>& args, CommandContext& context) {
  ExplainFlags raw;
  FlagSet flags(kExplainUsage);
  raw.Register(flags);
  std::vector<std::string> positional;
  Status parsed = flags.Parse(args, &positional);
  if (!parsed.ok()) {
    context.err << "draguard explain: " << parsed.message() << "\nRun 'draguard explain --help'.\n";
    return kExitUsage;
  }
  if (raw.help) {
    context.out << kExplainDescription << flags.Help(context.program);
    return kExitOk;
  }
  StatusOr<ExplainSettings> settings = ResolveCheckFlags(raw.check, context.err);
  if (!settings.ok()) return Fail(context, settings.status());
  ExplainPlan plan;
  for (const std::string& arg : positional) {
    std::string name;
    if (IsPodArgument(arg, name)) {
      if (name.empty()) return Fail(context, InvalidArgumentError("\"" + arg + "\" names no pod"));
      plan.pods.push_back(name);
    } else {
      plan.paths.push_back(arg);
    }
  }
  if (raw.check.kube.all_namespaces && !raw.pending) {
    return Fail(context, InvalidArgumentError("-A/--all-namespaces goes with --pending"));
  }
  if (plan.paths.empty() && plan.pods.empty() && !raw.pending) plan.paths.push_back("-");
  Timings timings;
  Timings* timed = raw.timings ? &timings : nullptr;
  std::optional<Timings::Scope> phase(std::in_place, timed, "inputs: read and decode");
  std::vector<k8s::DecodeResult> decoded;
  if (!plan.paths.empty()) {
    StatusOr<std::vector<k8s::DecodeResult>> read = DecodeInputs(plan.paths, *settings, context);
    if (!read.ok()) return Fail(context, read.status());
    decoded = std::move(*read);
  }
  if (WantsLiveCluster(raw.check, !plan.pods.empty() || raw.pending, decoded)) {
    return RunLive(raw, plan, *settings, decoded, context);
  }

  phase.emplace(timed, "inventory files: read and decode");
  inventory::ClusterObjects extra;
  if (!raw.check.inventory.empty()) {
    inventory::InputOptions input;
    input.stdin_stream = &context.in;
    StatusOr<inventory::ClusterObjects> loaded =
        LoadInventoryFlag(raw.check.inventory, input, settings->validation.version, context.err);
    if (!loaded.ok()) return Fail(context, loaded.status());
    extra = std::move(*loaded);
  }
  phase.reset();
  pipeline::PipelineOptions options = BatchOptions(*settings);
  options.satisfiability.timings = timed;
  // The text prints how many nodes are feasible, JSON their names.
  options.satisfiability.feasible_node_names = raw.check.output == "json";
  std::vector<pipeline::SatisfiabilityResult> results;
  {
    Timings::Scope run(timed, "pipeline (validate, satisfiability)");
    results = pipeline::RunBatch(decoded, std::move(extra), options).satisfiability;
  }
  phase.emplace(timed, "output");
  if (raw.check.output == "json") {
    context.out << RenderJson(results);
  } else {
    RenderText(results, context.out);
  }
  context.out.flush();
  phase.reset();
  context.err << timings.Render();
  for (const pipeline::SatisfiabilityResult& r : results) {
    if (r.verdict.kind != alloc::VerdictKind::kSatisfiable) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace draguard::cli
