// CountCopies (capacity.h): probes of alloc::CheckPod with k copies per node, then the total
// with its bounds when devices are shared between nodes.
#include "policy/capacity/capacity.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "policy/allocator/allocator.h"
#include "policy/allocator/inventory.h"

namespace draguard::capacity {
namespace {

using alloc::AllocationVerdict;
using alloc::VerdictKind;
using inventory::ClusterObjects;

constexpr int64_t kNoFailure = std::numeric_limits<int64_t>::max();
// The node of an inventory that names none (the allocator's own name for it).
constexpr char kAnyNode[] = "(any node)";
// The imaginary node of the upper bound.
constexpr char kEveryNode[] = "(every node)";

// What is known of one node: `lo` copies fit, `hi` copies do not (kNoFailure: not known).
// `stopped`: a probe could not decide the node (budget or error), `lo` is a lower bound.
struct Bracket {
  int64_t lo = 0;
  int64_t hi = kNoFailure;
  bool stopped = false;
  bool Open() const { return !stopped && hi != kNoFailure && hi - lo > 1; }
};

class Prober {
 public:
  Prober(const std::vector<k8s::ResourceClaimSpec>& claims, alloc::SelectorEvaluator& evaluator,
         const alloc::AllocatorOptions& options, int64_t& probes)
      : claims_(claims), evaluator_(evaluator), options_(options), probes_(probes) {}

  AllocationVerdict Probe(const alloc::Inventory& inventory, int64_t k, bool all_nodes = true) {
    std::vector<const k8s::ResourceClaimSpec*> copies;
    copies.reserve(static_cast<size_t>(k) * claims_.size());
    for (int64_t i = 0; i < k; ++i) {
      for (const k8s::ResourceClaimSpec& claim : claims_) copies.push_back(&claim);
    }
    alloc::AllocatorOptions options = options_;
    options.all_nodes = all_nodes;
    ++probes_;
    return alloc::CheckPod(inventory, copies, evaluator_, options);
  }

