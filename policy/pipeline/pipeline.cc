#include "policy/pipeline/pipeline.h"

#include <memory>
#include <optional>
#include <utility>

#include "policy/pipeline/gated_fields.h"
#include "policy/pipeline/parallel.h"
#include "policy/pipeline/references_stage.h"
#include "policy/pipeline/validate_stage.h"

namespace draguard::pipeline {
namespace {

void Append(std::vector<Diagnostic> from, std::vector<Diagnostic>& into) {
  for (Diagnostic& d : from) into.push_back(std::move(d));
}

}  // namespace

const StageInfo& InfoOf(Stage stage) {
  for (const StageInfo& info : kStages) {
    if (info.stage == stage) return info;
  }
  return kStages.front();  // unreachable: every Stage is in the table
}

namespace {

// RunBatch; with `owned` (== snapshot) the satisfiability stage may take the snapshot over.
BatchResult Run(const std::vector<k8s::DecodeResult>& decoded,
                const inventory::ClusterObjects* snapshot, inventory::ClusterObjects* owned,
                const PipelineOptions& options) {
  const size_t n = decoded.size();
  BatchResult result;
  // validate
  const validate::ValidationOptions validation = ValidationFor(decoded, options.validation);
  result.per_file.resize(n);
  ParallelFor(n, options.jobs,
              [&](size_t i) { result.per_file[i] = ValidateFile(decoded[i], validation); });
  // references
  if (options.stages.references) {
    Append(CheckReferencesStage(decoded, snapshot), result.cross_object);
  }
  // schema (objects with errors too: InfoOf(Stage::kSchema).batch_after_errors)
  if (options.stages.schema) {
    Append(CheckSchemaPhase(decoded, snapshot, options.schema, options.jobs),
           result.cross_object);
  }
  // satisfiability: never for what the API server rejects
  if (options.stages.satisfiability && snapshot != nullptr) {
    const ObjectErrors rejected = ErrorsByObject(decoded, result.per_file);
    Timings* timings = options.satisfiability.timings;
    std::optional<Timings::Scope> phase(std::in_place, timings,
                                        "satisfiability: merge inputs into the snapshot");
    // The cluster as created with the release's gates: what validation reports as `*.dropped`
    // is gone from the objects allocated from (gated_fields.h).
    auto cluster = std::make_shared<inventory::ClusterObjects>(
        owned != nullptr ? MergeClusterObjects(std::move(*owned), decoded)
                         : MergeClusterObjects(snapshot, decoded));
    DropDisabledFields(*cluster, validation);
    phase.reset();
    result.satisfiability = CheckSatisfiability(
        decoded, std::move(cluster), options.satisfiability.allocator, &rejected, timings,
        options.satisfiability.feasible_node_names);
    Append(SatisfiabilityDiagnostics(result.satisfiability,
                                     options.satisfiability.unsatisfiable_severity),
           result.cross_object);
  }
  return result;
}

}  // namespace

BatchResult RunBatch(const std::vector<k8s::DecodeResult>& decoded,
                     const inventory::ClusterObjects* snapshot, const PipelineOptions& options) {
  return Run(decoded, snapshot, nullptr, options);
}

BatchResult RunBatch(const std::vector<k8s::DecodeResult>& decoded,
                     inventory::ClusterObjects&& snapshot, const PipelineOptions& options) {
  return Run(decoded, &snapshot, &snapshot, options);
}

}  // namespace draguard::pipeline
