// Served-version warnings (served_version.h).
#include "policy/k8s/served_version.h"

#include <array>
#include <vector>

namespace draguard::k8s {
namespace {

constexpr std::string_view kGroup = "resource.k8s.io/";

// DeviceTaintRule has the same shape in every version that ever served it (v1 from 1.37).
constexpr std::array<std::string_view, 3> kTaintRuleShapes = {"v1alpha3", "v1beta2", "v1"};

std::string MinorName(int minor) { return "v1." + std::to_string(minor); }

// The versions `release` registers for `kind`, "resource.k8s.io/v1alpha3" style, newest
// first (the table's order).
std::vector<std::string> ServedVersions(const Release& release, std::string_view kind) {
  std::vector<std::string> out;
  for (const ServedKind& s : release.served) {
    if (s.kind == kind) out.push_back(std::string(kGroup) + std::string(s.version));
  }
  return out;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : " and ") + items[i];
  return out;
}

// The feature gate an off-by-default kind needs besides --runtime-config.
Gate GateOfKind(const Release& release, std::string_view kind) {
  if (kind == "ResourcePoolStatusRequest") return Gate::kDRAResourcePoolStatus;
  return release.validation.taint_rule_gate;
}

bool IsAlpha(std::string_view version) { return version.find("alpha") != std::string_view::npos; }

// "Kubernetes 1.36 (resource.k8s.io/v1alpha3)" for every known release serving `kind`.
std::string ReleasesServing(std::string_view kind) {
  std::vector<std::string> found;
  for (const Release& r : KnownReleases()) {
    const std::vector<std::string> versions = ServedVersions(r, kind);
    if (!versions.empty()) found.push_back(std::string(r.name) + " (" + Join(versions) + ")");
  }
  return Join(found);
}

}  // namespace

std::string DeprecationWarning(const Release& release, const ServedKind& served) {
  if (served.deprecated_minor == 0 || served.deprecated_minor > release.minor) return "";
  return std::string(kGroup) + std::string(served.version) + " " + std::string(served.kind) +
         " is deprecated in " + MinorName(served.deprecated_minor) + "+, unavailable in " +
         MinorName(served.removed_minor) + "+";
}

bool ReportDeviceTaintRuleVersion(const Release& release, std::string_view version,
                                  Diagnostics& diagnostics) {
  const FieldPath api_path("apiVersion");
  const std::string group_version = std::string(kGroup) + std::string(version);
  const ServedKind* served = release.Served("DeviceTaintRule", version);
  if (served == nullptr) {
    bool known_shape = false;
    for (std::string_view v : kTaintRuleShapes) known_shape = known_shape || v == version;
    const std::vector<std::string> serves = ServedVersions(release, "DeviceTaintRule");
    const std::string suggestion = serves.empty() ? "" : "apiVersion: " + serves.front();
    if (!known_shape) {
      diagnostics.Error("decode.api-version.unknown", api_path,
                        group_version + " does not serve DeviceTaintRule; it was not checked",
                        suggestion);
      return false;
    }
    // No --runtime-config serves a version the release does not have: an error (issue 19
    // item 3).
    diagnostics.Error("decode.api-version.not-served", api_path,
                      "DeviceTaintRule " + std::string(version) + " is not served by "
                      "Kubernetes " + std::string(release.name) + ", which serves it as " +
                          Join(serves) + "; the API server rejects it",
                      suggestion);
    return true;
  }
  std::string message = "DeviceTaintRule (" + std::string(version) + ") is an " +
                        (version.find("alpha") != std::string_view::npos ? "alpha" : "beta") +
                        " API, off by default in Kubernetes " + std::string(release.name) +
                        ": it needs the " +
                        std::string(GateName(release.validation.taint_rule_gate)) +
                        " feature gate and --runtime-config=" + group_version + "=true";
  if (std::string deprecation = DeprecationWarning(release, *served); !deprecation.empty()) {
    message += "; " + deprecation;
  }
  diagnostics.Warning(version.find("alpha") != std::string_view::npos ? "decode.api-version.alpha"
                                                                       : "decode.api-version.beta",
                      api_path, message);
  return true;
}

bool ReportUncheckedKindVersion(const Release& release, std::string_view kind,
                                std::string_view version, Diagnostics& diagnostics) {
  const std::string serving = ReleasesServing(kind);
  if (serving.empty()) return false;
  const FieldPath api_path("apiVersion");
  const std::string group_version = std::string(kGroup) + std::string(version);
  const ServedKind* served = release.Served(kind, version);
  if (served == nullptr) {
    const std::vector<std::string> serves = ServedVersions(release, kind);
    diagnostics.Error("decode.api-version.not-served", api_path,
                      std::string(kind) + " " + std::string(version) + " is not served by "
                      "Kubernetes " + std::string(release.name) + "; it is served by Kubernetes " +
                          serving + "; the API server rejects it",
                      serves.empty() ? "" : "apiVersion: " + serves.front());
    return true;
  }
  if (!served->by_default) {
    std::string message = std::string(kind) + " (" + std::string(version) + ") is an " +
                          (IsAlpha(version) ? "alpha" : "beta") +
                          " API, off by default in Kubernetes " + std::string(release.name) +
                          ": it needs the " + std::string(GateName(GateOfKind(release, kind))) +
                          " feature gate and --runtime-config=" + group_version + "=true";
    if (std::string deprecation = DeprecationWarning(release, *served); !deprecation.empty()) {
      message += "; " + deprecation;
    }
    diagnostics.Warning(IsAlpha(version) ? "decode.api-version.alpha" : "decode.api-version.beta",
                        api_path, message);
  }
  diagnostics.Info("decode.kind.unchecked", FieldPath("kind"),
                   std::string(kind) + " is served by Kubernetes " + std::string(release.name) +
                       (kind == "ResourcePoolStatusRequest"
                            ? ", but draguard checks only its spec (driver, poolName, limit); "
                              "its status was not checked"
                            : ", but draguard does not decode or validate it: its fields were "
                              "not checked"));
  return true;
}

void ReportCoreKindVersion(const Release& release, std::string_view kind,
                           std::string_view version, Diagnostics& diagnostics) {
  const ServedKind* served = release.Served(kind, version);
  if (served == nullptr || served->by_default) return;
  const FieldPath api_path("apiVersion");
  const std::string group_version = std::string(kGroup) + std::string(version);
  const std::string suggestion =
      version == "v1beta1" ? "apiVersion: resource.k8s.io/v1 (move request fields under "
                             "\"exactly:\")"
                           : "apiVersion: resource.k8s.io/v1 (same shape)";
  if (std::string deprecation = DeprecationWarning(release, *served); !deprecation.empty()) {
    diagnostics.Warning("decode.api-version.deprecated", api_path,
                        deprecation + "; it is served only where enabled with --runtime-config=" +
                            group_version + "=true",
                        suggestion);
    return;
  }
  diagnostics.Warning("decode.api-version.beta", api_path,
                      group_version + " is a beta API, not served by default since Kubernetes "
                      "1.34",
                      suggestion);
}

}  // namespace draguard::k8s
