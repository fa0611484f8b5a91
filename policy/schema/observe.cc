// Learning the schema from what ResourceSlices publish (as dynamic-resource-allocation
// cel/compile.go `parseQualifiedName` reads names: a name without '/' is in the driver's own
// domain; a qualified name is split at the first '/').
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "policy/common/field_path.h"
#include "policy/common/strings.h"
#include "policy/schema/schema.h"

namespace draguard::schema {
namespace {

// The element type of a list-typed attribute is its type; the entry then says `list`.
std::optional<ValueType> TypeOf(const k8s::DeviceAttribute& a) {
  if (a.set_count() != 1) return std::nullopt;  // validation reports it
  if (a.int_value || a.int_values) return ValueType::kInt;
  if (a.bool_value || a.bool_values) return ValueType::kBool;
  if (a.version_value || a.version_values) return ValueType::kVersion;
  return ValueType::kString;
}

std::pair<std::string, std::string> Split(const std::string& qualified,
                                          const std::string& driver) {
  const size_t slash = qualified.find('/');
  if (slash == std::string::npos) return {driver, qualified};
  return {qualified.substr(0, slash), qualified.substr(slash + 1)};
}

void AddDriver(DomainSchema& domain, const std::string& driver) {
  if (std::find(domain.drivers.begin(), domain.drivers.end(), driver) == domain.drivers.end()) {
    domain.drivers.push_back(driver);
  }
}

ObjectRef RefOf(const k8s::ResourceSlice& slice) {
  return {slice.source_api_version.empty() ? "resource.k8s.io/v1" : slice.source_api_version,
          "ResourceSlice", "", slice.metadata.name};
}

// Where an attribute of a slice's device is, for a diagnostic.
FieldPath AttributeField(size_t device, const std::string& name) {
  return FieldPath("spec").Child("devices").Index(device).Child("attributes").Key(name);
}

struct Observer {
  Schema& schema;
  Diagnostics& out;
  // (domain, name) -> type first observed, for conflicts between slices.
  std::map<std::pair<std::string, std::string>, ValueType> seen;
  // Every (driver, qualified name, type, list) observed so far, and whether it conflicts with
  // the type first seen. A fleet's identical devices publish the same attributes thousands of
  // times (8,000 GPUs: 88,000 observations, ~1,400 instructions each, two thirds of a webhook
  // snapshot's schema build): after the first, an observation changes nothing in the schema,
  // and only a conflict is reported again, at each device that has it.
  std::unordered_map<std::string, bool> attributes_seen;
  std::unordered_set<std::string> capacities_seen;
  std::string key;  // scratch for the two sets above

  void Attribute(const k8s::ResourceSlice& slice, size_t device, const std::string& qualified,
                 ValueType type, bool list) {
    SetKey(slice.spec.driver, qualified, static_cast<char>(type), list ? '1' : '0');
    auto [it, added] = attributes_seen.try_emplace(key, false);
    if (!added && !it->second) return;
    it->second = Learn(slice, device, qualified, type, list);
  }

  // Adds the observation to the schema, reporting a conflict or a mismatch; returns whether
  // it conflicts with another device's type.
  bool Learn(const k8s::ResourceSlice& slice, size_t device, const std::string& qualified,
             ValueType type, bool list) {
    auto [domain_name, name] = Split(qualified, slice.spec.driver);
    DomainSchema& domain = schema.MutableDomain(domain_name);
    // resource.kubernetes.io is shared: any driver may publish it.
    if (domain_name != "resource.kubernetes.io") AddDriver(domain, slice.spec.driver);
    auto [it, first] = seen.emplace(std::make_pair(domain_name, name), type);
    Entry& entry = Published(domain, name, type);
    entry.list = entry.list || list;
    entry.published_types.emplace(slice.spec.driver, type);
    if (!first && it->second != type) {
      Report(slice, AttributeField(device, qualified), "schema.slice.type-conflict",
             "attribute " + domain_name + "/" + name + " is published as " +
                 std::string(ValueTypeName(type)) + " here but as " +
                 std::string(ValueTypeName(it->second)) +
                 " by another device, so no selector can compare it safely on every device");
      return true;
    }
    if (first && entry.type != type) {
      Report(slice, AttributeField(device, qualified), "schema.slice.type-mismatch",
             "attribute " + domain_name + "/" + name + " is published as " +
                 std::string(ValueTypeName(type)) + " but the schema says " +
                 std::string(ValueTypeName(entry.type)) + "; checks use the published type");
      entry.type = type;
      entry.origin = Origin::kSlice;
    }
    return false;
  }

  // The domain's entry for `name`, added (optional: seen on some devices, others may lack
  // it) when the schema had none.
  static Entry& Published(DomainSchema& domain, const std::string& name, ValueType type) {
    auto it = domain.attributes.find(name);
    if (it != domain.attributes.end()) return it->second;
    Entry e;
    e.name = name;
    e.type = type;
    e.optional = true;
    e.origin = Origin::kSlice;
    return domain.attributes.emplace(name, std::move(e)).first->second;
  }

  void Capacity(const k8s::ResourceSlice& slice, const std::string& qualified) {
    SetKey(slice.spec.driver, qualified, 'q', '0');
    if (!capacities_seen.insert(key).second) return;
    auto [domain_name, name] = Split(qualified, slice.spec.driver);
    DomainSchema& domain = schema.MutableDomain(domain_name);
    if (domain_name != "resource.kubernetes.io") AddDriver(domain, slice.spec.driver);
    if (domain.capacities.count(name) == 0) {
      Entry e;
      e.name = name;
      e.type = ValueType::kQuantity;
      e.optional = true;
      e.origin = Origin::kSlice;
      domain.capacities.emplace(name, std::move(e));
    }
  }

  // key = the driver after its length, the name, two tag bytes: no two tuples alike.
  void SetKey(const std::string& driver, const std::string& qualified, char tag, char list) {
    key.clear();
    AppendKeyString(key, driver);
    key += qualified;
    key += tag;
    key += list;
  }

  void Report(const k8s::ResourceSlice& slice, const FieldPath& field, std::string code,
              std::string message) {
    Diagnostic& d = out.Warning(std::move(code), field, std::move(message));
    d.object = RefOf(slice);
  }
};

}  // namespace

void ObserveSlices(const SharedList<k8s::ResourceSlice>& slices, Schema& into,
                   Diagnostics& out) {
  Observer observer{into, out, {}, {}, {}, {}};
  for (const k8s::ResourceSlice& slice : slices) {
    for (size_t i = 0; i < slice.spec.devices.size(); ++i) {
      const k8s::Device& device = slice.spec.devices[i];
      for (const auto& [name, value] : device.attributes) {
        if (std::optional<ValueType> type = TypeOf(value)) {
          observer.Attribute(slice, i, name, *type, value.has_list());
        }
      }
      for (const auto& [name, capacity] : device.capacity) observer.Capacity(slice, name);
    }
  }
}

}  // namespace draguard::schema
