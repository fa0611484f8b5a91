#include "policy/lint/linter.h"

#include <map>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "policy/k8s/served_version.h"
#include "policy/lint/gated_fields.h"
#include "policy/lint/parallel.h"
#include "policy/lint/suppress.h"
#include "policy/lint/validate_phase.h"
#include "policy/validate/references.h"

namespace draguard::lint {
namespace {

using RefKey = std::tuple<std::string, std::string, std::string, std::string>;

RefKey KeyOf(const ObjectRef& ref) {
  return {ref.api_version, ref.kind, ref.name_space, ref.name};
}

size_t JobsFor(const LintOptions& options, size_t files) {
  if (files < options.parallel_threshold) return 1;
  return options.jobs == 0 ? DefaultJobs() : options.jobs;
}

template <typename T>
void AddIfIs(const k8s::DecodedObject& object, size_t file,
             std::vector<validate::ObjectInput<T>>& into) {
  if (const T* typed = std::get_if<T>(&object.object)) into.push_back({typed, object.ref, file});
}

// Phase 3: references across every input (and the --inventory's classes and claims), each
// finding located in the referring object.
std::vector<Diagnostic> CheckReferences(const std::vector<k8s::DecodeResult>& decoded,
                                        const inventory::ClusterObjects* cluster) {
  validate::ReferenceInputs inputs;
  if (cluster != nullptr) {
    inputs.cluster_classes = &cluster->classes;
    inputs.cluster_claims = &cluster->claims;
  }
  std::map<RefKey, const k8s::DecodedObject*> by_ref;
  for (size_t file = 0; file < decoded.size(); ++file) {
    for (const k8s::DecodedObject& object : decoded[file].objects) {
      by_ref.emplace(KeyOf(object.ref), &object);
      AddIfIs(object, file, inputs.workloads);
      AddIfIs(object, file, inputs.claims);
      AddIfIs(object, file, inputs.templates);
      AddIfIs(object, file, inputs.classes);
    }
  }
  Diagnostics found;
  validate::CheckReferences(inputs, found);
  std::vector<Diagnostic> out;
  for (Diagnostic& d : found.mutable_items()) {
    // Two inputs may hold the same object; the first one is where the finding is shown.
    if (auto it = by_ref.find(KeyOf(d.object)); it != by_ref.end()) it->second->Locate(d);
    out.push_back(std::move(d));
  }
  return out;
}

void AddObjects(const k8s::DecodeResult& decoded, const std::string& file,
                std::vector<LintedObject>& objects) {
  for (const k8s::DecodedObject& object : decoded.objects) {
    objects.push_back({file, object.ref, object.root().position});
  }
}

// Phase 4: only with an inventory (the cluster's devices are what claims are checked against).
// Objects the API server rejects (`rejected`) are not allocated; phase 2 reported them.
// The cluster is taken as created with the release's gates (gated_fields.h), as phase 2 warns.
std::vector<Diagnostic> CheckClaimsSatisfiable(const std::vector<k8s::DecodeResult>& decoded,
                                               const ObjectErrors& rejected,
                                               const validate::ValidationOptions& validation,
                                               const LintOptions& options) {
  if (!options.inventory) return {};
  inventory::ClusterObjects cluster = MergeClusterObjects(options.inventory.get(), decoded);
  DropDisabledFields(cluster, validation);
  return SatisfiabilityDiagnostics(
      CheckSatisfiability(decoded, cluster, options.satisfiability.allocator, &rejected),
      options.satisfiability.unsatisfiable_severity);
}

// Phase 5: what the user decided about findings: inline `# draguard:ignore` comments, then
// the policy file's rules and exempt namespaces, then --warnings-as-errors.
void ApplyUserDecisions(const std::vector<SourceText>& sources, const LintOptions& options,
                        std::vector<Diagnostic>& diagnostics) {
  std::map<std::string, Suppressions> by_file;
  for (const SourceText& source : sources) {
    Suppressions found = Suppressions::Scan(source);
    if (!found.empty()) by_file.emplace(source.name(), std::move(found));
  }
  if (!by_file.empty()) {
    std::erase_if(diagnostics, [&](const Diagnostic& d) {
      auto it = by_file.find(d.file);
      return it != by_file.end() && it->second.Silences(d.code, d.position.line);
    });
    // After the filter: a comment with a typo must not silence the finding about itself.
    for (const auto& [file, found] : by_file) {
      diagnostics.insert(diagnostics.end(), found.findings().begin(), found.findings().end());
    }
  }
  config::PolicyConfig policy = options.policy;
  policy.warnings_as_errors = options.warnings_as_errors.value_or(policy.warnings_as_errors);
  config::ApplyPolicy(policy, diagnostics);
}

}  // namespace

LintReport LintSources(std::vector<SourceText> sources, const LintOptions& options) {
  const size_t n = sources.size();
  const size_t jobs = JobsFor(options, n);
  std::vector<k8s::DecodeResult> decoded(n);
  // Decoded for the release validated for: its served versions decide the apiVersion warnings.
  ParallelFor(n, jobs, [&](size_t i) {
    decoded[i] = k8s::DecodeForRelease(sources[i], options.decode, options.validation.version);
  });

  const validate::ValidationOptions validation = ValidationFor(decoded, options.validation);
  std::vector<std::vector<Diagnostic>> per_file(n);
  ParallelFor(n, jobs, [&](size_t i) { per_file[i] = ValidateFile(decoded[i], validation); });
  const ObjectErrors rejected =
      options.inventory ? ErrorsByObject(decoded, per_file) : ObjectErrors();

  LintReport report;
  for (size_t i = 0; i < n; ++i) {
    report.files.push_back(sources[i].name());
    AddObjects(decoded[i], sources[i].name(), report.objects);
    for (Diagnostic& d : per_file[i]) report.diagnostics.push_back(std::move(d));
  }
  for (Diagnostic& d : CheckReferences(decoded, options.inventory.get())) {
    report.diagnostics.push_back(std::move(d));
  }
  for (Diagnostic& d : CheckSchemaPhase(decoded, options.inventory.get(), options.schema, jobs)) {
    report.diagnostics.push_back(std::move(d));
  }
  for (Diagnostic& d : CheckClaimsSatisfiable(decoded, rejected, validation, options)) {
    report.diagnostics.push_back(std::move(d));
  }
  ApplyUserDecisions(sources, options, report.diagnostics);
  SortDiagnostics(report.files, report.diagnostics);
  for (SourceText& source : sources) {
    std::string name = source.name();
    report.sources.emplace(std::move(name), std::move(source));
  }
  return report;
}

StatusOr<LintReport> Lint(const std::vector<Input>& inputs, const LintOptions& options) {
  StatusOr<InputSet> read = CollectInputs(inputs, options.input);
  if (!read.ok()) return read.status();
  LintReport report = LintSources(std::move(read->sources), options);
  report.skipped_inputs = std::move(read->skipped);
  report.unreadable_inputs = std::move(read->unreadable);
  return report;
}

}  // namespace draguard::lint
