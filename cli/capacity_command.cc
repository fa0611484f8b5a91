// `draguard capacity [PATH|-|pod/NAME]... [flags]`: for every claim, template and pod among the
// inputs (the subjects of explain: policy/pipeline/satisfiability_stage.h), how many more
// copies the cluster can allocate right now, per node and in total
// (policy/capacity/capacity.h). The cluster is the --inventory objects or the live cluster
// (cli/check_flags.h: chosen as explain chooses), plus the inputs' cluster objects; --what-if
// files add or replace objects after that, and the answer is then the capacity after the
// change with the difference. pod/NAME reads a Pod of the live cluster and counts new copies
// of it: its named claims shared, a new claim from each of its templates, on the nodes its
// nodeName, nodeSelector, required affinity and tolerations allow.
//
// Exit status (as explain's): 0 every subject has room for at least one more copy (or none
// found), 1 any subject with none (no room, an error, or a budget that ran out before one copy
// was found: a CI gate must not pass on it), 2 usage or I/O, or --inventory/--what-if objects
// that could not be read.
#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/check_flags.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/inventory_flag.h"
#include "cli/verdict_render.h"
#include "policy/allocator/cel_evaluator.h"
#include "policy/capacity/capacity.h"
#include "policy/common/status_macros.h"
#include "policy/inventory/inputs.h"
#include "policy/pipeline/gated_fields.h"
#include "policy/pipeline/pipeline.h"
#include "webhook/kube/live_pods.h"

namespace draguard::cli {
namespace {

constexpr char kCapacityDescription[] =
    "Count how many more copies of each ResourceClaim, ResourceClaimTemplate and pod among\n"
    "the inputs the cluster can allocate right now: per node (copies that fit on that node\n"
    "together) and in total, decided by the same allocator as explain. --what-if FILE adds\n"
    "or replaces cluster objects first (a DeviceTaintRule, a Node with spec.unschedulable:\n"
    "true for a drain) and shows the capacity after the change and the difference.\n"
    "Live cluster (kubeconfig as kubectl finds it, exec plugins, or the pod's service\n"
    "account): pod/NAME counts new copies of a Pod (its templates give each copy new\n"
    "claims; its node selector, affinity and tolerations limit the nodes). Files are counted\n"
    "against the live cluster with --kubeconfig/--context, or when neither the files nor\n"
    "--inventory hold cluster objects and a kubeconfig (or a pod's service account) exists.\n"
    "Exit status: 0 room for at least one more copy of every subject, 1 none for some\n"
    "subject (or undecided), 2 usage or I/O problem, or objects that could not be read.\n\n";

struct CapacityFlags {
  CheckFlags check;  // --output, cluster, kube, --inventory, --budget (cli/check_flags.h)
  std::vector<std::string> what_if;
  std::string max_copies = "512";
  bool help = false;

  void Register(FlagSet& flags) {
    check.Register(flags,
                   "Search time per allocator probe (e.g. 100ms, 2s); past it: a lower bound",
                   /*all_namespaces_flag=*/false);
    flags.AddList("what-if", &what_if, "PATH",
                  "Objects to add or replace before counting (taint rules, drained Nodes); "
                  "repeatable");
    flags.AddString("max-copies", &max_copies, "N",
                    "Stop counting at N copies per node (reported as a lower bound)");
    flags.AddBool("help", &help, "Show this help");
  }
};

struct CapacitySettings {
  capacity::CapacityOptions counting;
  validate::ValidationOptions validation;
};

StatusOr<CapacitySettings> ToSettings(const CapacityFlags& flags, std::ostream& err) {
  DRAGUARD_ASSIGN_OR_RETURN(CheckSettings check, ResolveCheckFlags(flags.check, err));
  CapacitySettings out{.counting = {.allocator = check.allocator},
                       .validation = check.validation};
  const std::string& text = flags.max_copies;
  int64_t max = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), max);
  if (ec != std::errc() || end != text.data() + text.size() || max < 1 || max > 1'000'000) {
    return InvalidArgumentError("--max-copies wants a whole number from 1 to 1000000, not \"" +
                                text + "\"");
  }
  out.counting.max_copies = max;
  return out;
}

