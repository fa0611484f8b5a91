// Node visibility and pool rules.
//
// For one node: every slice that can be visible (the node's own nodeName slices plus the slices
// without a nodeName) is tested (`NodeMatches`), visible slices are grouped by pool, the highest
// visible generation is kept, and the pool is classified complete, incomplete or invalid with the
// rules of the version (pools_*.go `GatherPools`). 1.35 recounts a pool cluster-wide when the node
// does not see all of it and drops pools that have a newer generation elsewhere.
#include "policy/allocator/internal/node_pools.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <set>
#include <utility>

namespace draguard::alloc::internal {
namespace {

bool ParseInt(std::string_view view, long long& out) {
  std::string s(view);
  char* end = nullptr;
  out = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && end == s.c_str() + s.size();
}

// `value`: the label (or field) value, nullptr when absent.
bool MatchesRequirement(const k8s::NodeSelectorRequirement& r, const std::string_view* value) {
  if (r.op == "In") return value && std::find(r.values.begin(), r.values.end(), *value) != r.values.end();
  if (r.op == "NotIn") return !value || std::find(r.values.begin(), r.values.end(), *value) == r.values.end();
  if (r.op == "Exists") return value != nullptr;
  if (r.op == "DoesNotExist") return value == nullptr;
  if (r.op == "Gt" || r.op == "Lt") {
    long long have = 0, want = 0;
    if (!value || r.values.size() != 1 || !ParseInt(*value, have) || !ParseInt(r.values[0], want)) {
      return false;
    }
    return r.op == "Gt" ? have > want : have < want;
  }
  return false;
}

bool MatchesTerm(const k8s::NodeSelectorTerm& term, std::string_view node,
                 const std::map<std::string, std::string>* labels) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions) {
    std::string_view label;
    const std::string_view* value = nullptr;
    if (labels) {
      auto it = labels->find(r.key);
      if (it != labels->end()) value = &(label = it->second);
    }
    if (!MatchesRequirement(r, value)) return false;
  }
  for (const auto& r : term.match_fields) {
    if (r.key != "metadata.name" || !MatchesRequirement(r, &node)) return false;
  }
  return true;
}

// Visibility of a device by its own node fields (per-device node selection).
bool DeviceOnNode(const k8s::Device& d, std::string_view node,
                  const std::map<std::string, std::string>* labels) {
  if (d.node_name) return *d.node_name == node;
  if (d.node_selector) return MatchesNodeSelector(*d.node_selector, node, labels);
  return d.all_nodes.value_or(false);
}

bool SliceVisible(const k8s::ResourceSliceSpec& s, std::string_view node,
                  const std::map<std::string, std::string>* labels, const AllocatorOptions& o) {
  bool partitionable = o.gates.Enabled(Gate::kDRAPartitionableDevices);
  if (!s.shared_counters.empty() && o.release().alloc.counter_slices_visible_everywhere &&
      s.devices.empty()) {
    return partitionable;  // counter slices join their pool everywhere
  }
  if (s.per_device_node_selection.value_or(false)) {
    if (!partitionable) return false;
    return std::any_of(s.devices.begin(), s.devices.end(),
                       [&](const k8s::Device& d) { return DeviceOnNode(d, node, labels); });
  }
  if (s.node_name && !s.node_name->empty()) return *s.node_name == node;
  if (s.node_selector) return MatchesNodeSelector(*s.node_selector, node, labels);
  return s.all_nodes.value_or(false);
}

}  // namespace

