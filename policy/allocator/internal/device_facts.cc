// Lazily computed, node-independent device facts (see device_facts.h).
#include "policy/allocator/internal/device_facts.h"

#include <algorithm>
#include <iterator>

#include "policy/allocator/internal/amount.h"
#include "policy/allocator/internal/capacity.h"

namespace draguard::alloc::internal {
namespace {

// Upstream attributeAsSet (1.36 experimental): a non-empty list wins over a scalar, an empty
// list counts as absent. Without list semantics a list is a value of unknown type that only
// the first device of a matchAttribute group may have (`unique` makes it equal to nothing).
std::optional<AttributeSet> AttributeValue(const k8s::DeviceAttribute& a, bool list_semantics,
                                           size_t unique) {
  AttributeSet set;
  auto add = [&](const std::string& prefix, const auto& values, auto text) {
    for (const auto& v : values) set.elements.push_back(prefix + text(v));
  };
  auto same = [](const std::string& v) { return v; };
  auto num = [](int64_t v) { return std::to_string(v); };
  auto truth = [](bool v) { return std::string(v ? "true" : "false"); };
  if (a.has_list()) {
    set.list = true;
    if (!list_semantics) {
      set.elements.push_back("list#" + std::to_string(unique));
      return set;
    }
    if (a.int_values && !a.int_values->empty()) add("i:", *a.int_values, num);
    else if (a.bool_values && !a.bool_values->empty()) add("b:", *a.bool_values, truth);
    else if (a.string_values && !a.string_values->empty()) add("s:", *a.string_values, same);
    else if (a.version_values && !a.version_values->empty()) add("v:", *a.version_values, same);
    std::sort(set.elements.begin(), set.elements.end());
    set.elements.erase(std::unique(set.elements.begin(), set.elements.end()), set.elements.end());
    if (!set.elements.empty()) return set;
    set.list = false;
  }
  if (a.int_value) set.elements.push_back("i:" + num(*a.int_value));
  else if (a.bool_value) set.elements.push_back("b:" + truth(*a.bool_value));
  else if (a.string_value) set.elements.push_back("s:" + *a.string_value);
  else if (a.version_value) set.elements.push_back("v:" + *a.version_value);
  if (set.elements.empty()) return std::nullopt;
  return set;
}

bool Blocks(const k8s::DeviceTaint& t, const AllocatorSemantics& sem) {
  if (sem.all_taint_effects_block) return true;
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

bool AttributeSet::Intersects(const AttributeSet& other) const {
  auto a = elements.begin(), b = other.elements.begin();
  while (a != elements.end() && b != other.elements.end()) {
    if (*a == *b) return true;
    if (*a < *b) ++a; else ++b;
  }
  return false;
}

AlternativeReads ReadsOf(const Plan& plan, SelectorEvaluator& evaluator) {
  AlternativeReads out(plan.alternatives.size());
  for (const Alternative* alt : plan.alternatives) {
    std::vector<AttributeName> all;
    bool known = true;
    auto add = [&](const std::vector<k8s::DeviceSelector>& selectors) {
      for (const k8s::DeviceSelector& sel : selectors) {
        if (!sel.cel || !known) continue;
        std::optional<std::vector<AttributeName>> read =
            evaluator.AttributesRead(sel.cel->expression);
        if (!read) {
          known = false;
          continue;
        }
        all.insert(all.end(), std::make_move_iterator(read->begin()),
                   std::make_move_iterator(read->end()));
      }
    };
    if (alt->device_class != nullptr) add(alt->device_class->spec.selectors);
    add(alt->common->selectors);
    if (!known) continue;
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    out[alt->id] = std::move(all);
  }
  return out;
}

bool ReadsIdentifying(const Inventory& inv, const Plan& plan, const AlternativeReads& reads) {
  if (inv.IdentifyingAttributes().empty()) return false;
  for (const std::string& attribute : plan.attributes) {
    size_t slash = attribute.find('/');
    if (slash == std::string::npos) return true;  // not fully qualified: not worth the doubt
    if (inv.Identifying(AttributeName{.domain = attribute.substr(0, slash),
                                      .name = attribute.substr(slash + 1)})) {
      return true;
    }
  }
  for (const Alternative* alt : plan.alternatives) {
    const std::optional<std::vector<AttributeName>>& read = reads[alt->id];
    if (!read) return true;
    for (const AttributeName& a : *read) {
      if (inv.Identifying(a)) return true;
    }
  }
  return false;
}

DeviceFacts::DeviceFacts(const Inventory& inv, const AllocatorOptions& options, const Plan& plan,
                         bool shape, const AlternativeReads* reads)
    : inv_(inv),
      options_(options),
      plan_(plan),
      shape_(shape),
      read_classes_(plan.alternatives.size(), nullptr),
      selectors_(plan.alternatives.size()),
      states_(inv.devices().size()),
      capacity_(inv.devices().size()),
      layout_(CounterLayout(options.version)),
      scopes_(inv.CounterScopes(layout_).size()),
      list_semantics_(options.gates.Enabled(Gate::kDRAListTypeAttributes)) {
  const size_t classes = shape ? inv.shape_selector_classes() : inv.selector_classes();
  for (const Alternative* alt : plan.alternatives) {
    if (reads != nullptr && alt->device_class != nullptr && (*reads)[alt->id]) {
      read_classes_[alt->id] = inv.ClassesReading(*(*reads)[alt->id]);
    }
    const ReadClasses* read = read_classes_[alt->id];
    selectors_[alt->id].assign(read != nullptr ? read->members.size() : classes,
                               SelectorState::kUnknown);
  }
}

SelectorState DeviceFacts::Selectors(const Alternative& alt, size_t device,
                                     SelectorEvaluator& evaluator) {
  SelectorState& state = selectors_[alt.id][SelectorClass(alt, device)];
  if (state == SelectorState::kUnknown) state = Evaluate(alt, device, evaluator);
  return state;
}

SelectorState DeviceFacts::Evaluate(const Alternative& alt, size_t device,
                                    SelectorEvaluator& evaluator) {
  DeviceView view = inv_.View(device);
  auto run = [&](const std::vector<k8s::DeviceSelector>& sels, bool from_class,
                 SelectorState mismatch) {
    for (const auto& sel : sels) {
      if (!sel.cel) continue;
      SelectorResult r = evaluator.Evaluate(sel.cel->expression, view);
      if (r.outcome == SelectorOutcome::kMatch) continue;
      if (r.outcome == SelectorOutcome::kError) {
        failures_[{alt.id, SelectorClass(alt, device)}] =
            SelectorFailure{sel.cel->expression, r.error, from_class};
        return SelectorState::kError;
      }
      return mismatch;
    }
    return SelectorState::kMatch;
  };
  SelectorState state = run(alt.device_class->spec.selectors, true, SelectorState::kClassMismatch);
  if (state == SelectorState::kMatch) {
    state = run(alt.common->selectors, false, SelectorState::kRequestMismatch);
  }
  return state;
}

const SelectorFailure& DeviceFacts::Failure(const Alternative& alt, size_t device) const {
  return failures_.at({alt.id, SelectorClass(alt, device)});
}

int64_t DeviceFacts::CountMatches(const Alternative& alt, SelectorEvaluator& evaluator) {
  int64_t n = 0;  // one evaluation per class, counted for each of its devices
  const ReadClasses* read = read_classes_[alt.id];
  for (const auto& [first, count] :
       read != nullptr ? read->members : inv_.SelectorClassMembers(shape_)) {
    if (count > 0 && Selectors(alt, first, evaluator) == SelectorState::kMatch) n += count;
  }
  return n;
}

SelectorState DeviceFacts::AnyMatch(const Alternative& alt, SelectorEvaluator& evaluator) {
  const ReadClasses* read = read_classes_[alt.id];
  bool error = false;
  for (const auto& [first, count] :
       read != nullptr ? read->members : inv_.SelectorClassMembers(shape_)) {
    if (count == 0) continue;
    const SelectorState state = Selectors(alt, first, evaluator);
    if (state == SelectorState::kMatch) return state;
    error = error || state == SelectorState::kError;
  }
  return error ? SelectorState::kError : SelectorState::kRequestMismatch;
}

std::pair<uint32_t, size_t> DeviceFacts::SymmetryKey(size_t device) const {
  const InventoryDevice& d = inv_.devices()[device];
  return {shape_ ? d.shape_fact_class : d.fact_class, Scope(device)};
}

bool DeviceFacts::Tolerated(size_t device, const std::vector<k8s::DeviceToleration>& tols) {
  if (!options_.gates.Enabled(Gate::kDRADeviceTaints)) return true;
  const InventoryDevice& dev = inv_.devices()[device];
  const AllocatorSemantics& sem = options_.release().alloc;
  bool rules = sem.rule_taints_without_rule_gate ||
               options_.gates.Enabled(Gate::kDRADeviceTaintRules);
  for (const auto* taints : {&dev.device->taints, &dev.rule_taints}) {
    if (taints == &dev.rule_taints && !rules) continue;
    for (const auto& t : *taints) {
      if (!Blocks(t, sem)) continue;
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

DeviceFacts::ScopeInfo& DeviceFacts::LoadScope(size_t key) {
  ScopeInfo& scope = scopes_[key];
  if (scope.loaded) return scope;
  scope.loaded = true;
  scope.base = counters_.capacity.size();
  const CounterScope& layout = inv_.CounterScopes(layout_)[key];
  counters_.capacity.insert(counters_.capacity.end(), layout.capacity.begin(), layout.capacity.end());
  const std::vector<int64_t>& committed =
      layout.committed[options_.gates.Enabled(Gate::kDRAConsumableCapacity)];
  counters_.committed.insert(counters_.committed.end(), committed.begin(), committed.end());
  counters_.used.resize(counters_.capacity.size(), 0);
  for (size_t i = scope.base; i < counters_.capacity.size(); ++i) {
    if (counters_.committed[i] > counters_.capacity[i]) scope.overcommitted = true;
  }
  return scope;
}

const std::optional<std::vector<std::pair<size_t, int64_t>>>& DeviceFacts::Consumption(
    size_t device) {
  // The answers that need no state: names an unknown counter (never allocatable), or draws
  // nothing (most devices).
  static const std::optional<std::vector<std::pair<size_t, int64_t>>> kUnknownCounter;
  static const std::optional<std::vector<std::pair<size_t, int64_t>>> kNothing{std::in_place};
  const auto& draws = inv_.devices()[device].draws[layout_];
  if (!draws) return kUnknownCounter;
  if (draws->empty()) return kNothing;
  DeviceState& st = states_[device];
  if (st.consumption_known) return st.consumption;
  st.consumption_known = true;
  const ScopeInfo& scope = LoadScope(Scope(device));
  std::vector<std::pair<size_t, int64_t>> out;
  out.reserve(draws->size());
  for (const CounterDraw& draw : *draws) out.emplace_back(scope.base + draw.ordinal, draw.milli);
  st.consumption = std::move(out);
  return st.consumption;
}

bool DeviceFacts::FitsCounters(size_t device) {
  const auto& use = Consumption(device);
  if (!use) return false;
  if (use->empty()) return true;
  if (scopes_[Scope(device)].overcommitted) return false;
  for (const auto& [idx, amount] : *use) {
    if (counters_.committed[idx] + counters_.used[idx] + amount > counters_.capacity[idx]) {
      return false;
    }
  }
  return true;
}

const std::optional<AttributeSet>& DeviceFacts::Attribute(size_t id, size_t device) {
  DeviceState& st = states_[device];
  if (st.attribute_known.empty()) {
    st.attribute_known.assign(plan_.attributes.size(), 0);
    st.attributes.resize(plan_.attributes.size());
  }
  if (st.attribute_known[id]) return st.attributes[id];
  st.attribute_known[id] = 1;
  const std::string& name = plan_.attributes[id];
  const InventoryDevice& dev = inv_.devices()[device];
  const auto& attrs = dev.device->attributes;
  auto it = attrs.find(name);
  if (it == attrs.end()) {
    size_t slash = name.find('/');
    if (slash != std::string::npos && name.substr(0, slash) == inv_.slices()[dev.slice].spec.driver) {
      it = attrs.find(name.substr(slash + 1));
    }
  }
  if (it != attrs.end()) st.attributes[id] = AttributeValue(it->second, list_semantics_, device);
  return st.attributes[id];
}

bool DeviceFacts::InUse(size_t device) const {
  const InventoryDevice& dev = inv_.devices()[device];
  return dev.in_use ||
         (!options_.gates.Enabled(Gate::kDRAConsumableCapacity) && !dev.shares.empty());
}

bool DeviceFacts::Multi(size_t device) const {
  return options_.gates.Enabled(Gate::kDRAConsumableCapacity) &&
         inv_.devices()[device].device->allow_multiple_allocations.value_or(false);
}

DeviceFacts::CapacityState& DeviceFacts::LoadCapacity(size_t device) {
  CapacityState& st = capacity_[device];
  if (st.loaded) return st;
  st.loaded = true;
  st.used.assign(inv_.devices()[device].device->capacity.size(), 0);
  return st;
}

const std::vector<int64_t>* DeviceFacts::Demand(const Alternative& alt, size_t device) {
  // Parsed with the inventory: what a request that asks for no capacity consumes.
  if (!alt.common->capacity) return inv_.devices()[device].unrequested_demand.get();
  DeviceState& st = states_[device];
  if (st.demand_known.empty()) {
    st.demand_known.assign(plan_.alternatives.size(), 0);
    st.demand.resize(plan_.alternatives.size());
  }
  if (!st.demand_known[alt.id]) {
    st.demand_known[alt.id] = 1;
    const k8s::CapacityRequirements* requests =
        alt.common->capacity ? &*alt.common->capacity : nullptr;
    st.demand[alt.id] = CapacityDemand(*inv_.devices()[device].device, requests);
  }
  const std::optional<std::vector<int64_t>>& demand = st.demand[alt.id];
  return demand ? &*demand : nullptr;
}

bool DeviceFacts::FitsCapacity(const Alternative& alt, size_t device) {
  if (!options_.gates.Enabled(Gate::kDRAConsumableCapacity)) return true;
  const std::vector<int64_t>* demand = Demand(alt, device);
  if (!demand) return false;
  if (demand->empty()) return true;
  const InventoryDevice& dev = inv_.devices()[device];
  if (!dev.capacity_values) return false;
  const std::vector<int64_t>& value = *dev.capacity_values;
  const std::vector<int64_t>& committed = dev.committed_capacity;  // empty: no shares
  // Read without making the state: nothing used by the search until UseCapacity makes it.
  const CapacityState* st = capacity_.Find(device);
  const bool used = st != nullptr && st->loaded;
  for (size_t i = 0; i < demand->size(); ++i) {
    const int64_t others = committed.empty() ? 0 : committed[i];
    if (others + (used ? st->used[i] : 0) + (*demand)[i] > value[i]) return false;
  }
  return true;
}

void DeviceFacts::UseCapacity(const Alternative& alt, size_t device, int sign) {
  if (!options_.gates.Enabled(Gate::kDRAConsumableCapacity)) return;
  CapacityState& st = LoadCapacity(device);
  st.shares += sign;
  const std::vector<int64_t>* demand = Demand(alt, device);
  if (!demand) return;
  for (size_t i = 0; i < demand->size() && i < st.used.size(); ++i) st.used[i] += sign * (*demand)[i];
}

int DeviceFacts::SearchShares(size_t device) const {
  const CapacityState* st = capacity_.Find(device);
  return st == nullptr ? 0 : st->shares;
}

bool DeviceFacts::DrawsCounters(size_t device) const {
  if (!Multi(device)) return true;
  return SearchShares(device) == 0 && inv_.devices()[device].shares.empty();
}

}  // namespace draguard::alloc::internal
