// Inventory: the cluster state the allocator checks claims against.
//
// Built once from model objects (ResourceSlices, DeviceClasses, Nodes, allocated
// ResourceClaims, DeviceTaintRules) and then read-only; the webhook rebuilds it from its
// informer cache, `lint`/`explain` from files. Devices get a dense id (their index in
// devices()) used as a cache key by selector evaluation. When no Node objects are given,
// the nodes are the node names the slices mention (slice or per-device nodeName).
//
// Devices also get two node-independent class ids (see InventoryDevice) that let a check
// evaluate a selector once per distinct device content and decide a node once per distinct
// node content.
//
// Thread-compatible: const methods may be called concurrently. Not copyable (DeviceViews
// point into it); movable.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INVENTORY_H_
#define DRAGUARD_POLICY_ALLOCATOR_INVENTORY_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "policy/allocator/options.h"
#include "policy/allocator/selector.h"
#include "policy/common/release.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::alloc {

// The cluster state an Inventory is built from: the same ClusterObjects that lint's
// --inventory files and the webhook's watch produce (namespaces, source and as_of are not
// read here). Claims without status.allocation are ignored.
using InventoryInput = inventory::ClusterObjects;

// All slices of one (driver, pool name) in the cluster, at every generation.
struct PoolInfo {
  std::string driver;
  std::string name;
  // Position in (driver, name) order: the order in which the 1.36 scheduler tries pools
  // (incubating/experimental sort them), which decides which All device breaks a constraint
  // first (an error) and which witness is found.
  size_t rank = 0;
  std::vector<size_t> slices;  // indexes into Inventory::slices(), input order
  int64_t max_generation = 0;
  std::map<int64_t, int64_t> slices_per_generation;
  // Validity of all slices of one generation (internal::PoolProblem), per counter layout
  // (kLayoutPool, kLayoutSlice). Precomputed: node-independent, and checked on every node
  // otherwise.
  std::map<int64_t, std::array<std::string, 2>> problems;

  // The problem of the whole generation under `layout`, or nullptr when not precomputed.
  const std::string* Problem(int64_t generation, size_t layout) const {
    auto it = problems.find(generation);
    return it == problems.end() ? nullptr : &it->second[layout];
  }
};

// One draw of a device from a shared counter, resolved at Build: the counter's ordinal in its
// scope (CounterScope::capacity) and the amount in milli-units.
struct CounterDraw {
  size_t ordinal = 0;
  int64_t milli = 0;
};

// The shared counters devices draw from together: one pool generation (1.35 layout, counter
// slices included) or one slice (1.34 layout).
struct CounterScope {
  std::vector<int64_t> capacity;  // milli-units by ordinal (unparsable: 0)
  std::vector<size_t> slices;     // the slices whose devices draw from it
  // What allocated devices already draw, by ordinal, indexed by the DRAConsumableCapacity
  // gate: [0] off (any result makes a device in use), [1] on (a device that allows multiple
  // allocations draws its counters once, with its first share).
  std::vector<int64_t> committed[2];
  // Scopes with equal ids (per gate) have equal capacity and committed consumption.
  uint32_t state_class[2] = {0, 0};
};

// Index into the per-layout arrays: [kLayoutPool] pool scope (CounterModel::kCounterSets),
// [kLayoutSlice] slice scope (CounterModel::kSliceTotals).
inline constexpr size_t kLayoutPool = 0;
inline constexpr size_t kLayoutSlice = 1;

// The layout of `version`'s counter model (Release::counters).
inline size_t CounterLayout(KubernetesVersion version) {
  return ReleaseFor(version).counters == CounterModel::kCounterSets ? kLayoutPool : kLayoutSlice;
}

