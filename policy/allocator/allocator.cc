// CheckClaim / CheckPod: runs the per-node search on every node and turns the outcomes
// into one verdict with a witness or aggregated reasons. Nodes whose allocation problems are
// identical (internal/node_signature.h; Inventory::Groups) are searched once: the later ones
// repeat the first one's outcome under their own name.
#include "policy/allocator/allocator.h"

#include <array>
#include <charconv>
#include <initializer_list>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

#include "policy/allocator/internal/device_facts.h"
#include "policy/allocator/internal/node_pools.h"
#include "policy/allocator/internal/plan.h"
#include "policy/allocator/internal/search.h"
#include "policy/allocator/internal/witness.h"

namespace draguard::alloc {
namespace {

using internal::NodeOutcome;

// Name used when the inventory knows no node at all: a node without labels.
constexpr char kAnyNode[] = "(any node)";

using ReasonKey = std::tuple<std::string, size_t, std::string>;  // code, claim, request

// Whether node funnel `a` comes closer to serving the request than `b`: more usable devices,
// then (a tie, typically 0 and 0) more devices past the later filters, so that the node named
// is the one where the request got furthest, not merely the first node tried.
bool Closer(const RequestFunnel& a, const RequestFunnel& b) {
  auto stages = [](const RequestFunnel& f) {
    return std::make_tuple(f.usable, f.tolerated, f.available, f.selector_match, f.class_match,
                           f.visible);
  };
  return stages(a) > stages(b);
}

// What a later node with the same signature repeats of the first one's outcome.
struct Decided {
  NodeOutcome::Kind kind = NodeOutcome::kInfeasible;
  bool invalid_pool = false;
  std::string invalid_pool_problem;
  // The node counts of its reasons in Aggregate::reasons (map nodes do not move): a repeat
  // costs an increment per reason, not a lookup by strings (with 1,000 nodes of one
  // signature and no feasible one, the lookups were ~250 k instructions per check).
  std::vector<int*> reason_counts;
};

struct Aggregate {
  std::vector<RequestFunnel> best;  // per alternative: the node with the most usable devices
  // First reason per (code, claim, request), with the number of nodes it occurred on.
  std::map<ReasonKey, std::pair<Reason, int>> reasons;
  bool invalid_pool = false;
  std::string invalid_pool_problem;  // the first one seen, named in the reason

  void NoteInvalidPool(const std::string& problem) {
    if (!invalid_pool) invalid_pool_problem = problem;
    invalid_pool = true;
  }

  // Takes the reasons of an infeasible node; `decided` records what to repeat.
  void Add(NodeOutcome& out, Decided& decided) {
    decided.invalid_pool = out.invalid_pool;
    decided.invalid_pool_problem = out.invalid_pool_problem;
    if (out.invalid_pool) NoteInvalidPool(out.invalid_pool_problem);
    if (best.empty()) best = out.funnels;
    for (size_t i = 0; i < out.funnels.size() && i < best.size(); ++i) {
      if (Closer(out.funnels[i], best[i])) best[i] = out.funnels[i];
    }
    for (Reason& r : out.reasons) {
      auto key = std::make_tuple(r.code, r.claim, r.request);
      auto it = reasons.find(key);
      if (it == reasons.end()) {
        it = reasons.emplace(std::move(key), std::make_pair(std::move(r), 1)).first;
      } else {
        ++it->second.second;
      }
      decided.reason_counts.push_back(&it->second.second);
    }
  }

