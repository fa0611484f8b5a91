#include "policy/allocator/options.h"

#include <string>

namespace draguard::alloc {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool* GateField(std::string_view name, FeatureGates& g) {
  if (name == "DRAPrioritizedList") return &g.prioritized_list;
  if (name == "DRAAdminAccess") return &g.admin_access;
  if (name == "DRAResourceClaimDeviceStatus") return &g.resource_claim_device_status;
  if (name == "DRADeviceTaints") return &g.device_taints;
  if (name == "DRADeviceTaintRules") return &g.device_taint_rules;
  if (name == "DRAPartitionableDevices") return &g.partitionable_devices;
  if (name == "DRAConsumableCapacity") return &g.consumable_capacity;
  if (name == "DRADeviceBindingConditions") return &g.device_binding_conditions;
  return nullptr;
}

}  // namespace

StatusOr<KubeVersion> ParseKubeVersion(std::string_view text) {
  text = Trim(text);
  if (!text.empty() && text.front() == 'v') text.remove_prefix(1);
  auto starts = [&](std::string_view p) {
    return text.substr(0, p.size()) == p &&
           (text.size() == p.size() || text[p.size()] == '.');
  };
  if (starts("1.34")) return KubeVersion::k1_34;
  if (starts("1.35")) return KubeVersion::k1_35;
  return InvalidArgumentError("unsupported Kubernetes version \"" + std::string(text) +
                              "\": expected 1.34 or 1.35");
}

FeatureGates DefaultFeatureGates(KubeVersion /*version*/) { return FeatureGates{}; }

Status ApplyFeatureGates(std::string_view spec, FeatureGates& gates) {
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view entry = Trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (entry.empty()) continue;
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos) {
      return InvalidArgumentError("feature gate \"" + std::string(entry) +
                                  "\" must be written Name=true or Name=false");
    }
    std::string_view name = Trim(entry.substr(0, eq));
    std::string_view value = Trim(entry.substr(eq + 1));
    if (value != "true" && value != "false") {
      return InvalidArgumentError("feature gate " + std::string(name) +
                                  ": value must be true or false");
    }
    if (bool* field = GateField(name, gates)) *field = value == "true";
  }
  return OkStatus();
}

}  // namespace draguard::alloc