// The fields every node of every check reads come first, in one cache line; the rest is read
// only for the devices of the nodes actually searched.
struct InventoryDevice {
  size_t id = 0;
  size_t slice = 0;  // index into Inventory::slices()
  size_t pool = 0;   // index into Inventory::pools()
  const k8s::Device* device = nullptr;
  // Allocated (not admin access, no shareID) by a claim in the inventory.
  bool in_use = false;
  // Copies of `device` facts that gate selection, kept here (contiguous) because every
  // device of every node is tested: consumesCounters and bindingConditions are non-empty.
  bool consumes_counters = false;
  bool binding_conditions = false;
  // Devices with equal selector_class are equal in everything CEL sees (driver, attributes,
  // capacity values, allowMultipleAllocations), so a selector gives the same result on them.
  uint32_t selector_class = 0;
  // Devices with equal fact_class are equal in everything the allocator reads about a device
  // apart from which counter scope it draws from and where it is visible: the selector class,
  // capacity policies, counter consumption (raw and resolved in both layouts), taints
  // (own and from rules), availability, committed shares, node fields, binding conditions.
  uint32_t fact_class = 0;
  // The same two classes with the identifying attributes (Inventory::Identifying: per-device
  // values such as uuids) left out of the content compared: devices equal in these are
  // alike for every check whose selectors and constraints read no identifying attribute.
  uint32_t shape_selector_class = 0;
  uint32_t shape_fact_class = 0;
  // Shared counters (partitionable devices), per layout: the scope (CounterScopes()) and the
  // draws; nullopt draws when the device names a counter its scope lacks or an amount does
  // not parse (never allocatable). Empty draws for devices that consume no counters.
  size_t counter_scope[2] = {0, 0};
  std::optional<std::vector<CounterDraw>> draws[2];
  // Taints from DeviceTaintRules selecting this device (the device's own are in `device`).
  std::vector<k8s::DeviceTaint> rule_taints;
  // consumedCapacity of the results with a shareID (consumable capacity): shares of a device
  // that allows multiple allocations. With the DRAConsumableCapacity gate off they make the
  // device in use instead. Point into the Inventory's claims.
  std::vector<const std::map<std::string, std::string>*> shares;
  // Consumable capacity in milli-units, in the order of Device::capacity, parsed once at Build
  // (internal/capacity.h) rather than by every check that tries the device: the values
  // (null when one does not parse: the device never fits), what `shares` consume (empty
  // without shares) and what one allocation consumes for a request that asks for no
  // capacity (null: the device cannot serve it). The values and the demand are shared by the
  // devices with equal capacities and policies (a fleet's GPUs of one model: one pair, not
  // two vectors a device) and carried from the previous Inventory for its devices (the
  // same pointers).
  std::shared_ptr<const std::vector<int64_t>> capacity_values;
  std::vector<int64_t> committed_capacity;
  std::shared_ptr<const std::vector<int64_t>> unrequested_demand;
};

// One node as the allocator sees it: its name, the slices naming it in spec.nodeName (input
// order) and its labels (nullptr without a Node object).
struct NodeView {
  std::string_view name;
  const std::vector<size_t>* local_slices = nullptr;
  const std::map<std::string, std::string>* labels = nullptr;
};

// Nodes that pose the same allocation problem (internal/node_signature.h) for every check of
// one kind, numbered in order of their first node.
struct NodeGroups {
  std::vector<uint32_t> group_of;  // by node index (node_names())
  std::vector<size_t> first;       // by group: its first node
};

// Devices told apart only by what a selector reading a known set of attributes can see
// (InventoryDevice::selector_class coarsened: internal::AppendReadKey).
struct ReadClasses {
  std::vector<uint32_t> class_of;  // by device id
  // Per class: its first device and its number of devices.
  std::vector<std::pair<size_t, int64_t>> members;
};

class Inventory {
 public:
  // At most this many ReadClasses are kept per Inventory (8,000 devices: 32 KB each).
  static constexpr size_t kMaxReadClassSets = 32;
  // Takes ownership of the objects. Malformed objects are indexed as far as possible; the
  // allocator reports what it cannot use.
  static Inventory Build(inventory::ClusterObjects objects);
  // Shares an immutable snapshot (the webhook's) instead of copying it; the Inventory keeps
  // it alive. `objects` must not be null.
  static Inventory Build(std::shared_ptr<const inventory::ClusterObjects> objects);
  // The same, carrying over from `previous` what it derived from each slice the two
  // snapshots share (the same object: SharedList::ptr), rather than deriving it again: the
  // devices' capacities, their selector and shape classes (by mapping previous's classes),
  // pool validity of shared slices, identifying attributes when the other slices' devices
  // replace devices of equal drivers and attributes one for one; the rest is derived anew.
  // The result equals Build(objects) in every field and answer (device and class ids
  // included); `previous` is only read, and may be dropped after.
  static Inventory Build(std::shared_ptr<const inventory::ClusterObjects> objects,
                         const Inventory& previous);

