#include "policy/lint/linter.h"

#include <map>
#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

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

// Phase 5: what the user decided about findings: inline `# draguard:ignore` comments (found
// per file), then the policy file's rules and exempt namespaces, then --warnings-as-errors.
void ApplyUserDecisions(const std::map<std::string, Suppressions>& by_file,
                        const LintOptions& options, std::vector<Diagnostic>& diagnostics) {
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

// Phases 2 to 5 over decoded files (named `names`, in order): the object pipeline, then the
// user's decisions and the sort.
// `owned` (may be null) is the inventory when the caller gave it over: it is merged into
// instead of copied.
LintReport CheckDecoded(const std::vector<std::string>& names,
                        const std::vector<k8s::DecodeResult>& decoded,
                        const std::map<std::string, Suppressions>& suppressions,
                        const LintOptions& options, size_t jobs,
                        inventory::ClusterObjects* owned = nullptr,
                        std::vector<std::vector<LintedObject>>* listed = nullptr) {
  pipeline::BatchResult checked =
      owned != nullptr
          ? pipeline::RunBatch(decoded, std::move(*owned), PipelineFor(options, jobs))
          : pipeline::RunBatch(decoded, options.inventory.get(), PipelineFor(options, jobs));
  LintReport report;
  for (size_t i = 0; i < names.size(); ++i) {
    report.files.push_back(names[i]);
    if (listed != nullptr) {
      for (LintedObject& object : (*listed)[i]) report.objects.push_back(std::move(object));
    } else {
      AddObjects(decoded[i], names[i], report.objects);
    }
    for (Diagnostic& d : checked.per_file[i]) report.diagnostics.push_back(std::move(d));
  }
  for (Diagnostic& d : checked.cross_object) report.diagnostics.push_back(std::move(d));
  ApplyUserDecisions(suppressions, options, report.diagnostics);
  SortDiagnostics(report.files, report.diagnostics);
  return report;
}

// One input read as a stream (k8s::DecodeStream): its objects keep their own documents' text,
// the lines its decoding findings point at are kept, its comments are scanned for suppressions.
struct StreamedFile {
  k8s::DecodeResult decoded;
  std::vector<LintedObject> objects;  // every object decoded, kept or not
  Suppressions suppressions;
  std::map<int, std::string> lines;  // of the suppression findings
  Status unreadable;
};

StreamedFile StreamFile(const std::string& path, const LintOptions& options) {
  StreamedFile out;
  k8s::DecodeOptions decode = options.decode;
  // Decoded for the release validated for: its served versions decide the apiVersion warnings.
  decode.version = options.validation.version;
  k8s::StreamOptions stream;
  stream.max_document_bytes = options.input.max_file_bytes;
  stream.on_piece = [&](const SourceText& piece) {
    const size_t before = out.suppressions.findings().size();
    out.suppressions.ScanPiece(piece);
    for (size_t i = before; i < out.suppressions.findings().size(); ++i) {
      const int line = out.suppressions.findings()[i].position.line;
      out.lines.try_emplace(line, piece.Line(line));
    }
  };
  stream.on_object = [&](const k8s::DecodedObject& object) {
    out.objects.push_back({path, object.ref, object.position()});
    // A workload without claims is read by no later stage (no validator, no reference, not a
    // satisfiability subject): listed, not kept.
    const auto* workload = std::get_if<k8s::Workload>(&object.object);
    return workload == nullptr || !workload->pod.resource_claims.empty() ||
           std::any_of(workload->pod.containers.begin(), workload->pod.containers.end(),
                       [](const k8s::ContainerClaims& c) { return !c.claims.empty(); });
  };
  k8s::DocumentReader::Result end = k8s::DocumentReader::Result::kEnd;
  Status opened = inventory::WithInputStream(path, options.input, [&](std::istream& in) {
    out.decoded = k8s::DecodeStream(in, path, decode, stream, &end);
  });
  // A placeholder in a later document makes the whole input a template: nothing decoded.
  if (out.decoded.is_template) out.objects.clear();
  if (!opened.ok()) {
    out.unreadable = opened;
  } else if (end == k8s::DocumentReader::Result::kTooLarge) {
    out.unreadable = ResourceExhaustedError(
        path + ": a document larger than " + std::to_string(options.input.max_file_bytes) +
        " bytes");
  } else if (end == k8s::DocumentReader::Result::kReadError) {
    out.unreadable = UnavailableError(path + ": read error");
  }
  return out;
}

// Where the lines of a streamed file are: what decoding kept, the suppression findings' lines
// and the documents of its objects (which hold their text).
class StreamedLines {
 public:
  explicit StreamedLines(const StreamedFile& file) : file_(file) {
    for (const k8s::DecodedObject& object : file.decoded.objects) {
      pieces_.emplace(object.source().first_line(), &object.source());
    }
  }

  std::optional<std::string> Line(int line) const {
    if (auto it = file_.decoded.lines.find(line); it != file_.decoded.lines.end()) {
      return it->second;
    }
    if (auto it = file_.lines.find(line); it != file_.lines.end()) return it->second;
    auto it = pieces_.upper_bound(line);
    if (it == pieces_.begin()) return std::nullopt;
    const SourceText& piece = *std::prev(it)->second;
    if (line > piece.last_line()) return std::nullopt;
    return std::string(piece.Line(line));
  }

 private:
  const StreamedFile& file_;
  std::map<int, const SourceText*> pieces_;  // first line -> piece
};

// Fills report.lines with the lines the diagnostics point at, for snippets.
void KeepLines(const std::vector<std::string>& names, const std::vector<StreamedFile*>& files,
               LintReport& report) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < names.size(); ++i) index.emplace(names[i], i);
  std::map<size_t, StreamedLines> lines;
  for (const Diagnostic& d : report.diagnostics) {
    auto it = index.find(d.file);
    if (it == index.end() || !d.position.known()) continue;
    std::map<int, SourceText>& kept = report.lines[d.file];
    if (kept.contains(d.position.line)) continue;
    auto [found, added] = lines.try_emplace(it->second, *files[it->second]);
    if (std::optional<std::string> text = found->second.Line(d.position.line)) {
      kept.emplace(d.position.line, SourceText(d.file, std::move(*text), d.position.line));
    }
  }
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
  std::vector<std::string> names;
  std::map<std::string, Suppressions> suppressions;
  for (const SourceText& source : sources) {
    names.push_back(source.name());
    Suppressions found = Suppressions::Scan(source);
    if (!found.empty()) suppressions.emplace(source.name(), std::move(found));
  }
  LintReport report = CheckDecoded(names, decoded, suppressions, options, jobs);
  for (SourceText& source : sources) {
    std::string name = source.name();
    report.sources.emplace(std::move(name), std::move(source));
  }
  return report;
}

