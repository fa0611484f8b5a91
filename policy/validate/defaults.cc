#include "policy/validate/defaults.h"

#include <algorithm>
#include <string>

namespace draguard::validate {
namespace {

std::string Ignored(std::string_view what, Gate gate) {
  return std::string(what) + " will be ignored: the API server removes this field because the " +
         std::string(GateName(gate)) + " feature gate is disabled";
}

// `at()` makes the request's path, which only a warning needs (defaulting runs on every
// admission request).
template <class MakePath>
void DefaultCommon(k8s::DeviceRequestCommon& req, const MakePath& at, Diagnostics* warnings) {
  if (req.allocation_mode.empty()) req.allocation_mode = k8s::kAllocationModeExactCount;
  if (req.allocation_mode == k8s::kAllocationModeExactCount && req.count == 0) {
    req.count = 1;
    if (req.count_set && warnings != nullptr) {
      warnings->Warning("claim.request.count.defaulted", at().Child("count"),
                        "count: 0 is treated as unset: the API server silently turns it into "
                        "count: 1, so this request allocates one device",
                        "write the number of devices wanted, or remove count for 1");
    }
  }
  for (k8s::DeviceToleration& t : req.tolerations) {
    if (t.op.empty()) t.op = "Equal";
  }
}

// Whether DefaultCommon would leave `req` as it is: its conditions, kept beside it.
bool CommonIsDefaulted(const k8s::DeviceRequestCommon& req) {
  if (req.allocation_mode.empty()) return false;
  if (req.allocation_mode == k8s::kAllocationModeExactCount && req.count == 0) return false;
  return std::none_of(req.tolerations.begin(), req.tolerations.end(),
                      [](const k8s::DeviceToleration& t) { return t.op.empty(); });
}

template <typename Pred>
bool OldUses(const k8s::DeviceClaim* old, Pred pred) {
  if (old == nullptr) return false;
  for (const k8s::DeviceRequest& r : old->requests) {
    if (r.exactly.has_value() && pred(*r.exactly)) return true;
    for (const k8s::DeviceSubRequest& s : r.first_available) {
      if (pred(s)) return true;
    }
  }
  return false;
}

// Drops tolerations / capacity of one request or subrequest at `at()` (made only for a
// warning).
template <class MakePath>
void DropCommon(k8s::DeviceRequestCommon& req, bool keep_tolerations, bool keep_capacity,
                const MakePath& at, Diagnostics& d) {
  if (!keep_tolerations && !req.tolerations.empty()) {
    req.tolerations.clear();
    d.Warning("claim.request.tolerations.dropped", at().Child("tolerations"),
              Ignored("tolerations", Gate::kDRADeviceTaints),
              "tolerations take effect only on clusters with DRADeviceTaints enabled");
  }
  if (!keep_capacity && req.capacity.has_value()) {
    req.capacity.reset();
    d.Warning("claim.request.capacity.dropped", at().Child("capacity"),
              Ignored("capacity", Gate::kDRAConsumableCapacity));
  }
}

}  // namespace

void DefaultDeviceClaim(k8s::DeviceClaim& claim, const FieldPath& devices, Diagnostics* warnings) {
  for (size_t i = 0; i < claim.requests.size(); ++i) {
    k8s::DeviceRequest& request = claim.requests[i];
    const auto at = [&] { return devices.Child("requests").Index(i); };
    if (request.exactly.has_value()) {
      DefaultCommon(*request.exactly, [&] { return at().Child("exactly"); }, warnings);
    }
    for (size_t j = 0; j < request.first_available.size(); ++j) {
      DefaultCommon(request.first_available[j],
                    [&] { return at().Child("firstAvailable").Index(j); }, warnings);
    }
  }
}

bool IsDefaulted(const k8s::DeviceClaim& claim) {
  for (const k8s::DeviceRequest& request : claim.requests) {
    if (request.exactly.has_value() && !CommonIsDefaulted(*request.exactly)) return false;
    for (const k8s::DeviceSubRequest& sub : request.first_available) {
      if (!CommonIsDefaulted(sub)) return false;
    }
  }
  return true;
}

namespace {

// Which gated claim fields survive: gate on, or already used by the old object (update).
// distinctAttribute is not here: upstream
// resourceclaimspec.dropDisabledDRAResourceClaimConsumableCapacityFields clears a copy of each
// constraint, so the API server never drops it.
struct ClaimKeeps {
  bool tolerations, capacity, first_available, admin_access;
};

// upstream DRAConsumableCapacityFeatureInUse: a capacity request or a distinctAttribute.
bool OldUsesConsumableCapacity(const k8s::DeviceClaim* old) {
  if (old == nullptr) return false;
  for (const k8s::DeviceConstraint& c : old->constraints) {
    if (c.distinct_attribute.has_value()) return true;
  }
  return OldUses(old, [](const k8s::DeviceRequestCommon& c) { return c.capacity.has_value(); });
}

ClaimKeeps ComputeClaimKeeps(const k8s::DeviceClaim* old, const ValidationOptions& options) {
  auto uses_tolerations = [](const k8s::DeviceRequestCommon& c) { return !c.tolerations.empty(); };
  ClaimKeeps keep{
      .tolerations = options.Enabled(Gate::kDRADeviceTaints) || OldUses(old, uses_tolerations),
      .capacity =
          options.Enabled(Gate::kDRAConsumableCapacity) || OldUsesConsumableCapacity(old),
      .first_available = options.Enabled(Gate::kDRAPrioritizedList),
      .admin_access = options.Enabled(Gate::kDRAAdminAccess)};
  if (old == nullptr) return keep;
  for (const k8s::DeviceRequest& r : old->requests) {
    keep.first_available = keep.first_available || !r.first_available.empty();
    keep.admin_access =
        keep.admin_access || (r.exactly.has_value() && r.exactly->admin_access.has_value());
  }
  return keep;
}

// `at()` makes the request's path, for a warning only.
template <class MakePath>
void DropRequestFields(k8s::DeviceRequest& request, const ClaimKeeps& keep, const MakePath& at,
                       Diagnostics& d) {
  if (request.exactly.has_value()) {
    const auto exactly = [&] { return at().Child("exactly"); };
    DropCommon(*request.exactly, keep.tolerations, keep.capacity, exactly, d);
    if (!keep.admin_access && request.exactly->admin_access.has_value()) {
      request.exactly->admin_access.reset();
      d.Warning("claim.admin-access.dropped", exactly().Child("adminAccess"),
                Ignored("adminAccess", Gate::kDRAAdminAccess));
    }
  }
  if (!keep.first_available && !request.first_available.empty()) {
    request.first_available.clear();
    d.Warning("claim.request.first-available.dropped", at().Child("firstAvailable"),
              Ignored("firstAvailable", Gate::kDRAPrioritizedList),
              "use `exactly` with a single device class instead");
  }
  for (size_t j = 0; j < request.first_available.size(); ++j) {
    DropCommon(request.first_available[j], keep.tolerations, keep.capacity,
               [&] { return at().Child("firstAvailable").Index(j); }, d);
  }
}

}  // namespace

bool DropsNothing(const k8s::DeviceClaim& claim, const k8s::DeviceClaim* old,
                  const ValidationOptions& options) {
  const ClaimKeeps keep = ComputeClaimKeeps(old, options);
  // DropCommon's and DropRequestFields' conditions, kept beside them.
  const auto keeps_common = [&](const k8s::DeviceRequestCommon& c) {
    return (keep.tolerations || c.tolerations.empty()) &&
           (keep.capacity || !c.capacity.has_value());
  };
  for (const k8s::DeviceRequest& request : claim.requests) {
    if (request.exactly.has_value() &&
        (!keeps_common(*request.exactly) ||
         (!keep.admin_access && request.exactly->admin_access.has_value()))) {
      return false;
    }
    if (!keep.first_available && !request.first_available.empty()) return false;
    for (const k8s::DeviceSubRequest& sub : request.first_available) {
      if (!keeps_common(sub)) return false;
    }
  }
  return true;
}

void DropDisabledDeviceClaimFields(k8s::DeviceClaim& claim, const k8s::DeviceClaim* old,
                                   const ValidationOptions& options, const FieldPath& devices,
                                   Diagnostics& d) {
  ClaimKeeps keep = ComputeClaimKeeps(old, options);
  for (size_t i = 0; i < claim.requests.size(); ++i) {
    DropRequestFields(claim.requests[i], keep,
                      [&] { return devices.Child("requests").Index(i); }, d);
  }
  WarnKeptDistinctAttributes(claim, options, devices, d);
}

void WarnKeptDistinctAttributes(const k8s::DeviceClaim& claim, const ValidationOptions& options,
                                const FieldPath& devices, Diagnostics& d) {
  // Kept (see ClaimKeeps), but the allocator channel the gates select may not know it: a
  // 1.36 scheduler with DRAConsumableCapacity off and both binding-condition gates on runs the
  // incubating allocator, which honours it; with the binding gates off it runs stable, which
  // fails the claim (release.h AllocatorChannel).
  const AllocatorChannel& channel =
      SelectAllocatorChannel(ReleaseFor(options.version), options.gates);
  for (size_t c = 0; c < claim.constraints.size(); ++c) {
    if (options.Enabled(Gate::kDRAConsumableCapacity) || channel.KnowsDistinctAttribute() ||
        !claim.constraints[c].distinct_attribute.has_value()) {
      continue;
    }
    d.Warning("claim.constraint.distinct-attribute.gate-off",
              devices.Child("constraints").Index(c).Child("distinctAttribute"),
              "the API server keeps distinctAttribute although the DRAConsumableCapacity feature "
              "gate is disabled, but the " + std::string(channel.name) +
                  " allocator these gates select in kube-scheduler fails the claim with "
                  "\"empty constraint (unsupported constraint type?)\"",
              "use matchAttribute, or enable DRAConsumableCapacity");
  }
}

void DropDisabledDeviceClassFields(k8s::DeviceClass& device_class, const k8s::DeviceClass* old,
                                   const ValidationOptions& options, Diagnostics& d) {
  bool keep = options.Enabled(Gate::kDRAExtendedResource) ||
              (old != nullptr && old->spec.extended_resource_name.has_value());
  if (keep || !device_class.spec.extended_resource_name.has_value()) return;
  device_class.spec.extended_resource_name.reset();
  d.Warning("class.extended-resource-name.dropped", FieldPath("spec.extendedResourceName"),
            Ignored("extendedResourceName", Gate::kDRAExtendedResource));
}

namespace {

struct SliceKeeps {
  bool taints, partition, binding, multi;
  // List-typed attribute members (DRAListTypeAttributes); `lists_known`: the release has the
  // fields at all (1.36+), otherwise they are unknown fields.
  bool lists, lists_known;
  // When binding fields are dropped: the gate of the two that is off (both must be on).
  Gate binding_gate;
};

bool UsesRequestPolicy(const k8s::Device& dev) {
  for (const auto& [name, capacity] : dev.capacity) {
    if (capacity.request_policy.has_value()) return true;
  }
  return false;
}

bool UsesListAttribute(const k8s::Device& dev) {
  for (const auto& [name, attr] : dev.attributes) {
    if (attr.has_list()) return true;
  }
  return false;
}

SliceKeeps ComputeSliceKeeps(const k8s::ResourceSlice* old, const ValidationOptions& options) {
  auto old_any = [&](auto pred) {
    if (old == nullptr) return false;
    for (const k8s::Device& dev : old->spec.devices) {
      if (pred(dev)) return true;
    }
    return false;
  };
  bool old_partition = old != nullptr && (!old->spec.shared_counters.empty() ||
                                          old->spec.per_device_node_selection.has_value());
  // resourceslice.dropDisabledDRADeviceBindingConditionsFields keeps the fields only when both
  // DRADeviceBindingConditions and DRAResourceClaimDeviceStatus are on.
  const bool binding_gates = options.Enabled(Gate::kDRADeviceBindingConditions) &&
                             options.Enabled(Gate::kDRAResourceClaimDeviceStatus);
  return SliceKeeps{
      .taints = options.Enabled(Gate::kDRADeviceTaints) ||
                old_any([](const k8s::Device& dev) { return !dev.taints.empty(); }),
      .partition = options.Enabled(Gate::kDRAPartitionableDevices) || old_partition ||
                   old_any([](const k8s::Device& dev) { return !dev.consumes_counters.empty(); }),
      .binding = binding_gates || old_any([](const k8s::Device& dev) {
                   return !dev.binding_conditions.empty() ||
                          !dev.binding_failure_conditions.empty() || dev.binds_to_node.has_value();
                 }),
      // resourceslice.dropDisabledDRAConsumableCapacityFields: allowMultipleAllocations and
      // every capacity's requestPolicy.
      .multi = options.Enabled(Gate::kDRAConsumableCapacity) || old_any([](const k8s::Device& dev) {
                 return dev.allow_multiple_allocations.has_value() || UsesRequestPolicy(dev);
               }),
      .lists = options.Enabled(Gate::kDRAListTypeAttributes) ||
               old_any([](const k8s::Device& dev) { return UsesListAttribute(dev); }),
      .lists_known = ReleaseFor(options.version).gate(Gate::kDRAListTypeAttributes).known,
      .binding_gate = options.Enabled(Gate::kDRADeviceBindingConditions)
                          ? Gate::kDRAResourceClaimDeviceStatus
                          : Gate::kDRADeviceBindingConditions};
}

// Clears a present field and warns that it will be ignored.
template <typename Clear>
void Drop(bool present, Clear clear, const FieldPath& at, std::string_view field,
          std::string_view code, Gate gate, Diagnostics& d) {
  if (!present) return;
  clear();
  d.Warning(std::string(code), at.Child(field), Ignored(field, gate));
}

// resourceslice strategy (1.36) dropDisabledDRAListTypeAttributesFields: only the list members
// are cleared, so an attribute that held only a list is left empty and then fails validation
// ("exactly one value must be specified"). Releases before 1.36 do not know the members: an
// API server decoding strictly rejects them as unknown fields.
void DropListAttributes(k8s::Device& dev, const SliceKeeps& keep, const FieldPath& at,
                        KubernetesVersion version, Diagnostics& d) {
  if (keep.lists) return;
  for (auto& [key, attr] : dev.attributes) {
    if (!attr.has_list()) continue;
    const FieldPath attr_at = at.Child("attributes").Key(key);
    for (auto [present, member] : {std::pair{attr.int_values.has_value(), "ints"},
                                   std::pair{attr.bool_values.has_value(), "bools"},
                                   std::pair{attr.string_values.has_value(), "strings"},
                                   std::pair{attr.version_values.has_value(), "versions"}}) {
      if (!present) continue;
      if (keep.lists_known) {
        d.Warning("slice.device.list-attribute.dropped", attr_at.Child(member),
                  Ignored(member, Gate::kDRAListTypeAttributes),
                  "list-typed attributes need DRAListTypeAttributes (alpha, off by default in "
                  "Kubernetes 1.36)");
      } else {
        d.Error("decode.unknown-field", attr_at.Child(member),
                "unknown field \"" + std::string(member) + "\" in " + attr_at.String() +
                    ": Kubernetes " + std::string(KubernetesVersionName(version)) +
                    " has no list-typed attributes (DRAListTypeAttributes, alpha in 1.36)",
                "use a single int, bool, string or version value");
      }
    }
    attr.clear_lists();
  }
}

void DropDeviceFields(k8s::Device& dev, const SliceKeeps& keep, const FieldPath& at,
                      KubernetesVersion version, Diagnostics& d) {
  DropListAttributes(dev, keep, at, version, d);
  if (!keep.taints) {
    Drop(
        !dev.taints.empty(), [&] { dev.taints.clear(); }, at, "taints",
        "slice.device.taints.dropped", Gate::kDRADeviceTaints, d);
  }
  if (!keep.partition) {
    constexpr std::string_view kCode = "slice.partitionable.dropped";
    constexpr Gate kGate = Gate::kDRAPartitionableDevices;
    Drop(
        !dev.consumes_counters.empty(), [&] { dev.consumes_counters.clear(); }, at,
        "consumesCounters", kCode, kGate, d);
    Drop(
        dev.node_name.has_value(), [&] { dev.node_name.reset(); }, at, "nodeName", kCode, kGate, d);
    Drop(
        dev.node_selector.has_value(), [&] { dev.node_selector.reset(); }, at, "nodeSelector",
        kCode, kGate, d);
    Drop(
        dev.all_nodes.has_value(), [&] { dev.all_nodes.reset(); }, at, "allNodes", kCode, kGate, d);
  }
  if (!keep.binding) {
    constexpr std::string_view kCode = "slice.device.binding-conditions.dropped";
    const Gate kGate = keep.binding_gate;
    Drop(
        dev.binds_to_node.has_value(), [&] { dev.binds_to_node.reset(); }, at, "bindsToNode", kCode,
        kGate, d);
    Drop(
        !dev.binding_conditions.empty(), [&] { dev.binding_conditions.clear(); }, at,
        "bindingConditions", kCode, kGate, d);
    Drop(
        !dev.binding_failure_conditions.empty(), [&] { dev.binding_failure_conditions.clear(); },
        at, "bindingFailureConditions", kCode, kGate, d);
  }
  if (!keep.multi) {
    constexpr std::string_view kCode = "slice.device.consumable-capacity.dropped";
    constexpr Gate kGate = Gate::kDRAConsumableCapacity;
    Drop(
        dev.allow_multiple_allocations.has_value(), [&] { dev.allow_multiple_allocations.reset(); },
        at, "allowMultipleAllocations", kCode, kGate, d);
    // Not a structured binding: clang 14 (the fuzzing compiler) cannot capture one.
    for (auto& entry : dev.capacity) {
      auto& capacity = entry.second;
      Drop(
          capacity.request_policy.has_value(), [&] { capacity.request_policy.reset(); },
          at.Child("capacity").Key(entry.first), "requestPolicy", kCode, kGate, d);
    }
  }
}

// Device.nodeAllocatableResourceMappings (1.36, alpha gate DRANodeAllocatableResources): dropped
// with the gate off unless the old slice uses it, like every gated field of the strategy (the
// 1.36 strategy.go itself was not readable: docs/k8s-releases.md D). With the gate on its
// validation rules are not modelled (only 1.37-dev sources were readable): an info says so.
void NodeAllocatableMappings(k8s::ResourceSlice& slice, const k8s::ResourceSlice* old,
                             const ValidationOptions& options, Diagnostics& d) {
  constexpr Gate kGate = Gate::kDRANodeAllocatableResources;
  const bool in_use =
      old != nullptr && std::any_of(old->spec.devices.begin(), old->spec.devices.end(),
                                    [](const k8s::Device& dev) {
                                      return !dev.node_allocatable_resource_mappings.empty();
                                    });
  const bool keep = options.Enabled(kGate) || in_use;
  for (size_t i = 0; i < slice.spec.devices.size(); ++i) {
    k8s::Device& dev = slice.spec.devices[i];
    if (dev.node_allocatable_resource_mappings.empty()) continue;
    const FieldPath at = FieldPath("spec").Child("devices").Index(i);
    if (keep) {
      d.Info("slice.device.node-allocatable.unchecked",
             at.Child("nodeAllocatableResourceMappings"),
             "nodeAllocatableResourceMappings is kept by the API server, but draguard does not "
             "validate it (its rules are not modelled): it was not checked");
      continue;
    }
    Drop(
        true, [&] { dev.node_allocatable_resource_mappings.clear(); }, at,
        "nodeAllocatableResourceMappings", "slice.device.node-allocatable.dropped", kGate, d);
  }
}

}  // namespace

void DropDisabledResourceSliceFields(k8s::ResourceSlice& slice, const k8s::ResourceSlice* old,
                                     const ValidationOptions& options, Diagnostics& d) {
  SliceKeeps keep = ComputeSliceKeeps(old, options);
  FieldPath spec("spec");
  if (!keep.partition) {
    constexpr std::string_view kCode = "slice.partitionable.dropped";
    constexpr Gate kGate = Gate::kDRAPartitionableDevices;
    Drop(
        !slice.spec.shared_counters.empty(), [&] { slice.spec.shared_counters.clear(); }, spec,
        "sharedCounters", kCode, kGate, d);
    Drop(
        slice.spec.per_device_node_selection.has_value(),
        [&] { slice.spec.per_device_node_selection.reset(); }, spec, "perDeviceNodeSelection",
        kCode, kGate, d);
  }
  for (size_t i = 0; i < slice.spec.devices.size(); ++i) {
    DropDeviceFields(slice.spec.devices[i], keep, spec.Child("devices").Index(i),
                     options.version, d);
  }
  NodeAllocatableMappings(slice, old, options, d);
}

}  // namespace draguard::validate
