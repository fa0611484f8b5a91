// DeviceClass, ResourceSlice and DeviceTaintRule decoding. v1beta1 slices wrap each device's
// fields in `basic:`; they are read into the same v1 Device.
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>

#include "policy/common/release.h"
#include "policy/k8s/decode_internal.h"

namespace draguard::k8s::internal {
namespace {

void ReadClassSelectors(MapReader& reader, std::vector<DeviceSelector>* out) {
  reader.ObjectList("selectors", [&](MapReader& item) {
    DeviceSelector selector;
    item.Hint("expression", "\"expression\" belongs under \"cel:\"; indent it one level deeper");
    item.Object("cel", [&](MapReader& cel) {
      cel.String("expression", &selector.cel.emplace().expression);
    });
    out->push_back(std::move(selector));
  });
}

// A list member of an attribute (DRAListTypeAttributes): present (possibly empty) when the
// key holds a sequence; items of the wrong kind are reported and skipped.
template <typename T>
void ReadValueList(MapReader& a, std::string_view key, NodeKind kind,
                   HeapOptional<std::vector<T>>* out) {
  const DocNode* v = a.Get(key);
  if (v == nullptr) return;  // the usual case: no path built for it
  const FieldPath path = a.path().Child(key);
  if (!ExpectKind(*v, NodeKind::kSequence, path, a.ctx())) return;
  std::vector<T>& values = out->emplace();
  for (size_t i = 0; i < v->items.size(); ++i) {
    const DocNode& item = v->items[i];
    if (!ExpectKind(item, kind, path.Index(i), a.ctx())) continue;
    if constexpr (std::is_same_v<T, int64_t>) {
      values.push_back(item.int_value);
    } else if constexpr (std::is_same_v<T, bool>) {
      values.push_back(item.bool_value);
    } else {
      values.push_back(item.text);
    }
  }
}

// The members of a DeviceAttribute (one of them is set).
constexpr std::string_view kAttributeMembers[] = {"int",  "bool",    "string",  "version",
                                                  "ints", "bools", "strings", "versions"};

void ReadAttribute(MapReader& a, DeviceAttribute* out) {
  // Nearly every attribute has one member. When it is one of the eight, only that one is read:
  // reading the other seven (absent) would declare and find nothing, at a lookup each, for
  // each of a 50,000-device inventory's half a million attributes.
  const std::string_view only = a.OnlyKey();
  const bool one_member = std::find(std::begin(kAttributeMembers), std::end(kAttributeMembers),
                                    only) != std::end(kAttributeMembers);
  auto reads = [&](std::string_view member) { return !one_member || only == member; };
  if (reads("int")) a.Int("int", &out->int_value);
  if (reads("bool")) a.Bool("bool", &out->bool_value);
  if (reads("string")) a.String("string", &out->string_value);
  if (reads("version")) a.String("version", &out->version_value);
  if (reads("ints")) ReadValueList(a, "ints", NodeKind::kInt, &out->int_values);
  if (reads("bools")) ReadValueList(a, "bools", NodeKind::kBool, &out->bool_values);
  if (reads("strings")) ReadValueList(a, "strings", NodeKind::kString, &out->string_values);
  if (reads("versions")) ReadValueList(a, "versions", NodeKind::kString, &out->version_values);
}

void ReadCapacity(MapReader& c, DeviceCapacity* out) {
  c.Quantity("value", &out->value);
  c.Object("requestPolicy", [&](MapReader& p) {
    CapacityRequestPolicy& policy = out->request_policy.emplace();
    p.Quantity("default", &policy.default_value);
    if (const DocNode* values = p.Get("validValues")) {
      const FieldPath path = p.path().Child("validValues");
      if (ExpectKind(*values, NodeKind::kSequence, path, p.ctx())) {
        for (const DocNode& v : values->items) policy.valid_values.push_back(v.text);
      }
    }
    p.Object("validRange", [&](MapReader& r) {
      CapacityRequestPolicyRange& range = policy.valid_range.emplace();
      r.Quantity("min", &range.min);
      r.Quantity("max", &range.max);
      r.Quantity("step", &range.step);
    });
  });
}

void ReadCounters(MapReader& reader, std::map<std::string, Counter>* out) {
  reader.ObjectMap("counters", [&](const std::string& name, MapReader& c) {
    c.Quantity("value", &(*out)[name].value);
  });
}

void ReadTaints(MapReader& reader, std::vector<DeviceTaint>* out) {
  reader.ObjectList("taints", [&](MapReader& item) {
    DeviceTaint t;
    item.String("key", &t.key);
    item.String("value", &t.value);
    item.String("effect", &t.effect);
    item.String("timeAdded", &t.time_added);
    out->push_back(std::move(t));
  });
}

// The fields of a v1 Device other than `name` (v1beta1 BasicDevice).
void ReadDeviceBody(MapReader& d, Device* out) {
  d.ObjectMap("attributes", [&](const std::string& name, MapReader& a) {
    ReadAttribute(a, &out->attributes[name]);
  });
  d.ObjectMap("capacity", [&](const std::string& name, MapReader& c) {
    ReadCapacity(c, &out->capacity[name]);
  });
  d.ObjectList("consumesCounters", [&](MapReader& item) {
    DeviceCounterConsumption c;
    item.String("counterSet", &c.counter_set);
    ReadCounters(item, &c.counters);
    out->consumes_counters.push_back(std::move(c));
  });
  d.String("nodeName", &out->node_name);
  d.Object("nodeSelector", [&](MapReader& n) {
    ReadNodeSelector(n, &out->node_selector.emplace());
  });
  d.Bool("allNodes", &out->all_nodes);
  ReadTaints(d, &out->taints);
  d.Bool("bindsToNode", &out->binds_to_node);
  d.StringList("bindingConditions", &out->binding_conditions);
  d.StringList("bindingFailureConditions", &out->binding_failure_conditions);
  d.Bool("allowMultipleAllocations", &out->allow_multiple_allocations);
  // A field of the releases that know its gate (1.36+); before, an unknown field, as the API
  // server of that release reports it.
  if (ReleaseFor(d.ctx().version).gate(Gate::kDRANodeAllocatableResources).known) {
    d.ObjectMap("nodeAllocatableResourceMappings", [&](const std::string& name, MapReader& m) {
      NodeAllocatableResourceMapping& mapping = out->node_allocatable_resource_mappings[name];
      m.String("capacityKey", &mapping.capacity_key);
      m.Quantity("allocationMultiplier", &mapping.allocation_multiplier);
    });
  }
}

void ReadSliceSpec(MapReader& spec, bool beta1, ResourceSliceSpec* out) {
  spec.String("driver", &out->driver);
  spec.Object("pool", [&](MapReader& p) {
    p.String("name", &out->pool.name);
    p.Int("generation", &out->pool.generation);
    p.Int("resourceSliceCount", &out->pool.resource_slice_count);
  });
  spec.String("nodeName", &out->node_name);
  spec.Object("nodeSelector", [&](MapReader& n) {
    ReadNodeSelector(n, &out->node_selector.emplace());
  });
  spec.Bool("allNodes", &out->all_nodes);
  spec.Bool("perDeviceNodeSelection", &out->per_device_node_selection);
  spec.ObjectList("devices", [&](MapReader& item) {
    Device device;
    item.String("name", &device.name);
    if (beta1) {
      item.Object("basic", [&](MapReader& basic) { ReadDeviceBody(basic, &device); });
    } else {
      item.Hint("basic", "\"basic:\" is the v1beta1 shape; in resource.k8s.io/v1 the device "
                "fields (attributes, capacity, ...) sit directly under the device");
      ReadDeviceBody(item, &device);
    }
    out->devices.push_back(std::move(device));
  });
  spec.ObjectList("sharedCounters", [&](MapReader& item) {
    CounterSet set;
    item.String("name", &set.name);
    ReadCounters(item, &set.counters);
    out->shared_counters.push_back(std::move(set));
  });
}

}  // namespace

DeviceClass DecodeDeviceClass(const DocNode& root, DecodeContext& ctx) {
  DeviceClass dc;
  MapReader object(root, FieldPath(), ctx);
  ReadTypeAndMeta(object, &dc.metadata);
  object.Object("spec", [&](MapReader& spec) {
    ReadClassSelectors(spec, &dc.spec.selectors);
    spec.ObjectList("config", [&](MapReader& item) {
      DeviceClassConfiguration c;
      item.Object("opaque", [&](MapReader& o) { ReadOpaque(o, &c.opaque.emplace()); });
      dc.spec.config.push_back(std::move(c));
    });
    spec.String("extendedResourceName", &dc.spec.extended_resource_name);
  });
  return dc;
}

ResourceSlice DecodeResourceSlice(const DocNode& root, std::string_view version,
                                  DecodeContext& ctx) {
  ResourceSlice slice;
  MapReader object(root, FieldPath(), ctx);
  ReadTypeAndMeta(object, &slice.metadata);
  object.Object("spec", [&](MapReader& spec) {
    ReadSliceSpec(spec, version == "v1beta1", &slice.spec);
  });
  return slice;
}

DeviceTaintRule DecodeDeviceTaintRule(const DocNode& root, DecodeContext& ctx) {
  DeviceTaintRule rule;
  MapReader object(root, FieldPath(), ctx);
  ReadTypeAndMeta(object, &rule.metadata);
  object.Object("spec", [&](MapReader& spec) {
    spec.Object("deviceSelector", [&](MapReader& s) {
      DeviceTaintSelector& sel = rule.spec.device_selector.emplace();
      s.String("deviceClassName", &sel.device_class_name);
      s.String("driver", &sel.driver);
      s.String("pool", &sel.pool);
      s.String("device", &sel.device);
      if (const DocNode* selectors = s.Get("selectors")) {
        if (ExpectKind(*selectors, NodeKind::kSequence, s.path().Child("selectors"), s.ctx())) {
          sel.selector_count = selectors->items.size();
        }
      }
    });
    spec.Object("taint", [&](MapReader& t) {
      t.String("key", &rule.spec.taint.key);
      t.String("value", &rule.spec.taint.value);
      t.String("effect", &rule.spec.taint.effect);
      t.String("timeAdded", &rule.spec.taint.time_added);
    });
  });
  object.Ignore({"status"});
  return rule;
}

}  // namespace draguard::k8s::internal
