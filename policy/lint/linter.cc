#include "policy/lint/linter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
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
#include "policy/pipeline/streamed_batch.h"

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
// Phase 5 over the pipeline's result: the report, with the user's decisions applied, sorted.
LintReport ReportOf(const std::vector<std::string>& names,
                    const std::vector<k8s::DecodeResult>& decoded, pipeline::BatchResult checked,
                    const std::map<std::string, Suppressions>& suppressions,
                    const LintOptions& options,
                    std::vector<std::vector<LintedObject>>* listed) {
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
  return ReportOf(names, decoded, std::move(checked), suppressions, options, listed);
}

// One input read as a stream (k8s::DecodeStream): its objects keep their own documents' text,
// the lines its decoding findings point at are kept, its comments are scanned for suppressions.
struct StreamedFile {
  k8s::DecodeResult decoded;
  std::vector<LintedObject> objects;  // every object decoded, kept or not
  std::vector<bool> checked;          // per object: given to the pipeline
  std::vector<int> checked_pieces;    // the first lines of the pieces with checked objects
  // Read twice: what the first pass noted about the checked objects it did not keep.
  pipeline::ContextNotes notes;
  Suppressions suppressions;
  std::map<int, std::string> lines;  // of the suppression findings (and, read twice, all)
  Status unreadable;
};

// A workload without claims is read by no later stage (no validator, no reference, not a
// satisfiability subject): listed, not checked.
bool Checked(const k8s::DecodedObject& object) {
  const auto* workload = std::get_if<k8s::Workload>(&object.object);
  return workload == nullptr || !workload->pod.resource_claims.empty() ||
         std::any_of(workload->pod.containers.begin(), workload->pod.containers.end(),
                     [](const k8s::ContainerClaims& c) { return !c.claims.empty(); });
}

k8s::DecodeOptions DecodeOptionsFor(const LintOptions& options) {
  k8s::DecodeOptions decode = options.decode;
  // Decoded for the release validated for: its served versions decide the apiVersion warnings.
  decode.version = options.validation.version;
  return decode;
}

// How a stream ended, as the input's status.
Status EndStatus(const std::string& path, k8s::DocumentReader::Result end,
                 const LintOptions& options) {
  if (end == k8s::DocumentReader::Result::kTooLarge) {
    return ResourceExhaustedError(path + ": a document larger than " +
                                  std::to_string(options.input.max_file_bytes) + " bytes");
  }
  if (end == k8s::DocumentReader::Result::kReadError) {
    return UnavailableError(path + ": read error");
  }
  return OkStatus();
}

// The first (or only) pass over one input. `file` is its index among the inputs read; with
// `twice`, only the context objects are kept and the other checked objects noted.
StreamedFile StreamFile(const std::string& path, const LintOptions& options, size_t file,
                        bool twice) {
  StreamedFile out;
  // With an inventory the satisfiability stage runs: pass 1 notes what it reads across objects.
  out.notes = pipeline::ContextNotes(/*satisfiability=*/options.inventory != nullptr);
  const k8s::DecodeOptions decode = DecodeOptionsFor(options);
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
    const bool checked = Checked(object);
    out.checked.push_back(checked);
    const int piece = object.source().first_line();
    if (checked && (out.checked_pieces.empty() || out.checked_pieces.back() != piece)) {
      out.checked_pieces.push_back(piece);
    }
    if (!checked || !twice || pipeline::IsContextObject(object)) return checked;
    out.notes.Note(file, object);
    return false;
  };
  k8s::DocumentReader::Result end = k8s::DocumentReader::Result::kEnd;
  Status opened = inventory::WithInputStream(path, options.input, [&](std::istream& in) {
    out.decoded = k8s::DecodeStream(in, path, decode, stream, &end);
  });
  // A placeholder in a later document makes the whole input a template: nothing decoded.
  if (out.decoded.is_template) {
    out.objects.clear();
    out.checked.clear();
    out.notes = pipeline::ContextNotes(options.inventory != nullptr);
  }
  out.unreadable = opened.ok() ? EndStatus(path, end, options) : opened;
  return out;
}

