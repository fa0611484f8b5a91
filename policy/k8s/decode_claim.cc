// ResourceClaim and ResourceClaimTemplate decoding, with the v1beta1 → v1 conversion of requests
// (pkg/apis/resource/v1beta1/conversion.go): a v1beta1 request that sets any of the flat
// exact-request fields gets an `exactly` built from them; `firstAvailable` converts independently.
#include <string>
#include <string_view>

#include "policy/k8s/decode_internal.h"

namespace draguard::k8s::internal {
namespace {

constexpr char kMoveUnderExactly[] =
    "in resource.k8s.io/v1 this field moved under \"exactly:\" (write \"exactly: "
    "{deviceClassName: ..., selectors: ..., count: ...}\"), or keep the flat form with "
    "apiVersion resource.k8s.io/v1beta1";

constexpr char kNoExactlyInV1beta1[] =
    "resource.k8s.io/v1beta1 has no \"exactly:\" (that is the v1 shape): write "
    "deviceClassName, selectors, count, ... directly on the request, or use apiVersion "
    "resource.k8s.io/v1";

void ReadSelectors(MapReader& reader, std::vector<DeviceSelector>* out) {
  out->reserve(out->size() + reader.ListSize("selectors"));
  reader.ObjectList("selectors", [&](MapReader& item) {
    DeviceSelector selector;
    item.Hint("expression", "\"expression\" belongs under \"cel:\"; indent it one level deeper");
    item.Object("cel", [&](MapReader& cel) {
      selector.cel.emplace();
      cel.String("expression", &selector.cel->expression);
    });
    out->push_back(std::move(selector));
  });
}

void ReadCommon(MapReader& reader, DeviceRequestCommon* out) {
  reader.String("deviceClassName", &out->device_class_name);
  ReadSelectors(reader, &out->selectors);
  reader.String("allocationMode", &out->allocation_mode);
  out->count_set = reader.Int("count", &out->count);
  ReadTolerations(reader, &out->tolerations);
  reader.Object("capacity", [&](MapReader& capacity) {
    out->capacity.emplace();
    capacity.QuantityMap("requests", &out->capacity->requests);
  });
}

void ReadSubRequests(MapReader& reader, std::vector<DeviceSubRequest>* out) {
  out->reserve(out->size() + reader.ListSize("firstAvailable"));
  reader.ObjectList("firstAvailable", [&](MapReader& item) {
    DeviceSubRequest sub;
    item.String("name", &sub.name);
    ReadCommon(item, &sub);
    out->push_back(std::move(sub));
  });
}

// The v1beta1 request fields that v1 moved under `exactly`.
constexpr std::string_view kFlatExactFields[] = {"deviceClassName", "selectors", "allocationMode",
                                                 "count",           "adminAccess", "tolerations",
                                                 "capacity"};

// Whether `request` has one of kFlatExactFields (as DocNode::Find finds keys: scalar keys,
// whatever the value). One pass over the request's few keys, each compared by length first,
// instead of a Find per field (every request of every admission comes through here).
bool HasFlatExactFields(const DocNode& request) {
  if (request.kind != NodeKind::kMap) return false;
  for (const MapEntry& e : request.entries) {
    if (!e.key.is_scalar()) continue;
    for (std::string_view field : kFlatExactFields) {
      if (e.key.text == field) return true;
    }
  }
  return false;
}

void ReadRequestV1(MapReader& item, const DocNode& node, DeviceRequest* out) {
  item.String("name", &out->name);
  item.Object("exactly", [&](MapReader& exactly) {
    out->exactly.emplace();
    ReadCommon(exactly, &*out->exactly);
    exactly.Bool("adminAccess", &out->exactly->admin_access);
  });
  ReadSubRequests(item, &out->first_available);
  if (HasFlatExactFields(node)) {
    item.ctx().diagnostics->Warning(
        "decode.v1beta1-request-shape", item.path(),
        "this request uses the v1beta1 shape (deviceClassName, selectors, count, ... directly "
        "on the request) but the object says resource.k8s.io/v1",
        "write \"exactly:\" under the request name and indent deviceClassName, selectors, "
        "allocationMode, count and adminAccess beneath it");
    for (std::string_view key : kFlatExactFields) item.Hint(key, kMoveUnderExactly);
  }
}

void ReadRequestV1beta1(MapReader& item, const DocNode& node, DeviceRequest* out) {
  item.String("name", &out->name);
  item.Hint("exactly", kNoExactlyInV1beta1);
  const DocNode* exactly = node.Find("exactly");
  if (HasFlatExactFields(node)) {
    out->exactly.emplace();
    ReadCommon(item, &*out->exactly);
    item.Bool("adminAccess", &out->exactly->admin_access);
  } else {
    if (exactly != nullptr && item.ctx().unknown_fields == UnknownFields::kError) {
      // The v1 shape under v1beta1: strict decoding rejects the unknown "exactly" (the one
      // finding, with the hint above) before any validation. Reading its fields as the
      // request's keeps validation from adding "exactly or firstAvailable is required" with
      // the v1 advice. Without strict decoding the API server drops the field, and that
      // finding is then right.
      MapReader inner(*exactly, item.path().Child("exactly"), item.ctx());
      out->exactly.emplace();
      ReadCommon(inner, &*out->exactly);
      inner.Bool("adminAccess", &out->exactly->admin_access);
    }
    for (std::string_view key : kFlatExactFields) item.Ignore({key});
  }
  ReadSubRequests(item, &out->first_available);
}

void ReadConstraints(MapReader& devices, std::vector<DeviceConstraint>* out) {
  out->reserve(out->size() + devices.ListSize("constraints"));
  devices.ObjectList("constraints", [&](MapReader& item) {
    DeviceConstraint c;
    item.StringList("requests", &c.requests);
    item.String("matchAttribute", &c.match_attribute);
    item.String("distinctAttribute", &c.distinct_attribute);
    out->push_back(std::move(c));
  });
}

void ReadClaimConfig(MapReader& devices, std::vector<DeviceClaimConfiguration>* out) {
  out->reserve(out->size() + devices.ListSize("config"));
  devices.ObjectList("config", [&](MapReader& item) {
    DeviceClaimConfiguration c;
    item.StringList("requests", &c.requests);
    item.Object("opaque", [&](MapReader& opaque) {
      c.opaque.emplace();
      ReadOpaque(opaque, &*c.opaque);
    });
    out->push_back(std::move(c));
  });
}

}  // namespace

void ReadClaimSpec(MapReader& spec, std::string_view version, ResourceClaimSpec* out) {
  const bool beta1 = version == "v1beta1";
  spec.Object("devices", [&](MapReader& devices) {
    const DocNode* requests = devices.Get("requests");
    size_t index = 0;
    // Reserved: a request is a large value, and growing the vector moved every one before.
    out->devices.requests.reserve(out->devices.requests.size() + devices.ListSize("requests"));
    devices.ObjectList("requests", [&](MapReader& item) {
      const DocNode& node = requests->items[index++];
      DeviceRequest request;
      if (beta1) {
        ReadRequestV1beta1(item, node, &request);
      } else {
        ReadRequestV1(item, node, &request);
      }
      out->devices.requests.push_back(std::move(request));
    });
    ReadConstraints(devices, &out->devices.constraints);
    ReadClaimConfig(devices, &out->devices.config);
  });
}

}  // namespace draguard::k8s::internal