 private:
  const std::vector<k8s::ResourceClaimSpec>& claims_;
  alloc::SelectorEvaluator& evaluator_;
  const alloc::AllocatorOptions& options_;
  int64_t& probes_;
};

std::vector<std::string> NodeNames(const alloc::Inventory& inventory) {
  if (inventory.node_names().empty()) return {kAnyNode};
  return inventory.node_names();
}

// Applies the outcome of probing k copies to every node whose bracket holds k.
void Update(int64_t k, const AllocationVerdict& v, const std::vector<std::string>& names,
            std::vector<Bracket>& brackets) {
  const std::set<std::string_view> feasible(v.feasible_nodes.begin(), v.feasible_nodes.end());
  const bool decided = v.nodes_exhaustive && (v.kind == VerdictKind::kSatisfiable ||
                                              v.kind == VerdictKind::kUnsatisfiable);
  for (size_t i = 0; i < names.size(); ++i) {
    Bracket& b = brackets[i];
    if (b.stopped || k <= b.lo || k >= b.hi) continue;
    if (feasible.contains(names[i])) {
      b.lo = k;
    } else if (decided || (k == 1 && v.kind == VerdictKind::kError)) {
      // An error for one copy: the scheduler fails the claim itself, none is allocated.
      b.hi = k;
    } else {
      b.stopped = true;
    }
  }
}

struct NodeCounts {
  std::vector<std::string> names;  // the inventory's nodes
  std::vector<NodeCapacity> counts;
  AllocationVerdict one_copy;
  bool all_exact = true;
  int64_t sum = 0;
};

// The per-node search of capacity.h: exponential, then binary inside each bracket.
NodeCounts CountPerNode(const alloc::Inventory& inventory, Prober& prober, int64_t max_copies) {
  NodeCounts out;
  out.names = NodeNames(inventory);
  std::vector<Bracket> brackets(out.names.size());
  for (int64_t k = 1;; k = std::min(k * 2, max_copies)) {
    AllocationVerdict v = prober.Probe(inventory, k);
    Update(k, v, out.names, brackets);
    if (k == 1) out.one_copy = std::move(v);
    bool any_fit = std::any_of(brackets.begin(), brackets.end(),
                               [k](const Bracket& b) { return b.lo == k; });
    if (!any_fit || k >= max_copies) break;
  }
  for (Bracket& b : brackets) {
    if (b.lo >= max_copies) b.stopped = true;
  }
  for (;;) {
    auto open = std::find_if(brackets.begin(), brackets.end(),
                             [](const Bracket& b) { return b.Open(); });
    if (open == brackets.end()) break;
    const int64_t mid = open->lo + (open->hi - open->lo) / 2;
    Update(mid, prober.Probe(inventory, mid), out.names, brackets);
  }
  for (size_t i = 0; i < out.names.size(); ++i) {
    const Bracket& b = brackets[i];
    const bool exact = !b.stopped && b.hi == b.lo + 1;
    out.counts.push_back({.name = out.names[i], .count = b.lo, .exact = exact});
    out.all_exact = out.all_exact && exact;
    out.sum += b.lo;
  }
  return out;
}

using PoolKey = std::pair<std::string, std::string>;

PoolKey PoolOf(const k8s::ResourceSlice& slice) {
  return {slice.spec.driver, slice.spec.pool.name};
}

// Pools whose devices more than one node can see: a device slice without spec.nodeName, or
// device slices naming different nodes.
std::set<PoolKey> SharedPools(const ClusterObjects& cluster) {
  std::map<PoolKey, std::set<std::string>> nodes;
  std::set<PoolKey> shared;
  for (const k8s::ResourceSlice& slice : cluster.slices) {
    if (slice.spec.devices.empty()) continue;  // counters only
    const std::optional<std::string>& node = slice.spec.node_name;
    if (!node || node->empty()) {
      shared.insert(PoolOf(slice));
      continue;
    }
    std::set<std::string>& seen = nodes[PoolOf(slice)];
    seen.insert(*node);
    if (seen.size() > 1) shared.insert(PoolOf(slice));
  }
  return shared;
}

ClusterObjects WithoutPools(const ClusterObjects& cluster, const std::set<PoolKey>& pools) {
  ClusterObjects out = cluster;
  out.slices.EraseIf([&](const k8s::ResourceSlice& s) { return pools.contains(PoolOf(s)); });
  return out;
}

// `cluster` with `node` as its only node (its Node object, or a bare one).
ClusterObjects OnlyNode(const ClusterObjects& cluster, const std::string& node) {
  ClusterObjects out = cluster;
  out.nodes.clear();
  for (const k8s::Node& n : cluster.nodes) {
    if (n.metadata.name == node) out.nodes.push_back(n);
  }
  if (out.nodes.empty()) out.nodes.push_back(k8s::Node{.metadata = {.name = node}});
  return out;
}

// One imaginary node that sees every device the schedulable nodes can see.
ClusterObjects EveryNodeAsOne(const ClusterObjects& cluster) {
  ClusterObjects out = cluster;
  std::set<std::string> schedulable;
  for (const k8s::Node& n : cluster.nodes) schedulable.insert(n.metadata.name);
  out.slices.EraseIf([&](const k8s::ResourceSlice& s) {
    return !cluster.nodes.empty() && s.spec.node_name && !s.spec.node_name->empty() &&
           !schedulable.contains(*s.spec.node_name);
  });
  for (size_t i = 0; i < out.slices.size(); ++i) {
    if (out.slices[i].spec.devices.empty()) continue;
    k8s::ResourceSlice& slice = out.slices.Mutable(i);  // a copy: `cluster` shares the slice
    slice.spec.node_name.reset();
    slice.spec.node_selector.reset();
    slice.spec.per_device_node_selection.reset();
    slice.spec.all_nodes = true;
    for (k8s::Device& d : slice.spec.devices) {
      d.node_name.reset();
      d.node_selector.reset();
      d.all_nodes.reset();
    }
  }
  out.nodes = {k8s::Node{.metadata = {.name = kEveryNode}}};
  return out;
}

bool HasAllMode(const std::vector<k8s::ResourceClaimSpec>& claims) {
  for (const k8s::ResourceClaimSpec& claim : claims) {
    for (const k8s::DeviceRequest& r : claim.devices.requests) {
      if (r.exactly && r.exactly->allocation_mode == "All") return true;
      for (const k8s::DeviceSubRequest& s : r.first_available) {
        if (s.allocation_mode == "All") return true;
      }
    }
  }
  return false;
}

bool HasAdminAccess(const std::vector<k8s::ResourceClaimSpec>& claims) {
  for (const k8s::ResourceClaimSpec& claim : claims) {
    for (const k8s::DeviceRequest& r : claim.devices.requests) {
      if (r.exactly && r.exactly->admin_access.value_or(false)) return true;
    }
  }
  return false;
}

// Records a witness as allocated claims of `cluster`, so that later steps see its devices,
// counters and capacity in use.
void Commit(const AllocationVerdict& v, ClusterObjects& cluster, int64_t& serial) {
  for (const k8s::AllocationResult& allocation : v.allocations) {
    k8s::ResourceClaim claim;
    claim.metadata.name = "draguard-capacity-copy-" + std::to_string(serial++);
    claim.metadata.name_space = "draguard-capacity";
    claim.status = k8s::ResourceClaimStatus{.allocation = allocation};
    cluster.claims.push_back(std::move(claim));
  }
}

// Places `copies` on `node` of `cluster` alone and commits the witness to `state` (which
// may be `cluster`: the inventory is built before the commit). Returns the copies placed.
int64_t PlaceOnNode(const ClusterObjects& cluster, const std::string& node, int64_t copies,
                    Prober& prober, ClusterObjects& state, int64_t& serial) {
  if (copies <= 0) return 0;
  const alloc::Inventory inventory = alloc::Inventory::Build(OnlyNode(cluster, node));
  const AllocationVerdict v = prober.Probe(inventory, copies, /*all_nodes=*/false);
  if (v.kind != VerdictKind::kSatisfiable) return 0;
  Commit(v, state, serial);
  return copies;
}

// The greedy placement of capacity.h (lower bound of the total): every node's local copies
// first (local devices of one node are seen by no other), then node after node what fits on
// what is left.
int64_t GreedyTotal(const ClusterObjects& schedulable, const std::vector<std::string>& nodes,
                    const ClusterObjects& local, const NodeCounts& local_counts, Prober& prober,
                    int64_t max_copies) {
  ClusterObjects state = schedulable;
  int64_t serial = 0;
  int64_t total = 0;
  for (const NodeCapacity& n : local_counts.counts) {
    total += PlaceOnNode(local, n.name, n.count, prober, state, serial);
  }
  for (const std::string& node : nodes) {
    const NodeCounts more =
        CountPerNode(alloc::Inventory::Build(OnlyNode(state, node)), prober, max_copies);
    total += PlaceOnNode(state, node, more.sum, prober, state, serial);
  }
  return total;
}

void SortByName(std::vector<NodeCapacity>& nodes) {
  std::sort(nodes.begin(), nodes.end(),
            [](const NodeCapacity& a, const NodeCapacity& b) { return a.name < b.name; });
}

// Why the unschedulable nodes count nothing (shown with the reasons of a total of 0).
void AddUnschedulableReasons(CapacityResult& result) {
  for (const NodeCapacity& n : result.nodes) {
    if (!n.unschedulable) continue;
    result.one_copy.reasons.push_back(alloc::Reason{
        .code = "capacity.node.unschedulable",
        .node = n.name,
        .message = "node " + n.name + " is unschedulable (spec.unschedulable, e.g. drained): "
                   "no copies are counted there"});
  }
}

}  // namespace

CapacityResult CountCopies(const ClusterObjects& cluster,
                           const std::vector<k8s::ResourceClaimSpec>& claims,
                           alloc::SelectorEvaluator& evaluator, const CapacityOptions& options) {
  CapacityResult result;
  const int64_t max_copies = std::max<int64_t>(options.max_copies, 1);
  Prober prober(claims, evaluator, options.allocator, result.probes);
  ClusterObjects schedulable = cluster;
  schedulable.nodes.EraseIf([](const k8s::Node& n) { return n.unschedulable; });
  for (const k8s::Node& n : cluster.nodes) {
    if (n.unschedulable) {
      result.nodes.push_back({.name = n.metadata.name, .count = 0, .unschedulable = true});
    }
  }
  if (!cluster.nodes.empty() && schedulable.nodes.empty()) {
    AddUnschedulableReasons(result);
    SortByName(result.nodes);
    return result;
  }
  const alloc::Inventory inventory = alloc::Inventory::Build(schedulable);
  NodeCounts counts = CountPerNode(inventory, prober, max_copies);
  result.one_copy = std::move(counts.one_copy);
  AddUnschedulableReasons(result);
  for (const NodeCapacity& n : counts.counts) result.nodes.push_back(n);
  SortByName(result.nodes);
  result.total = counts.sum;
  result.total_exact = counts.all_exact;
  result.upper_bound = counts.sum;
  if (HasAdminAccess(claims)) {
    // Allocated admin-access results mark nothing in use: copies allocated one after the
    // other can outnumber the copies that fit together, and no bound is known.
    result.total_exact = false;
    result.upper_bound = -1;
  }
  const std::set<PoolKey> shared = SharedPools(schedulable);
  if (shared.empty() || counts.sum == 0) return result;
  // Devices several nodes see: the sum may count them more than once.
  const ClusterObjects local = WithoutPools(schedulable, shared);
  NodeCounts local_counts = CountPerNode(alloc::Inventory::Build(local), prober, max_copies);
  bool same = local_counts.all_exact && counts.all_exact;
  for (size_t i = 0; same && i < counts.counts.size(); ++i) {
    same = i < local_counts.counts.size() && counts.counts[i].count == local_counts.counts[i].count;
  }
  if (same) return result;  // local devices alone reach every count: nodes are independent
  result.shared_devices = true;
  result.total = GreedyTotal(schedulable, counts.names, local, local_counts, prober, max_copies);
  int64_t upper = counts.all_exact ? counts.sum : kNoFailure;
  if (!HasAllMode(claims)) {
    NodeCounts one = CountPerNode(alloc::Inventory::Build(EveryNodeAsOne(schedulable)), prober,
                                  max_copies);
    if (one.all_exact) upper = std::min(upper, one.sum);
  }
  if (HasAdminAccess(claims)) upper = kNoFailure;
  result.upper_bound = upper == kNoFailure ? -1 : std::max(upper, result.total);
  result.total_exact = upper != kNoFailure && result.total >= upper;
  return result;
}

}  // namespace draguard::capacity
