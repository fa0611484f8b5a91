// ClusterObjects: the cluster state that checks beyond API-server validation read.
//
// The schema checks learn attribute types from `slices`; the allocator checks claims against
// all of it. Who fills it does not matter to them: `draguard lint --inventory` and `explain`
// decode files, `draguard serve` keeps it current from files or a Kubernetes watch. Once
// built it is immutable and shared as std::shared_ptr<const ClusterObjects>, so a request
// keeps the snapshot it started with while a newer one is swapped in.
//
// Each object is held by a shared pointer to an immutable object (SharedList), read like a
// const std::vector of the objects: successive snapshots share the objects that did not
// change (the webhook's file and Kubernetes sources reuse them from the previous snapshot),
// so a snapshot that differs by one slice holds one new slice rather than a second copy of
// the inventory, and consumers may recognise an unchanged object by its pointer
// (SharedList::ptr; alloc::Inventory::Build carries what it derived from such slices).
#ifndef DRAGUARD_POLICY_INVENTORY_CLUSTER_OBJECTS_H_
#define DRAGUARD_POLICY_INVENTORY_CLUSTER_OBJECTS_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "policy/common/shared_list.h"
#include "policy/k8s/decode.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::inventory {

struct ClusterObjects {
  SharedList<k8s::ResourceSlice> slices;
  SharedList<k8s::DeviceClass> classes;
  SharedList<k8s::Node> nodes;
  // Every claim seen; only those with status.allocation mark devices in use.
  SharedList<k8s::ResourceClaim> claims;
  SharedList<k8s::DeviceTaintRule> taint_rules;
  SharedList<k8s::Namespace> namespaces;

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
// The same without a copy: `into` shares the object (an immutable one: the webhook's informer
// cache keeps each object so and hands the same one to each snapshot until it changes).
// `object` must not be null.
bool ShareClusterObject(const std::shared_ptr<const k8s::ObjectVariant>& object,
                        ClusterObjects& into);

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
