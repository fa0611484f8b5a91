// Node-independent facts about devices, computed lazily and shared by every node of a check:
// selector results (per selector class, so once per distinct device content), counter
// consumption, capacity, taints and constraint attribute values.
//
// Per-device state is created on first use only: a check that decides most nodes by their
// signature (node_signature.h) touches the devices of a few nodes, not of the cluster.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_FACTS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_FACTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "policy/allocator/internal/paged_vector.h"
#include "policy/allocator/internal/plan.h"
#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/allocator/selector.h"

namespace draguard::alloc::internal {

enum class SelectorState : uint8_t { kUnknown, kMatch, kClassMismatch, kRequestMismatch, kError };

struct SelectorFailure {
  std::string expression;
  std::string error;
  bool from_class = false;
};

// Counters: every counter of every touched scope (pool in 1.35, slice in 1.34) gets a dense
// index; capacity and committed consumption are fixed, `used` changes during the search.
struct CounterState {
  std::vector<int64_t> capacity;
  std::vector<int64_t> committed;
  std::vector<int64_t> used;
};

// A constraint attribute's value as the scheduler compares it: a set of typed elements
// ("i:3", "s:x", "b:true", "v:1.2.3"), sorted and unique. A scalar is a one-element set; a
// list (DRAListTypeAttributes) its elements, so that different types never intersect. Without
// list semantics (the gate off: scalar comparison) a list is one element no other device
// shares ("unknown type" upstream).
struct AttributeSet {
  std::vector<std::string> elements;
  bool list = false;
  bool Intersects(const AttributeSet& other) const;
};

// Per Alternative::id: every attribute the class selectors (when the class exists) and the
// request selectors of the alternative read (SelectorEvaluator::AttributesRead), sorted and
// unique; nullopt when one of them may read any attribute. Asked once per check: each
// question is a program lookup by text and a copy of the names.
using AlternativeReads = std::vector<std::optional<std::vector<AttributeName>>>;
AlternativeReads ReadsOf(const Plan& plan, SelectorEvaluator& evaluator);

// Whether a selector or constraint of `plan` reads an identifying attribute of `inventory`
// (Inventory::Identifying), or may read any attribute (`reads`, ReadsOf(plan): unknown): then
// devices must be told apart by their whole content.
bool ReadsIdentifying(const Inventory& inventory, const Plan& plan, const AlternativeReads& reads);

class DeviceFacts {
 public:
  // With `shape`, devices are told apart by their shape classes (InventoryDevice::
  // shape_selector_class, shape_fact_class): only for a plan that reads no identifying
  // attribute (ReadsIdentifying false).
  // With `reads` (ReadsOf(plan)), an alternative whose selectors all say what they read
  // (SelectorEvaluator::AttributesRead) is decided once per Inventory::ClassesReading class:
  // a fresh selector on a fleet whose devices all differ (PCIe roots numbered per node) is
  // evaluated once, not once per device.
  DeviceFacts(const Inventory& inventory, const AllocatorOptions& options, const Plan& plan,
              bool shape = false, const AlternativeReads* reads = nullptr);

  // Class then request selectors, memoised per (alternative, selector class): devices equal
  // in what CEL sees share the result (selector.h). On kError, Failure() describes it.
  SelectorState Selectors(const Alternative& alt, size_t device, SelectorEvaluator& evaluator);
  const SelectorFailure& Failure(const Alternative& alt, size_t device) const;
  // Devices in the cluster that pass every selector of `alt`; evaluates the selector classes
  // no node needed so far (an error counts as no match).
  int64_t CountMatches(const Alternative& alt, SelectorEvaluator& evaluator);
  // What `alt`'s selectors give on the devices of the cluster, stopping at the first match:
  // kMatch (some device passes), kError (none passes, one fails with an error), else
  // kRequestMismatch (no device passes, none fails).
  SelectorState AnyMatch(const Alternative& alt, SelectorEvaluator& evaluator);

