// Node-independent facts about devices, computed lazily and shared by every node of a check:
// selector results per alternative, interchangeability classes, counter consumption, taints
// and constraint attribute values.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_FACTS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_FACTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "policy/allocator/internal/plan.h"
#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/allocator/selector.h"

namespace draguard::alloc::internal {

enum class SelectorState : uint8_t { kUnknown, kMatch, kClassMismatch, kRequestMismatch, kError };

struct SelectorFailure {
  size_t device = 0;
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

class DeviceFacts {
 public:
  DeviceFacts(const Inventory& inventory, const AllocatorOptions& options, size_t alternatives);

  // Class then request selectors, memoised. On kError, `failure` describes it.
  SelectorState Selectors(const Alternative& alt, size_t device, SelectorEvaluator& evaluator);
  const std::optional<SelectorFailure>& failure() const { return failure_; }
  // Devices evaluated so far that pass every selector of `alt` (anywhere in the cluster).
  int64_t CountMatches(const Alternative& alt) const;

  // Devices with equal class ids are interchangeable for every request of the check.
  int Class(size_t device);
  // Taints that block allocation unless tolerated (gates and version applied).
  bool Tolerated(size_t device, const std::vector<k8s::DeviceToleration>& tolerations);
  // (counter index, amount) drawn by the device; nullopt when an amount cannot be parsed.
  const std::optional<std::vector<std::pair<size_t, int64_t>>>& Consumption(size_t device);
  bool FitsCounters(size_t device);
  CounterState& counters() { return counters_; }
  // Constraint attribute value ("i:3", "s:x", "b:true", "v:1.2.3"); nullopt when missing.
  const std::optional<std::string>& Attribute(const std::string& name, size_t device);

  // Consumable capacity (§12). Allocated to another claim: a dedicated result, or a shared
  // one while the DRAConsumableCapacity gate is off.
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
  int SearchShares(size_t device) const { return capacity_[device].shares; }
  // The consumption of one allocation for `alt` per capacity, for results (consumedCapacity);
  // nullopt when the device cannot serve the alternative.
  const std::optional<std::vector<int64_t>>& Demand(const Alternative& alt, size_t device);

 private:
  size_t Scope(size_t device) const;
  void LoadScope(size_t scope_key);

  const Inventory& inv_;
  const AllocatorOptions& options_;
  std::vector<std::vector<SelectorState>> selectors_;  // [alt][device]
  std::optional<SelectorFailure> failure_;
  std::vector<int> class_;  // -1 unknown
  std::map<std::string, int> class_ids_;
  std::vector<int8_t> consumption_known_;
  std::vector<std::optional<std::vector<std::pair<size_t, int64_t>>>> consumption_;
  struct ScopeInfo {
    bool loaded = false;
    size_t base = 0;             // index of the scope's ordinal 0 in counters_
    bool overcommitted = false;  // committed use already exceeds a counter
  };
  // By Inventory counter scope of the version's layout (pool generation in 1.35, slice in
  // 1.34; resolved at Inventory::Build, so no strings are touched here).
  size_t layout_;
  std::vector<ScopeInfo> scopes_;
  std::vector<size_t> scope_of_;  // per device, SIZE_MAX when unknown
  CounterState counters_;
  std::map<std::string, std::pair<std::vector<int8_t>, std::vector<std::optional<std::string>>>>
      attributes_;
  struct CapacityState {
    bool loaded = false;
    std::optional<std::vector<int64_t>> value;  // nullopt: unparsable, never fits
    std::vector<int64_t> committed;
    std::vector<int64_t> used;
    int shares = 0;  // allocations in this search
  };
  CapacityState& LoadCapacity(size_t device);
  std::vector<CapacityState> capacity_;
  std::vector<std::vector<int8_t>> demand_known_;  // [alt][device]
  std::vector<std::vector<std::optional<std::vector<int64_t>>>> demand_;
};

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_FACTS_H_