// The answer for one subject: its identity and reasons (SatisfiabilityResult, the verdict of
// one copy) and the counts, before and after --what-if.
struct SubjectCapacity {
  pipeline::SatisfiabilityResult subject;
  capacity::CapacityResult now;
  std::optional<capacity::CapacityResult> before;  // with --what-if: without the change
};

// `pod/NAME` that is not a file: a Pod of the live cluster; `name` is set.
bool IsClusterPodReference(const std::string& path, std::string& name) {
  if (!IsPodArgument(path, name)) return false;
  std::error_code ec;
  return !std::filesystem::exists(path, ec);
}

// Same namespace (empty: "default") and name: --what-if replaces it.
bool SameObject(const auto& a, const auto& b) {
  auto ns = [](const k8s::ObjectMeta& m) { return m.name_space.empty() ? "default" : m.name_space; };
  return a.metadata.name == b.metadata.name && ns(a.metadata) == ns(b.metadata);
}

StatusOr<std::vector<k8s::DecodeResult>> DecodeFiles(const std::vector<std::string>& paths,
                                                     const inventory::InputOptions& input,
                                                     KubernetesVersion version) {
  std::vector<inventory::Input> inputs;
  for (const std::string& path : paths) inputs.push_back({path});
  DRAGUARD_ASSIGN_OR_RETURN(std::vector<SourceText> sources, inventory::ReadInputs(inputs, input));
  k8s::DecodeOptions decode;
  decode.strict = false;  // exports carry newer fields; lint reports them
  decode.version = version;
  std::vector<k8s::DecodeResult> decoded;
  for (const SourceText& source : sources) decoded.push_back(k8s::Decode(source, decode));
  return decoded;
}

// What capacity counts for: the decoded inputs (files, then live pods with the templates
// they need), where the cluster comes from, and for live pods the nodes they may not use.
struct CapacityInputs {
  std::vector<k8s::DecodeResult> decoded;
  inventory::ClusterObjects base;  // --inventory objects, or the live cluster's
  // Templates read for a live pod: claims of the pod, not subjects of their own.
  std::set<const k8s::DecodedObject*> pod_templates;
  // Live pods: the nodes the pod's placement excludes, with why (live_pods.h NodeExclusion).
  std::map<const k8s::DecodedObject*, std::map<std::string, std::string>> excluded_nodes;
};

// The live pods named by pod/NAME, decoded after the files, with their templates and the
// nodes they cannot use.
Status AddLivePods(const std::vector<std::string>& names, LiveCluster& live,
                   const CapacitySettings& settings, CapacityInputs& inputs) {
  k8s::DecodeOptions decode;
  decode.strict = false;
  decode.version = settings.validation.version;
  inputs.decoded.reserve(inputs.decoded.size() + names.size());  // the pointers below stay valid
  for (const std::string& name : names) {
    DRAGUARD_ASSIGN_OR_RETURN(
        webhook::kube::LivePod pod,
        webhook::kube::LoadLivePod(*live.reader, live.snapshot, live.config.name_space, name,
                                   {.new_copy = true}));
    const SourceText source("pod/" + pod.name_space + "/" + pod.name, pod.text);
    inputs.decoded.push_back(k8s::Decode(source, decode));
    std::map<std::string, std::string> excluded;
    for (const k8s::Node& node : live.snapshot.objects.nodes) {
      auto it = live.snapshot.node_scheduling.find(node.metadata.name);
      const webhook::kube::NodeScheduling* scheduling =
          it == live.snapshot.node_scheduling.end() ? nullptr : &it->second;
      if (auto why = webhook::kube::NodeExclusion(pod.placement, node, scheduling)) {
        excluded[node.metadata.name] = *why;
      }
    }
    for (const k8s::DecodedObject& object : inputs.decoded.back().objects) {
      if (object.ref.kind != "Pod") {
        inputs.pod_templates.insert(&object);
      } else if (!excluded.empty()) {
        inputs.excluded_nodes[&object] = excluded;
      }
    }
  }
  return OkStatus();
}