// Duplicate device names, duplicate counter sets, consumption of unknown counters (1.35
// `validateDeviceNames`, `getAndValidateCounterSets`, `validateDeviceCounterConsumption`).
std::string PoolProblem(const Inventory& inv, std::span<const size_t> slices,
                        CounterModel counters) {
  const bool pool_scope = counters == CounterModel::kCounterSets;
  std::set<std::string> names;
  std::map<std::string, std::set<std::string>> pool_sets;
  for (size_t s : slices) {
    for (const auto& cs : inv.slices()[s].spec.shared_counters) {
      if (pool_sets.count(cs.name) && pool_scope) {
        return "counter set " + cs.name + " is defined twice";
      }
      for (const auto& [name, c] : cs.counters) pool_sets[cs.name].insert(name);
    }
  }
  for (size_t s : slices) {
    const auto& spec = inv.slices()[s].spec;
    std::map<std::string, std::set<std::string>> slice_sets;
    for (const auto& cs : spec.shared_counters) {
      if (slice_sets.count(cs.name)) return "counter set " + cs.name + " is defined twice";
      for (const auto& [name, c] : cs.counters) slice_sets[cs.name].insert(name);
    }
    const auto& sets = pool_scope ? pool_sets : slice_sets;
    for (const k8s::Device& d : spec.devices) {
      if (!names.insert(d.name).second) return "device name " + d.name + " is used twice";
      for (const auto& cc : d.consumes_counters) {
        auto it = sets.find(cc.counter_set);
        if (it == sets.end()) return "device " + d.name + " consumes unknown counter set " + cc.counter_set;
        for (const auto& [name, c] : cc.counters) {
          if (!it->second.count(name)) return "device " + d.name + " consumes unknown counter " + name;
        }
      }
    }
  }
  return "";
}

namespace {

void Classify(const Inventory& inv, std::span<const size_t> slices, NodePool& np,
              const AllocatorOptions& o) {
  const PoolInfo& info = inv.pools()[np.pool];
  int64_t want = inv.slices()[slices.front()].spec.pool.resource_slice_count;
  int64_t seen = static_cast<int64_t>(slices.size());
  if (seen != want) {
    int64_t total = seen;
    if (o.release().alloc.pool_completeness_counts_all_nodes) {
      auto it = info.slices_per_generation.find(np.generation);
      total = it == info.slices_per_generation.end() ? seen : it->second;
    }
    if (total != want) {
      np.state = PoolState::kIncomplete;
      np.problem = "pool " + info.name + " of driver " + info.driver + " has " +
                   std::to_string(total) + " of " + std::to_string(want) +
                   " slices at generation " + std::to_string(np.generation);
      return;
    }
  }
  // Usually the node sees every slice of the generation: the Inventory validated that set once.
  const std::string* known =
      seen == info.slices_per_generation.at(np.generation)
          ? info.Problem(np.generation, CounterLayout(o.version))
          : nullptr;
  np.problem = known ? *known : PoolProblem(inv, slices, o.release().counters);
  if (!np.problem.empty()) np.state = PoolState::kInvalid;
}

bool HasBindingConditions(const Inventory& inv, std::span<const size_t> slices) {
  for (size_t s : slices) {
    auto [begin, end] = inv.SliceDevices(s);
    for (size_t id = begin; id < end; ++id) {
      if (inv.devices()[id].binding_conditions) return true;
    }
  }
  return false;
}

bool PoolUsable(const NodePool& np, const AllocatorOptions& o) {
  if (np.state == PoolState::kComplete) return true;
  return o.release().alloc.incomplete_pool_usable && np.state == PoolState::kIncomplete;
}

// Reads the InventoryDevice flags, not the k8s::Device: every device of every node passes here.
bool DeviceGated(const InventoryDevice& d, const AllocatorOptions& o) {
  if (d.consumes_counters && !o.gates.Enabled(Gate::kDRAPartitionableDevices)) return true;
  if (d.binding_conditions && !BindingAndStatus(o.gates)) return true;
  return false;
}

}  // namespace

bool MatchesNodeSelector(const k8s::NodeSelector& selector, std::string_view node,
                         const std::map<std::string, std::string>* labels) {
  for (const auto& term : selector.node_selector_terms) {
    if (MatchesTerm(term, node, labels)) return true;
  }
  return false;
}

