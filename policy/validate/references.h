// Cross-object reference checks for lint (issue 2 item 6), over all decoded inputs together:
//  - a pod's resourceClaimName / resourceClaimTemplateName names a ResourceClaim /
//    ResourceClaimTemplate among the inputs;
//  - every container claim names an entry of the pod's resourceClaims (error, as the API
//    server's Pod validation: `Not found`);
//  - a container claim's `request` exists in the referenced claim or template when that
//    object is among the inputs (error);
//  - every deviceClassName of a claim or template names a DeviceClass among the inputs.
// Cluster objects given besides the inputs (lint --inventory: DeviceClasses, ResourceClaims)
// count as existing, and a cluster export holds every object of its kinds. A name that is
// missing is a warning (`refs.*.not-found`, with the closest name as suggestion) when the
// inventory holds that kind, when an input object of that kind has a close name (a likely
// typo), or, for claims and templates, when one of that name is in another namespace.
// Otherwise it may well exist in the cluster (a driver's chart installs its DeviceClasses;
// repositories keep claims elsewhere): such references are summed up in one info per kind and
// run (`refs.*.unchecked`, on the first of them), not warned about one by one.
// Objects match by namespace and name; an empty namespace is treated as "default". When
// several inputs define the same claim or template, the one in the referring object's group
// wins; if none is in that group and they differ, the request check is skipped rather than
// guessed.
#ifndef DRAGUARD_POLICY_VALIDATE_REFERENCES_H_
#define DRAGUARD_POLICY_VALIDATE_REFERENCES_H_

#include <cstddef>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/workload.h"

namespace draguard::validate {

// A decoded object and the ObjectRef that its diagnostics carry. Non-owning: the object must
// outlive the call it is passed to.
template <typename T>
struct ObjectInput {
  const T* object = nullptr;
  ObjectRef ref;
  // Where the object came from (lint: the index of its file). A reference resolves to an
  // object of the same group first: example folders often define the same template in
  // several files, each next to the pod that uses it.
  size_t group = 0;
};

struct ReferenceInputs {
  std::vector<ObjectInput<k8s::Workload>> workloads;
  std::vector<ObjectInput<k8s::ResourceClaim>> claims;
  std::vector<ObjectInput<k8s::ResourceClaimTemplate>> templates;
  std::vector<ObjectInput<k8s::DeviceClass>> classes;
  // Cluster objects known besides the inputs (not owned; null when none were given).
  const std::vector<k8s::DeviceClass>* cluster_classes = nullptr;
  const std::vector<k8s::ResourceClaim>* cluster_claims = nullptr;
};

// Appends the findings to `diagnostics`, each with `object` set to the referring object's
// ref and `field` set to the referring field's path.
void CheckReferences(const ReferenceInputs& inputs, Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_REFERENCES_H_
