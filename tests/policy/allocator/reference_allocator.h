// TEST-ONLY. A slow, obviously correct reference allocator, in the spirit of RE2's
// backtrack.cc: it enumerates every assignment of devices to request slots on every node
// and checks each complete assignment against the rules, with no pruning at all. It is
// exponential; use it only on tiny inventories.
//
// Supported subset (the random generators stay inside it): slices with nodeName or allNodes,
// one slice per pool at one generation (complete), class and request selectors, ExactCount
// and All (not inside firstAvailable), firstAvailable, matchAttribute and distinctAttribute
// (string lists with set semantics under DRAListTypeAttributes), devices in use, admin access,
// taints with tolerations (effects per release), counters in the devices' own slice (1.34
// layout), and the scheduler's two errors: a claim over max_results_per_claim before the
// search, and an All request whose device breaks a constraint (reached in device order with a
// valid partial allocation; issue #19 item 23).
#ifndef DRAGUARD_TESTS_POLICY_ALLOCATOR_REFERENCE_ALLOCATOR_H_
#define DRAGUARD_TESTS_POLICY_ALLOCATOR_REFERENCE_ALLOCATOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "policy/allocator/inventory.h"  // InventoryInput
#include "policy/allocator/options.h"
#include "policy/allocator/selector.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc::testing {

enum class ReferenceVerdict { kSatisfiable, kUnsatisfiable, kError, kTooLarge };

struct ReferenceResult {
  ReferenceVerdict verdict = ReferenceVerdict::kUnsatisfiable;
  // Every node that can allocate all claims, sorted; "" stands for the only node of an
  // inventory that names none.
  std::vector<std::string> feasible_nodes;
};

// Which nodes can allocate all `claims` together, computed from the raw objects only. When
// the assignments to enumerate (over all nodes) exceed `max_assignments`, nothing is
// searched and the verdict is kTooLarge: the enumeration is exponential.
ReferenceResult ReferenceCheck(const InventoryInput& input,
                               const std::vector<k8s::ResourceClaimSpec>& claims,
                               SelectorEvaluator& evaluator, const AllocatorOptions& options,
                               int64_t max_assignments);

}  // namespace draguard::alloc::testing

#endif  // DRAGUARD_TESTS_POLICY_ALLOCATOR_REFERENCE_ALLOCATOR_H_