namespace {

// Inputs are read as streams of documents (DecodeStream): a file's text is never held whole,
// only its current document and the documents of the objects the later stages check.
StatusOr<LintReport> LintStreams(const std::vector<inventory::Input>& inputs,
                                 const LintOptions& options, inventory::ClusterObjects* owned) {
  StatusOr<inventory::ListedInputs> listed = inventory::ListInputs(inputs, options.input);
  if (!listed.ok()) return listed.status();
  const std::vector<std::string>& paths = listed->paths;
  const size_t jobs = JobsFor(options, paths.size());
  std::vector<StreamedFile> streamed(paths.size());
  pipeline::ParallelFor(paths.size(), jobs,
                        [&](size_t i) { streamed[i] = StreamFile(paths[i], options); });
  std::vector<Status> unreadable = std::move(listed->unreadable);
  std::vector<std::string> names;
  std::vector<k8s::DecodeResult> decoded;
  std::vector<StreamedFile*> read;
  std::vector<std::vector<LintedObject>> listed_objects;
  std::map<std::string, Suppressions> suppressions;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!streamed[i].unreadable.ok()) {
      unreadable.push_back(streamed[i].unreadable);
      continue;
    }
    names.push_back(paths[i]);
    decoded.push_back(std::move(streamed[i].decoded));
    listed_objects.push_back(std::move(streamed[i].objects));
    if (!streamed[i].suppressions.empty()) {
      suppressions.emplace(paths[i], std::move(streamed[i].suppressions));
    }
    read.push_back(&streamed[i]);
  }
  LintReport report = CheckDecoded(names, decoded, suppressions, options, jobs, owned,
                                  &listed_objects);
  for (size_t i = 0; i < names.size(); ++i) read[i]->decoded = std::move(decoded[i]);
  KeepLines(names, read, report);
  report.skipped_inputs = std::move(listed->skipped);
  report.unreadable_inputs = std::move(unreadable);
  return report;
}

}  // namespace

StatusOr<LintReport> Lint(const std::vector<inventory::Input>& inputs, const LintOptions& options) {
  return LintStreams(inputs, options, nullptr);
}

StatusOr<LintReport> Lint(const std::vector<inventory::Input>& inputs, LintOptions&& options) {
  std::shared_ptr<inventory::ClusterObjects> owned;
  if (options.inventory != nullptr && options.inventory.use_count() == 1) {
    // Sole owner, and the object is not const (linter.h): taking it over is defined.
    owned = std::const_pointer_cast<inventory::ClusterObjects>(options.inventory);
  }
  return LintStreams(inputs, options, owned.get());
}

}  // namespace draguard::lint