  Inventory(Inventory&&) = default;
  Inventory& operator=(Inventory&&) = default;
  Inventory(const Inventory&) = delete;
  Inventory& operator=(const Inventory&) = delete;

  const SharedList<k8s::ResourceSlice>& slices() const { return input_->slices; }
  // Devices whose own facts (capacities, selector and shape keys) the Build that made this
  // Inventory derived, rather than carried from a previous Inventory: every device for a
  // Build from scratch, the devices of new or changed slices for an incremental one.
  size_t devices_prepared() const { return devices_prepared_; }
  const std::vector<InventoryDevice>& devices() const { return devices_; }
  const std::vector<PoolInfo>& pools() const { return pools_; }
  // Node names in input order (Node objects) or sorted (derived from slices).
  const std::vector<std::string>& node_names() const { return node_names_; }

  // node_names()[i] with its slices and labels.
  NodeView NodeAt(size_t i) const;
  // Any node name, also one the inventory does not know (no local slices, no labels).
  NodeView FindNode(std::string_view name) const;
  // Distinct InventoryDevice::selector_class / fact_class values: ids are below these.
  size_t selector_classes() const { return selector_classes_; }
  size_t fact_classes() const { return fact_classes_; }
  // The same for shape_selector_class / shape_fact_class.
  size_t shape_selector_classes() const { return shape_selector_classes_; }
  size_t shape_fact_classes() const { return shape_fact_classes_; }
  // Per selector class (shape classes with `shape`): its first device and its number of
  // devices, so that a count over the cluster evaluates each class once.
  const std::vector<std::pair<size_t, int64_t>>& SelectorClassMembers(bool shape) const {
    return class_members_[shape ? 1 : 0];
  }
  // Attributes that identify devices, sorted: (domain, name) pairs (an unqualified attribute
  // in the driver's domain) whose values are mostly distinct (more distinct values than half
  // the devices that have them) and always a single string, int or bool (so that leaving them
  // out of a class cannot hide a device CEL cannot prepare). A uuid, a serial number.
  const std::vector<AttributeName>& IdentifyingAttributes() const { return identifying_; }
  bool Identifying(const AttributeName& attribute) const;
  // Node groups for checks under `options` (counter layout, gates) that compare devices by
  // fact_class, or by shape_fact_class with `shape`; computed on first use and kept
  // (thread-safe; one entry per distinct version, gates and kind).
  const NodeGroups& Groups(const AllocatorOptions& options, bool shape) const;
  // The classes of devices a selector reading only `reads` (sorted, unique: what
  // SelectorEvaluator::AttributesRead reports) cannot tell apart; computed on first use and
  // kept (thread-safe). Null once kMaxReadClassSets other sets are kept: the caller then
  // decides by selector classes.
  const ReadClasses* ClassesReading(const std::vector<AttributeName>& reads) const;
  const k8s::DeviceClass* FindClass(std::string_view name) const;
  std::optional<size_t> FindDevice(std::string_view driver, std::string_view pool,
                                   std::string_view device) const;
  DeviceView View(size_t id) const;

  // By device id: the id of the same device in `previous` when its slice is shared with it
  // (the same object: the same devices in the same order), else kNoDevice.
  std::vector<size_t> CarriedDevices(const Inventory& previous) const;

  // The slices without a nodeName (selector, allNodes, per-device selection, counter-only):
  // with NodeView::local_slices, every slice that can be visible from a node.
  const std::vector<size_t>& NonLocalSlices() const { return non_local_slices_; }
  size_t PoolOfSlice(size_t slice) const { return slice_pool_[slice]; }
  // Device ids of one slice: [first, second).
  std::pair<size_t, size_t> SliceDevices(size_t slice) const {
    return {slice_begin_[slice], slice_begin_[slice + 1]};
  }
  // Counter scopes of one layout (kLayoutPool or kLayoutSlice), by InventoryDevice::counter_scope.
  const std::vector<CounterScope>& CounterScopes(size_t layout) const {
    return counter_scopes_[layout];
  }

