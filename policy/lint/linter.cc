#include "policy/lint/linter.h"

#include <map>
#include <memory>
#include <utility>

#include "policy/k8s/served_version.h"
#include "policy/lint/suppress.h"
#include "policy/pipeline/parallel.h"
#include "policy/pipeline/pipeline.h"

namespace draguard::lint {
namespace {

size_t JobsFor(const LintOptions& options, size_t files) {
  if (files < options.parallel_threshold) return 1;
  return options.jobs == 0 ? pipeline::DefaultJobs() : options.jobs;
}

pipeline::PipelineOptions PipelineFor(const LintOptions& options, size_t jobs) {
  pipeline::PipelineOptions out;
  out.validation = options.validation;
  out.schema = options.schema;
  out.satisfiability = options.satisfiability;
  // Lint reports verdicts, never the feasible nodes: the allocator may stop at the first node
  // that fits (on a fleet, listing 5,000 feasible nodes per claim cost more than the check).
  out.satisfiability.allocator.all_nodes = false;
  out.jobs = jobs;
  return out;
}

void AddObjects(const k8s::DecodeResult& decoded, const std::string& file,
                std::vector<LintedObject>& objects) {
  for (const k8s::DecodedObject& object : decoded.objects) {
    objects.push_back({file, object.ref, object.position()});
  }
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
  pipeline::ParallelFor(n, jobs, [&](size_t i) {
    decoded[i] = k8s::DecodeForRelease(sources[i], options.decode, options.validation.version);
  });

  // Phases 2 to 4: the object pipeline (policy/pipeline/pipeline.h).
  pipeline::BatchResult checked =
      pipeline::RunBatch(decoded, options.inventory.get(), PipelineFor(options, jobs));

  LintReport report;
  for (size_t i = 0; i < n; ++i) {
    report.files.push_back(sources[i].name());
    AddObjects(decoded[i], sources[i].name(), report.objects);
    for (Diagnostic& d : checked.per_file[i]) report.diagnostics.push_back(std::move(d));
  }
  for (Diagnostic& d : checked.cross_object) report.diagnostics.push_back(std::move(d));
  ApplyUserDecisions(sources, options, report.diagnostics);
  SortDiagnostics(report.files, report.diagnostics);
  for (SourceText& source : sources) {
    std::string name = source.name();
    report.sources.emplace(std::move(name), std::move(source));
  }
  return report;
}

StatusOr<LintReport> Lint(const std::vector<inventory::Input>& inputs, const LintOptions& options) {
  StatusOr<inventory::InputSet> read = inventory::CollectInputs(inputs, options.input);
  if (!read.ok()) return read.status();
  LintReport report = LintSources(std::move(read->sources), options);
  report.skipped_inputs = std::move(read->skipped);
  report.unreadable_inputs = std::move(read->unreadable);
  return report;
}

}  // namespace draguard::lint
