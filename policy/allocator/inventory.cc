#include "policy/allocator/inventory.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "policy/allocator/internal/amount.h"
#include "policy/allocator/internal/capacity.h"
#include "policy/allocator/internal/device_keys.h"
#include "policy/allocator/internal/interner.h"
#include "policy/allocator/internal/node_pools.h"
#include "policy/allocator/internal/node_signature.h"
#include "policy/common/hash.h"

namespace draguard::alloc {
namespace {

// FindDevice's hash of (driver, pool, device), from the pool's part (PoolHash), which
// IndexDevices computes once per slice rather than once per device.
size_t PoolHash(std::string_view driver, std::string_view pool) {
  size_t h = HashText(pool);
  h ^= HashText(driver) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

size_t DeviceHash(size_t pool_hash, std::string_view device) {
  size_t h = HashText(device);
  h ^= pool_hash + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

const std::vector<size_t>& NoSlices() {
  static const std::vector<size_t> kNone;
  return kNone;
}

// Distinct strings, counted: an open-addressing set of views (FindIdentifyingAttributes
// counts the distinct values of every attribute of every device).
class ViewSet {
 public:
  void Insert(std::string_view value) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = HashText(value) & mask;; i = (i + 1) & mask) {
      if (slots_[i].data() == nullptr) {
        slots_[i] = value;
        ++size_;
        return;
      }
      if (slots_[i] == value) return;
    }
  }
  size_t size() const { return size_; }

 private:
  void Grow() {
    std::vector<std::string_view> old = std::move(slots_);
    slots_.assign(std::max<size_t>(16, 2 * old.size()), std::string_view());
    size_ = 0;
    for (std::string_view v : old) {
      if (v.data() != nullptr) Insert(v);
    }
  }

  std::vector<std::string_view> slots_;  // a null view: free
  size_t size_ = 0;
};

// The hash of a selector key made of a shape class (whose key hashes to `shape`) and the
// identifying values `identity`: a function of the keys' content, not of the class ids, so
// that Builds with the same identifying attributes hash the same device alike.
size_t SelectorHash(size_t shape, std::string_view identity) {
  size_t h = HashText(identity);
  h ^= shape + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

bool RuleSelects(const k8s::DeviceTaintSelector& s, const k8s::ResourceSlice& slice,
                 const k8s::Device& device) {
  if (s.driver && *s.driver != slice.spec.driver) return false;
  if (s.pool && *s.pool != slice.spec.pool.name) return false;
  if (s.device && *s.device != device.name) return false;
  return true;
}

}  // namespace

Inventory Inventory::Build(inventory::ClusterObjects input) {
  return BuildFrom(std::make_shared<const inventory::ClusterObjects>(std::move(input)), nullptr);
}

Inventory Inventory::Build(std::shared_ptr<const inventory::ClusterObjects> objects) {
  return BuildFrom(std::move(objects), nullptr);
}

Inventory Inventory::Build(std::shared_ptr<const inventory::ClusterObjects> objects,
                           const Inventory& previous) {
  return BuildFrom(std::move(objects), &previous);
}

Inventory Inventory::BuildFrom(std::shared_ptr<const inventory::ClusterObjects> objects,
                               const Inventory* previous) {
  Inventory inv;
  inv.input_ = std::move(objects);
  inv.IndexDevices();
  const std::vector<size_t> carried =
      previous != nullptr ? inv.CarriedDevices(*previous) : std::vector<size_t>();
  inv.MarkAllocated();
  inv.ParseCapacities(previous, carried);
  inv.ApplyTaintRules();
  inv.CollectNodes();
  inv.ValidatePools(previous);
  inv.ResolveCounters();
  inv.CommitCounters();
  inv.FindIdentifyingAttributes(previous, carried);
  inv.ClassifyDevices(previous, carried);
  for (size_t i = 0; i < inv.input_->classes.size(); ++i) {
    inv.class_index_.emplace(inv.input_->classes[i].metadata.name, i);
  }
  return inv;
}

void Inventory::IndexDevices() {
  size_t total = 0;
  for (const k8s::ResourceSlice& slice : input_->slices) total += slice.spec.devices.size();
  devices_.reserve(total);
  size_t slots = 16;
  while (slots < 2 * total) slots *= 2;
  device_slots_.assign(slots, 0);
  // Views into the input, which the Inventory keeps.
  std::map<std::pair<std::string_view, std::string_view>, size_t> pool_ids;
  for (size_t s = 0; s < input_->slices.size(); ++s) {
    const k8s::ResourceSliceSpec& spec = input_->slices[s].spec;
    slice_begin_.push_back(devices_.size());
    auto [it, inserted] = pool_ids.emplace(
        std::pair<std::string_view, std::string_view>(spec.driver, spec.pool.name), pools_.size());
    if (inserted) pools_.push_back(PoolInfo{.driver = spec.driver, .name = spec.pool.name});
    PoolInfo& pool = pools_[it->second];
    slice_pool_.push_back(it->second);
    if (pool.slices.empty() || spec.pool.generation > pool.max_generation) {
      pool.max_generation = spec.pool.generation;
    }
    pool.slices.push_back(s);
    if (spec.node_name && !spec.node_name->empty()) {
      local_slices_[*spec.node_name].push_back(s);
    } else {
      non_local_slices_.push_back(s);
    }
    ++pool.slices_per_generation[spec.pool.generation];
    const size_t pool_hash = PoolHash(spec.driver, spec.pool.name);
    for (const k8s::Device& d : spec.devices) {
      InventoryDevice dev{.id = devices_.size(), .slice = s, .pool = it->second, .device = &d};
      dev.consumes_counters = !d.consumes_counters.empty();
      dev.binding_conditions = !d.binding_conditions.empty();
      // Newest generation wins the key; duplicates inside a pool are detected per node.
      const size_t hash = DeviceHash(pool_hash, d.name);
      uint32_t& slot = device_slots_[DeviceSlot(spec.driver, spec.pool.name, d.name, hash)];
      if (slot == 0 ||
          input_->slices[devices_[slot - 1].slice].spec.pool.generation < spec.pool.generation) {
        slot = static_cast<uint32_t>(dev.id + 1);
      }
      devices_.push_back(std::move(dev));
    }
  }
  slice_begin_.push_back(devices_.size());
  size_t rank = 0;
  for (const auto& [key, id] : pool_ids) pools_[id].rank = rank++;
}

size_t Inventory::DeviceSlot(std::string_view driver, std::string_view pool,
                             std::string_view device, size_t hash) const {
  const size_t mask = device_slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const uint32_t slot = device_slots_[i];
    if (slot == 0) return i;
    const InventoryDevice& d = devices_[slot - 1];
    const k8s::ResourceSliceSpec& spec = input_->slices[d.slice].spec;
    if (d.device->name == device && spec.pool.name == pool && spec.driver == driver) return i;
  }
}

std::vector<size_t> Inventory::CarriedDevices(const Inventory& previous) const {
  std::vector<size_t> carried(devices_.size(), kNoDevice);
  std::unordered_map<const k8s::ResourceSlice*, size_t> previous_slices;
  previous_slices.reserve(previous.slices().size());
  for (size_t s = 0; s < previous.slices().size(); ++s) {
    previous_slices.emplace(previous.slices().ptr(s).get(), s);
  }
  for (size_t s = 0; s < slices().size(); ++s) {
    auto it = previous_slices.find(slices().ptr(s).get());
    if (it == previous_slices.end()) continue;
    // The same object: the same devices, in the same order.
    auto [begin, end] = SliceDevices(s);
    const size_t from = previous.SliceDevices(it->second).first;
    for (size_t id = begin; id < end; ++id) carried[id] = from + (id - begin);
  }
  return carried;
}

void Inventory::MarkAllocated() {
  for (const k8s::ResourceClaim& claim : input_->claims) {
    if (!claim.status || !claim.status->allocation) continue;
    for (const auto& r : claim.status->allocation->devices.results) {
      if (r.admin_access.value_or(false)) continue;
      auto id = FindDevice(r.driver, r.pool, r.device);
      if (!id) continue;
      if (r.share_id.empty()) {
        devices_[*id].in_use = true;
      } else {
        devices_[*id].shares.push_back(&r.consumed_capacity);
      }
    }
  }
}

// After MarkAllocated (the shares).
void Inventory::ParseCapacities(const Inventory* previous, const std::vector<size_t>& carried) {
  // The values and demands parsed so far, by capacity key: devices with equal capacities
  // share them.
  internal::Interner contents;
  std::vector<std::pair<std::shared_ptr<const std::vector<int64_t>>,
                        std::shared_ptr<const std::vector<int64_t>>>> parsed;
  std::string key;
  for (InventoryDevice& dev : devices_) {
    const bool has_shares = !dev.shares.empty() && !dev.device->capacity.empty();
    if (!carried.empty() && carried[dev.id] != kNoDevice) {
      // The device's own values: the same object as previous's device.
      const InventoryDevice& old = previous->devices_[carried[dev.id]];
      dev.capacity_values = old.capacity_values;
      dev.unrequested_demand = old.unrequested_demand;
      if (has_shares) dev.committed_capacity = internal::CommittedShares(*dev.device, dev.shares);
      continue;
    }
    ++devices_prepared_;
    key.clear();
    internal::AppendCapacityKey(*dev.device, key);
    const uint32_t content = contents.Id(key);
    if (content == parsed.size()) {
      auto values = internal::CapacityValues(*dev.device);
      auto demand = internal::CapacityDemand(*dev.device, nullptr);
      parsed.emplace_back(
          values ? std::make_shared<const std::vector<int64_t>>(std::move(*values)) : nullptr,
          demand ? std::make_shared<const std::vector<int64_t>>(std::move(*demand)) : nullptr);
    }
    dev.capacity_values = parsed[content].first;
    dev.unrequested_demand = parsed[content].second;
    if (has_shares) dev.committed_capacity = internal::CommittedShares(*dev.device, dev.shares);
  }
}

void Inventory::ApplyTaintRules() {
  for (const k8s::DeviceTaintRule& rule : input_->taint_rules) {
    const auto& sel = rule.spec.device_selector;
    // Rules selecting by class or CEL (v1alpha3, 1.34) cannot be matched without the class
    // selectors; they are applied only when they also name driver, pool or device.
    for (InventoryDevice& dev : devices_) {
      if (sel && !RuleSelects(*sel, input_->slices[dev.slice], *dev.device)) continue;
      dev.rule_taints.push_back(rule.spec.taint);
    }
  }
}

void Inventory::CollectNodes() {
  if (!input_->nodes.empty()) {
    for (size_t i = 0; i < input_->nodes.size(); ++i) {
      const std::string& name = input_->nodes[i].metadata.name;
      if (node_index_.emplace(name, i).second) node_names_.push_back(name);
    }
  } else {
    std::set<std::string> names;
    for (const k8s::ResourceSlice& slice : input_->slices) {
      if (slice.spec.node_name && !slice.spec.node_name->empty()) names.insert(*slice.spec.node_name);
      for (const k8s::Device& d : slice.spec.devices) {
        if (d.node_name && !d.node_name->empty()) names.insert(*d.node_name);
      }
    }
    node_names_.assign(names.begin(), names.end());
  }
  // The views point into node_names_, local_slices_ and the input: all keep their addresses
  // when the Inventory moves.
  for (const std::string& name : node_names_) nodes_.push_back(FindNode(name));
}

void Inventory::ValidatePools(const Inventory* previous) {
  // previous's pools by (driver, name): views into previous.
  std::map<std::pair<std::string_view, std::string_view>, const PoolInfo*> previous_pools;
  if (previous != nullptr) {
    for (const PoolInfo& pool : previous->pools_) {
      previous_pools.emplace(std::pair<std::string_view, std::string_view>(pool.driver, pool.name),
                             &pool);
    }
  }
  // The slices of `pool`'s `generation` in `inventory`, as objects.
  auto generation_slices = [](const Inventory& inventory, const PoolInfo& pool,
                              int64_t generation) {
    std::vector<const k8s::ResourceSlice*> out;
    for (size_t s : pool.slices) {
      if (inventory.slices()[s].spec.pool.generation == generation) {
        out.push_back(inventory.slices().ptr(s).get());
      }
    }
    return out;
  };
  for (PoolInfo& pool : pools_) {
    auto old = previous_pools.find(
        std::pair<std::string_view, std::string_view>(pool.driver, pool.name));
    for (const auto& [generation, count] : pool.slices_per_generation) {
      std::vector<size_t> slices;
      for (size_t s : pool.slices) {
        if (input_->slices[s].spec.pool.generation == generation) slices.push_back(s);
      }
      // A generation made of the same slice objects as before has the same problems.
      if (old != previous_pools.end()) {
        auto known = old->second->problems.find(generation);
        if (known != old->second->problems.end() &&
            generation_slices(*previous, *old->second, generation) ==
                generation_slices(*this, pool, generation)) {
          pool.problems[generation] = known->second;
          continue;
        }
      }
      pool.problems[generation] = {
          internal::PoolProblem(*this, slices, CounterModel::kCounterSets),
          internal::PoolProblem(*this, slices, CounterModel::kSliceTotals)};
    }
  }
}

size_t Inventory::AddScope(size_t layout, std::vector<size_t> slices) {
  CounterScope scope;
  std::map<std::string, std::map<std::string, size_t>> index;
  for (size_t s : slices) {
    for (const k8s::CounterSet& set : input_->slices[s].spec.shared_counters) {
      auto& counters = index[set.name];
      for (const auto& [name, counter] : set.counters) {
        if (!counters.emplace(name, scope.capacity.size()).second) continue;
        scope.capacity.push_back(internal::ParseMilli(counter.value).value_or(0));
      }
    }
  }
  scope.slices = std::move(slices);
  counter_scopes_[layout].push_back(std::move(scope));
  scope_index_[layout].push_back(std::move(index));
  return counter_scopes_[layout].size() - 1;
}

// Scopes and draws for both layouts, so that a check touches no strings for counters.
void Inventory::ResolveCounters() {
  std::map<std::pair<size_t, int64_t>, size_t> pool_scopes;  // (pool, generation) -> scope
  for (size_t s = 0; s < input_->slices.size(); ++s) {
    size_t pool = slice_pool_[s];
    int64_t generation = input_->slices[s].spec.pool.generation;
    auto [it, inserted] = pool_scopes.emplace(std::make_pair(pool, generation), 0);
    if (inserted) {
      std::vector<size_t> slices;
      for (size_t other : pools_[pool].slices) {
        if (input_->slices[other].spec.pool.generation == generation) slices.push_back(other);
      }
      it->second = AddScope(kLayoutPool, std::move(slices));
    }
    size_t slice_scope = AddScope(kLayoutSlice, {s});
    auto [begin, end] = SliceDevices(s);
    for (size_t id = begin; id < end; ++id) {
      InventoryDevice& dev = devices_[id];
      dev.counter_scope[kLayoutPool] = it->second;
      dev.counter_scope[kLayoutSlice] = slice_scope;
      for (size_t layout : {kLayoutPool, kLayoutSlice}) {
        const auto& index = scope_index_[layout][dev.counter_scope[layout]];
        std::vector<CounterDraw> draws;
        bool ok = true;
        for (const auto& use : dev.device->consumes_counters) {
          auto set = index.find(use.counter_set);
          ok = ok && set != index.end();
          for (const auto& [name, amount] : use.counters) {
            if (!ok) break;
            std::optional<int64_t> milli = internal::ParseMilli(amount.value);
            auto counter = set->second.find(name);
            ok = milli.has_value() && counter != set->second.end();
            if (ok) draws.push_back(CounterDraw{counter->second, *milli});
          }
        }
        if (ok) dev.draws[layout] = std::move(draws);
      }
    }
  }
  for (auto& index : scope_index_) index.clear();
}

// After MarkAllocated and ResolveCounters.
void Inventory::CommitCounters() {
  std::map<std::vector<int64_t>, uint32_t> states;
  for (size_t layout : {kLayoutPool, kLayoutSlice}) {
    for (CounterScope& scope : counter_scopes_[layout]) {
      for (int gate : {0, 1}) {
        std::vector<int64_t>& committed = scope.committed[gate];
        committed.assign(scope.capacity.size(), 0);
        for (size_t s : scope.slices) {
          auto [begin, end] = SliceDevices(s);
          for (size_t id = begin; id < end; ++id) {
            const InventoryDevice& dev = devices_[id];
            bool multi = gate == 1 && dev.device->allow_multiple_allocations.value_or(false);
            bool drew = dev.in_use || (!dev.shares.empty() && (gate == 0 || multi));
            if (!drew || !dev.draws[layout]) continue;
            for (const CounterDraw& draw : *dev.draws[layout]) committed[draw.ordinal] += draw.milli;
          }
        }
        std::vector<int64_t> key = scope.capacity;
        key.insert(key.end(), committed.begin(), committed.end());
        scope.state_class[gate] =
            states.emplace(std::move(key), static_cast<uint32_t>(states.size())).first->second;
      }
    }
  }
}

NodeView Inventory::NodeAt(size_t i) const { return nodes_[i]; }

NodeView Inventory::FindNode(std::string_view name) const {
  NodeView view{.name = name, .local_slices = &NoSlices()};
  if (auto it = local_slices_.find(name); it != local_slices_.end()) view.local_slices = &it->second;
  if (auto it = node_index_.find(name); it != node_index_.end()) {
    view.labels = &input_->nodes[it->second].metadata.labels;
  }
  return view;
}

bool Inventory::SameAttributesAs(const Inventory& previous,
                                 const std::vector<size_t>& carried) const {
  // The devices of previous's slices this one does not share, in id order.
  std::vector<bool> kept(previous.devices_.size(), false);
  for (size_t id : carried) {
    if (id != kNoDevice) kept[id] = true;
  }
  size_t next = 0;  // the next of this Inventory's devices not carried
  for (const InventoryDevice& old : previous.devices_) {
    if (kept[old.id]) continue;
    while (next < devices_.size() && carried[next] != kNoDevice) ++next;
    if (next == devices_.size()) return false;
    const InventoryDevice& dev = devices_[next++];
    if (!internal::SameAttributes(input_->slices[dev.slice].spec.driver, *dev.device,
                                  previous.input_->slices[old.slice].spec.driver, *old.device)) {
      return false;
    }
  }
  while (next < devices_.size() && carried[next] != kNoDevice) ++next;
  return next == devices_.size();
}

void Inventory::FindIdentifyingAttributes(const Inventory* previous,
                                          const std::vector<size_t>& carried) {
  // Which attributes identify devices depends on the drivers and attributes of all devices
  // only: when the devices this Build does not carry replace, one for one and in order,
  // devices with the same drivers and attributes (a slice republished with a new
  // generation, taints or counters), the answer is previous's.
  if (previous != nullptr && SameAttributesAs(*previous, carried)) {
    identifying_ = previous->identifying_;
    return;
  }
  struct Seen {
    size_t devices = 0;
    bool scalar = true;  // every value a single string, int or bool
    ViewSet strings;  // views into the input's devices
    std::string_view last_string;  // inserted last: neighbours often share a value
    std::unordered_set<int64_t> ints;
    bool bools[2] = {false, false};
    size_t distinct() const { return strings.size() + ints.size() + bools[0] + bools[1]; }
  };
  // By (driver, attribute key as published): views into the input.
  std::map<std::pair<std::string_view, std::string_view>, Seen> seen;
  // A driver's devices publish the same attributes, in the same (sorted) order: the previous
  // device's entries are tried first, one comparison instead of a search of `seen` for each of
  // a fleet's ~650,000 attributes. Entries of a std::map stay where they are.
  std::vector<std::pair<std::string_view, Seen*>> by_position;  // by attribute position
  std::string_view previous_driver;
  for (const InventoryDevice& dev : devices_) {
    const std::string& driver = input_->slices[dev.slice].spec.driver;
    if (driver != previous_driver) {
      by_position.clear();
      previous_driver = driver;
    }
    size_t position = 0;
    for (const auto& [name, a] : dev.device->attributes) {
      if (position == by_position.size()) by_position.emplace_back();
      auto& [previous_name, entry] = by_position[position++];
      if (entry == nullptr || previous_name != name) {
        previous_name = name;
        entry = &seen[{driver, name}];
      }
      Seen& s = *entry;
      ++s.devices;
      if (a.set_count() != 1 || a.has_list() || a.version_value) s.scalar = false;
      if (!s.scalar) continue;
      if (a.string_value && (s.last_string.data() == nullptr || s.last_string != *a.string_value)) {
        s.strings.Insert(*a.string_value);
        s.last_string = *a.string_value;
      }
      if (a.int_value) s.ints.insert(*a.int_value);
      if (a.bool_value) s.bools[*a.bool_value ? 1 : 0] = true;
    }
  }
  // One (domain, name) may be published under several drivers or spellings: it identifies
  // devices only if it does everywhere.
  std::map<AttributeName, bool> verdicts;
  for (const auto& [key, s] : seen) {
    const bool identifies = s.scalar && s.distinct() > 1 && 2 * s.distinct() > s.devices;
    auto [it, inserted] =
        verdicts.emplace(internal::QualifiedAttribute(key.first, key.second), identifies);
    if (!inserted) it->second = it->second && identifies;
  }
  for (const auto& [name, identifies] : verdicts) {
    if (identifies) identifying_.push_back(name);
  }
}

bool Inventory::Identifying(const AttributeName& attribute) const {
  return std::binary_search(identifying_.begin(), identifying_.end(), attribute);
}

// After MarkAllocated, ApplyTaintRules, ResolveCounters and FindIdentifyingAttributes: the
// keys read their results.
//
// A fact class is interned from the device's selector class and its facts (equal selector
// classes are equal selector keys). A device carried from `previous` (`carried`) takes the
// class of the first device of its previous class: devices of one previous class have equal
// keys. That first device's key is not made either when the two Builds hash selector keys
// alike (the same identifying attributes): its class is interned by previous's hash of the
// key (Interner::Lazy), and the key made only if a device of a new slice has an equal hash.
// A device with unique identifying values has a class of its own: a fleet's carried devices
// cost no key, only their facts. The ids are those of a Build from scratch: each class is
// numbered at the first device that has its key, whichever way its key was found.
void Inventory::ClassifyDevices(const Inventory* previous, const std::vector<size_t>& carried) {
  constexpr uint32_t kUnmapped = UINT32_MAX;
  std::string key, facts, shape, identity;
  internal::SkipMemo skip_memo;
  // The selector key of device `id` (an Interner tag) whose shape class is known.
  auto selector_key = [&](uint32_t id, std::string& out) {
    const InventoryDevice& dev = devices_[id];
    const std::string& driver = input_->slices[dev.slice].spec.driver;
    if (identifying_.empty()) {
      internal::AppendSelectorKey(driver, *dev.device, out);
      return;
    }
    out.append(reinterpret_cast<const char*>(&dev.shape_selector_class),
               sizeof(dev.shape_selector_class));
    internal::AppendIdentity(driver, *dev.device, identifying_, skip_memo, out);
  };
  internal::Interner selector_ids(selector_key), fact_ids, shape_selector_ids, shape_fact_ids;
  std::vector<uint32_t> selector_map, shape_map;  // previous's class -> this one's
  // Shape keys leave the identifying attributes out, and the selector keys' hashes combine
  // the shape key's: comparable only if they are the same.
  const bool same_keys = previous != nullptr && previous->identifying_ == identifying_;
  if (previous != nullptr) {
    selector_map.assign(previous->selector_classes_, kUnmapped);
    if (same_keys) shape_map.assign(previous->shape_selector_classes_, kUnmapped);
  }
  auto with_class = [&](uint32_t cls) {
    key.assign(reinterpret_cast<const char*>(&cls), sizeof(cls));
    key += facts;
    return std::string_view(key);
  };
  for (InventoryDevice& dev : devices_) {
    const std::string& driver = input_->slices[dev.slice].spec.driver;
    const InventoryDevice* old =
        carried.empty() || carried[dev.id] == kNoDevice ? nullptr
                                                        : &previous->devices_[carried[dev.id]];
    facts.clear();
    internal::AppendFactKey(dev, facts);
    uint32_t* mapped = old != nullptr ? &selector_map[old->selector_class] : nullptr;
    const bool selector_known = mapped != nullptr && *mapped != kUnmapped;
    const auto tag = static_cast<uint32_t>(dev.id);
    if (identifying_.empty()) {
      if (selector_known) {
        dev.selector_class = *mapped;
      } else if (old != nullptr && same_keys) {
        dev.selector_class =
            selector_ids.Lazy(previous->selector_hashes_[old->selector_class], tag);
      } else {
        key.clear();
        selector_key(tag, key);
        dev.selector_class = selector_ids.Id(key);
      }
      if (mapped != nullptr) *mapped = dev.selector_class;
      dev.fact_class = fact_ids.Id(with_class(dev.selector_class));
      dev.shape_selector_class = dev.selector_class;
      dev.shape_fact_class = dev.fact_class;
      continue;
    }
    // The shape key, and the selector key as (shape class, identifying values): both from
    // one walk of the attributes, made only when a class is not carried.
    uint32_t* shape_mapped =
        old != nullptr && !shape_map.empty() ? &shape_map[old->shape_selector_class] : nullptr;
    const bool shape_known = shape_mapped != nullptr && *shape_mapped != kUnmapped;
    identity.clear();
    if (shape_known) {
      dev.shape_selector_class = *shape_mapped;
    } else {
      shape.clear();
      internal::AppendShapeKeyAndIdentity(driver, *dev.device, identifying_, skip_memo, shape,
                                          identity);
      dev.shape_selector_class = shape_selector_ids.Id(shape);
      if (shape_mapped != nullptr) *shape_mapped = dev.shape_selector_class;
    }
    if (selector_known) {
      dev.selector_class = *mapped;
    } else if (shape_known) {  // carried, and same_keys (shape_map is empty otherwise)
      dev.selector_class = selector_ids.Lazy(previous->selector_hashes_[old->selector_class], tag);
    } else {  // identity made with the shape key
      key.assign(reinterpret_cast<const char*>(&dev.shape_selector_class),
                 sizeof(dev.shape_selector_class));
      key += identity;
      dev.selector_class = selector_ids.Id(
          key, SelectorHash(shape_selector_ids.hash(dev.shape_selector_class), identity));
    }
    if (mapped != nullptr) *mapped = dev.selector_class;
    dev.fact_class = fact_ids.Id(with_class(dev.selector_class));
    dev.shape_fact_class = shape_fact_ids.Id(with_class(dev.shape_selector_class));
  }
  selector_hashes_.resize(selector_ids.size());
  for (uint32_t c = 0; c < selector_ids.size(); ++c) selector_hashes_[c] = selector_ids.hash(c);
  selector_classes_ = selector_ids.size();
  fact_classes_ = fact_ids.size();
  shape_selector_classes_ = identifying_.empty() ? selector_classes_ : shape_selector_ids.size();
  shape_fact_classes_ = identifying_.empty() ? fact_classes_ : shape_fact_ids.size();
  class_members_[0].assign(selector_classes_, {0, 0});
  class_members_[1].assign(shape_selector_classes_, {0, 0});
  for (const InventoryDevice& dev : devices_) {
    for (auto [members, cls] : {std::make_pair(&class_members_[0], dev.selector_class),
                                std::make_pair(&class_members_[1], dev.shape_selector_class)}) {
      auto& [first, count] = (*members)[cls];
      if (count++ == 0) first = dev.id;
    }
  }
}

const NodeGroups& Inventory::Groups(const AllocatorOptions& options, bool shape) const {
  // The key (version, kind, gates) is written into a buffer on the stack: every check looks
  // its groups up, and a string built a character at a time was ~0.7 k instructions of it.
  constexpr size_t kMaxVersionName = 16;
  std::array<char, kMaxVersionName + 1 + kGateCount> buffer;
  const std::string_view version = KubernetesVersionName(options.version);
  const size_t name = std::min(version.size(), kMaxVersionName);
  std::copy_n(version.data(), name, buffer.data());
  buffer[name] = shape ? 'S' : 'E';
  for (size_t g = 0; g < kGateCount; ++g) {
    buffer[name + 1 + g] = options.gates.Enabled(static_cast<Gate>(g)) ? '1' : '0';
  }
  const std::string_view key(buffer.data(), name + 1 + kGateCount);
  std::lock_guard<std::mutex> lock(groups_->mu);
  for (const auto& [k, groups] : groups_->entries) {
    if (k == key) return *groups;
  }
  // Computed under the lock: a second thread asking for the same groups waits for these.
  groups_->entries.emplace_back(std::string(key),
                                std::make_unique<const NodeGroups>(ComputeGroups(options, shape)));
  return *groups_->entries.back().second;
}

const ReadClasses* Inventory::ClassesReading(const std::vector<AttributeName>& reads) const {
  std::lock_guard<std::mutex> lock(read_classes_->mu);
  for (const auto& [k, classes] : read_classes_->entries) {
    if (k == reads) return classes.get();
  }
  if (read_classes_->entries.size() >= kMaxReadClassSets) return nullptr;
  // One key per selector class (its devices are equal in everything CEL sees), or per shape
  // class when no identifying attribute is read (those are plain scalars, left out of keys).
  const bool shape = std::none_of(reads.begin(), reads.end(),
                                  [&](const AttributeName& a) { return Identifying(a); });
  auto out = std::make_unique<ReadClasses>();
  internal::Interner ids;
  const std::vector<std::pair<size_t, int64_t>>& classes = class_members_[shape ? 1 : 0];
  std::vector<uint32_t> of_class(classes.size());
  std::string key;
  for (size_t c = 0; c < classes.size(); ++c) {
    const InventoryDevice& dev = devices_[classes[c].first];
    key.clear();
    internal::AppendReadKey(input_->slices[dev.slice].spec.driver, *dev.device, reads, key);
    of_class[c] = ids.Id(key);
  }
  out->class_of.reserve(devices_.size());
  out->members.assign(ids.size(), {0, 0});
  for (const InventoryDevice& dev : devices_) {
    const uint32_t cls = of_class[shape ? dev.shape_selector_class : dev.selector_class];
    out->class_of.push_back(cls);
    auto& [first, count] = out->members[cls];
    if (count++ == 0) first = dev.id;
  }
  read_classes_->entries.emplace_back(reads, std::move(out));
  return read_classes_->entries.back().second.get();
}

NodeGroups Inventory::ComputeGroups(const AllocatorOptions& options, bool shape) const {
  NodeGroups out;
  internal::NodeDevices devices;
  internal::NodeSignature signature(*this, options, shape);
  std::unordered_map<std::vector<int64_t>, uint32_t, internal::SignatureHash> ids;
  out.group_of.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    internal::CollectNodeDevices(*this, nodes_[i], options, devices);
    auto [it, inserted] =
        ids.emplace(signature.Compute(devices), static_cast<uint32_t>(out.first.size()));
    if (inserted) out.first.push_back(i);
    out.group_of.push_back(it->second);
  }
  return out;
}