  // A node with the same signature as an earlier infeasible one. Its funnels equal that
  // node's, so they never replace a best funnel (only a strictly better one does).
  void Repeat(const Decided& decided) {
    if (decided.invalid_pool) NoteInvalidPool(decided.invalid_pool_problem);
    for (int* count : decided.reason_counts) ++*count;
  }
};

// Appends `parts` (strings and numbers) to `m`, sized once: the funnel message is most of
// what an unsatisfiable webhook check spends on its explanation, and building it from
// temporaries (a string per number, one per `+`) cost ~3.7 k instructions.
void Append(std::string& m, std::initializer_list<std::string_view> parts) {
  size_t size = m.size();
  for (std::string_view p : parts) size += p.size();
  m.reserve(size);
  for (std::string_view p : parts) m.append(p);
}

// The decimal text of `v` in `buf`.
std::string_view Decimal(std::array<char, 24>& buf, int64_t v) {
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string_view(buf.data(), static_cast<size_t>(end - buf.data()));
}

std::string FunnelMessage(const RequestFunnel& f, int64_t cluster, bool all) {
  std::array<std::array<char, 24>, 9> n;
  std::string m;
  Append(m, {"request ", f.request, ": ", Decimal(n[0], cluster),
             " devices match the selectors in the cluster, at most ", Decimal(n[1], f.usable),
             " usable on one node (", f.node, "), ",
             all ? std::string_view("at least one") : Decimal(n[2], f.needed), " needed",
             " [on ", f.node, ": ", Decimal(n[3], f.visible), " visible, ",
             Decimal(n[4], f.class_match), " pass the class selectors, ",
             Decimal(n[5], f.selector_match), " the request selectors, ",
             Decimal(n[6], f.available), " not allocated, ", Decimal(n[7], f.tolerated),
             " tolerated, ", Decimal(n[8], f.usable), " within counters and capacity]"});
  return m;
}

void Explain(const internal::Plan& plan, internal::DeviceFacts& facts,
             SelectorEvaluator& evaluator, Aggregate& agg, const AllocatorOptions& o,
             AllocationVerdict& v) {
  for (auto& [key, entry] : agg.reasons) {
    Reason r = entry.first;
    if (r.code == "alloc.request.insufficient-devices") {
      for (const internal::Alternative* alt : plan.alternatives) {
        if (alt->claim != r.claim || alt->request != r.request) continue;
        const RequestFunnel& f = agg.best[alt->id];
        // Enough devices pass every filter on the best node: what failed there is the
        // counter bound, reported by its own reason; a funnel would contradict it.
        if (!alt->all && f.usable >= alt->count) continue;
        RequestFunnel fc = f;
        fc.cluster_match = facts.CountMatches(*alt, evaluator);
        v.funnels.push_back(fc);
        Reason each = r;
        each.request = alt->name;
        each.node = f.node;
        each.message = FunnelMessage(fc, fc.cluster_match, alt->all);
        v.reasons.push_back(std::move(each));
      }
      continue;
    }
    if (entry.second > 1) {
      r.message += " (and on " + std::to_string(entry.second - 1) + " other nodes)";
    }
    v.reasons.push_back(std::move(r));
  }
  if (agg.invalid_pool) {
    v.reasons.push_back(Reason{
        .code = "alloc.pool.invalid",
        .message = "invalid resource pools were encountered (duplicate device names or "
                   "counters that do not exist): " +
                   agg.invalid_pool_problem + "; its devices are not used"});
    if (o.release().alloc.invalid_pool_fatal) v.kind = VerdictKind::kError;
  }
}

// Whether no device of the cluster passes the selectors of any alternative of any request of
// `plan`, so that every node fails every request in its pre-check, with nothing else to say
// than the per-stage counts: no All request (whose pools could be fatal), no selector error
// anywhere (fatal or not depending on the node), claims within the result limit.
bool NothingMatches(const internal::Plan& plan, internal::DeviceFacts& facts,
                    SelectorEvaluator& evaluator, const AllocatorOptions& o) {
  if (plan.alternatives.empty()) return false;
  for (const internal::PlannedClaim& claim : plan.claims) {
    int64_t least = 0;
    for (const internal::PlannedRequest& pr : claim.requests) least += pr.min_count;
    if (least > o.max_results_per_claim) return false;
  }
  for (const internal::Alternative* alt : plan.alternatives) {
    if (alt->all) return false;
    const internal::Alternative& selection = alt->selection ? *alt->selection : *alt;
    if (facts.AnyMatch(selection, evaluator) != internal::SelectorState::kRequestMismatch) {
      return false;
    }
  }
  return true;
}

// The verdict of the per-node search when NothingMatches: every node (the first of each
// group) counted through the selector stages, without the search's candidates, strings and
// reasons per node. False, with `v` untouched, when a node sees an invalid pool (the
// per-node search then says so, and may fail on it).
bool DecideNothingMatches(const Inventory& inv, const internal::Plan& plan,
                          internal::DeviceFacts& facts, SelectorEvaluator& evaluator,
                          const AllocatorOptions& o, const NodeGroups* groups, size_t count,
                          internal::NodeDevices& devices, AllocationVerdict& v) {
  const bool any_node = groups == nullptr;
  Aggregate agg;
  std::vector<RequestFunnel> funnels(plan.alternatives.size());
  std::string first_node;
  // The other nodes of a group have the same counts as its first node, and groups are
  // numbered in the order of their first nodes: visiting the first nodes alone, in group
  // order, meets the nodes in the order a walk of every node would count them (1,000 nodes
  // of one group: one visit, not 1,000 lookups).
  const size_t visits = any_node ? 1 : groups->first.size();
  for (size_t g = 0; g < visits; ++g) {
    const size_t i = any_node ? 0 : groups->first[g];
    const NodeView node = any_node ? inv.FindNode(kAnyNode) : inv.NodeAt(i);
    internal::CollectNodeDevices(inv, node, o, devices);
    for (const internal::NodePool& p : devices.pools) {
      if (p.state == internal::PoolState::kInvalid) return false;
    }
    if (i == 0) first_node = std::string(node.name);
    for (const internal::Alternative* alt : plan.alternatives) {
      const internal::Alternative& selection = alt->selection ? *alt->selection : *alt;
      RequestFunnel& f = funnels[alt->id];
      f.visible = devices.visible;
      f.class_match = 0;
      for (size_t d : devices.devices) {
        // Neither a match nor an error anywhere (NothingMatches): a device passes the class
        // selectors or it does not.
        f.class_match += facts.Selectors(selection, d, evaluator) !=
                         internal::SelectorState::kClassMismatch;
      }
    }
    if (agg.best.empty()) {
      for (const internal::Alternative* alt : plan.alternatives) {
        funnels[alt->id].request = alt->name;
        funnels[alt->id].needed = alt->count;
        funnels[alt->id].node = std::string(node.name);
      }
      agg.best = funnels;
      continue;
    }
    for (size_t a = 0; a < funnels.size(); ++a) {
      if (!Closer(funnels[a], agg.best[a])) continue;
      agg.best[a].visible = funnels[a].visible;
      agg.best[a].class_match = funnels[a].class_match;
      agg.best[a].node = std::string(node.name);
    }
  }
  // Every node's pre-check names each request's first alternative, with no usable device.
  for (size_t c = 0; c < plan.claims.size(); ++c) {
    for (const internal::PlannedRequest& pr : plan.claims[c].requests) {
      const internal::Alternative& a = pr.alternatives.front();
      Reason r{.code = "alloc.request.insufficient-devices", .claim = c, .request = a.request,
               .node = first_node,
               .message = "request " + a.request + ": 0 usable devices on node " + first_node +
                          ", " + std::to_string(a.count) + " needed"};
      agg.reasons.emplace(std::make_tuple(r.code, c, a.request),
                          std::make_pair(std::move(r), static_cast<int>(count)));
    }
  }
  v.kind = VerdictKind::kUnsatisfiable;
  v.feasible_node_count = 0;
  Explain(plan, facts, evaluator, agg, o, v);
  return true;
}

}  // namespace

CheckScratch::CheckScratch() : node_devices_(std::make_unique<internal::NodeDevices>()) {}
CheckScratch::~CheckScratch() = default;

AllocationVerdict CheckPod(const Inventory& inv,
                           const std::vector<const k8s::ResourceClaimSpec*>& claims,
                           SelectorEvaluator& evaluator, const AllocatorOptions& o,
                           CheckScratch* scratch) {
  AllocationVerdict v;
  internal::Plan plan;
  if (!internal::BuildPlan(inv, claims, o, plan, v.kind, v.reasons)) return v;
  // Devices that differ only in attributes no selector or constraint reads (uuids) are
  // alike for this check: decide them, and the nodes holding them, once.
  const internal::AlternativeReads reads = internal::ReadsOf(plan, evaluator);
  const bool shape = !internal::ReadsIdentifying(inv, plan, reads);
  internal::DeviceFacts facts(inv, o, plan, shape, &reads);
  internal::Budget budget{.deadline = std::chrono::steady_clock::now() + o.time_budget,
                          .max_steps = o.max_steps};
  const bool any_node = inv.node_names().empty();
  const size_t count = any_node ? 1 : inv.node_names().size();
  // Nodes with equal signatures pose the same problem: the first of each group is searched,
  // the others repeat its outcome (computed once per inventory and kind of check).
  const NodeGroups* groups = any_node ? nullptr : &inv.Groups(o, shape);
  // Reused from node to node (the loop allocates only for searched nodes), and from check to
  // check with a scratch.
  std::optional<internal::NodeDevices> own;
  internal::NodeDevices& devices = scratch != nullptr ? scratch->node_devices() : own.emplace();
  if (o.cluster_wide_decisions && NothingMatches(plan, facts, evaluator, o) &&
      DecideNothingMatches(inv, plan, facts, evaluator, o, groups, count, devices, v)) {
    return v;
  }
  std::vector<std::optional<Decided>> decided(groups == nullptr ? 1 : groups->first.size());
  Aggregate agg;
  for (size_t i = 0; i < count; ++i) {
    const size_t group = groups == nullptr ? 0 : groups->group_of[i];
    if (const std::optional<Decided>& seen = decided[group]) {
      if (seen->kind == NodeOutcome::kFeasible) {
        v.feasible_nodes.emplace_back(inv.node_names()[i]);
      } else {
        agg.Repeat(*seen);
      }
      continue;
    }
    const NodeView node = any_node ? inv.FindNode(kAnyNode) : inv.NodeAt(i);
    internal::CollectNodeDevices(inv, node, o, devices);
    NodeOutcome out =
        internal::SearchNode(inv, plan, node.name, devices, o, facts, evaluator, budget);
    ++v.nodes_searched;
    v.steps = budget.steps;
    if (out.kind == NodeOutcome::kFatal) {
      // An error on any node fails the pod's scheduling cycle: no node is feasible then.
      v.kind = VerdictKind::kError;
      v.reasons = std::move(out.reasons);
      v.feasible_nodes.clear();
      v.allocations.clear();
      v.node.clear();
      return v;
    }
    if (out.kind == NodeOutcome::kAborted) {
      v.nodes_exhaustive = false;
      if (!v.feasible_nodes.empty()) break;
      v.kind = VerdictKind::kUndecided;
      std::string name(node.name);
      v.reasons.push_back(Reason{.code = "alloc.budget.exhausted", .node = name,
                                 .message = "the search budget ran out on node " + name +
                                            " before an answer was found"});
      return v;
    }
    Decided& d = decided[group].emplace();
    d.kind = out.kind;
    if (out.kind == NodeOutcome::kFeasible) {
      if (v.feasible_nodes.empty()) {
        v.node = std::string(node.name);
        if (o.witness) {
          v.allocations = internal::BuildAllocations(inv, plan, out.picks, v.node, o);
        }
      }
      v.feasible_nodes.emplace_back(node.name);
      if (!o.all_nodes) {
        v.nodes_exhaustive = i + 1 == count;
        break;
      }
      continue;
    }
    agg.Add(out, d);
  }
  v.steps = budget.steps;
  v.feasible_node_count = v.feasible_nodes.size();
  if (!v.feasible_nodes.empty()) {
    v.kind = VerdictKind::kSatisfiable;
    return v;
  }
  v.kind = VerdictKind::kUnsatisfiable;
  Explain(plan, facts, evaluator, agg, o, v);
  return v;
}

AllocationVerdict CheckClaim(const Inventory& inv, const k8s::ResourceClaimSpec& claim,
                             SelectorEvaluator& evaluator, const AllocatorOptions& options,
                             CheckScratch* scratch) {
  return CheckPod(inv, {&claim}, evaluator, options, scratch);
}

}  // namespace draguard::alloc
