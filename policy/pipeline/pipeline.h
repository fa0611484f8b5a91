// The object pipeline: the one place that says which checks run on a Kubernetes object, in
// which order, and what each may read. `draguard lint` runs it over a batch of decoded files,
// `draguard explain` over the same batch with only the stages it prints, and the admission
// webhook over the single object of each request (object_pipeline.h); the live-cluster
// commands run it against a snapshot read from the API server (a ClusterObjects, like the
// --inventory files).
//
// Stages, in order (kStages is this table as data; docs/architecture.md shows it too):
//
//   stage           reads                                                  skips an object that
//   --------------  -----------------------------------------------------  --------------------
//   decode          (the caller's: lint decodes files with positions, the  -
//                   webhook the review's JSON) -> k8s::DecodedObject
//   validate        the object (and its old version on UPDATE), release,   -
//                   feature gates, namespace labels (Namespace objects among
//                   the inputs < options), the CEL selector compiler
//   references      every input object, the snapshot's classes and claims  (batch only)
//   schema          the object, the attribute schema (catalog, --schema    batch: nothing;
//                   files, slices of snapshot and inputs), the classes      single: was rejected,
//                                                                          or is an UPDATE that
//                                                                          is no DeviceClass
//   satisfiability  the object, the snapshot merged with the inputs'       was rejected (its
//                   cluster objects, allocator options                     errors stand), or an
//                                                                          UPDATE (single)
//   policy          the diagnostics, the policy file (and lint's inline    -
//                   `# draguard:ignore` comments): applied by the caller
//                   last, since lint applies them after sorting files in
//
// "Rejected" means: validation (or decoding) found an error, so the API server never stores
// the object; nothing is allocated for it. The batch schema stage still checks rejected
// objects (lint reports every finding at once); the webhook stops at the first stage with an
// error, because the API server has already refused the object (docs/architecture.md,
// "One object pipeline", records this difference).
//
// Thread-compatible; RunBatch may use `jobs` threads internally. Never throws for bad input.
#ifndef DRAGUARD_POLICY_PIPELINE_PIPELINE_H_
#define DRAGUARD_POLICY_PIPELINE_PIPELINE_H_

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "policy/pipeline/satisfiability_stage.h"
#include "policy/pipeline/schema_stage.h"
#include "policy/validate/options.h"

namespace draguard::pipeline {

enum class Stage { kDecode, kValidate, kReferences, kSchema, kSatisfiability, kPolicy };

struct StageInfo {
  Stage stage;
  std::string_view name;
  std::string_view reads;
  // Runs for the single object of an admission request (object_pipeline.h).
  bool single = true;
  // Runs for an object with errors (decoding or validation) in a batch / for one object.
  bool batch_after_errors = true;
  bool single_after_errors = true;
};

// The stage table above, in execution order.
inline constexpr std::array<StageInfo, 6> kStages = {{
    {Stage::kDecode, "decode", "source text or review JSON, decode options, release"},
    {Stage::kValidate, "validate",
     "object, old object on UPDATE, release, gates, namespace labels, selector compiler"},
    {Stage::kReferences, "references", "all input objects, snapshot classes and claims",
     /*single=*/false},
    {Stage::kSchema, "schema", "object, attribute schema (catalog, files, slices), classes",
     /*single=*/true, /*batch_after_errors=*/true, /*single_after_errors=*/false},
    {Stage::kSatisfiability, "satisfiability",
     "object, snapshot merged with input cluster objects, allocator options", /*single=*/true,
     /*batch_after_errors=*/false, /*single_after_errors=*/false},
    {Stage::kPolicy, "policy", "diagnostics, policy file, inline ignore comments (caller)"},
}};

// The entry of `stage` in kStages.
const StageInfo& InfoOf(Stage stage);

// Which optional stages a batch runs; decode, validate and policy always run (policy by the
// caller).
struct StageSelection {
  bool references = true;
  bool schema = true;
  // Runs only with a snapshot (RunBatch's `snapshot` non-null): claims are checked against
  // the cluster's devices.
  bool satisfiability = true;
};

struct PipelineOptions {
  StageSelection stages;
  // Release, gates, namespace labels given by the caller (they win over Namespace objects
  // among the inputs, key by key), the CEL selector hook (unset: the CEL compiler) and limits.
  validate::ValidationOptions validation;
  SchemaPhaseOptions schema;
  SatisfiabilityOptions satisfiability;
  // Threads for the per-file work of the validate and schema stages (1: the calling thread).
  size_t jobs = 1;
};

// What a batch produced, stage by stage; the caller applies the policy stage and sorts.
struct BatchResult {
  // Per input file, in order: its decoding diagnostics, then the validation findings of each
  // of its objects, located.
  std::vector<std::vector<Diagnostic>> per_file;
  // The references, schema and satisfiability stages' diagnostics, in that order, located
  // where the object is among the inputs.
  std::vector<Diagnostic> cross_object;
  // One per satisfiability subject (satisfiability_stage.h), in input order; empty when the
  // stage did not run. Pointers into `decoded`.
  std::vector<SatisfiabilityResult> satisfiability;
};

// Runs the stages after decode over `decoded` (one DecodeResult per input file) against the
// cluster `snapshot` (may be null: no cluster state; then satisfiability does not run).
BatchResult RunBatch(const std::vector<k8s::DecodeResult>& decoded,
                     const inventory::ClusterObjects* snapshot, const PipelineOptions& options);
// The same with a snapshot the batch takes over: the satisfiability stage merges the inputs'
// cluster objects into it and the allocator keeps it, instead of copies (a fleet's slices are
// the largest objects of a run: `explain --inventory`).
BatchResult RunBatch(const std::vector<k8s::DecodeResult>& decoded,
                     inventory::ClusterObjects&& snapshot, const PipelineOptions& options);

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_PIPELINE_H_
