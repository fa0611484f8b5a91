// The parts of Pods and workload pod templates that reference ResourceClaims.
#ifndef DRAGUARD_POLICY_K8S_WORKLOAD_H_
#define DRAGUARD_POLICY_K8S_WORKLOAD_H_

#include <optional>
#include <string>
#include <vector>

#include "policy/k8s/meta.h"

namespace draguard::k8s {

// pod.spec.resourceClaims[i]
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
  bool uses_removed_source_wrapper = false;  // the pre-1.28 `source:` form
};

// containers[].resources.claims[j]
struct ContainerResourceClaim {
  std::string name;
  std::string request;  // optional in the API; empty = all requests
};

struct ContainerClaims {
  std::string container_name;
  bool init_container = false;
  std::vector<ContainerResourceClaim> claims;
};

// A pod spec and where it sits in its document: `spec` for a Pod, `spec.template.spec` for
// a Deployment, `spec.jobTemplate.spec.template.spec` for a CronJob, ... `spec_path` is the
// field path of the pod spec, used to build diagnostics.
struct PodSpecRefs {
  std::string spec_path;
  std::vector<PodResourceClaim> resource_claims;
  std::vector<ContainerClaims> containers;  // containers then initContainers
};

// A Pod or a workload with a pod template (Deployment, StatefulSet, DaemonSet, ReplicaSet,
// Job, CronJob).
struct Workload {
  std::string api_version;
  std::string kind;
  ObjectMeta metadata;
  PodSpecRefs pod;
};

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_WORKLOAD_H_