inventory::ClusterObjects WithoutNodes(const inventory::ClusterObjects& cluster,
                                       const std::map<std::string, std::string>& excluded) {
  inventory::ClusterObjects out = cluster;
  out.nodes.EraseIf([&](const k8s::Node& n) { return excluded.contains(n.metadata.name); });
  return out;
}

StatusOr<std::vector<SubjectCapacity>> Count(CapacityInputs& inputs, const CapacityFlags& flags,
                                             const CapacitySettings& settings,
                                             CommandContext& context) {
  inventory::InputOptions input;
  input.stdin_stream = &context.in;
  const KubernetesVersion version = settings.validation.version;
  const std::vector<k8s::DecodeResult>& decoded = inputs.decoded;
  // Validation as explain runs it: nothing the API server rejects is counted.
  pipeline::PipelineOptions options;
  options.stages = {.references = false, .schema = false, .satisfiability = false};
  options.validation = settings.validation;
  const pipeline::BatchResult batch = pipeline::RunBatch(decoded, nullptr, options);
  const pipeline::ObjectErrors rejected = pipeline::ErrorsByObject(decoded, batch.per_file);
  const validate::ValidationOptions validation = pipeline::ValidationFor(decoded, settings.validation);
  inventory::ClusterObjects cluster = pipeline::MergeClusterObjects(&inputs.base, decoded);
  pipeline::DropDisabledFields(cluster, validation);
  std::optional<inventory::ClusterObjects> changed;
  if (!flags.what_if.empty()) {
    // The what-if files are cluster state only (LoadInventoryFlag: every problem printed).
    DRAGUARD_ASSIGN_OR_RETURN(inventory::ClusterObjects change,
                              LoadInventoryFlag(flags.what_if, input, version, context.err));
    changed = cluster;
    inventory::ForEachKind(*changed, change, [](auto& into, auto& from) {
      for (const auto& object : from.ptrs()) {
        into.EraseIf([&](const auto& existing) { return SameObject(existing, *object); });
        into.push_back(object);
      }
    });
    pipeline::DropDisabledFields(*changed, validation);
  }
  alloc::CelSelectorEvaluator evaluator(settings.counting.allocator);
  std::vector<SubjectCapacity> out;
  for (pipeline::Subject& s : pipeline::CollectSubjects(decoded, cluster, &rejected)) {
    if (inputs.pod_templates.contains(s.result.object)) continue;
    SubjectCapacity c{.subject = std::move(s.result)};
    if (s.claims.empty()) {
      c.now.one_copy = c.subject.verdict;
      out.push_back(std::move(c));
      continue;
    }
    auto excluded = inputs.excluded_nodes.find(c.subject.object);
    auto count = [&](const inventory::ClusterObjects& objects) {
      if (excluded == inputs.excluded_nodes.end()) {
        return capacity::CountCopies(objects, s.claims, evaluator, settings.counting);
      }
      inventory::ClusterObjects allowed = WithoutNodes(objects, excluded->second);
      if (allowed.nodes.empty()) {  // no node left (no Node objects would mean every node)
        capacity::CapacityResult none;
        none.total_exact = true;
        none.upper_bound = 0;
        none.one_copy.kind = alloc::VerdictKind::kUnsatisfiable;
        return none;
      }
      return capacity::CountCopies(allowed, s.claims, evaluator, settings.counting);
    };
    c.now = count(changed ? *changed : cluster);
    c.subject.verdict = c.now.one_copy;
    if (changed) c.before = count(cluster);
    if (c.now.total == 0 && excluded != inputs.excluded_nodes.end()) {
      for (const auto& [node, why] : excluded->second) {
        c.subject.verdict.reasons.push_back(
            {.code = "alloc.node.excluded",
             .claim = std::numeric_limits<size_t>::max(),
             .node = node,
             .message = "node " + node + " is not counted: " + why});
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string CountText(int64_t count, bool exact) {
  return (exact ? "" : ">=") + std::to_string(count);
}

std::string TotalText(const capacity::CapacityResult& r) {
  if (r.total_exact) return std::to_string(r.total);
  std::string text = "at least " + std::to_string(r.total);
  if (r.upper_bound >= 0) text += ", at most " + std::to_string(r.upper_bound);
  return text;
}

std::string Signed(int64_t n) { return (n > 0 ? "+" : "") + std::to_string(n); }

std::string Padded(std::string text, size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text + "  ";
}

// Node rows: every node with a count > 0 now or before (what-if), by name.
void RenderNodesText(const SubjectCapacity& c, std::ostream& out) {
  std::map<std::string, std::pair<const capacity::NodeCapacity*, const capacity::NodeCapacity*>> rows;
  for (const auto& n : c.now.nodes) {
    if (n.count > 0) rows[n.name].first = &n;
  }
  if (c.before) {
    for (const auto& n : c.before->nodes) {
      if (n.count > 0 || rows.contains(n.name)) rows[n.name].second = &n;
    }
    for (auto& [name, row] : rows) {
      if (row.first != nullptr) continue;
      for (const auto& n : c.now.nodes) {
        if (n.name == name) row.first = &n;
      }
    }
  }
  size_t width = 5;
  for (const auto& [name, row] : rows) width = std::max(width, name.size());
  out << "  " << Padded("NODE", width) << (c.before ? "BEFORE  AFTER  CHANGE\n" : "COPIES\n");
  auto count = [](const capacity::NodeCapacity* n) { return n == nullptr ? 0 : n->count; };
  auto text = [](const capacity::NodeCapacity* n) {
    return n == nullptr ? std::string("0") : CountText(n->count, n->exact);
  };
  for (const auto& [name, row] : rows) {
    out << "  " << Padded(name, width);
    if (c.before) {
      out << Padded(text(row.second), 6) << Padded(text(row.first), 5)
          << Signed(count(row.first) - count(row.second)) << "\n";
    } else {
      out << text(row.first) << "\n";
    }
  }
  out << "  " << Padded("total", width);
  if (c.before) {
    out << Padded(TotalText(*c.before), 6) << Padded(TotalText(c.now), 5)
        << Signed(c.now.total - c.before->total) << "\n";
  } else {
    out << TotalText(c.now) << "\n";
  }
  std::string unschedulable;
  for (const auto& n : c.now.nodes) {
    if (n.unschedulable) unschedulable += (unschedulable.empty() ? "" : ", ") + n.name;
  }
  if (!unschedulable.empty()) out << "  not counted (unschedulable): " << unschedulable << "\n";
}

void RenderText(const std::vector<SubjectCapacity>& results, std::ostream& out) {
  if (results.empty()) out << "no unallocated ResourceClaim, ResourceClaimTemplate or pod claim found\n";
  for (const SubjectCapacity& c : results) {
    out << SubjectName(c.subject) << ": " << TotalText(c.now) << " more cop"
        << (c.now.total == 1 && c.now.total_exact ? "y" : "ies");
    if (c.before) out << " after the change (" << Signed(c.now.total - c.before->total) << ")";
    out << "\n";
    if (c.now.shared_devices) {
      out << "  (devices visible from several nodes: the total counts them once)\n";
    }
    if (c.subject.errors.empty()) RenderNodesText(c, out);
    if (c.now.total == 0) RenderReasonsText(c.subject, out);
  }
}

nlohmann::json NodesJson(const capacity::CapacityResult& r) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : r.nodes) {
    if (n.count == 0) continue;
    nlohmann::json node = {{"name", n.name}, {"count", n.count}};
    if (!n.exact) node["exact"] = false;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

// total, exact, upperBound (when not exact and known), nodes.
void CountsJson(const capacity::CapacityResult& r, nlohmann::json& out) {
  out["total"] = r.total;
  out["exact"] = r.total_exact;
  if (!r.total_exact && r.upper_bound >= 0) out["upperBound"] = r.upper_bound;
  out["sharedDevices"] = r.shared_devices;
  out["nodes"] = NodesJson(r);
}

std::string RenderJson(const std::vector<SubjectCapacity>& results) {
  nlohmann::json list = nlohmann::json::array();
  for (const SubjectCapacity& c : results) {
    const pipeline::SatisfiabilityResult& r = c.subject;
    nlohmann::json entry = {{"kind", r.ref.kind}, {"namespace", r.ref.name_space},
                            {"name", r.ref.name}};
    CountsJson(c.now, entry);
    entry["reasons"] = c.now.total == 0 ? ReasonsJson(r) : nlohmann::json::array();
    if (c.before) {
      nlohmann::json before = nlohmann::json::object();
      CountsJson(*c.before, before);
      entry["before"] = std::move(before);
      entry["difference"] = c.now.total - c.before->total;
    }
    list.push_back(std::move(entry));
  }
  nlohmann::json doc = {{"capacity", std::move(list)}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int FailCapacity(CommandContext& context, const Status& status) {
  context.err << "draguard capacity: " << status.message() << "\n";
  return kExitUsage;
}

}  // namespace

int RunCapacity(const std::vector<std::string>& args, CommandContext& context) {
  CapacityFlags raw;
  FlagSet flags("draguard capacity [PATH|-|pod/NAME]... [flags]");
  raw.Register(flags);
  std::vector<std::string> positional;
  Status parsed = flags.Parse(args, &positional);
  if (!parsed.ok()) {
    context.err << "draguard capacity: " << parsed.message() << "\nRun '"
                << UsageLine(context, "capacity --help") << "'.\n";
    return kExitUsage;
  }
  if (raw.help) {
    context.out << kCapacityDescription << flags.Help(context.program);
    return kExitOk;
  }
  StatusOr<CapacitySettings> settings = ToSettings(raw, context.err);
  if (!settings.ok()) return FailCapacity(context, settings.status());
  std::vector<std::string> paths, pods;
  for (const std::string& arg : positional) {
    std::string name;
    if (!IsClusterPodReference(arg, name)) {
      paths.push_back(arg);
    } else if (name.empty()) {
      return FailCapacity(context, InvalidArgumentError("\"" + arg + "\" names no pod"));
    } else {
      pods.push_back(name);
    }
  }
  if (paths.empty() && pods.empty()) paths.push_back("-");
  CapacityInputs inputs;
  inventory::InputOptions input;
  input.stdin_stream = &context.in;
  const KubernetesVersion version = settings->validation.version;
  if (!paths.empty()) {
    StatusOr<std::vector<k8s::DecodeResult>> files = DecodeFiles(paths, input, version);
    if (!files.ok()) return FailCapacity(context, files.status());
    inputs.decoded = std::move(*files);
  }
  const bool json = raw.check.output == "json";
  if (WantsLiveCluster(raw.check, !pods.empty(), inputs.decoded)) {
    const CheckSettings check{.allocator = settings->counting.allocator,
                              .validation = settings->validation};
    StatusOr<LiveCluster> live = OpenLiveCluster(raw.check, check, context, "capacity", !json);
    if (!live.ok()) return FailCapacity(context, live.status());
    if (Status added = AddLivePods(pods, *live, *settings, inputs); !added.ok()) {
      live->DoneListing();
      return FailCapacity(context, added);
    }
    live->DoneListing();
    inputs.base = std::move(live->snapshot.objects);
  } else if (!raw.check.inventory.empty()) {
    StatusOr<inventory::ClusterObjects> extra =
        LoadInventoryFlag(raw.check.inventory, input, version, context.err);
    if (!extra.ok()) return FailCapacity(context, extra.status());
    inputs.base = std::move(*extra);
  }
  StatusOr<std::vector<SubjectCapacity>> results = Count(inputs, raw, *settings, context);
  if (!results.ok()) return FailCapacity(context, results.status());
  if (json) {
    context.out << RenderJson(*results);
  } else {
    RenderText(*results, context.out);
  }
  for (const SubjectCapacity& c : *results) {
    if (c.now.total == 0) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace draguard::cli
