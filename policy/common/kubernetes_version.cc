#include "policy/common/kubernetes_version.h"

#include <cctype>
#include <optional>
#include <string>

namespace draguard {
namespace {

struct GateInfo {
  Gate gate;
  std::string_view name;
  bool default_134;
  bool default_135;
  bool locked_135;  // GA and locked in 1.35
  bool exists_134;
};

// Spec §1.1 (GATES, 1.35 release state plus the 1.34 history).
constexpr std::array<GateInfo, kGateCount> kGates = {{
    {Gate::kDynamicResourceAllocation, "DynamicResourceAllocation", true, true, true, true},
    {Gate::kDRAPrioritizedList, "DRAPrioritizedList", true, true, false, true},
    {Gate::kDRAAdminAccess, "DRAAdminAccess", true, true, false, true},
    {Gate::kDRAResourceClaimDeviceStatus, "DRAResourceClaimDeviceStatus", true, true, false, true},
    {Gate::kDRADeviceTaints, "DRADeviceTaints", false, false, false, true},
    {Gate::kDRADeviceTaintRules, "DRADeviceTaintRules", false, false, false, false},
    {Gate::kDRAConsumableCapacity, "DRAConsumableCapacity", false, false, false, true},
    {Gate::kDRADeviceBindingConditions, "DRADeviceBindingConditions", false, false, false, true},
    {Gate::kDRAExtendedResource, "DRAExtendedResource", false, false, false, true},
    {Gate::kDRAPartitionableDevices, "DRAPartitionableDevices", false, false, false, true},
    {Gate::kDeclarativeValidation, "DeclarativeValidation", true, true, false, true},
    {Gate::kDeclarativeValidationTakeover, "DeclarativeValidationTakeover", false, false, false,
     true},
}};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Go's strconv.ParseBool.
std::optional<bool> ParseGoBool(std::string_view v) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (v == t) return true;
  }
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (v == f) return false;
  }
  return std::nullopt;
}

const GateInfo* FindGate(std::string_view name, KubernetesVersion version) {
  for (const GateInfo& info : kGates) {
    if (info.name != name) continue;
    if (version == KubernetesVersion::k1_34 && !info.exists_134) return nullptr;
    return &info;
  }
  return nullptr;
}

}  // namespace

StatusOr<KubernetesVersion> ParseKubernetesVersion(std::string_view text) {
  std::string_view t = Trim(text);
  if (!t.empty() && t.front() == 'v') t.remove_prefix(1);
  for (auto [name, version] : {std::pair{std::string_view("1.34"), KubernetesVersion::k1_34},
                               std::pair{std::string_view("1.35"), KubernetesVersion::k1_35}}) {
    if (t == name) return version;
    if (t.size() > name.size() && t.substr(0, name.size()) == name && t[name.size()] == '.') {
      std::string_view patch = t.substr(name.size() + 1);
      bool digits = !patch.empty();
      for (char c : patch) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (digits) return version;
    }
  }
  return InvalidArgumentError("unsupported Kubernetes version \"" + std::string(text) +
                              "\": supported versions are 1.34 and 1.35");
}

std::string_view KubernetesVersionName(KubernetesVersion version) {
  return version == KubernetesVersion::k1_34 ? "1.34" : "1.35";
}

std::string_view GateName(Gate gate) { return kGates[static_cast<size_t>(gate)].name; }

FeatureGates::FeatureGates(KubernetesVersion version) : version_(version) {
  for (const GateInfo& info : kGates) {
    enabled_[static_cast<size_t>(info.gate)] =
        version == KubernetesVersion::k1_34 ? info.default_134 : info.default_135;
  }
}

Status FeatureGates::Set(std::string_view name, bool enabled) {
  const GateInfo* info = FindGate(name, version_);
  if (info == nullptr) {
    return InvalidArgumentError("unrecognized feature gate: " + std::string(name));
  }
  if (version_ == KubernetesVersion::k1_35 && info->locked_135 && enabled != info->default_135) {
    return InvalidArgumentError("cannot set feature gate " + std::string(name) + " to " +
                                (enabled ? "true" : "false") + ", feature is locked to " +
                                (info->default_135 ? "true" : "false"));
  }
  SetEnabled(info->gate, enabled);
  return OkStatus();
}

StatusOr<FeatureGates> FeatureGates::Parse(std::string_view text, KubernetesVersion version) {
  FeatureGates gates(version);
  while (true) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    if (!item.empty()) {
      size_t eq = item.find('=');
      std::string name(Trim(item.substr(0, eq)));
      if (eq == std::string_view::npos) {
        return InvalidArgumentError("missing bool value for " + name);
      }
      std::string value(Trim(item.substr(eq + 1)));
      std::optional<bool> enabled = ParseGoBool(value);
      if (!enabled.has_value()) {
        return InvalidArgumentError("invalid value of " + name + "=" + value +
                                    ", err: strconv.ParseBool: parsing \"" + value +
                                    "\": invalid syntax");
      }
      Status status = gates.Set(name, *enabled);
      if (!status.ok()) return status;
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return gates;
}

}  // namespace draguard
