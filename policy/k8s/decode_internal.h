// Per-kind decoders behind Decode() (internal). Each reads an object's root map strictly and
// returns the v1-shaped model; `version` is the API version part ("v1", "v1beta1", ...).
#ifndef DRAGUARD_POLICY_K8S_DECODE_INTERNAL_H_
#define DRAGUARD_POLICY_K8S_DECODE_INTERNAL_H_

#include <string_view>

#include "policy/k8s/device_class.h"
#include "policy/k8s/document.h"
#include "policy/k8s/field_reader.h"
#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"
#include "policy/k8s/workload.h"

namespace draguard::k8s::internal {

// Reads `metadata` of `object` (declares apiVersion and kind as known too).
void ReadTypeAndMeta(MapReader& object, ObjectMeta* meta);
void ReadObjectMeta(MapReader& reader, ObjectMeta* meta);
void ReadNodeSelector(MapReader& reader, NodeSelector* out);
void ReadOpaque(MapReader& reader, OpaqueDeviceConfiguration* out);
void ReadTolerations(MapReader& reader, std::vector<DeviceToleration>* out);

void ReadClaimSpec(MapReader& spec, std::string_view version, ResourceClaimSpec* out);

ResourceClaim DecodeResourceClaim(const DocNode& root, std::string_view version,
                                  DecodeContext& ctx);
ResourceClaimTemplate DecodeResourceClaimTemplate(const DocNode& root, std::string_view version,
                                                  DecodeContext& ctx);
DeviceClass DecodeDeviceClass(const DocNode& root, DecodeContext& ctx);
ResourceSlice DecodeResourceSlice(const DocNode& root, std::string_view version,
                                  DecodeContext& ctx);
DeviceTaintRule DecodeDeviceTaintRule(const DocNode& root, DecodeContext& ctx);

// Pods and workloads: only the claim-related parts are read; other fields pass unchecked,
// except that keys of the pod spec and of container resources must be known fields.
// Returns false (nothing to decode) when `kind` has no pod template.
bool DecodeWorkload(const DocNode& root, std::string_view kind, DecodeContext& ctx,
                    Workload* out);
Node DecodeNode(const DocNode& root, DecodeContext& ctx);
Namespace DecodeNamespace(const DocNode& root, DecodeContext& ctx);

}  // namespace draguard::k8s::internal

#endif  // DRAGUARD_POLICY_K8S_DECODE_INTERNAL_H_