const k8s::DeviceClass* Inventory::FindClass(std::string_view name) const {
  auto it = class_index_.find(name);
  return it == class_index_.end() ? nullptr : &input_->classes[it->second];
}

std::optional<size_t> Inventory::FindDevice(std::string_view driver, std::string_view pool,
                                            std::string_view device) const {
  if (device_slots_.empty()) return std::nullopt;  // moved from
  const uint32_t slot =
      device_slots_[DeviceSlot(driver, pool, device, DeviceHash(PoolHash(driver, pool), device))];
  if (slot == 0) return std::nullopt;
  return slot - 1;
}

DeviceView Inventory::View(size_t id) const {
  const InventoryDevice& d = devices_[id];
  const k8s::ResourceSliceSpec& spec = input_->slices[d.slice].spec;
  return DeviceView{.id = id, .driver = spec.driver, .pool = spec.pool.name,
                    .name = d.device->name, .device = d.device};
}

std::vector<size_t> SameSelectorDevices(const Inventory& previous, const Inventory& next) {
  // The devices of the slices both share (the same objects) by slice, without a search; the
  // others (a new slice, a new generation of a pool) by name, compared.
  std::vector<size_t> same = next.CarriedDevices(previous);
  for (const InventoryDevice& dev : next.devices()) {
    if (same[dev.id] != kNoDevice) continue;
    const DeviceView view = next.View(dev.id);
    const std::optional<size_t> old = previous.FindDevice(view.driver, view.pool, view.name);
    if (!old) continue;
    const DeviceView old_view = previous.View(*old);
    if (internal::SameSelectorContent(view.driver, *view.device, old_view.driver,
                                      *old_view.device)) {
      same[dev.id] = *old;
    }
  }
  return same;
}

}  // namespace draguard::alloc
