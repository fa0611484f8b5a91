// Capacity: how many MORE copies of a claim (or of a pod's claims) a cluster can allocate
// right now, per node and in total, decided by the bundled allocator (policy/allocator).
//
// Per node. The count of node N is the largest k such that k copies fit on N together, with
// the devices, counters and capacity that allocated claims already use, constraints, admin
// access and device taints respected: exactly what alloc::CheckPod decides for k copies
// (copies never share a device, except with admin access). Fitting is monotone (k+1 copies
// that fit contain k copies that fit), so the counts are found with probes of CheckPod:
// k = 1, 2, 4, ... until no node fits, then a binary search inside each node's bracket
// [last k that fit, first k that failed). One probe decides every node, and nodes with equal
// allocation problems (the allocator's node signatures) are searched once per probe. The
// allocator is a complete search per claim set, so "k+1 copies fail on N" proves k is N's
// answer. Cost: O(log K) probes for the exponential phase plus O(log K) per distinct bracket
// (K the largest count), each probe one CheckPod of k copies.
//
// Total. Copies on different nodes use disjoint devices when every device they can use is
// local to one node (a slice with spec.nodeName whose pool names no other node): then the
// total is the sum of the node counts. Devices visible from several nodes (network-attached
// pools: nodeSelector, allNodes, per-device node selection; or a pool spread over nodes)
// would be counted once per node by that sum, so then:
//   - lower bound: a real placement, built greedily. First every node takes as many copies
//     as its local devices alone allow (independent between nodes), those allocations are
//     committed, then node after node (by name) takes as many more as fit on what is left,
//     committing each. Every step is an allocator verdict against the committed state, so
//     the placement exists.
//   - upper bound: the smaller of the sum of node counts and the count on one imaginary node
//     that sees every device of every schedulable node (any placement on real nodes is a
//     placement there). Not used for claims with allocationMode All (more devices can make
//     them fail), where the sum is the bound.
// `total` is the lower bound; `total_exact` says whether it met the upper bound.
//
// Budget. Every probe has the allocator's budget (options.allocator time_budget, max_steps).
// A probe that runs out decides nothing for the nodes it did not reach: their count stays at
// the last k known to fit and is marked inexact (a lower bound), never guessed. Counts stop at
// options.max_copies (also a lower bound; claims of admin-access requests only never run out).
//
// Admin access. Allocated admin-access results mark no device in use (upstream), so copies
// allocated one after another can outnumber those that fit together in one CheckPod (which
// still keeps a pod's claims apart where counters are concerned): the node counts keep the
// "together" definition, and the total of such claims is a lower bound without upper bound.
//
// Unschedulable nodes (Node spec.unschedulable, e.g. a drain) count 0 and see nothing.
//
// Thread-compatible; never throws.
#ifndef DRAGUARD_POLICY_CAPACITY_CAPACITY_H_
#define DRAGUARD_POLICY_CAPACITY_CAPACITY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/allocator/selector.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::capacity {

struct CapacityOptions {
  // Version, gates and the budget of each probe.
  alloc::AllocatorOptions allocator;
  // Counts stop here (reported inexact).
  int64_t max_copies = 512;
};

struct NodeCapacity {
  std::string name;
  int64_t count = 0;
  // False: `count` is a lower bound (budget or max_copies reached).
  bool exact = true;
  bool unschedulable = false;
};

struct CapacityResult {
  // Every node of the cluster, sorted by name (unschedulable ones with count 0).
  std::vector<NodeCapacity> nodes;
  // Copies the cluster can allocate together (a placement exists).
  int64_t total = 0;
  // Whether `total` is the maximum; if not, the maximum is at most `upper_bound` (-1: no
  // bound known: budget, max_copies, or admin access).
  bool total_exact = true;
  int64_t upper_bound = 0;
  // Devices visible from several nodes could serve the copies (the total is not the sum).
  bool shared_devices = false;
  // The verdict for one copy: its reasons explain a total of 0 (as `explain` shows them).
  alloc::AllocationVerdict one_copy;
  // Allocator calls made.
  int64_t probes = 0;
};

// Counts copies of `claims` (one claim, or a pod's unallocated claims, API-defaulted as
// alloc::CheckPod wants them) on `cluster`. `evaluator` evaluates CEL selectors (the same
// one alloc::CheckPod takes).
CapacityResult CountCopies(const inventory::ClusterObjects& cluster,
                           const std::vector<k8s::ResourceClaimSpec>& claims,
                           alloc::SelectorEvaluator& evaluator, const CapacityOptions& options);

}  // namespace draguard::capacity

#endif  // DRAGUARD_POLICY_CAPACITY_CAPACITY_H_
