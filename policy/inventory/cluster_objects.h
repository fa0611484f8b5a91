// ClusterObjects: the cluster state that checks beyond API-server validation read.
//
// The schema checks learn attribute types from `slices`; the allocator checks claims against
// all of it. Who fills it does not matter to them: `draguard lint --inventory` and `explain`
// decode files, `draguard serve` keeps it current from files or a Kubernetes watch. Once
// built it is immutable and shared as std::shared_ptr<const ClusterObjects>, so a request
// keeps the snapshot it started with while a newer one is swapped in.
#ifndef DRAGUARD_POLICY_INVENTORY_CLUSTER_OBJECTS_H_
#define DRAGUARD_POLICY_INVENTORY_CLUSTER_OBJECTS_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "policy/k8s/decode.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::inventory {

struct ClusterObjects {
  std::vector<k8s::ResourceSlice> slices;
  std::vector<k8s::DeviceClass> classes;
  std::vector<k8s::Node> nodes;
  // Every claim seen; only those with status.allocation mark devices in use.
  std::vector<k8s::ResourceClaim> claims;
  std::vector<k8s::DeviceTaintRule> taint_rules;
  std::vector<k8s::Namespace> namespaces;

  // Where the objects came from, for messages and metrics ("files: examples/inventory",
  // "kubernetes API").
  std::string source;
  // When they were last known to match their source.
  std::chrono::system_clock::time_point as_of{};

  // Number of devices over all slices.
  size_t DeviceCount() const;
  bool empty() const;
};

// Appends the cluster-state objects among `decoded` (ResourceSlice, DeviceClass, Node,
// ResourceClaim, DeviceTaintRule, Namespace); every other kind is ignored. Templates and
// workloads are not cluster state: they are what gets checked.
void CollectClusterObjects(const k8s::DecodeResult& decoded, ClusterObjects& into);
// The same, moving the objects out of `decoded` (left with moved-from objects; its
// diagnostics stay): an inventory file's decode result is not needed after.
void CollectClusterObjects(k8s::DecodeResult&& decoded, ClusterObjects& into);

// Appends one decoded object if it is cluster state. Returns whether it was.
bool CollectClusterObject(const k8s::ObjectVariant& object, ClusterObjects& into);

// Calls f(into.<list>, from.<list>) for each kind's list (slices, classes, nodes, claims,
// taint_rules, namespaces): the one place that lists the kinds, for code that combines two
// sets of cluster objects kind by kind. `From` is ClusterObjects, const or not.
template <typename From, typename F>
void ForEachKind(ClusterObjects& into, From& from, F&& f) {
  f(into.slices, from.slices);
  f(into.classes, from.classes);
  f(into.nodes, from.nodes);
  f(into.claims, from.claims);
  f(into.taint_rules, from.taint_rules);
  f(into.namespaces, from.namespaces);
}

}  // namespace draguard::inventory

#endif  // DRAGUARD_POLICY_INVENTORY_CLUSTER_OBJECTS_H_
