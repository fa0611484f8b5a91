// Canonical keys of device content, interned by Inventory::Build into the class ids of
// InventoryDevice (selector_class, fact_class). Equal keys must mean equal behaviour: the
// selector memo and the node grouping of a check rely on it (docs/allocator.md, "Search").
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_KEYS_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_KEYS_H_

#include <string>
#include <string_view>

#include "policy/allocator/inventory.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::alloc::internal {

// Appends what CEL sees of a device: the driver, every attribute with all its typed fields,
// the capacity values and allowMultipleAllocations. Strings are length-prefixed, so distinct
// contents never give equal keys.
void AppendSelectorKey(std::string_view driver, const k8s::Device& device, std::string& key);

// Appends everything else the allocator reads about a device apart from its counter scope
// and its visibility: capacity request policies, counter consumption (as published and as
// resolved in both layouts), taints of the device and of DeviceTaintRules, whether it is
// allocated, committed shares, its own node fields, binding conditions.
void AppendFactKey(const InventoryDevice& device, std::string& key);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_DEVICE_KEYS_H_