void CollectNodeDevices(const Inventory& inv, const NodeView& node, const AllocatorOptions& o,
                        NodeDevices& out) {
  out.pools.clear();
  out.slices.clear();
  out.devices.clear();
  out.late.clear();
  out.visible = 0;
  for (const auto* list : {node.local_slices, &inv.NonLocalSlices()}) {
    for (size_t s : *list) {
      if (SliceVisible(inv.slices()[s].spec, node.name, node.labels, o)) out.slices.push_back(s);
    }
  }
  std::sort(out.slices.begin(), out.slices.end(), [&](size_t a, size_t b) {
    return std::make_pair(inv.pools()[inv.PoolOfSlice(a)].rank, a) <
           std::make_pair(inv.pools()[inv.PoolOfSlice(b)].rank, b);
  });
  // Per pool keep the slices of the highest visible generation, compacted in place; the
  // channel may search them by name (AllocatorChannel::sorts_slices_by_name).
  const AllocatorChannel& channel = o.channel();
  const bool sort_by_name = channel.sorts_slices_by_name;
  size_t kept = 0;
  for (size_t begin = 0, end = 0; begin < out.slices.size(); begin = end) {
    size_t pool = inv.PoolOfSlice(out.slices[begin]);
    int64_t generation = INT64_MIN;
    for (end = begin; end < out.slices.size() && inv.PoolOfSlice(out.slices[end]) == pool; ++end) {
      generation = std::max(generation, inv.slices()[out.slices[end]].spec.pool.generation);
    }
    NodePool np{.pool = pool, .generation = generation, .first_slice = kept};
    for (size_t i = begin; i < end; ++i) {
      size_t s = out.slices[i];
      if (inv.slices()[s].spec.pool.generation == generation) out.slices[kept++] = s;
    }
    np.end_slice = kept;
    if (sort_by_name) {
      std::stable_sort(out.slices.begin() + static_cast<std::ptrdiff_t>(np.first_slice),
                       out.slices.begin() + static_cast<std::ptrdiff_t>(kept),
                       [&](size_t a, size_t b) {
                         return inv.slices()[a].metadata.name < inv.slices()[b].metadata.name;
                       });
    }
    out.pools.push_back(std::move(np));
  }
  out.slices.resize(kept);
  size_t pools = 0;
  for (NodePool& np : out.pools) {
    std::span<const size_t> slices(out.slices.data() + np.first_slice, np.end_slice - np.first_slice);
    if (o.release().alloc.skip_obsolete_generation &&
        inv.pools()[np.pool].max_generation > np.generation &&
        static_cast<int64_t>(slices.size()) !=
            inv.slices()[slices.front()].spec.pool.resource_slice_count) {
      continue;  // obsolete: a newer generation exists elsewhere
    }
    Classify(inv, slices, np, o);
    bool usable = PoolUsable(np, o);
    // Pools holding a device with binding conditions are searched last, whole (pools_*.go
    // `poolHasBindingConditions`), by channels that know binding conditions.
    std::vector<size_t>& sink =
        usable && channel.BindingPoolsLast() && HasBindingConditions(inv, slices) ? out.late
                                                                                  : out.devices;
    for (size_t s : slices) {
      const auto& spec = inv.slices()[s].spec;
      bool per_device = spec.per_device_node_selection.value_or(false);
      auto [begin, end] = inv.SliceDevices(s);
      for (size_t id = begin; id < end; ++id) {
        const InventoryDevice& d = inv.devices()[id];
        if (per_device && !DeviceOnNode(*d.device, node.name, node.labels)) continue;
        ++out.visible;
        if (!usable || DeviceGated(d, o)) continue;
        sink.push_back(id);
      }
    }
    if (&out.pools[pools] != &np) out.pools[pools] = std::move(np);
    ++pools;
  }
  out.pools.resize(pools);
  out.devices.insert(out.devices.end(), out.late.begin(), out.late.end());
}

}  // namespace draguard::alloc::internal
