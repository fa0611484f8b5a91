// ResourceSlice validation follows validation.go validateResourceSliceSpec: the slice-level fields,
// the node-selection one-of, then the device list (size limit depends on taints and
// counters in 1.35), each device (validateDevice), and the shared counters. 1.34 and 1.35
// differ in limits, the attribute-key error path and the counter model (kubernetes/api
// resource/v1/types.go v0.34.0 against v0.35.0, and validation.go's 1.35 changes).
#include "policy/validate/resource_slice.h"

#include <set>
#include <string>
#include <vector>

#include "policy/common/semver.h"
#include "policy/validate/attribute_lists.h"
#include "policy/validate/capacity_policy.h"
#include "policy/validate/defaults.h"
#include "policy/validate/equality.h"
#include "policy/validate/list_checks.h"
#include "policy/validate/names.h"
#include "policy/validate/object_meta.h"
#include "policy/validate/reporter.h"
#include "policy/validate/shared_rules.h"

namespace draguard::validate {
namespace {

constexpr size_t kMaxDevices = 128;
constexpr size_t kMaxDevicesWithTaintsOrCounters = 64;
constexpr size_t kMaxAttributesAndCapacities = 32;
constexpr size_t kMaxStringLength = 64;
constexpr size_t kMaxCounterSets = 8;
constexpr size_t kMaxCountersPerSet = 32;
constexpr size_t kMaxConsumptions = 2;
constexpr size_t kMaxCountersPerConsumption = 32;
constexpr size_t kMaxBindingConditions = 4;
constexpr size_t kMaxSharedCounters134 = 32;
constexpr size_t kMaxDeviceCounters134 = 32;
constexpr size_t kMaxDeviceCountersPerSlice134 = 1024;

constexpr char kNodeSelectionOneOf[] =
    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
    "required";
constexpr char kDeviceNodeSelectionOneOf[] =
    "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
    "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";
constexpr char kDeviceNodeSelectionForbidden[] =
    "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is "
    "set to true in the ResourceSlice spec";
constexpr char kUnsetOrTrue[] = "must be either unset or set to true";

void ValidateNodeSelector(Reporter& r, const k8s::NodeSelector& selector, const FieldPath& at,
                          bool exactly_one_term) {
  FieldPath terms = at.Child("nodeSelectorTerms");
  if (exactly_one_term && selector.node_selector_terms.size() != 1) {
    r.Invalid("slice.node-selector.invalid", terms,
              FieldValue::Int(static_cast<int64_t>(selector.node_selector_terms.size())),
              "must have exactly one node selector term");
  }
  for (size_t t = 0; t < selector.node_selector_terms.size(); ++t) {
    const auto& exprs = selector.node_selector_terms[t].match_expressions;
    for (size_t e = 0; e < exprs.size(); ++e) {
      const std::string& op = exprs[e].op;
      if (op != "In" && op != "NotIn" && op != "Exists" && op != "DoesNotExist" && op != "Gt" &&
          op != "Lt") {
        r.NotSupported("slice.node-selector.invalid",
                       terms.Index(t).Child("matchExpressions").Index(e).Child("operator"),
                       FieldValue::String(op),
                       {"DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn"});
      }
    }
  }
}

// The node-selection fields that are set (as VAL's `setFields`: "`nodeName`", ...), each
// field's own rules reported. An empty nodeName or a false allNodes is an error and does not
// count as set (validateResourceSliceSpec, validateDevice).
std::vector<std::string> NodeSelectionFields(Reporter& r,
                                             const std::optional<std::string>& node_name,
                                             const std::optional<k8s::NodeSelector>& node_selector,
                                             const std::optional<bool>& all_nodes,
                                             const FieldPath& at, bool slice_level) {
  std::vector<std::string> set;
  if (node_name.has_value()) {
    if (!node_name->empty()) {
      set.push_back("`nodeName`");
      ValidateDNSSubdomain(r, "slice.node-name.invalid", *node_name, at.Child("nodeName"));
    } else {
      r.Invalid("slice.node-name.invalid", at.Child("nodeName"), FieldValue::String(""),
                slice_level ? "must be either unset or set to a non-empty string"
                            : "must not be empty");
    }
  }
  if (node_selector.has_value()) {
    set.push_back("`nodeSelector`");
    ValidateNodeSelector(r, *node_selector, at.Child("nodeSelector"),
                         /*exactly_one_term=*/slice_level);
  }
  if (all_nodes.has_value()) {
    if (*all_nodes) {
      set.push_back("`allNodes`");
    } else {
      r.Invalid("slice.all-nodes.invalid", at.Child("allNodes"), FieldValue::Bool(false),
                kUnsetOrTrue);
    }
  }
  return set;
}

// "{`nodeName`, `allNodes`}": the value VAL reports for several node-selection fields.
FieldValue SetFieldsValue(const std::vector<std::string>& set) {
  std::string joined;
  for (const std::string& f : set) joined += (joined.empty() ? "" : ", ") + f;
  return FieldValue::String("{" + joined + "}");
}

void ValidateSliceNodeSelection(Reporter& r, const k8s::ResourceSliceSpec& spec,
                                const FieldPath& path) {
  std::vector<std::string> set = NodeSelectionFields(r, spec.node_name, spec.node_selector,
                                                     spec.all_nodes, path, /*slice_level=*/true);
  if (spec.per_device_node_selection.has_value()) {
    if (*spec.per_device_node_selection) {
      set.push_back("`perDeviceNodeSelection`");
    } else {
      r.Invalid("slice.per-device-node-selection.invalid", path.Child("perDeviceNodeSelection"),
                FieldValue::Bool(false), kUnsetOrTrue);
    }
  }
  if (set.empty()) {
    r.Required("slice.node-selection.required", path, kNodeSelectionOneOf);
  } else if (set.size() > 1) {
    r.Invalid("slice.node-selection.multiple", path, SetFieldsValue(set),
              std::string(kNodeSelectionOneOf) + ", but multiple fields are set");
  }
}

// validateDeviceAttribute: each value's own rules, then exactly one value.
void ValidateAttribute(Reporter& r, const k8s::DeviceAttribute& attr, const FieldPath& at) {
  if (attr.set_count() != 1) {
    r.Invalid("slice.device.attribute.value.invalid", at,
              attr.set_count() == 0 ? FieldValue::String("") : FieldValue::Raw("{...}"),
              "exactly one value must be specified");
  }
  internal::ValidateAttributeList(r, attr, at);
  if (attr.string_value.has_value() && attr.string_value->size() > kMaxStringLength) {
    r.TooLong("slice.device.attribute.string.too-long", at.Child("string"), kMaxStringLength);
  }
  if (attr.version_value.has_value()) {
    if (!Semver::Parse(*attr.version_value).ok()) {
      r.Invalid("slice.device.attribute.version.invalid", at.Child("version"),
                FieldValue::String(*attr.version_value),
                "must be a string compatible with semver.org spec 2.0.0");
    }
    if (attr.version_value->size() > kMaxStringLength) {
      r.TooLong("slice.device.attribute.version.invalid", at.Child("version"), kMaxStringLength);
    }
  }
}

// Where the release reports a bad key: at the map (1.35+) or at the entry (1.34).
FieldPath KeyPath(const FieldPath& map, std::string_view key, const ValidationOptions& options) {
  return options.dialect().attribute_key_error_at_map ? map : map.Key(key);
}

void ValidateCapacity(Reporter& r, const k8s::Device& dev, const FieldPath& at,
                      const ValidationOptions& options) {
  FieldPath caps = at.Child("capacity");
  for (const auto& [key, cap] : dev.capacity) {
    ValidateQualifiedName(r, "slice.device.capacity.name.invalid", key,
                          KeyPath(caps, key, options));
    if (!cap.request_policy.has_value()) continue;
    FieldPath policy = caps.Key(key).Child("requestPolicy");
    if (dev.allow_multiple_allocations != true) {
      r.Forbidden("slice.device.capacity.request-policy.forbidden", policy,
                  "allowMultipleAllocations must be true");
      continue;
    }
    internal::ValidateRequestPolicy(r, *cap.request_policy, cap.value, policy, options);
  }
}

void ValidateCounterMap(Reporter& r, std::string_view code_prefix,
                        const std::map<std::string, k8s::Counter>& counters, size_t max,
                        const FieldPath& at) {
  std::string prefix(code_prefix);
  if (counters.empty()) {
    r.Required(prefix + ".required", at);
  } else if (counters.size() > max) {
    r.TooMany(prefix + ".too-many", at, static_cast<int64_t>(counters.size()),
              static_cast<int64_t>(max));
    return;
  }
  for (const auto& [name, counter] : counters) {
    ValidateDNSLabel(r, prefix + ".name.invalid", name, at.Key(name));
  }
}

// validateDeviceBindingParameters: list limits and label-key syntax, duplicates within each
// list, failure conditions that repeat a binding condition, and each list requiring the other
// (reported on the one that is missing).
void ValidateBindingConditions(Reporter& r, const k8s::Device& dev, const FieldPath& at,
                               const ValidationOptions& options) {
  const FieldPath conditions = at.Child("bindingConditions");
  const FieldPath failures = at.Child("bindingFailureConditions");
  for (auto [list, path] : {std::pair{&dev.binding_conditions, &conditions},
                            std::pair{&dev.binding_failure_conditions, &failures}}) {
    internal::ValidateList(
        r, "slice.device.binding-conditions.too-many", *list, kMaxBindingConditions, *path,
        options, [&](const std::string& c, const FieldPath& c_at) {
          ValidateLabelKey(r, "slice.device.binding-conditions.invalid", c, c_at);
        });
    std::set<std::string> seen;
    for (size_t i = 0; i < list->size(); ++i) {
      if (!seen.insert((*list)[i]).second) {
        r.Duplicate("slice.device.binding-conditions.duplicate", path->Index(i),
                    FieldValue::String((*list)[i]));
      }
    }
  }
  const std::set<std::string> binding(dev.binding_conditions.begin(),
                                      dev.binding_conditions.end());
  for (size_t i = 0; i < dev.binding_failure_conditions.size(); ++i) {
    if (binding.count(dev.binding_failure_conditions[i]) != 0) {
      r.Invalid("slice.device.binding-conditions.invalid", failures.Index(i),
                FieldValue::String(dev.binding_failure_conditions[i]),
                "bindingFailureConditions must not overlap with bindingConditions");
    }
  }
  if (dev.binding_conditions.empty() && !dev.binding_failure_conditions.empty()) {
    r.Invalid("slice.device.binding-conditions.invalid", conditions, FieldValue::Raw("[]"),
              "bindingConditions are required to use bindingFailureConditions");
  }
  if (dev.binding_failure_conditions.empty() && !dev.binding_conditions.empty()) {
    r.Invalid("slice.device.binding-conditions.invalid", failures, FieldValue::Raw("[]"),
              "bindingFailureConditions are required to use bindingConditions");
  }
}

void ValidateAttributesAndCapacity(Reporter& r, const k8s::Device& dev, const FieldPath& at,
                                   const ValidationOptions& options) {
  // Reported once, and the entries are still checked (validateDevice).
  size_t combined = dev.attributes.size() + dev.capacity.size();
  if (combined > kMaxAttributesAndCapacities) {
    r.Invalid("slice.device.attributes.too-many", at,
              FieldValue::Int(static_cast<int64_t>(combined)),
              "the total number of attributes and capacities must not exceed 32");
  }
  internal::ValidateAttributeValueCount(r, dev, at);
  FieldPath attrs = at.Child("attributes");
  for (const auto& [key, attr] : dev.attributes) {
    ValidateQualifiedName(r, "slice.device.attribute.name.invalid", key,
                          KeyPath(attrs, key, options));
    ValidateAttribute(r, attr, attrs.Key(key));
  }
  ValidateCapacity(r, dev, at, options);
}

// A device's taint list is not re-validated on update when it is unchanged.
void ValidateDeviceTaints(Reporter& r, const k8s::Device& dev, const k8s::Device* old_dev,
                          const FieldPath& at, const ValidationOptions& options) {
  bool unchanged = old_dev != nullptr && old_dev->taints.size() == dev.taints.size();
  for (size_t i = 0; unchanged && i < dev.taints.size(); ++i) {
    const auto& a = old_dev->taints[i];
    const auto& b = dev.taints[i];
    unchanged = a.key == b.key && a.value == b.value && a.effect == b.effect;
  }
  if (unchanged) return;
  internal::ValidateList(r, "slice.device.taints.too-many", dev.taints,
                         options.dialect().max_taints_per_device, at.Child("taints"),
                         options, [&](const k8s::DeviceTaint& taint, const FieldPath& t_at) {
                           internal::ValidateTaint(r, taint, t_at, options);
                         });
}

// Per-device counter consumption limits of CounterModel::kCounterSets (1.34:
// ValidateCounters134).
void ValidateConsumptions(Reporter& r, const k8s::Device& dev, const FieldPath& at,
                          const ValidationOptions& options) {
  FieldPath path = at.Child("consumesCounters");
  internal::ValidateList(
      r, "slice.device.consumes-counters.too-many", dev.consumes_counters, kMaxConsumptions, path,
      options, [&](const k8s::DeviceCounterConsumption& c, const FieldPath& c_at) {
        ValidateDNSLabel(r, "slice.device.consumes-counters.counter-set.invalid", c.counter_set,
                         c_at.Child("counterSet"));
        ValidateCounterMap(r, "slice.device.consumes-counters.counters", c.counters,
                           kMaxCountersPerConsumption, c_at.Child("counters"));
      });
  internal::CheckUnique(r, "slice.device.consumes-counters.duplicate", dev.consumes_counters, path,
                        options, "counterSet",
                        [](const auto& c) -> std::string_view { return c.counter_set; });
}

void ValidateDeviceNodeSelection(Reporter& r, const k8s::Device& dev, const FieldPath& at,
                                 const k8s::ResourceSliceSpec& spec) {
  if (spec.per_device_node_selection == true) {
    std::vector<std::string> set = NodeSelectionFields(r, dev.node_name, dev.node_selector,
                                                       dev.all_nodes, at, /*slice_level=*/false);
    if (set.empty()) {
      r.Required("slice.device.node-selection.required", at, kDeviceNodeSelectionOneOf);
    } else if (set.size() > 1) {
      r.Invalid("slice.device.node-selection.multiple", at, SetFieldsValue(set),
                kDeviceNodeSelectionOneOf);
    }
    return;
  }
  // One error on the device, whichever fields are set (validateDevice).
  if (dev.node_name.has_value() || dev.node_selector.has_value() || dev.all_nodes.has_value()) {
    r.Invalid("slice.device.node-selection.forbidden", at, FieldValue::Null(),
              kDeviceNodeSelectionForbidden);
  }
}

void ValidateDevice(Reporter& r, const k8s::Device& dev, const k8s::Device* old_dev,
                    const FieldPath& at, const k8s::ResourceSliceSpec& spec,
                    const ValidationOptions& options) {
  ValidateDNSLabel(r, "slice.device.name.invalid", dev.name, at.Child("name"));
  ValidateAttributesAndCapacity(r, dev, at, options);
  ValidateDeviceTaints(r, dev, old_dev, at, options);
  if (options.counters() == CounterModel::kCounterSets) {
    ValidateConsumptions(r, dev, at, options);
  }
  ValidateDeviceNodeSelection(r, dev, at, spec);
  ValidateBindingConditions(r, dev, at, options);
}

void ValidateSharedCounters(Reporter& r, const k8s::ResourceSliceSpec& spec, const FieldPath& path,
                            const ValidationOptions& options) {
  FieldPath sets = path.Child("sharedCounters");
  const bool sets_model = options.counters() == CounterModel::kCounterSets;
  size_t max_sets = sets_model ? kMaxCounterSets : kMaxSharedCounters134;
  internal::ValidateList(r, "slice.shared-counters.too-many", spec.shared_counters, max_sets, sets,
                         options, [&](const k8s::CounterSet& set, const FieldPath& at) {
                           ValidateDNSLabel(r, "slice.shared-counters.name.invalid", set.name,
                                            at.Child("name"));
                           ValidateCounterMap(r, "slice.shared-counters.counters", set.counters,
                                              kMaxCountersPerSet, at.Child("counters"));
                         });
  internal::CheckUnique(r, "slice.shared-counters.duplicate", spec.shared_counters, sets, options,
                        "name",
                        [](const k8s::CounterSet& s) -> std::string_view { return s.name; });
  if (sets_model && !spec.shared_counters.empty() && !spec.devices.empty()) {
    r.Invalid("slice.shared-counters.exclusive", path, FieldValue::String(""),
              "only one of `sharedCounters` or `devices` is allowed");
  }
}

// 1.34: consumesCounters must reference counter sets and counters of the same slice, within
// the per-device and per-slice totals.
void ValidateCounters134(Reporter& r, const k8s::ResourceSliceSpec& spec, const FieldPath& path) {
  std::map<std::string, std::set<std::string>> defined;
  for (const auto& set : spec.shared_counters) {
    for (const auto& [name, c] : set.counters) defined[set.name].insert(name);
  }
  size_t total = 0;
  for (size_t i = 0; i < spec.devices.size(); ++i) {
    FieldPath at = path.Child("devices").Index(i).Child("consumesCounters");
    size_t per_device = 0;
    for (size_t j = 0; j < spec.devices[i].consumes_counters.size(); ++j) {
      const auto& c = spec.devices[i].consumes_counters[j];
      per_device += c.counters.size();
      auto set = defined.find(c.counter_set);
      if (set == defined.end()) {
        r.Invalid("slice.device.consumes-counters.unknown", at.Index(j).Child("counterSet"),
                  FieldValue::String(c.counter_set),
                  "must reference a counterSet defined in "
                  "the ResourceSlice sharedCounters");
        continue;
      }
      for (const auto& [name, counter] : c.counters) {
        if (set->second.count(name) == 0) {
          r.Invalid("slice.device.consumes-counters.unknown",
                    at.Index(j).Child("counters").Key(name), FieldValue::String(name),
                    "must reference a counter defined in the ResourceSlice sharedCounters");
        }
      }
    }
    if (per_device > kMaxDeviceCounters134) {
      r.Invalid("slice.device.consumes-counters.too-many", at,
                FieldValue::Int(static_cast<int64_t>(per_device)),
                "the total number of counters must not exceed 32");
    }
    total += per_device;
  }
  if (total > kMaxDeviceCountersPerSlice134) {
    r.Invalid("slice.device.consumes-counters.too-many", path.Child("devices"),
              FieldValue::Int(static_cast<int64_t>(total)),
              "the total number of counters in devices must not exceed 1024");
  }
}

void ValidateSpec(Reporter& r, const k8s::ResourceSliceSpec& spec,
                  const k8s::ResourceSliceSpec* old_spec, const ValidationOptions& options) {
  FieldPath path("spec");
  ValidateDriverName(r, "slice.driver.invalid", spec.driver, path.Child("driver"));
  FieldPath pool = path.Child("pool");
  ValidatePoolName(r, "slice.pool.name.invalid", spec.pool.name, pool.Child("name"));
  if (spec.pool.resource_slice_count <= 0) {
    r.Invalid("slice.pool.resource-slice-count.invalid", pool.Child("resourceSliceCount"),
              FieldValue::Int(spec.pool.resource_slice_count), "must be greater than zero");
  }
  if (spec.pool.generation < 0) {
    r.Invalid("slice.pool.generation.invalid", pool.Child("generation"),
              FieldValue::Int(spec.pool.generation), "must be greater than or equal to zero");
  }
  ValidateSliceNodeSelection(r, spec, path);
  bool heavy = false;
  for (const k8s::Device& dev : spec.devices) {
    // ResourceSliceMaxDevicesWithAdvancedFeatures: list attributes count too (1.36; they
    // reach validation only where the release knows them).
    heavy = heavy || !dev.taints.empty() || !dev.consumes_counters.empty() ||
            internal::HasListAttribute(dev);
  }
  size_t max_devices = (options.dialect().device_limit_for_taints_and_counters && heavy)
                           ? kMaxDevicesWithTaintsOrCounters
                           : kMaxDevices;
  FieldPath devices = path.Child("devices");
  internal::ValidateList(r, "slice.devices.too-many", spec.devices, max_devices, devices, options,
                         [&](const k8s::Device& dev, const FieldPath& at) {
                           const k8s::Device* old_dev = nullptr;
                           for (size_t k = 0; old_spec != nullptr && k < old_spec->devices.size();
                                ++k) {
                             if (old_spec->devices[k].name == dev.name) {
                               old_dev = &old_spec->devices[k];
                             }
                           }
                           ValidateDevice(r, dev, old_dev, at, spec, options);
                         });
  if (spec.devices.size() <= max_devices || !options.dialect().too_many_short_circuits) {
    internal::CheckUnique(r, "slice.device.name.duplicate", spec.devices, devices, options, "name",
                          [](const k8s::Device& d) -> std::string_view { return d.name; });
  }
  ValidateSharedCounters(r, spec, path, options);
  if (options.counters() == CounterModel::kSliceTotals) {
    ValidateCounters134(r, spec, path);
  }
}

void ValidateImpl(const k8s::ResourceSlice* old_slice, const k8s::ResourceSlice& slice,
                  const ValidationOptions& options, Diagnostics& diagnostics) {
  size_t start = diagnostics.size();
  Reporter r(diagnostics);
  k8s::ResourceSlice copy = slice;
  DropDisabledResourceSliceFields(copy, old_slice, options, diagnostics);
  ValidateObjectMeta(r, copy.metadata, /*namespaced=*/false, FieldPath("metadata"));
  ValidateSpec(r, copy.spec, old_slice != nullptr ? &old_slice->spec : nullptr, options);
  if (old_slice != nullptr) {
    ValidateObjectMetaImmutable(r, old_slice->metadata, copy.metadata, /*namespaced=*/false,
                                FieldPath("metadata"));
    const k8s::ResourceSliceSpec& a = old_slice->spec;
    const k8s::ResourceSliceSpec& b = copy.spec;
    auto immutable = [&](bool same, std::string_view code, std::string_view field,
                         const FieldValue& value) {
      if (!same) r.Invalid(code, FieldPath("spec").Child(field), value, "field is immutable");
    };
    immutable(a.driver == b.driver, "slice.driver.immutable", "driver",
              FieldValue::String(b.driver));
    immutable(a.pool.name == b.pool.name, "slice.pool.name.immutable", "pool.name",
              FieldValue::String(b.pool.name));
    immutable(a.node_name == b.node_name, "slice.node-name.immutable", "nodeName",
              b.node_name.has_value() ? FieldValue::String(*b.node_name) : FieldValue::Null());
  }
  CapDiagnostics(diagnostics, start, options.limits);
}

}  // namespace

void ValidateResourceSlice(const k8s::ResourceSlice& slice, const ValidationOptions& options,
                           Diagnostics& diagnostics) {
  ValidateImpl(nullptr, slice, options, diagnostics);
}

void ValidateResourceSliceUpdate(const k8s::ResourceSlice& old_slice,
                                 const k8s::ResourceSlice& new_slice,
                                 const ValidationOptions& options, Diagnostics& diagnostics) {
  ValidateImpl(&old_slice, new_slice, options, diagnostics);
}

}  // namespace draguard::validate
