// The claims of one check, validated and flattened for the search (the up-front checks of
// allocator_*.go `Allocate` and `validateDeviceRequest`).
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_PLAN_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "policy/allocator/inventory.h"
#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::alloc::internal {

// One way to satisfy a request: the request itself, or one firstAvailable subrequest.
struct Alternative {
  std::string name;     // "req" or "req/sub": the result's `request`
  std::string request;  // "req"
  const k8s::DeviceRequestCommon* common = nullptr;
  const k8s::DeviceClass* device_class = nullptr;
  bool admin = false;
  bool all = false;
  int64_t count = 1;  // ExactCount only
  size_t id = 0;      // dense over the whole plan: selector memo and per-node candidates
  size_t claim = 0;   // index of the claim among those checked together
  size_t sub_index = 0;  // index among the request's firstAvailable subrequests
  // Whose selector results decide which devices this alternative selects: null for its own.
  // Set only where the release's scheduler mixes them up (1.34/1.35 firstAvailable with
  // All, AllocatorSemantics::first_available_all_fixed false).
  const Alternative* selection = nullptr;
};

struct PlannedRequest {
  std::vector<Alternative> alternatives;  // tried in order
  int64_t min_count = 1;                  // smallest count of an alternative (All: 1)
  bool first_available = false;           // alternatives are firstAvailable subrequests
};

struct PlannedConstraint {
  bool match = true;  // matchAttribute, else distinctAttribute
  std::string attribute;
  size_t attribute_id = 0;            // index into Plan::attributes
  std::vector<std::string> requests;  // empty: all
  bool Covers(const Alternative& alt) const;
};

struct PlannedClaim {
  const k8s::ResourceClaimSpec* spec = nullptr;
  std::vector<PlannedRequest> requests;
  std::vector<PlannedConstraint> constraints;
  std::vector<int64_t> min_after;  // min_after[r]: least results requests r.. still need
};

struct Plan {
  std::vector<PlannedClaim> claims;
  std::vector<const Alternative*> alternatives;  // by Alternative::id
  std::vector<std::string> attributes;           // distinct constraint attributes
};

// Validates the claims against the inventory's classes and the gates. Problems that make the
// scheduler fail are appended to `reasons` with the verdict they imply in `kind`; returns
// false when the search must not run.
bool BuildPlan(const Inventory& inventory, const std::vector<const k8s::ResourceClaimSpec*>& claims,
               const AllocatorOptions& options, Plan& plan, VerdictKind& kind,
               std::vector<Reason>& reasons);

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_PLAN_H_
