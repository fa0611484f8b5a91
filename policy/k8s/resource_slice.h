// ResourceSlice and DeviceTaintRule (resource.k8s.io/v1 and v1alpha3 shapes).
#ifndef DRAGUARD_POLICY_K8S_RESOURCE_SLICE_H_
#define DRAGUARD_POLICY_K8S_RESOURCE_SLICE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/common/heap_optional.h"
#include "policy/k8s/meta.h"

namespace draguard::k8s {

// Exactly one member is set in a valid attribute; `set_count` lets validation report
// "exactly one value must be specified" without guessing.
//
// The list members (`ints`, `bools`, `strings`, `versions`) are alpha in 1.36
// (DRAListTypeAttributes); an explicit `[]` decodes as present and empty. Releases that do
// not know them report them as unknown fields and drop them (validate/defaults.h).
struct DeviceAttribute {
  std::optional<int64_t> int_value;
  std::optional<bool> bool_value;
  std::optional<std::string> string_value;
  std::optional<std::string> version_value;
  // Lists are rare and attributes many (11 per GPU): kept on the heap (heap_optional.h).
  HeapOptional<std::vector<int64_t>> int_values;
  HeapOptional<std::vector<bool>> bool_values;
  HeapOptional<std::vector<std::string>> string_values;
  HeapOptional<std::vector<std::string>> version_values;
  int set_count() const {
    return int_value.has_value() + bool_value.has_value() + string_value.has_value() +
           version_value.has_value() + int_values.has_value() + bool_values.has_value() +
           string_values.has_value() + version_values.has_value();
  }
  bool has_list() const {
    return int_values.has_value() || bool_values.has_value() || string_values.has_value() ||
           version_values.has_value();
  }
  // Values counted against ResourceSliceMaxAttributeValuesPerDevice: a scalar 1, a list its
  // length.
  size_t value_count() const {
    size_t n = static_cast<size_t>(int_value.has_value() + bool_value.has_value() +
                                   string_value.has_value() + version_value.has_value());
    if (int_values) n += int_values->size();
    if (bool_values) n += bool_values->size();
    if (string_values) n += string_values->size();
    if (version_values) n += version_values->size();
    return n;
  }
  void clear_lists() {
    int_values.reset();
    bool_values.reset();
    string_values.reset();
    version_values.reset();
  }
};

struct CapacityRequestPolicyRange {
  std::string min;  // Quantity
  std::optional<std::string> max;
  std::optional<std::string> step;
};

struct CapacityRequestPolicy {
  std::optional<std::string> default_value;  // Quantity ("default" in the API)
  std::vector<std::string> valid_values;     // Quantities
  std::optional<CapacityRequestPolicyRange> valid_range;
};

struct DeviceCapacity {
  std::string value;  // Quantity
  std::optional<CapacityRequestPolicy> request_policy;
};

struct Counter {
  std::string value;  // Quantity
};

struct CounterSet {
  std::string name;
  std::map<std::string, Counter> counters;
};

struct DeviceCounterConsumption {
  std::string counter_set;
  std::map<std::string, Counter> counters;
};

struct DeviceTaint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, NoExecute, None (1.35)
  std::string time_added;
};

// Device.nodeAllocatableResourceMappings (1.36, DRANodeAllocatableResources, alpha): how an
// allocation of the device counts against a node-allocatable resource ("cpu", "memory").
struct NodeAllocatableResourceMapping {
  std::optional<std::string> capacity_key;           // a key of the device's capacity
  std::optional<std::string> allocation_multiplier;  // a Quantity, as written
};

struct Device {
  std::string name;
  std::map<std::string, DeviceAttribute> attributes;  // QualifiedName -> value
  std::map<std::string, DeviceCapacity> capacity;     // QualifiedName -> capacity
  std::vector<DeviceCounterConsumption> consumes_counters;
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  std::vector<DeviceTaint> taints;
  std::optional<bool> binds_to_node;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  std::optional<bool> allow_multiple_allocations;
  // Decoded only for releases that have the field (1.36+); an unknown field before.
  std::map<std::string, NodeAllocatableResourceMapping> node_allocatable_resource_mappings;
};

struct ResourcePool {
  std::string name;
  int64_t generation = 0;
  int64_t resource_slice_count = 0;
};

struct ResourceSliceSpec {
  std::string driver;
  ResourcePool pool;
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  std::optional<bool> per_device_node_selection;
  std::vector<Device> devices;
  std::vector<CounterSet> shared_counters;
};

struct ResourceSlice {
  std::string source_api_version;
  ObjectMeta metadata;
  ResourceSliceSpec spec;
};

struct DeviceTaintSelector {
  std::optional<std::string> device_class_name;  // v1alpha3 1.34 only
  std::optional<std::string> driver;
  std::optional<std::string> pool;
  std::optional<std::string> device;
  size_t selector_count = 0;  // v1alpha3 1.34 `selectors` (CEL), count only
};

struct DeviceTaintRuleSpec {
  std::optional<DeviceTaintSelector> device_selector;
  DeviceTaint taint;
};

struct DeviceTaintRule {
  std::string source_api_version;
  ObjectMeta metadata;
  DeviceTaintRuleSpec spec;
};

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_RESOURCE_SLICE_H_
