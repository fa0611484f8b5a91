// Satisfiability of the claims among decoded inputs against a cluster inventory: what
// `draguard explain` prints and `draguard lint --inventory` reports as `alloc.unsatisfiable`.
//
// Subjects, in input order: every ResourceClaim without status.allocation, every
// ResourceClaimTemplate, and every Pod or workload with pod-level claims (all its
// unallocated claims checked together, as the scheduler does for one pod). Claims are
// API-defaulted (allocationMode, count) before checking. A pod claim naming a claim or
// template that is not among the inputs cannot be checked; the pod's verdict is then
// `error` with reason `alloc.claim.not-found`. Objects the API server rejects (given as
// validate_stage.h's ObjectErrors) are never allocated: their verdict is `error` with their
// errors, and a pod claim naming one gets `error` with reason `alloc.claim.invalid`.
//
// The cluster is the --inventory objects plus the cluster objects among the inputs
// (DeviceClasses, ResourceSlices, Nodes, allocated claims, DeviceTaintRules); an input object
// replaces an inventory object of the same kind, namespace and name.
//
// Thread-compatible. Never throws; allocator budget limits come from the options.
#ifndef DRAGUARD_POLICY_PIPELINE_SATISFIABILITY_STAGE_H_
#define DRAGUARD_POLICY_PIPELINE_SATISFIABILITY_STAGE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/common/diagnostic.h"
#include "policy/common/timings.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "policy/pipeline/validate_stage.h"

namespace draguard::pipeline {

struct SatisfiabilityOptions {
  // Version, gates and search budget (per subject).
  alloc::AllocatorOptions allocator;
  // Severity of `alloc.unsatisfiable` in lint (--unsatisfiable=warning|error).
  Severity unsatisfiable_severity = Severity::kWarning;
  // When set (--timings), the stage records its phases: merging the inputs' cluster objects
  // into the snapshot, building the allocator's inventory, the checks.
  Timings* timings = nullptr;
  // Keep AllocationVerdict::feasible_nodes (the names); without, only feasible_node_count:
  // on a fleet the names of 5,000 feasible nodes per claim outweigh the inventory.
  bool feasible_node_names = true;
};

struct SatisfiabilityResult {
  const k8s::DecodedObject* object = nullptr;  // the subject, in the decoded inputs
  ObjectRef ref;
  // Where a lint diagnostic goes: the claim's spec.devices, or the pod's resourceClaims.
  std::string field;
  // Pod subjects: the pod-level claim names checked together (verdict.allocations and
  // Reason::claim follow this order). Claims and templates: empty.
  std::vector<std::string> pod_claims;
  alloc::AllocationVerdict verdict;
  // The subject's own errors (decoding and API-server validation, located) when the API server
  // would reject it: the verdict is then `error` without reasons, and nothing was allocated.
  std::vector<Diagnostic> errors;
};

// One subject with the claims to allocate together (CheckSatisfiability's first half, for
// callers that allocate differently: `draguard capacity`).
struct Subject {
  // Everything but the verdict; when `claims` is empty the verdict (error) and errors are
  // already final: the subject cannot be allocated.
  SatisfiabilityResult result;
  // API-defaulted: the claim or template's spec, or the pod's unallocated claims in
  // result.pod_claims order.
  std::vector<k8s::ResourceClaimSpec> claims;
  bool pod = false;
};

// The subjects among `decoded`, in input order, with their claims resolved against the
// inputs and `cluster`'s claims; `rejected` as for CheckSatisfiability. Pointers into
// `decoded`.
std::vector<Subject> CollectSubjects(const std::vector<k8s::DecodeResult>& decoded,
                                     const inventory::ClusterObjects& cluster,
                                     const ObjectErrors* rejected = nullptr);

// A claim or template that a pod claim names, as CollectSubjects resolves it.
struct NamedSpec {
  const k8s::ResourceClaimSpec* spec = nullptr;  // as written (defaulted when resolved)
  bool allocated = false;                        // a claim with status.allocation
  bool rejected = false;                         // the API server rejects it
};
// Finds the claim (is_template false) or template a pod claim names, by namespace and name:
// the first among the inputs, then (claims only) the inventory's. nullopt: not found.
using PodClaimLookup = std::function<std::optional<NamedSpec>(
    bool is_template, const std::string& ns, const std::string& name)>;

// The subject `object` is (nullopt: none), its pod claims resolved through `lookup`;
// `errors` (may be null: none) are its own errors when the API server rejects it. Pointers
// into `object`.
std::optional<Subject> SubjectOf(const k8s::DecodedObject& object,
                                 const std::vector<Diagnostic>* errors,
                                 const PodClaimLookup& lookup);
// The pod-subject half of SubjectOf for a pod known by its namespace (metadata as written)
// and pod-level claims, with `s` (result.field set) to fill: false when the pod has no
// unallocated claim to check (no subject).
bool ResolvePodClaims(const std::string& name_space,
                      const std::vector<k8s::PodResourceClaim>& pod_claims,
                      const PodClaimLookup& lookup, Subject& s);
// The field a pod subject's diagnostic goes to.
std::string PodClaimsField(const k8s::Workload& workload);

// The inventory objects (may be null) with the cluster objects among `decoded` merged in.
inventory::ClusterObjects MergeClusterObjects(const inventory::ClusterObjects* inventory,
                                              const std::vector<k8s::DecodeResult>& decoded);
// The same, merging into `inventory` (taken over) instead of a copy.
inventory::ClusterObjects MergeClusterObjects(inventory::ClusterObjects&& inventory,
                                              const std::vector<k8s::DecodeResult>& decoded);

// Merges `claims` (the inputs' claims, in input order) into `into` as MergeClusterObjects
// does: each replaces the claim of the same namespace and name, or is appended.
void MergeClaims(SharedList<k8s::ResourceClaim>& into, std::vector<k8s::ResourceClaim> claims);

// Checks every subject among `decoded` against `cluster`; `rejected` (may be null: none)
// holds the errors of the objects among `decoded` that the API server rejects. Results stay
// valid as long as `decoded` does.
std::vector<SatisfiabilityResult> CheckSatisfiability(const std::vector<k8s::DecodeResult>& decoded,
                                                      const inventory::ClusterObjects& cluster,
                                                      const alloc::AllocatorOptions& options,
                                                      const ObjectErrors* rejected = nullptr);

// The same, taking `cluster` over (the allocator's inventory keeps it instead of a copy: a
// fleet's slices are the largest objects a run holds); `timings` (may be null) records the
// inventory build and the checks.
std::vector<SatisfiabilityResult> CheckSatisfiability(
    const std::vector<k8s::DecodeResult>& decoded,
    std::shared_ptr<const inventory::ClusterObjects> cluster,
    const alloc::AllocatorOptions& options, const ObjectErrors* rejected,
    Timings* timings = nullptr, bool feasible_node_names = true);

// One `alloc.unsatisfiable` diagnostic (unsatisfiable or error verdicts) or info
// `alloc.undecided` (budget exhausted) per result that is not satisfiable, located in its
// object. The message quotes the reasons. Results with `errors` give nothing: the errors
// themselves are the finding.
std::vector<Diagnostic> SatisfiabilityDiagnostics(const std::vector<SatisfiabilityResult>& results,
                                                  Severity unsatisfiable_severity);
// The diagnostic of one result (nullopt: satisfiable, or rejected), located in r.object when
// set.
std::optional<Diagnostic> SatisfiabilityDiagnostic(const SatisfiabilityResult& r,
                                                   Severity unsatisfiable_severity);

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_SATISFIABILITY_STAGE_H_
