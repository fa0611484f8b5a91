#include "policy/k8s/model_debug.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace draguard::k8s {
namespace {

// Each value is written with its length, so that no text can imitate a separator.
class Printer {
 public:
  void Field(const char* name, const std::string& v) {
    out_ += name;
    out_ += "=" + std::to_string(v.size()) + ":" + v + ";";
  }
  void Field(const char* name, int64_t v) { out_ += std::string(name) + "=" + std::to_string(v) + ";"; }
  void Field(const char* name, bool v) { out_ += std::string(name) + (v ? "=T;" : "=F;"); }
  template <class T>
  void Field(const char* name, const std::optional<T>& v) {
    if (!v.has_value()) {
      out_ += std::string(name) + "=<unset>;";
    } else {
      Field(name, *v);
    }
  }
  void Field(const char* name, const std::vector<std::string>& v) {
    Open(name, v.size());
    for (const std::string& s : v) Field("", s);
    Close();
  }
  void Field(const char* name, const std::map<std::string, std::string>& v) {
    Open(name, v.size());
    for (const auto& [key, value] : v) {
      Field("k", key);
      Field("v", value);
    }
    Close();
  }
  template <class T, class F>
  void List(const char* name, const std::vector<T>& v, F&& each) {
    Open(name, v.size());
    for (const T& item : v) {
      out_ += "(";
      each(item);
      out_ += ")";
    }
    Close();
  }
  void Open(const char* name, size_t n) { out_ += std::string(name) + "[" + std::to_string(n) + "]{"; }
  void Close() { out_ += "}"; }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

void Meta(Printer& p, const ObjectMeta& m) {
  p.Open("meta", 0);
  p.Field("name", m.name);
  p.Field("generateName", m.generate_name);
  p.Field("namespace", m.name_space);
  p.Field("labels", m.labels);
  p.Field("annotations", m.annotations);
  p.Field("uid", m.uid);
  p.Field("resourceVersion", m.resource_version);
  p.Field("generation", m.generation);
  p.Field("finalizers", m.finalizers);
  p.Field("deletion", m.has_deletion_timestamp);
  p.Close();
}

void Selectors(Printer& p, const std::vector<DeviceSelector>& selectors) {
  p.List("selectors", selectors, [&](const DeviceSelector& s) {
    p.Field("cel", s.cel.has_value());
    if (s.cel.has_value()) p.Field("expression", s.cel->expression);
  });
}

void Tolerations(Printer& p, const std::vector<DeviceToleration>& tolerations) {
  p.List("tolerations", tolerations, [&](const DeviceToleration& t) {
    p.Field("key", t.key);
    p.Field("op", t.op);
    p.Field("value", t.value);
    p.Field("effect", t.effect);
    p.Field("seconds", t.toleration_seconds);
  });
}

void Common(Printer& p, const DeviceRequestCommon& c) {
  p.Field("class", c.device_class_name);
  Selectors(p, c.selectors);
  p.Field("mode", c.allocation_mode);
  p.Field("count", c.count);
  p.Field("countSet", c.count_set);
  Tolerations(p, c.tolerations);
  p.Field("capacity", c.capacity.has_value());
  if (c.capacity.has_value()) p.Field("requests", c.capacity->requests);
}

void Configuration(Printer& p, const DeviceConfiguration& c) {
  p.Field("opaque", c.opaque.has_value());
  if (!c.opaque.has_value()) return;
  p.Field("driver", c.opaque->driver);
  p.Field("parameters", c.opaque->parameters_json);
  p.Field("rawSize", static_cast<int64_t>(c.opaque->parameters_raw_size));
  p.Field("isObject", c.opaque->parameters_is_object);
}

void ClaimSpec(Printer& p, const ResourceClaimSpec& spec) {
  const DeviceClaim& d = spec.devices;
  p.List("requests", d.requests, [&](const DeviceRequest& r) {
    p.Field("name", r.name);
    p.Field("exactly", r.exactly.has_value());
    if (r.exactly.has_value()) {
      Common(p, *r.exactly);
      p.Field("adminAccess", r.exactly->admin_access);
    }
    p.List("firstAvailable", r.first_available, [&](const DeviceSubRequest& s) {
      p.Field("name", s.name);
      Common(p, s);
    });
  });
  p.List("constraints", d.constraints, [&](const DeviceConstraint& c) {
    p.Field("requests", c.requests);
    p.Field("match", c.match_attribute);
    p.Field("distinct", c.distinct_attribute);
  });
  p.List("config", d.config, [&](const DeviceClaimConfiguration& c) {
    p.Field("requests", c.requests);
    Configuration(p, c);
  });
}

void Status(Printer& p, const std::optional<ResourceClaimStatus>& status) {
  p.Field("status", status.has_value());
  if (!status.has_value()) return;
  p.Field("allocation", status->allocation.has_value());
  if (status->allocation.has_value()) {
    const AllocationResult& a = *status->allocation;
    p.List("results", a.devices.results, [&](const DeviceRequestAllocationResult& r) {
      p.Field("request", r.request);
      p.Field("driver", r.driver);
      p.Field("pool", r.pool);
      p.Field("device", r.device);
      p.Field("adminAccess", r.admin_access);
      Tolerations(p, r.tolerations);
      p.Field("bindingConditions", r.binding_conditions);
      p.Field("bindingFailureConditions", r.binding_failure_conditions);
      p.Field("shareID", r.share_id);
      p.Field("consumed", r.consumed_capacity);
    });
    p.List("config", a.devices.config, [&](const DeviceAllocationConfiguration& c) {
      p.Field("source", c.source);
      p.Field("requests", c.requests);
      Configuration(p, c);
    });
    p.Field("nodeSelector", a.node_selector.has_value());
    if (a.node_selector.has_value()) {
      p.List("terms", a.node_selector->node_selector_terms, [&](const NodeSelectorTerm& t) {
        for (const auto* list : {&t.match_expressions, &t.match_fields}) {
          p.List("reqs", *list, [&](const NodeSelectorRequirement& r) {
            p.Field("key", r.key);
            p.Field("op", r.op);
            p.Field("values", r.values);
          });
        }
      });
    }
    p.Field("timestamp", a.allocation_timestamp);
  }
  p.List("reservedFor", status->reserved_for, [&](const ResourceClaimConsumerReference& r) {
    p.Field("apiGroup", r.api_group);
    p.Field("resource", r.resource);
    p.Field("name", r.name);
    p.Field("uid", r.uid);
  });
  p.List("devices", status->devices, [&](const AllocatedDeviceStatus& d) {
    p.Field("driver", d.driver);
    p.Field("pool", d.pool);
    p.Field("device", d.device);
    p.Field("shareID", d.share_id);
    p.Field("conditions", static_cast<int64_t>(d.condition_count));
    p.Field("data", d.data_json);
    p.Field("dataSize", static_cast<int64_t>(d.data_raw_size));
    p.Field("dataIsObject", d.data_is_object);
    p.Field("interface", d.network_interface_name);
    p.Field("hardware", d.network_hardware_address);
    p.Field("ips", d.network_ips);
  });
}

}  // namespace

std::string ModelDebugString(const ObjectVariant& object) {
  Printer p;
  if (const auto* c = std::get_if<ResourceClaim>(&object)) {
    p.Field("ResourceClaim", c->source_api_version);
    Meta(p, c->metadata);
    ClaimSpec(p, c->spec);
    Status(p, c->status);
  } else if (const auto* t = std::get_if<ResourceClaimTemplate>(&object)) {
    p.Field("ResourceClaimTemplate", t->source_api_version);
    Meta(p, t->metadata);
    Meta(p, t->template_metadata);
    ClaimSpec(p, t->spec);
  } else if (const auto* d = std::get_if<DeviceClass>(&object)) {
    p.Field("DeviceClass", d->source_api_version);
    Meta(p, d->metadata);
    Selectors(p, d->spec.selectors);
    p.List("config", d->spec.config,
           [&](const DeviceClassConfiguration& config) { Configuration(p, config); });
    p.Field("extendedResourceName", d->spec.extended_resource_name);
  } else {
    p.out() = "variant " + std::to_string(object.index());
  }
  return std::move(p.out());
}

}  // namespace draguard::k8s
