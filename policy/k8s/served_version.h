// How the chosen Kubernetes release serves a resource.k8s.io kind in one API version, as
// decode-time warnings (the API server's own view: registered or not, off by default,
// deprecated). Data comes from the release table (policy/common/release.h).
#ifndef DRAGUARD_POLICY_K8S_SERVED_VERSION_H_
#define DRAGUARD_POLICY_K8S_SERVED_VERSION_H_

#include <string>
#include <string_view>

#include "policy/common/diagnostic.h"
#include "policy/common/source.h"
#include "policy/common/release.h"
#include "policy/k8s/decode.h"

namespace draguard::k8s {

// Decode (decode.h) with options.version replaced by `version`.
DecodeResult DecodeForRelease(const SourceText& source, const DecodeOptions& options,
                              KubernetesVersion version);

// kube-apiserver's deprecation warning for `kind` in resource.k8s.io/`version`
// (endpoints/deprecation WarningMessage): "resource.k8s.io/v1beta1 DeviceClass is deprecated
// in v1.35+, unavailable in v1.38+", or "" when `release` does not deprecate it.
std::string DeprecationWarning(const Release& release, const ServedKind& served);

// Reports how `release` serves DeviceTaintRule in `version` at `apiVersion`: not registered
// (decode.api-version.not-served, naming the versions it does serve), alpha or beta off by
// default (decode.api-version.alpha / .beta with the runtime-config and gate it needs), plus
// the deprecation warning. Returns false when no release draguard knows registers `version`
// for the kind (the caller does not decode it).
bool ReportDeviceTaintRuleVersion(const Release& release, std::string_view version,
                                  Diagnostics& diagnostics);

// Reports a resource.k8s.io kind draguard does not decode (ResourcePoolStatusRequest) that
// some known release serves: where `release` serves it in `version`, the alpha/beta warning
// (feature gate, --runtime-config, deprecation) and the info decode.kind.unchecked; where it
// does not, decode.api-version.not-served naming the releases and versions that serve it.
// Returns false when no known release serves `kind` (the caller reports it as before).
bool ReportUncheckedKindVersion(const Release& release, std::string_view kind,
                                std::string_view version, Diagnostics& diagnostics);

// Reports a core kind (ResourceClaim, ResourceClaimTemplate, DeviceClass, ResourceSlice) in a
// registered beta `version`: decode.api-version.deprecated when `release` deprecates it, else
// decode.api-version.beta. Nothing for v1.
void ReportCoreKindVersion(const Release& release, std::string_view kind,
                           std::string_view version, Diagnostics& diagnostics);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_SERVED_VERSION_H_
