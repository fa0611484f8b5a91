#include "policy/pipeline/streamed_batch.h"

#include <utility>
#include <variant>

#include "policy/pipeline/validate_stage.h"
#include "policy/validate/object.h"

namespace draguard::pipeline {

bool IsContextObject(const k8s::DecodedObject& object) {
  return std::holds_alternative<k8s::Namespace>(object.object) ||
         std::holds_alternative<k8s::DeviceClass>(object.object) ||
         std::holds_alternative<k8s::ResourceSlice>(object.object) ||
         std::holds_alternative<k8s::Node>(object.object) ||
         std::holds_alternative<k8s::DeviceTaintRule>(object.object);
}

bool SupportsTwoPass(const inventory::ClusterObjects* snapshot, const PipelineOptions& options) {
  return !(options.stages.satisfiability && snapshot != nullptr);
}

RefKey KeyOfRef(const ObjectRef& ref) {
  return {ref.api_version, ref.kind, ref.name_space, ref.name};
}

void ContextNotes::Note(size_t file, const k8s::DecodedObject& object) {
  if (const auto* c = std::get_if<k8s::ResourceClaim>(&object.object)) {
    index_.AddClaim(*c, file);
  } else if (const auto* t = std::get_if<k8s::ResourceClaimTemplate>(&object.object)) {
    index_.AddTemplate(*t, file);
  }
}

namespace {

// Keeps the line `d` points at, when it is in `source`. A position just past a piece that
// ends with a newline is on the next piece's first line: added to `pending` (when given) for
// the next checked object's piece, which one pass would have held; else the piece's empty
// last line, as one pass finds it.
void KeepLine(const SourceText& source, const Diagnostic& d, KeptLines& lines,
              std::vector<std::pair<std::string, int>>* pending = nullptr) {
  if (!d.position.known() || d.file.empty()) return;
  const int last = source.text().ends_with('\n') ? source.last_line() - 1 : source.last_line();
  const int line = d.position.line;
  if (line < source.first_line() || line > source.last_line()) return;
  if (line > last && pending != nullptr) {
    pending->emplace_back(d.file, line);
    return;
  }
  lines[d.file].try_emplace(line, std::string(source.Line(line)));
}

template <typename T>
validate::ObjectInput<T> InputOf(const T& typed, const k8s::DecodedObject& object, size_t file) {
  return {&typed, object.ref, file};
}

}  // namespace

FileCheck::FileCheck(const StreamedBatch& batch, size_t group)
    : batch_(&batch), group_(group), references_(batch.index_) {}

void FileCheck::Locate(const k8s::DecodedObject& object, Diagnostic& d) {
  object.Locate(d);
  KeepLine(object.source(), d, lines_, &pending_);
}

void FileCheck::ResolvePending(const SourceText* next) {
  for (const auto& [file, line] : pending_) {
    const bool in_next = next != nullptr && next->first_line() == line;
    lines_[file].try_emplace(line, in_next ? std::string(next->Line(line)) : std::string());
  }
  pending_.clear();
}

void FileCheck::Check(const k8s::DecodedObject& object) {
  ++checked_;
  // Past the piece that left lines pending (its own objects start before them).
  if (!pending_.empty() && object.source().first_line() >= pending_.front().second) {
    ResolvePending(&object.source());
  }
  // validate
  {
    Diagnostics found;
    validate::ValidateObject(object.object, batch_->validation_, found);
    for (Diagnostic& d : found.mutable_items()) {
      Locate(object, d);
      validation_.push_back(std::move(d));
    }
  }
  // references: located in the first object of the ref, which may be in another file (then
  // at the end)
  const RefKey key = KeyOfRef(object.ref);
  const bool repeated = batch_->repeated_.contains(key);
  if (repeated) locators_.try_emplace(key, object);
  if (batch_->options_.stages.references) {
    Diagnostics found;
    std::vector<Diagnostic>* bucket = nullptr;
    const size_t started = references_.summaries_started();
    if (const auto* w = std::get_if<k8s::Workload>(&object.object)) {
      references_.CheckWorkload(InputOf(*w, object, group_), found);
      bucket = &workloads_;
    } else if (const auto* c = std::get_if<k8s::ResourceClaim>(&object.object)) {
      references_.CheckClaim(InputOf(*c, object, group_), found);
      bucket = &claims_;
    } else if (const auto* t = std::get_if<k8s::ResourceClaimTemplate>(&object.object)) {
      references_.CheckTemplate(InputOf(*t, object, group_), found);
      bucket = &templates_;
    }
    if (references_.summaries_started() > started) locators_.try_emplace(key, object);
    for (Diagnostic& d : found.mutable_items()) {
      if (!repeated) Locate(object, d);
      bucket->push_back(std::move(d));
    }
  }
  // schema
  if (batch_->options_.stages.schema && batch_->schema_ != nullptr) {
    const size_t before = schema_.size();
    batch_->schema_->CheckObject(object, schema_);
    for (size_t i = before; i < schema_.size(); ++i) {
      KeepLine(object.source(), schema_[i], lines_, &pending_);
    }
  }
}

StreamedBatch::StreamedBatch(const std::vector<k8s::DecodeResult>& context,
                             std::vector<ContextNotes> notes,
                             const std::vector<size_t>& groups, std::set<RefKey> repeated,
                             const inventory::ClusterObjects* snapshot,
                             const PipelineOptions& options)
    : context_(context), options_(options), repeated_(std::move(repeated)) {
  validation_ = ValidationFor(context, options.validation);
  // The index in input order: each file's claims and templates, its DeviceClasses (kept
  // whole), then the cluster's.
  for (size_t file = 0; file < context.size(); ++file) {
    if (file < notes.size()) index_.Merge(std::move(notes[file].index()));
    for (const k8s::DecodedObject& object : context[file].objects) {
      if (const auto* c = std::get_if<k8s::DeviceClass>(&object.object)) index_.AddClass(*c);
    }
  }
  if (snapshot != nullptr) index_.AddCluster(&snapshot->classes, &snapshot->claims);
  if (options.stages.schema) {
    schema_ = std::make_unique<SchemaPhase>(context, snapshot, options.schema);
  }
  for (size_t file = 0; file < context.size(); ++file) {
    const size_t group = file < groups.size() ? groups[file] : file;
    files_.push_back(std::unique_ptr<FileCheck>(new FileCheck(*this, group)));
  }
}

StreamedBatch::~StreamedBatch() = default;

BatchResult StreamedBatch::Finish(KeptLines& lines) {
  BatchResult result;
  // The first object of each repeated ref and the objects summaries started on: the first
  // file's.
  std::map<RefKey, const k8s::DecodedObject*> locators;
  for (const std::unique_ptr<FileCheck>& file : files_) {
    for (const auto& [key, object] : file->locators_) locators.try_emplace(key, &object);
  }
  auto locate = [&](Diagnostic& d) {
    if (!d.file.empty()) return;
    auto it = locators.find(KeyOfRef(d.object));
    if (it == locators.end()) return;
    it->second->Locate(d);
    KeepLine(it->second->source(), d, lines);
  };
  result.per_file.resize(files_.size());
  for (size_t i = 0; i < files_.size(); ++i) {
    result.per_file[i] = context_[i].diagnostics.items();
    for (Diagnostic& d : files_[i]->validation_) result.per_file[i].push_back(std::move(d));
  }
  if (options_.stages.references) {
    validate::ReferenceChecker summaries(index_);
    for (auto bucket : {&FileCheck::workloads_, &FileCheck::claims_, &FileCheck::templates_}) {
      for (const std::unique_ptr<FileCheck>& file : files_) {
        for (Diagnostic& d : (*file).*bucket) {
          locate(d);
          result.cross_object.push_back(std::move(d));
        }
      }
    }
    for (const std::unique_ptr<FileCheck>& file : files_) summaries.Merge(file->references_);
    Diagnostics found;
    summaries.Report(found);
    for (Diagnostic& d : found.mutable_items()) {
      locate(d);
      result.cross_object.push_back(std::move(d));
    }
  }
  if (schema_ != nullptr) {
    for (const Diagnostic& d : schema_->diagnostics()) result.cross_object.push_back(d);
    for (const std::unique_ptr<FileCheck>& file : files_) {
      for (Diagnostic& d : file->schema_) result.cross_object.push_back(std::move(d));
    }
  }
  for (const std::unique_ptr<FileCheck>& file : files_) {
    file->ResolvePending(nullptr);
    for (auto& [name, found] : file->lines_) lines[name].merge(found);
  }
  return result;
}

}  // namespace draguard::pipeline