  // Devices with equal keys are interchangeable for every request of the check: equal facts
  // (InventoryDevice::fact_class, or shape_fact_class) and the same counter scope.
  std::pair<uint32_t, size_t> SymmetryKey(size_t device) const;
  // Taints that block allocation unless tolerated (gates and version applied).
  bool Tolerated(size_t device, const std::vector<k8s::DeviceToleration>& tolerations);
  // (counter index, amount) drawn by the device; nullopt when an amount cannot be parsed.
  const std::optional<std::vector<std::pair<size_t, int64_t>>>& Consumption(size_t device);
  bool FitsCounters(size_t device);
  CounterState& counters() { return counters_; }
  // Value of constraint attribute Plan::attributes[id]; nullopt when missing (or a list
  // without elements).
  const std::optional<AttributeSet>& Attribute(size_t id, size_t device);
  // matchAttribute/distinctAttribute compare lists as sets (1.36 experimental allocator, run
  // when DRAListTypeAttributes is on).
  bool list_semantics() const { return list_semantics_; }

  // Consumable capacity (allocator_*.go `deviceInUse`). Allocated to another claim: a dedicated
  // result, or a shared one while the DRAConsumableCapacity gate is off.
  bool InUse(size_t device) const;
  // The device may back several results (allowMultipleAllocations, gate on).
  bool Multi(size_t device) const;
  // Whether one more allocation of `device` for `alt` fits its remaining capacity (always
  // true with the gate off). Counts committed shares and the search's own allocations.
  bool FitsCapacity(const Alternative& alt, size_t device);
  // Records (+1) or releases (-1) one allocation of `device` for `alt` in the search.
  void UseCapacity(const Alternative& alt, size_t device, int sign);
  // Whether allocating `device` now draws its counters: a multi-allocatable device draws
  // them once, with its first share (committed or in this search).
  bool DrawsCounters(size_t device) const;
  // Allocations of `device` made by the search so far (capacity gate on).
  int SearchShares(size_t device) const;
  // The consumption of one allocation for `alt` per capacity, for results (consumedCapacity);
  // null when the device cannot serve the alternative.
  const std::vector<int64_t>* Demand(const Alternative& alt, size_t device);

 private:
  struct CapacityState {
    bool loaded = false;
    std::vector<int64_t> used;  // by the search's own allocations (the rest: InventoryDevice)
    int shares = 0;  // allocations in this search
  };
  // What a check has computed about one device. Devices that draw no counters, and checks
  // without constraints or capacity requests, never make one (a page of them, made and
  // destroyed per check, was ~4 k instructions of a webhook check on a GPU fleet).
  struct DeviceState {
    bool consumption_known = false;
    std::optional<std::vector<std::pair<size_t, int64_t>>> consumption;
    std::vector<int8_t> attribute_known;  // by Plan::attributes index
    std::vector<std::optional<AttributeSet>> attributes;
    std::vector<int8_t> demand_known;  // by Alternative::id
    std::vector<std::optional<std::vector<int64_t>>> demand;
  };
  struct ScopeInfo {
    bool loaded = false;
    size_t base = 0;             // index of the scope's ordinal 0 in counters_
    bool overcommitted = false;  // committed use already exceeds a counter
  };

  // The counter scope of the device in the version's layout (Inventory::CounterScopes).
  size_t Scope(size_t device) const;
  ScopeInfo& LoadScope(size_t scope);
  CapacityState& LoadCapacity(size_t device);
  SelectorState Evaluate(const Alternative& alt, size_t device, SelectorEvaluator& evaluator);
  // The selector class of `device` this check memoises `alt`'s results by.
  uint32_t SelectorClass(const Alternative& alt, size_t device) const {
    if (const ReadClasses* read = read_classes_[alt.id]) return read->class_of[device];
    const InventoryDevice& d = inv_.devices()[device];
    return shape_ ? d.shape_selector_class : d.selector_class;
  }

  const Inventory& inv_;
  const AllocatorOptions& options_;
  const Plan& plan_;
  const bool shape_;
  std::vector<const ReadClasses*> read_classes_;  // by alternative id; null: selector classes
  std::vector<std::vector<SelectorState>> selectors_;  // [alt][selector class]
  std::map<std::pair<size_t, uint32_t>, SelectorFailure> failures_;  // (alt, selector class)
  PagedVector<DeviceState> states_;  // by device id
  // By device id, apart from states_: the search's own allocations (DRAConsumableCapacity on),
  // the one state a check of a fleet without counters or constraints keeps per device.
  PagedVector<CapacityState> capacity_;
  // By Inventory counter scope of the version's layout (pool generation in 1.35, slice in
  // 1.34; resolved at Inventory::Build, so no strings are touched here).
  size_t layout_;
  PagedVector<ScopeInfo> scopes_;
  CounterState counters_;
  bool list_semantics_ = false;
};

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_FACTS_H_