// The second pass over one input: each object it checks, as it is decoded, into `check`. The
// input must give the checked objects of the first pass again; `first_read_errors` is the
// first pass's DecodeResult::read_errors.
Status CheckAgain(const std::string& path, const StreamedFile& first, size_t first_read_errors,
                  const LintOptions& options, pipeline::FileCheck& check) {
  const size_t n = first.objects.size();
  size_t next = 0;  // the next object of the first pass
  auto skip_unchecked = [&] {
    while (next < n && !first.checked[next]) ++next;
  };
  bool same = true;
  k8s::StreamOptions stream;
  stream.max_document_bytes = options.input.max_file_bytes;
  stream.on_object = [&](const k8s::DecodedObject& object) {
    if (!same || !Checked(object)) return false;
    skip_unchecked();
    if (next == n || !(first.objects[next].ref == object.ref)) {
      same = false;
      return false;
    }
    check.Check(object);
    ++next;
    return false;
  };
  // Only the documents with checked objects are parsed again, unless the parser stopped or
  // refused documents in the first pass (then its limits must apply the same way).
  size_t piece = 0;
  if (first_read_errors == 0) {
    stream.parse_piece = [&](int first_line) {
      while (piece < first.checked_pieces.size() && first.checked_pieces[piece] < first_line) {
        ++piece;
      }
      return piece < first.checked_pieces.size() && first.checked_pieces[piece] == first_line;
    };
  }
  k8s::DocumentReader::Result end = k8s::DocumentReader::Result::kEnd;
  Status opened = inventory::WithInputStream(path, options.input, [&](std::istream& in) {
    k8s::DecodeStream(in, path, DecodeOptionsFor(options), stream, &end);
  });
  if (!opened.ok()) return opened;
  if (Status ended = EndStatus(path, end, options); !ended.ok()) return ended;
  skip_unchecked();
  if (!same || next != n) {
    return UnavailableError(path + ": changed while it was read");
  }
  return OkStatus();
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

// Standard input for a run that reads it twice: held in memory up to the threshold, past it
// copied to an unlinked temporary file as it is read (in TMPDIR, else /tmp; removed from the
// directory at once, so that nothing is left behind). Where no temporary file can be made,
// it is held in memory whole.
class StdinCopy {
 public:
  // Reads all of `in`; returns its size.
  size_t Read(std::istream& in, size_t in_memory_up_to) {
    std::string head(in_memory_up_to + 1, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (head.size() <= in_memory_up_to || !OpenTemporary()) {
      std::ostringstream rest;
      if (!in.eof()) rest << in.rdbuf();
      memory_ = std::make_unique<std::istringstream>(head + rest.str());
      return head.size() + rest.str().size();
    }
    size_t bytes = head.size();
    file_.write(head.data(), static_cast<std::streamsize>(head.size()));
    std::string().swap(head);
    std::vector<char> chunk(size_t{64} << 10);
    while (in) {
      in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      file_.write(chunk.data(), in.gcount());
      bytes += static_cast<size_t>(in.gcount());
    }
    file_.flush();
    return bytes;
  }

  // The copy, from its start (for each pass).
  std::istream& Rewound() {
    std::istream& stream = memory_ != nullptr ? static_cast<std::istream&>(*memory_) : file_;
    stream.clear();
    stream.seekg(0);
    return stream;
  }

 private:
  bool OpenTemporary() {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    std::string name = (dir / "draguard-stdin-XXXXXX").string();
    const int fd = mkstemp(name.data());
    if (fd < 0) return false;
    file_.open(name, std::ios::in | std::ios::out | std::ios::binary | std::ios::trunc);
    close(fd);
    std::filesystem::remove(name, ec);
    return file_.is_open();
  }

  std::fstream file_;
  std::unique_ptr<std::istringstream> memory_;
};

// The bytes of the listed files (what can be known without reading them).
size_t FileBytes(const std::vector<std::string>& paths) {
  size_t total = 0;
  for (const std::string& path : paths) {
    if (path == inventory::kStdinName) continue;
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec) total += static_cast<size_t>(size);
  }
  return total;
}

// The ObjectRefs that several checked objects share (a references finding about such an
// object is located in the first of them).
std::set<pipeline::RefKey> RepeatedRefs(const std::vector<StreamedFile*>& files) {
  std::vector<const ObjectRef*> refs;
  for (const StreamedFile* file : files) {
    for (size_t i = 0; i < file->objects.size(); ++i) {
      if (file->checked[i]) refs.push_back(&file->objects[i].ref);
    }
  }
  auto key = [](const ObjectRef* r) {
    return std::tie(r->api_version, r->kind, r->name_space, r->name);
  };
  std::sort(refs.begin(), refs.end(),
            [&](const ObjectRef* a, const ObjectRef* b) { return key(a) < key(b); });
  std::set<pipeline::RefKey> repeated;
  for (size_t i = 1; i < refs.size(); ++i) {
    if (key(refs[i - 1]) == key(refs[i])) repeated.insert(pipeline::KeyOfRef(*refs[i]));
  }
  return repeated;
}

// Inputs are read as streams of documents (DecodeStream): a file's text is never held whole,
// only its current document and the documents of the objects the later stages check; past
// options.read_twice_from_bytes, not even those: the inputs are read twice.
StatusOr<LintReport> LintStreams(const std::vector<inventory::Input>& inputs,
                                 const LintOptions& given, inventory::ClusterObjects* owned) {
  StatusOr<inventory::ListedInputs> listed = inventory::ListInputs(inputs, given.input);
  if (!listed.ok()) return listed.status();
  const std::vector<std::string>& paths = listed->paths;
  const size_t jobs = JobsFor(given, paths.size());
  LintOptions options = given;
  bool twice = options.read_twice_from_bytes != SIZE_MAX;
  StdinCopy stdin_copy;
  if (twice) {
    size_t bytes = FileBytes(paths);
    if (std::find(paths.begin(), paths.end(), inventory::kStdinName) != paths.end()) {
      std::istream& in = given.input.stdin_stream != nullptr ? *given.input.stdin_stream : std::cin;
      bytes += stdin_copy.Read(in, options.read_twice_from_bytes);
      options.input.stdin_stream = &stdin_copy.Rewound();
    }
    twice = bytes > options.read_twice_from_bytes || options.read_twice_from_bytes == 0;
  }
  std::vector<StreamedFile> streamed(paths.size());
  pipeline::ParallelFor(paths.size(), jobs, [&](size_t i) {
    streamed[i] = StreamFile(paths[i], options, i, twice);
  });
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
    if (!streamed[i].suppressions.empty()) {
      suppressions.emplace(paths[i], std::move(streamed[i].suppressions));
    }
    read.push_back(&streamed[i]);
  }
  LintReport report;
  if (!twice) {
    for (StreamedFile* file : read) listed_objects.push_back(std::move(file->objects));
    report = CheckDecoded(names, decoded, suppressions, options, jobs, owned, &listed_objects);
  } else {
    std::vector<pipeline::ContextNotes> notes;
    std::vector<size_t> groups;  // the index among `paths` each file's notes were taken with
    for (StreamedFile* file : read) {
      notes.push_back(std::move(file->notes));
      groups.push_back(static_cast<size_t>(file - streamed.data()));
    }
    pipeline::StreamedBatch batch(decoded, std::move(notes), groups, RepeatedRefs(read),
                                  options.inventory.get(), PipelineFor(options, jobs), owned);
    stdin_copy.Rewound();  // the second pass reads standard input's copy from its start
    std::vector<Status> again(read.size());
    pipeline::ParallelFor(read.size(), jobs, [&](size_t i) {
      // A template was not decoded: nothing to check again.
      if (!decoded[i].is_template) {
        again[i] = CheckAgain(names[i], *read[i], decoded[i].read_errors, options, batch.File(i));
      }
      batch.Done(i);
    });
    for (const Status& s : again) {
      if (!s.ok()) unreadable.push_back(s);
    }
    pipeline::KeptLines lines;
    pipeline::BatchResult checked = batch.Finish(lines);
    for (size_t i = 0; i < read.size(); ++i) {
      read[i]->lines.merge(lines[names[i]]);
      listed_objects.push_back(std::move(read[i]->objects));
    }
    report = ReportOf(names, decoded, std::move(checked), suppressions, options, &listed_objects);
  }
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