 private:
  Inventory() = default;
  static Inventory BuildFrom(std::shared_ptr<const inventory::ClusterObjects> objects,
                             const Inventory* previous);
  void IndexDevices();
  // The slot of device_slots_ holding the device named so, or the free slot where it goes.
  // `hash`: DeviceHash of the three (inventory.cc).
  size_t DeviceSlot(std::string_view driver, std::string_view pool, std::string_view device,
                    size_t hash) const;
  void MarkAllocated();
  void ParseCapacities(const Inventory* previous, const std::vector<size_t>& carried);
  void ApplyTaintRules();
  void CollectNodes();
  void ValidatePools(const Inventory* previous);
  void ResolveCounters();
  size_t AddScope(size_t layout, std::vector<size_t> slices);
  void CommitCounters();
  // Whether the devices of this Inventory not in `carried` (CarriedDevices) and those of
  // `previous` not carried into it pair up, in id order, with equal drivers and attributes.
  bool SameAttributesAs(const Inventory& previous, const std::vector<size_t>& carried) const;
  void FindIdentifyingAttributes(const Inventory* previous, const std::vector<size_t>& carried);
  void ClassifyDevices(const Inventory* previous, const std::vector<size_t>& carried);
  NodeGroups ComputeGroups(const AllocatorOptions& options, bool shape) const;

  struct GroupCache {
    std::mutex mu;
    std::vector<std::pair<std::string, std::unique_ptr<const NodeGroups>>> entries;
  };

  std::shared_ptr<const InventoryInput> input_;
  std::vector<PoolInfo> pools_;
  std::vector<InventoryDevice> devices_;
  std::vector<std::string> node_names_;
  std::map<std::string, std::vector<size_t>, std::less<>> local_slices_;
  std::vector<NodeView> nodes_;  // by index in node_names_
  std::vector<size_t> non_local_slices_;
  std::vector<size_t> slice_begin_;
  std::vector<size_t> slice_pool_;  // size slices()+1
  std::vector<CounterScope> counter_scopes_[2];
  // Per scope: "set" -> "counter" -> ordinal, while resolving.
  std::vector<std::map<std::string, std::map<std::string, size_t>>> scope_index_[2];
  std::map<std::string, size_t, std::less<>> node_index_;
  std::map<std::string, size_t, std::less<>> class_index_;
  // FindDevice's hash table (open addressing, linear probing) of device ids + 1 (0: free),
  // by (driver, pool, device name): views into the input, no key strings.
  std::vector<uint32_t> device_slots_;
  size_t selector_classes_ = 0;
  size_t fact_classes_ = 0;
  size_t shape_selector_classes_ = 0;
  size_t shape_fact_classes_ = 0;
  std::vector<std::pair<size_t, int64_t>> class_members_[2];
  // By selector class: the hash its key was interned with (internal::Interner), which a
  // later Build with the same identifying attributes interns a carried class by.
  std::vector<size_t> selector_hashes_;
  std::vector<AttributeName> identifying_;
  size_t devices_prepared_ = 0;
  std::unique_ptr<GroupCache> groups_ = std::make_unique<GroupCache>();
  struct ReadClassCache {
    std::mutex mu;
    std::vector<std::pair<std::vector<AttributeName>, std::unique_ptr<const ReadClasses>>> entries;
  };
  std::unique_ptr<ReadClassCache> read_classes_ = std::make_unique<ReadClassCache>();
};

// No device (SameSelectorDevices).
inline constexpr size_t kNoDevice = SIZE_MAX;

// The devices of `next` that selector evaluation sees exactly as a device of `previous`:
// the same (driver, pool, name) and equal in everything CEL reads (driver, attributes,
// capacity values, allowMultipleAllocations: the content of InventoryDevice::selector_class).
// By device id of `next`: the device's id in `previous`, or kNoDevice. What derives from a
// device's CEL view alone (prepared devices, PreparedDevices::ShareFrom) carries over.
std::vector<size_t> SameSelectorDevices(const Inventory& previous, const Inventory& next);

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_INVENTORY_H_
