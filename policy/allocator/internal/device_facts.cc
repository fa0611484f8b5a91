// Lazily computed, node-independent device facts (see device_facts.h).
#include "policy/allocator/internal/device_facts.h"

#include "policy/allocator/internal/amount.h"
#include "policy/allocator/internal/capacity.h"

namespace draguard::alloc::internal {
namespace {

constexpr size_t kNoScope = SIZE_MAX;

std::string AttributeText(const k8s::DeviceAttribute& a) {
  if (a.int_value) return "i:" + std::to_string(*a.int_value);
  if (a.bool_value) return *a.bool_value ? "b:true" : "b:false";
  if (a.string_value) return "s:" + *a.string_value;
  if (a.version_value) return "v:" + *a.version_value;
  return "?";
}

void AppendSelector(std::string& sig, const k8s::NodeSelector& sel) {
  for (const auto& term : sel.node_selector_terms) {
    sig += "|t";
    for (const auto* list : {&term.match_expressions, &term.match_fields}) {
      for (const auto& r : *list) {
        sig += r.key + " " + r.op;
        for (const auto& v : r.values) sig += "," + v;
        sig += ";";
      }
      sig += "/";
    }
  }
}

bool Blocks(const k8s::DeviceTaint& t, KubeVersion version) {
  if (version == KubeVersion::k1_34) return true;
  return t.effect == "NoSchedule" || t.effect == "NoExecute";
}

bool ToleratesTaint(const k8s::DeviceToleration& tol, const k8s::DeviceTaint& t) {
  if (!tol.effect.empty() && tol.effect != t.effect) return false;
  if (!tol.key.empty() && tol.key != t.key) return false;
  if (tol.op == "Exists") return true;
  if (tol.key.empty()) return false;  // an empty key needs Exists
  return tol.value == t.value;
}

}  // namespace

DeviceFacts::DeviceFacts(const Inventory& inv, const AllocatorOptions& options,
                         size_t alternatives)
    : inv_(inv),
      options_(options),
      selectors_(alternatives, std::vector<SelectorState>(inv.devices().size())),
      class_(inv.devices().size(), -1),
      consumption_known_(inv.devices().size(), 0),
      consumption_(inv.devices().size()),
      layout_(options.version == KubeVersion::k1_35 ? kLayout135 : kLayout134),
      scopes_(inv.CounterScopes(layout_).size()),
      scope_of_(inv.devices().size(), kNoScope),
      capacity_(inv.devices().size()),
      demand_known_(alternatives),
      demand_(alternatives) {}

SelectorState DeviceFacts::Selectors(const Alternative& alt, size_t device,
                                     SelectorEvaluator& evaluator) {
  SelectorState& state = selectors_[alt.id][device];
  if (state != SelectorState::kUnknown) return state;
  DeviceView view = inv_.View(device);
  auto run = [&](const std::vector<k8s::DeviceSelector>& sels, bool from_class,
                 SelectorState mismatch) {
    for (const auto& sel : sels) {
      if (!sel.cel) continue;
      SelectorResult r = evaluator.Evaluate(sel.cel->expression, view);
      if (r.outcome == SelectorOutcome::kMatch) continue;
      if (r.outcome == SelectorOutcome::kError) {
        failure_ = SelectorFailure{device, sel.cel->expression, r.error, from_class};
        return SelectorState::kError;
      }
      return mismatch;
    }
    return SelectorState::kMatch;
  };
  state = run(alt.device_class->spec.selectors, true, SelectorState::kClassMismatch);
  if (state == SelectorState::kMatch) {
    state = run(alt.common->selectors, false, SelectorState::kRequestMismatch);
  }
  return state;
}

int64_t DeviceFacts::CountMatches(const Alternative& alt) const {
  int64_t n = 0;
  for (SelectorState s : selectors_[alt.id]) n += s == SelectorState::kMatch;
  return n;
}

int DeviceFacts::Class(size_t device) {
  if (class_[device] >= 0) return class_[device];
  const InventoryDevice& dev = inv_.devices()[device];
  const k8s::Device& d = *dev.device;
  const auto& spec = inv_.slices()[dev.slice].spec;
  std::string sig = spec.driver + "\n" + std::to_string(Scope(device)) + "\n";
  for (const auto& [k, v] : d.attributes) sig += k + "=" + AttributeText(v) + ";";
  sig += "\n";
  for (const auto& [k, v] : d.capacity) sig += k + "=" + v.value + ";";
  for (const auto& cc : d.consumes_counters) {
    sig += "\nc" + cc.counter_set;
    for (const auto& [k, v] : cc.counters) sig += k + "=" + v.value + ";";
  }
  for (const auto* taints : {&d.taints, &dev.rule_taints}) {
    for (const auto& t : *taints) sig += "\nt" + t.key + "=" + t.value + ":" + t.effect;
  }
  for (const auto& [k, v] : d.capacity) {
    if (!v.request_policy) continue;
    const k8s::CapacityRequestPolicy& p = *v.request_policy;
    sig += "\np" + k + "=" + p.default_value.value_or("") + ":";
    for (const auto& value : p.valid_values) sig += value + ",";
    if (p.valid_range) {
      sig += p.valid_range->min + "-" + p.valid_range->max.value_or("") + "/" +
             p.valid_range->step.value_or("");
    }
  }
  for (const auto* share : dev.shares) {
    sig += "\ns";
    for (const auto& [k, v] : *share) sig += k + "=" + v + ";";
  }
  sig += InUse(device) ? "\nU" : "\nF";
  if (d.node_name) sig += "\nn" + *d.node_name;
  if (d.node_selector) AppendSelector(sig, *d.node_selector);
  if (d.all_nodes) sig += "\na";
  if (d.allow_multiple_allocations.value_or(false)) sig += "\nm";
  if (d.binds_to_node.value_or(false)) sig += "\nb";
  for (const auto& c : d.binding_conditions) sig += "\nbc" + c;
  for (const auto& c : d.binding_failure_conditions) sig += "\nbf" + c;
  auto [it, inserted] = class_ids_.emplace(std::move(sig), static_cast<int>(class_ids_.size()));
  class_[device] = it->second;
  return it->second;
}

bool DeviceFacts::Tolerated(size_t device, const std::vector<k8s::DeviceToleration>& tols) {
  if (!options_.gates.device_taints) return true;
  const InventoryDevice& dev = inv_.devices()[device];
  bool rules = options_.version == KubeVersion::k1_34 || options_.gates.device_taint_rules;
  for (const auto* taints : {&dev.device->taints, &dev.rule_taints}) {
    if (taints == &dev.rule_taints && !rules) continue;
    for (const auto& t : *taints) {
      if (!Blocks(t, options_.version)) continue;
      bool ok = false;
      for (const auto& tol : tols) ok = ok || ToleratesTaint(tol, t);
      if (!ok) return false;
    }
  }
  return true;
}

size_t DeviceFacts::Scope(size_t device) const {
  return inv_.devices()[device].counter_scope[layout_];
}

void DeviceFacts::LoadScope(size_t key) {
  ScopeInfo& scope = scopes_[key];
  scope.loaded = true;
  scope.base = counters_.capacity.size();
  const CounterScope& layout = inv_.CounterScopes(layout_)[key];
  counters_.capacity.insert(counters_.capacity.end(), layout.capacity.begin(), layout.capacity.end());
  counters_.committed.resize(counters_.capacity.size(), 0);
  counters_.used.resize(counters_.capacity.size(), 0);
  for (size_t s : layout.slices) {
    auto [begin, end] = inv_.SliceDevices(s);
    for (size_t id = begin; id < end; ++id) {
      // A shared device's counters were drawn once, by its first share.
      if (!InUse(id) && !(Multi(id) && !inv_.devices()[id].shares.empty())) continue;
      const auto& draws = inv_.devices()[id].draws[layout_];
      if (!draws) continue;
      for (const CounterDraw& draw : *draws) counters_.committed[scope.base + draw.ordinal] += draw.milli;
    }
  }
  for (size_t i = scope.base; i < counters_.capacity.size(); ++i) {
    if (counters_.committed[i] > counters_.capacity[i]) scope.overcommitted = true;
  }
}

const std::optional<std::vector<std::pair<size_t, int64_t>>>& DeviceFacts::Consumption(
    size_t device) {
  if (consumption_known_[device]) return consumption_[device];
  consumption_known_[device] = 1;
  const auto& draws = inv_.devices()[device].draws[layout_];
  if (!draws) return consumption_[device];  // names an unknown counter: never allocatable
  std::vector<std::pair<size_t, int64_t>> out;
  if (!draws->empty()) {
    size_t key = Scope(device);
    if (!scopes_[key].loaded) LoadScope(key);
    scope_of_[device] = key;
    for (const CounterDraw& draw : *draws) out.emplace_back(scopes_[key].base + draw.ordinal, draw.milli);
  }
  consumption_[device] = std::move(out);
  return consumption_[device];
}

bool DeviceFacts::FitsCounters(size_t device) {
  const auto& use = Consumption(device);
  if (!use) return false;
  if (use->empty()) return true;
  if (scopes_[scope_of_[device]].overcommitted) return false;
  for (const auto& [idx, amount] : *use) {
    if (counters_.committed[idx] + counters_.used[idx] + amount > counters_.capacity[idx]) {
      return false;
    }
  }
  return true;
}

const std::optional<std::string>& DeviceFacts::Attribute(const std::string& name, size_t device) {
  auto& [known, values] = attributes_[name];
  if (known.empty()) {
    known.assign(inv_.devices().size(), 0);
    values.resize(inv_.devices().size());
  }
  if (known[device]) return values[device];
  known[device] = 1;
  const InventoryDevice& dev = inv_.devices()[device];
  const auto& attrs = dev.device->attributes;
  auto it = attrs.find(name);
  if (it == attrs.end()) {
    size_t slash = name.find('/');
    if (slash != std::string::npos && name.substr(0, slash) == inv_.slices()[dev.slice].spec.driver) {
      it = attrs.find(name.substr(slash + 1));
    }
  }
  if (it != attrs.end()) values[device] = AttributeText(it->second);
  return values[device];
}

bool DeviceFacts::InUse(size_t device) const {
  const InventoryDevice& dev = inv_.devices()[device];
  return dev.in_use || (!options_.gates.consumable_capacity && !dev.shares.empty());
}

bool DeviceFacts::Multi(size_t device) const {
  return options_.gates.consumable_capacity &&
         inv_.devices()[device].device->allow_multiple_allocations.value_or(false);
}

DeviceFacts::CapacityState& DeviceFacts::LoadCapacity(size_t device) {
  CapacityState& st = capacity_[device];
  if (st.loaded) return st;
  st.loaded = true;
  const InventoryDevice& dev = inv_.devices()[device];
  st.value = CapacityValues(*dev.device);
  st.committed = CommittedShares(*dev.device, dev.shares);
  st.used.assign(dev.device->capacity.size(), 0);
  return st;
}

const std::optional<std::vector<int64_t>>& DeviceFacts::Demand(const Alternative& alt,
                                                               size_t device) {
  std::vector<int8_t>& known = demand_known_[alt.id];
  std::vector<std::optional<std::vector<int64_t>>>& demand = demand_[alt.id];
  if (known.empty()) {
    known.assign(inv_.devices().size(), 0);
    demand.resize(inv_.devices().size());
  }
  if (!known[device]) {
    known[device] = 1;
    const k8s::CapacityRequirements* requests =
        alt.common->capacity ? &*alt.common->capacity : nullptr;
    demand[device] = CapacityDemand(*inv_.devices()[device].device, requests);
  }
  return demand[device];
}

bool DeviceFacts::FitsCapacity(const Alternative& alt, size_t device) {
  if (!options_.gates.consumable_capacity) return true;
  const auto& demand = Demand(alt, device);
  if (!demand) return false;
  if (demand->empty()) return true;
  CapacityState& st = LoadCapacity(device);
  if (!st.value) return false;
  for (size_t i = 0; i < demand->size(); ++i) {
    if (st.committed[i] + st.used[i] + (*demand)[i] > (*st.value)[i]) return false;
  }
  return true;
}

void DeviceFacts::UseCapacity(const Alternative& alt, size_t device, int sign) {
  if (!options_.gates.consumable_capacity) return;
  CapacityState& st = LoadCapacity(device);
  st.shares += sign;
  const auto& demand = Demand(alt, device);
  if (!demand) return;
  for (size_t i = 0; i < demand->size() && i < st.used.size(); ++i) st.used[i] += sign * (*demand)[i];
}

bool DeviceFacts::DrawsCounters(size_t device) const {
  if (!Multi(device)) return true;
  return capacity_[device].shares == 0 && inv_.devices()[device].shares.empty();
}

}  // namespace draguard::alloc::internal
