#include "policy/common/kubernetes_version.h"

#include <optional>
#include <string>

#include "policy/common/release.h"
#include "policy/common/strings.h"

namespace draguard {
namespace {

// kube-apiserver's spelling, in enum order.
constexpr std::array<std::string_view, kGateCount> kGateNames = {
    "DynamicResourceAllocation",
    "DRAPrioritizedList",
    "DRAAdminAccess",
    "DRAResourceClaimDeviceStatus",
    "DRADeviceTaints",
    "DRADeviceTaintRules",
    "DRAConsumableCapacity",
    "DRADeviceBindingConditions",
    "DRAExtendedResource",
    "DRAPartitionableDevices",
    "DeclarativeValidation",
    "DeclarativeValidationTakeover",
    "DRASchedulerFilterTimeout",
    "DRAListTypeAttributes",
    "DRANodeAllocatableResources",
    "DRAWorkloadResourceClaims",
    "DRAResourcePoolStatus",
    "DRAResourceClaimGranularStatusAuthorization",
    "DeclarativeValidationBeta",
};


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

// The gate called `name` if `release` knows it.
std::optional<Gate> FindGate(std::string_view name, const Release& release) {
  for (size_t i = 0; i < kGateCount; ++i) {
    Gate gate = static_cast<Gate>(i);
    if (kGateNames[i] == name && release.gate(gate).known) return gate;
  }
  return std::nullopt;
}

}  // namespace

StatusOr<KubernetesVersion> ParseKubernetesVersion(std::string_view text) {
  std::string_view t = TrimAsciiSpace(text);
  if (!t.empty() && t.front() == 'v') t.remove_prefix(1);
  for (const Release& release : KnownReleases()) {
    std::string_view name = release.name;
    if (t == name) return release.version;
    if (t.size() > name.size() && t.substr(0, name.size()) == name && t[name.size()] == '.') {
      if (AllAsciiDigits(t.substr(name.size() + 1))) return release.version;
    }
  }
  return InvalidArgumentError("unsupported Kubernetes version \"" + std::string(text) +
                              "\": supported versions are " + KnownReleaseList());
}

std::string_view KubernetesVersionName(KubernetesVersion version) {
  return ReleaseFor(version).name;
}

std::string_view GateName(Gate gate) { return kGateNames[static_cast<size_t>(gate)]; }

FeatureGates::FeatureGates(KubernetesVersion version) : version_(version) {
  const Release& release = ReleaseFor(version);
  for (size_t i = 0; i < kGateCount; ++i) enabled_[i] = release.gates[i].on;
}

Status FeatureGates::Set(std::string_view name, bool enabled) {
  const Release& release = ReleaseFor(version_);
  std::optional<Gate> gate = FindGate(name, release);
  if (!gate.has_value()) {
    return InvalidArgumentError("unrecognized feature gate: " + std::string(name));
  }
  const GateState& state = release.gate(*gate);
  if (state.locked && enabled != state.on) {
    return InvalidArgumentError("cannot set feature gate " + std::string(name) + " to " +
                                (enabled ? "true" : "false") + ", feature is locked to " +
                                (state.on ? "true" : "false"));
  }
  SetEnabled(*gate, enabled);
  return OkStatus();
}

StatusOr<FeatureGates> FeatureGates::Parse(std::string_view text, KubernetesVersion version) {
  FeatureGates gates(version);
  while (true) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    if (!item.empty()) {
      size_t eq = item.find('=');
      std::string name(TrimAsciiSpace(item.substr(0, eq)));
      if (eq == std::string_view::npos) {
        return InvalidArgumentError("missing bool value for " + name);
      }
      std::string value(TrimAsciiSpace(item.substr(eq + 1)));
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
