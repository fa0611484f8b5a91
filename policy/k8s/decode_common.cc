// Shared pieces of the per-kind decoders (metadata, node selectors, tolerations, opaque
// configuration) and the top-level ResourceClaim and ResourceClaimTemplate readers.
#include <string>

#include "policy/k8s/decode_internal.h"

namespace draguard::k8s::internal {

void ReadObjectMeta(MapReader& m, ObjectMeta* meta) {
  m.String("name", &meta->name);
  m.String("generateName", &meta->generate_name);
  m.String("namespace", &meta->name_space);
  m.StringMap("labels", &meta->labels);
  m.StringMap("annotations", &meta->annotations);
  m.String("uid", &meta->uid);
  m.String("resourceVersion", &meta->resource_version);
  m.Int("generation", &meta->generation);
  m.StringList("finalizers", &meta->finalizers);
  meta->has_deletion_timestamp = m.Get("deletionTimestamp") != nullptr;
  m.Ignore({"creationTimestamp", "deletionGracePeriodSeconds", "ownerReferences",
            "managedFields", "selfLink"});
}

void ReadTypeAndMeta(MapReader& object, ObjectMeta* meta) {
  object.Ignore({"apiVersion", "kind"});
  object.Object("metadata", [&](MapReader& m) { ReadObjectMeta(m, meta); });
}

namespace {

void ReadRequirements(MapReader& term, std::string_view key,
                      std::vector<NodeSelectorRequirement>* out) {
  term.ObjectList(key, [&](MapReader& item) {
    NodeSelectorRequirement r;
    item.String("key", &r.key);
    item.String("operator", &r.op);
    item.StringList("values", &r.values);
    out->push_back(std::move(r));
  });
}

}  // namespace

void ReadNodeSelector(MapReader& reader, NodeSelector* out) {
  reader.ObjectList("nodeSelectorTerms", [&](MapReader& term) {
    NodeSelectorTerm t;
    ReadRequirements(term, "matchExpressions", &t.match_expressions);
    ReadRequirements(term, "matchFields", &t.match_fields);
    out->node_selector_terms.push_back(std::move(t));
  });
}

void ReadOpaque(MapReader& reader, OpaqueDeviceConfiguration* out) {
  reader.String("driver", &out->driver);
  if (const DocNode* p = reader.Get("parameters")) {
    out->parameters_json = NodeToJson(*p);
    out->parameters_raw_size = out->parameters_json->size();
    out->parameters_is_object = p->kind == NodeKind::kMap;
  }
}

void ReadTolerations(MapReader& reader, std::vector<DeviceToleration>* out) {
  reader.ObjectList("tolerations", [&](MapReader& item) {
    DeviceToleration t;
    item.String("key", &t.key);
    item.String("operator", &t.op);
    item.String("value", &t.value);
    item.String("effect", &t.effect);
    item.Int("tolerationSeconds", &t.toleration_seconds);
    out->push_back(std::move(t));
  });
}

namespace {

void ReadAllocationResults(MapReader& devices, DeviceAllocationResult* out) {
  devices.ObjectList("results", [&](MapReader& item) {
    DeviceRequestAllocationResult r;
    item.String("request", &r.request);
    item.String("driver", &r.driver);
    item.String("pool", &r.pool);
    item.String("device", &r.device);
    item.Bool("adminAccess", &r.admin_access);
    ReadTolerations(item, &r.tolerations);
    item.StringList("bindingConditions", &r.binding_conditions);
    item.StringList("bindingFailureConditions", &r.binding_failure_conditions);
    item.String("shareID", &r.share_id);
    item.QuantityMap("consumedCapacity", &r.consumed_capacity);
    out->results.push_back(std::move(r));
  });
  devices.ObjectList("config", [&](MapReader& item) {
    DeviceAllocationConfiguration c;
    item.String("source", &c.source);
    item.StringList("requests", &c.requests);
    item.Object("opaque", [&](MapReader& o) { ReadOpaque(o, &c.opaque.emplace()); });
    out->config.push_back(std::move(c));
  });
}

void ReadDeviceStatus(MapReader& item, AllocatedDeviceStatus* d) {
  item.String("driver", &d->driver);
  item.String("pool", &d->pool);
  item.String("device", &d->device);
  item.String("shareID", &d->share_id);
  if (const DocNode* c = item.Get("conditions")) {
    if (ExpectKind(*c, NodeKind::kSequence, item.path().Child("conditions"), item.ctx())) {
      d->condition_count = c->items.size();
    }
  }
  if (const DocNode* data = item.Get("data")) {
    d->data_json = NodeToJson(*data);
    d->data_raw_size = d->data_json->size();
    d->data_is_object = data->kind == NodeKind::kMap;
  }
  item.Object("networkData", [&](MapReader& n) {
    n.String("interfaceName", &d->network_interface_name);
    n.String("hardwareAddress", &d->network_hardware_address);
    n.StringList("ips", &d->network_ips);
  });
}

void ReadClaimStatus(MapReader& status, ResourceClaimStatus* out) {
  status.Object("allocation", [&](MapReader& a) {
    AllocationResult& result = out->allocation.emplace();
    a.Object("devices", [&](MapReader& d) { ReadAllocationResults(d, &result.devices); });
    a.Object("nodeSelector", [&](MapReader& n) {
      ReadNodeSelector(n, &result.node_selector.emplace());
    });
    a.String("allocationTimestamp", &result.allocation_timestamp);
  });
  status.ObjectList("reservedFor", [&](MapReader& item) {
    ResourceClaimConsumerReference r;
    item.String("apiGroup", &r.api_group);
    item.String("resource", &r.resource);
    item.String("name", &r.name);
    item.String("uid", &r.uid);
    out->reserved_for.push_back(std::move(r));
  });
  status.ObjectList("devices", [&](MapReader& item) {
    AllocatedDeviceStatus d;
    ReadDeviceStatus(item, &d);
    out->devices.push_back(std::move(d));
  });
}

}  // namespace

ResourceClaim DecodeResourceClaim(const DocNode& root, std::string_view version,
                                  DecodeContext& ctx) {
  ResourceClaim claim;
  MapReader object(root, FieldPath(), ctx);
  ReadTypeAndMeta(object, &claim.metadata);
  if (ctx.scope == DecodeScope::kWithoutSpec) {
    object.Ignore({"spec"});
  } else {
    object.Object("spec", [&](MapReader& spec) { ReadClaimSpec(spec, version, &claim.spec); });
  }
  object.Object("status", [&](MapReader& s) { ReadClaimStatus(s, &claim.status.emplace()); });
  return claim;
}

ResourceClaimTemplate DecodeResourceClaimTemplate(const DocNode& root, std::string_view version,
                                                  DecodeContext& ctx) {
  ResourceClaimTemplate tmpl;
  MapReader object(root, FieldPath(), ctx);
  ReadTypeAndMeta(object, &tmpl.metadata);
  if (ctx.scope == DecodeScope::kWithoutSpec) {
    object.Ignore({"spec"});
    return tmpl;
  }
  object.Object("spec", [&](MapReader& spec) {
    spec.Object("metadata", [&](MapReader& m) { ReadObjectMeta(m, &tmpl.template_metadata); });
    spec.Object("spec", [&](MapReader& inner) { ReadClaimSpec(inner, version, &tmpl.spec); });
  });
  return tmpl;
}

}  // namespace draguard::k8s::internal
