// The linter behind `draguard lint`: decode every input, validate every object as the API
// server would on create, check references across all inputs, place every diagnostic in its
// file and sort.
//
// Large inputs are read twice (LintOptions::read_twice_from_bytes) with the same report.
//
// Phases (each file's work is independent inside a phase, so decoding, validation and schema
// checks run in parallel over files when there are many; results land in per-file slots, so
// the output is identical to a sequential run):
//   1. Decode each SourceText (policy/k8s/decode.h).
//   2-4. The object pipeline in batch (policy/pipeline/pipeline.h: its stage table says what
//      runs in which order and what each stage reads): validation, references across inputs,
//      schema checks and, with an inventory, satisfiability against it.
//   5. Inline `# draguard:ignore` comments, the policy file's rules and exempt namespaces,
//      --warnings-as-errors; then sort (report.h).
#ifndef DRAGUARD_POLICY_LINT_LINTER_H_
#define DRAGUARD_POLICY_LINT_LINTER_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "policy/common/source.h"
#include "policy/common/status_or.h"
#include "policy/config/policy_config.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "policy/inventory/inputs.h"
#include "policy/lint/report.h"
#include "policy/pipeline/satisfiability_stage.h"
#include "policy/pipeline/schema_stage.h"
#include "policy/validate/options.h"

namespace draguard::lint {

struct LintOptions {
  // Kubernetes version, feature gates, namespace labels given on the command line (they win
  // over Namespace objects among the inputs, key by key), the CEL selector hook (unset: the
  // CEL compiler, as the API server compiles selectors) and limits.
  validate::ValidationOptions validation;
  k8s::DecodeOptions decode;
  inventory::InputOptions input;
  // Cluster state from --inventory (policy/inventory/inventory_files.h) or, for the
  // live-cluster commands, read from the API server; null when none was
  // given. Schema checks learn attribute types from its slices; satisfiability checks
  // allocate against it.
  std::shared_ptr<const inventory::ClusterObjects> inventory;
  // The satisfiability phase (runs only with an inventory): allocator version, gates and
  // budget, and the severity of alloc.unsatisfiable (--unsatisfiable).
  pipeline::SatisfiabilityOptions satisfiability;
  // The schema phase (after validation): catalog, --schema files, --strict-schema.
  pipeline::SchemaPhaseOptions schema;
  // The policy file's per-code rules and exempt namespaces (docs/policy.md), applied after
  // inline `# draguard:ignore` comments (suppress.h).
  config::PolicyConfig policy;
  // Report warnings as errors (their severity becomes error), after the policy's rules.
  // Unset: the policy file's warningsAsErrors decides; set (--warnings-as-errors[=false]): it
  // wins over the file either way.
  std::optional<bool> warnings_as_errors;
  // Threads to use; 0 means one per hardware thread.
  size_t jobs = 0;
  // Below this many files everything runs on the calling thread: starting threads costs more
  // than it saves on a few small files.
  size_t parallel_threshold = 4;
  // Lint (Lint, not LintSources) reads inputs larger than this in all (files by their size,
  // standard input as read) twice, so that memory is bounded by the largest object rather
  // than by the number of checked objects: an object held costs ~6 KB (its model, document
  // and position index), 11 times its text, where read twice it costs its findings and its
  // line in the report (10,000 templates, one per file: 72 MiB RSS once, 43 MiB twice, for
  // 25% more CPU). The first pass keeps only what the cross-object stages read across
  // objects (pipeline/streamed_batch.h), the second checks each object as it is read again.
  // With an inventory the first pass also keeps what the satisfiability stage reads across
  // objects (the allocated claims, the names of the others, the names pods refer to), the
  // second checks claims and templates as it reads them and keeps the spec of those pods name
  // and each pod's claim references, for pods to be checked at the end.
  // Standard input is then copied to an unlinked temporary file (in TMPDIR, else /tmp) as it
  // is read. 0: always twice; SIZE_MAX: never. The default keeps one pass's memory under
  // ~12 MiB.
  size_t read_twice_from_bytes = size_t{1} << 20;
};

// Lints SourceTexts already in memory (tests, benchmarks, the webhook's dry runs). Never
// fails: every problem with the input is a diagnostic. Thread-compatible.
LintReport LintSources(std::vector<SourceText> sources, const LintOptions& options);

// Reads the inputs (inputs.h: CollectInputs) and lints those that could be read; the report
// lists the others (unreadable_inputs) and the directory entries passed over
// (skipped_inputs). A non-OK status only past InputOptions::max_files; the CLI maps it, and
// any unreadable input, to exit code 2.
StatusOr<LintReport> Lint(const std::vector<inventory::Input>& inputs, const LintOptions& options);
// The same, taking `options` over: when nothing else holds options.inventory (and it was not
// created const), the satisfiability stage merges the inputs' cluster objects into it instead
// of into a copy: a fleet's slices are most of what a run holds (`draguard lint --inventory`).
StatusOr<LintReport> Lint(const std::vector<inventory::Input>& inputs, LintOptions&& options);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_LINTER_H_
