// Pods read from a live cluster, made ready for the object pipeline: `draguard explain
// pod/NAME`, `explain --pending` (and `capacity pod/NAME`).
//
// A LivePod carries the pod and the ResourceClaimTemplates it still needs as one YAML stream
// (`text`) to decode like a file: a pod claim whose claim was generated from a template
// (status.resourceClaimStatuses) is rewritten to name the generated ResourceClaim, which the
// snapshot holds, so that an allocated one is skipped and an unallocated one is checked with
// its own spec; a template whose claim does not exist yet is fetched and checked instead.
// Allocated claims are listed with their allocation, not re-checked.
//
// PodPlacement is what kube-scheduler's node filters read of the pod (nodeName, nodeSelector,
// required node affinity, tolerations); NodeExclusion says why a node is out for the pod,
// which the device allocator alone cannot see.
#ifndef DRAGUARD_WEBHOOK_KUBE_LIVE_PODS_H_
#define DRAGUARD_WEBHOOK_KUBE_LIVE_PODS_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/common/status_or.h"
#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"
#include "webhook/kube/cluster_snapshot.h"

namespace draguard::webhook::kube {

struct Toleration {
  std::string key;
  std::string op = "Equal";  // Equal or Exists
  std::string value;
  std::string effect;  // empty: every effect
};

struct NodeSelectorExpression {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;
  bool field = false;  // matchFields (metadata.name) instead of matchExpressions
};

struct PodPlacement {
  std::string node_name;                        // spec.nodeName
  std::map<std::string, std::string> node_selector;
  // spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: terms ORed,
  // the expressions of a term ANDed. nullopt: no required affinity.
  std::optional<std::vector<std::vector<NodeSelectorExpression>>> required_terms;
  std::vector<Toleration> tolerations;
};

struct AllocatedPodClaim {
  std::string pod_claim;   // spec.resourceClaims[].name
  std::string claim_name;  // the ResourceClaim
  k8s::AllocationResult allocation;
};

struct LivePod {
  std::string name_space;
  std::string name;
  std::string phase;
  // The pod (rewritten as above) and the templates it needs, "---"-separated JSON documents.
  std::string text;
  std::vector<AllocatedPodClaim> allocated;
  // Pod claims whose claim is not allocated (or not created yet).
  size_t unallocated = 0;
  PodPlacement placement;
};

struct LivePodOptions {
  // A new copy of the pod rather than the pod itself (`draguard capacity pod/NAME`): every
  // template claim is read from its template, as a new copy gets claims of its own, even where
  // the pod's generated claim exists; named claims stay shared.
  bool new_copy = false;
};

// Reads pod `name` of `name_space` and what it refers to. NotFound when the pod does not
// exist; InvalidArgument when it has no resource claims.
StatusOr<LivePod> LoadLivePod(ClusterReader& reader, const ClusterSnapshot& snapshot,
                              const std::string& name_space, const std::string& name,
                              const LivePodOptions& options = {});

// Every Pending pod of `name_space` (empty: all namespaces) with at least one unallocated
// claim, sorted by namespace and name.
StatusOr<std::vector<LivePod>> LoadPendingPods(ClusterReader& reader,
                                               const ClusterSnapshot& snapshot,
                                               const std::string& name_space);

// Builds a LivePod from a Pod's JSON (no network: templates still needed are fetched by the
// callers above through `fetch_template`, which returns the template's JSON or an error).
StatusOr<LivePod> PrepareLivePod(
    const std::string& pod_json, const ClusterSnapshot& snapshot,
    const std::function<StatusOr<std::string>(const std::string& ns, const std::string& name)>&
        fetch_template,
    const LivePodOptions& options = {});

// Why `node` cannot run the pod, as kube-scheduler's NodeName, NodeUnschedulable,
// NodeAffinity and TaintToleration filters decide; nullopt when it can.
std::optional<std::string> NodeExclusion(const PodPlacement& placement, const k8s::Node& node,
                                         const NodeScheduling* scheduling);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_LIVE_PODS_H_
