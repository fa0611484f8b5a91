// Canonical keys of device content, interned by Inventory::Build into the class ids of
// InventoryDevice (selector_class, fact_class). Equal keys must mean equal behaviour: the
// selector memo and the node grouping of a check rely on it (docs/allocator.md, "Search").
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_KEYS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_KEYS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::alloc::internal {

// Appends what CEL sees of a device: the driver, every attribute with all its typed fields,
// the capacity values and allowMultipleAllocations. Strings are length-prefixed, so distinct
// contents never give equal keys.
void AppendSelectorKey(std::string_view driver, const k8s::Device& device, std::string& key);
// Whether the two devices have the same driver and attributes (names and typed values).
bool SameAttributes(std::string_view driver, const k8s::Device& device,
                    std::string_view other_driver, const k8s::Device& other);
// Whether AppendSelectorKey gives the two devices equal keys, without making them: field
// by field (SameSelectorDevices compares a changed slice's devices with their previous
// versions so).
bool SameSelectorContent(std::string_view driver, const k8s::Device& device,
                         std::string_view other_driver, const k8s::Device& other);
// The same without the values of the attributes in `skip` (sorted; their names stay): the key
// of InventoryDevice::shape_selector_class.
void AppendShapeKey(std::string_view driver, const k8s::Device& device,
                    const std::vector<AttributeName>& skip, std::string& key);

// Whether attributes of a device are in a sorted skip list, remembered by attribute position:
// a driver's devices publish the same attributes in the same order, so each device after the
// first costs one name comparison per attribute instead of a search. Views into the devices
// asked about: one memo per Inventory::Build.
class SkipMemo {
 public:
  bool Skipped(const std::vector<AttributeName>& skip, std::string_view driver, size_t position,
               std::string_view name);

 private:
  std::string_view driver_;
  std::vector<std::pair<std::string_view, bool>> by_position_;
};

// AppendShapeKey, and in `identity` the values of the skipped attributes, in order: the shape
// key names each skipped attribute in place of its value, so the shape key and `identity`
// together are the selector key's content (devices with equal shape classes and equal
// identities have equal selector keys, and the converse), at a fraction of its length.
void AppendShapeKeyAndIdentity(std::string_view driver, const k8s::Device& device,
                               const std::vector<AttributeName>& skip, SkipMemo& memo,
                               std::string& key, std::string& identity);

// Only the `identity` part of AppendShapeKeyAndIdentity: for a device whose shape class is
// already known (carried from a previous Inventory), the values of its skipped attributes are
// all its selector key still needs.
void AppendIdentity(std::string_view driver, const k8s::Device& device,
                    const std::vector<AttributeName>& skip, SkipMemo& memo,
                    std::string& identity);

// What the capacities parsed at Build derive from (InventoryDevice::capacity_values and
// unrequested_demand): the capacity names, values and request policies, in order.
void AppendCapacityKey(const k8s::Device& device, std::string& key);

// The key of what a selector that reads only the attributes in `reads` (sorted) can tell
// apart (SelectorEvaluator::AttributesRead): the selector key without the other attributes
// that are single strings, ints or bools (CEL always prepares those; the others, versions and
// lists, stay whole: they decide whether CEL can prepare the device at all, which fails every
// selector on it, naming the attribute). The key of Inventory::ReadClasses.
void AppendReadKey(std::string_view driver, const k8s::Device& device,
                   const std::vector<AttributeName>& reads, std::string& key);

// The (domain, name) of attribute `key` of a device of `driver`: an unqualified name is in the
// driver's domain.
AttributeName QualifiedAttribute(std::string_view driver, std::string_view key);

// Appends everything else the allocator reads about a device apart from its counter scope
// and its visibility: capacity request policies, counter consumption (as published and as
// resolved in both layouts), taints of the device and of DeviceTaintRules, whether it is
// allocated, committed shares, its own node fields, binding conditions.
void AppendFactKey(const InventoryDevice& device, std::string& key);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_KEYS_H_
