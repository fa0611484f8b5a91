#include "policy/pipeline/streamed_batch.h"

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "policy/allocator/allocator.h"
#include "policy/common/timings.h"
#include "policy/pipeline/gated_fields.h"
#include "policy/pipeline/satisfiability_stage.h"
#include "policy/pipeline/validate_stage.h"
#include "policy/validate/defaults.h"
#include "policy/validate/object.h"

namespace draguard::pipeline {

bool IsContextObject(const k8s::DecodedObject& object) {
  return std::holds_alternative<k8s::Namespace>(object.object) ||
         std::holds_alternative<k8s::DeviceClass>(object.object) ||
         std::holds_alternative<k8s::ResourceSlice>(object.object) ||
         std::holds_alternative<k8s::Node>(object.object) ||
         std::holds_alternative<k8s::DeviceTaintRule>(object.object);
}

RefKey KeyOfRef(const ObjectRef& ref) {
  return {ref.api_version, ref.kind, ref.name_space, ref.name};
}

namespace {

std::string NamespaceOf(const std::string& name_space) {
  return name_space.empty() ? "default" : name_space;
}

bool IsAllocated(const k8s::ResourceClaim& claim) {
  return claim.status && claim.status->allocation;
}

}  // namespace

void ContextNotes::Note(size_t file, const k8s::DecodedObject& object) {
  if (const auto* c = std::get_if<k8s::ResourceClaim>(&object.object)) {
    index_.AddClaim(*c, file);
    if (satisfiability_) {
      claims_.push_back({c->metadata.name_space, c->metadata.name,
                         IsAllocated(*c) ? std::make_unique<k8s::ResourceClaim>(*c) : nullptr});
    }
  } else if (const auto* t = std::get_if<k8s::ResourceClaimTemplate>(&object.object)) {
    index_.AddTemplate(*t, file);
  } else if (const auto* w = std::get_if<k8s::Workload>(&object.object);
             w != nullptr && satisfiability_) {
    const std::string ns = NamespaceOf(w->metadata.name_space);
    for (const k8s::PodResourceClaim& pc : w->pod.resource_claims) {
      if (pc.resource_claim_name) named_.emplace(false, ns, *pc.resource_claim_name);
      if (pc.resource_claim_template_name) {
        named_.emplace(true, ns, *pc.resource_claim_template_name);
      }
    }
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

FileCheck::FileCheck(const StreamedBatch& batch, size_t file, size_t group)
    : batch_(&batch), group_(group), references_(batch.index_) {
  if (batch.inventory_ == nullptr) return;
  // RunBatch's ErrorsByObject: an object's decoding errors are those naming its ref.
  for (const Diagnostic& d : batch.context_[file].diagnostics.items()) {
    if (d.is_error()) decode_errors_.insert(KeyOfRef(d.object));
  }
}

FileCheck::~FileCheck() = default;

bool FileCheck::Rejected(const RefKey& ref, bool own) const {
  return own || decode_errors_.contains(ref) || error_refs_.contains(ref);
}

void FileCheck::CheckSatisfiability(const k8s::DecodedObject& object,
                                    std::vector<Diagnostic> errors) {
  const RefKey key = KeyOfRef(object.ref);
  const bool repeated = batch_->repeated_.contains(key);
  // Objects of one file with the same ref share their errors (ErrorsByObject): known once the
  // file is read.
  if (repeated && !errors.empty()) error_refs_.insert(key);
  const auto* claim = std::get_if<k8s::ResourceClaim>(&object.object);
  const auto* tmpl = std::get_if<k8s::ResourceClaimTemplate>(&object.object);
  const auto* workload = std::get_if<k8s::Workload>(&object.object);
  const bool allocated = claim != nullptr && IsAllocated(*claim);
  if (claim != nullptr || tmpl != nullptr) {
    const k8s::ObjectMeta& meta = claim != nullptr ? claim->metadata : tmpl->metadata;
    SpecKey named{tmpl != nullptr, NamespaceOf(meta.name_space), meta.name};
    if (batch_->named_.contains(named) && !named_.contains(named)) {
      Named& n = named_[named];
      n.ref = key;
      n.allocated = allocated;
      n.own_errors = !errors.empty();
      if (!allocated) n.spec = claim != nullptr ? claim->spec : tmpl->spec;
    }
  }
  if (allocated || (workload != nullptr && workload->pod.resource_claims.empty())) return;
  if (claim == nullptr && tmpl == nullptr && workload == nullptr) return;
  if (workload != nullptr || repeated) {
    // Pods wait for the claims they name; a repeated ref for the errors of its namesakes.
    Subject subject{.deferred = true, .ref = key, .own_errors = !errors.empty()};
    if (workload != nullptr) {
      subject.diagnostic.field = PodClaimsField(*workload);
      subject.pod = true;
      subject.name_space = workload->metadata.name_space;
      subject.pod_claims = workload->pod.resource_claims;
    } else {
      subject.diagnostic.field = claim != nullptr ? "spec.devices" : "spec.spec.devices";
      subject.spec = claim != nullptr ? claim->spec : tmpl->spec;
    }
    Locate(object, subject.diagnostic);
    subjects_.push_back(std::move(subject));
    return;
  }
  // What the API server rejects is never allocated: no finding (its errors are).
  if (Rejected(key, !errors.empty())) return;
  std::optional<pipeline::Subject> subject = SubjectOf(object, nullptr, PodClaimLookup());
  if (!subject) return;
  if (evaluator_ == nullptr) {
    evaluator_ = std::make_unique<alloc::CelSelectorEvaluator>(
        batch_->options_.satisfiability.allocator, batch_->programs_, batch_->devices_);
  }
  subject->result.verdict = batch_->Allocate(subject->claims, *evaluator_);
  std::optional<Diagnostic> d = SatisfiabilityDiagnostic(
      subject->result, batch_->options_.satisfiability.unsatisfiable_severity);
  if (!d) return;
  KeepLine(object.source(), *d, lines_, &pending_);
  subjects_.push_back({.diagnostic = std::move(*d)});
}

void FileCheck::Locate(const k8s::DecodedObject& object, Diagnostic& d) {
  object.Locate(d);
  KeepLine(object.source(), d, lines_, &pending_);
}

void FileCheck::NoteSummaryStarts(const k8s::DecodedObject& object, unsigned kinds) {
  for (unsigned kind = 0; kind < validate::ReferenceChecker::kSummaryKinds; ++kind) {
    if ((kinds & (1u << kind)) == 0) continue;
    SummaryStart start{.kind = kind};
    start.located.field = references_.first_field(kind);
    object.Locate(start.located);
    // The line, as KeepLine would keep it, but only once the fold shows this file's start is
    // the first (a position just past the piece is left to the pending lines at once).
    KeptLines line;
    KeepLine(object.source(), start.located, line, &pending_);
    if (!line.empty()) start.line = std::move(line.begin()->second.begin()->second);
    summary_starts_.push_back(std::move(start));
  }
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
  std::vector<Diagnostic> errors;  // what makes the API server reject the object
  {
    Diagnostics found;
    validate::ValidateObject(object.object, batch_->validation_, found);
    for (Diagnostic& d : found.mutable_items()) {
      Locate(object, d);
      if (d.is_error() && batch_->inventory_ != nullptr) errors.push_back(d);
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
    const unsigned started = references_.started_summaries();
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
    if (const unsigned now = references_.started_summaries(); now != started && !repeated) {
      NoteSummaryStarts(object, now & ~started);
    }
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
  // satisfiability (never for what the API server rejects)
  if (batch_->inventory_ != nullptr) CheckSatisfiability(object, std::move(errors));
}

StreamedBatch::StreamedBatch(const std::vector<k8s::DecodeResult>& context,
                             std::vector<ContextNotes> notes,
                             const std::vector<size_t>& groups, std::set<RefKey> repeated,
                             const inventory::ClusterObjects* snapshot,
                             const PipelineOptions& options, inventory::ClusterObjects* owned)
    : context_(context), options_(options), repeated_(std::move(repeated)), summaries_(index_) {
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
  // After the schema phase is built: it read the snapshot's slices, which may move now.
  if (options.stages.satisfiability && snapshot != nullptr) {
    StartSatisfiability(notes, *snapshot, owned);
  }
  for (size_t file = 0; file < context.size(); ++file) {
    const size_t group = file < groups.size() ? groups[file] : file;
    files_.push_back(std::unique_ptr<FileCheck>(new FileCheck(*this, file, group)));
  }
  done_.resize(files_.size());
}

void StreamedBatch::StartSatisfiability(std::vector<ContextNotes>& notes,
                                        const inventory::ClusterObjects& snapshot,
                                        inventory::ClusterObjects* owned) {
  Timings* timings = options_.satisfiability.timings;
  std::optional<Timings::Scope> phase(std::in_place, timings,
                                      "satisfiability: merge inputs into the snapshot");
  inventory::ClusterObjects cluster;
  if (owned != nullptr) {
    // The references and schema stages keep pointers into the snapshot's classes and claims:
    // those are copied, the rest (a fleet's slices and nodes) moved.
    cluster.classes = owned->classes;
    cluster.claims = owned->claims;
    cluster.namespaces = owned->namespaces;
    std::swap(cluster.slices, owned->slices);
    std::swap(cluster.nodes, owned->nodes);
    std::swap(cluster.taint_rules, owned->taint_rules);
    cluster.source = owned->source;
    cluster.as_of = owned->as_of;
  } else {
    cluster = snapshot;
  }
  cluster = MergeClusterObjects(std::move(cluster), context_);
  // RunBatch merges every claim among the inputs; only allocated ones mark devices in use, so
  // an unallocated one matters only where it may replace one of the same name that is (the
  // snapshot's claims, the allocated ones among the inputs).
  std::set<std::pair<std::string, std::string>> replaceable;
  for (const k8s::ResourceClaim& c : cluster.claims) {
    replaceable.emplace(NamespaceOf(c.metadata.name_space), c.metadata.name);
  }
  for (const ContextNotes& file : notes) {
    for (const ContextNotes::ClaimNote& c : file.claims_) {
      if (c.allocated) replaceable.emplace(NamespaceOf(c.name_space), c.name);
    }
  }
  std::vector<k8s::ResourceClaim> claims;
  for (ContextNotes& file : notes) {
    for (ContextNotes::ClaimNote& c : file.claims_) {
      if (c.allocated) {
        claims.push_back(std::move(*c.allocated));
      } else if (replaceable.contains({NamespaceOf(c.name_space), c.name})) {
        k8s::ResourceClaim named;
        named.metadata.name = c.name;
        named.metadata.name_space = c.name_space;
        claims.push_back(std::move(named));
      }
    }
    std::vector<ContextNotes::ClaimNote>().swap(file.claims_);
    named_.merge(file.named_);
  }
  MergeClaims(cluster.claims, std::move(claims));
  DropDisabledFields(cluster, validation_);
  phase.emplace(timings, "satisfiability: inventory build");
  inventory_ = std::make_unique<alloc::Inventory>(
      alloc::Inventory::Build(std::make_shared<const inventory::ClusterObjects>(std::move(cluster))));
  programs_ = std::make_shared<alloc::CelProgramCache>();
  devices_ = std::make_shared<alloc::PreparedDevices>(inventory_->devices().size());
  // The snapshot's claims pods name, looked up after the inputs' (first of each name).
  for (const k8s::ResourceClaim& c : snapshot.claims) {
    SpecKey key{false, NamespaceOf(c.metadata.name_space), c.metadata.name};
    if (named_.contains(key)) snapshot_claims_.try_emplace(std::move(key), &c);
  }
}

void StreamedBatch::Done(size_t file) {
  std::lock_guard<std::mutex> lock(fold_mutex_);
  done_[file] = true;
  FoldDone(/*all=*/false);
}

void StreamedBatch::FoldDone(bool all) {
  for (; folded_ < files_.size() && (all || done_[folded_]); ++folded_) {
    FileCheck& file = *files_[folded_];
    // A summary's first reference is in the first file that started it.
    const unsigned before = summaries_.started_summaries();
    for (FileCheck::SummaryStart& start : file.summary_starts_) {
      if ((before & (1u << start.kind)) != 0) continue;
      if (start.line) {
        file.lines_[start.located.file].try_emplace(start.located.position.line,
                                                   std::move(*start.line));
      }
      std::pair<RefKey, std::string> key{KeyOfRef(start.located.object), start.located.field};
      summary_starts_.try_emplace(std::move(key), std::move(start.located));
    }
    std::vector<FileCheck::SummaryStart>().swap(file.summary_starts_);
    summaries_.Merge(std::move(file.references_));
  }
}

alloc::AllocationVerdict StreamedBatch::Allocate(const std::vector<k8s::ResourceClaimSpec>& claims,
                                                 alloc::CelSelectorEvaluator& evaluator) const {
  std::vector<const k8s::ResourceClaimSpec*> pointers;
  for (const k8s::ResourceClaimSpec& spec : claims) pointers.push_back(&spec);
  alloc::AllocationVerdict verdict =
      alloc::CheckPod(*inventory_, pointers, evaluator, options_.satisfiability.allocator);
  if (!options_.satisfiability.feasible_node_names) {
    std::vector<std::string>().swap(verdict.feasible_nodes);
  }
  return verdict;
}

void StreamedBatch::FinishSatisfiability(std::vector<Diagnostic>& out) {
  std::optional<Timings::Scope> phase(std::in_place, options_.satisfiability.timings,
                                      "satisfiability: checks (pods; claims and templates: as read)");
  // The claims and templates pods name: the first of each among the inputs, in input order.
  std::map<SpecKey, NamedSpec> named;
  for (const std::unique_ptr<FileCheck>& file : files_) {
    for (const auto& [key, n] : file->named_) {
      named.try_emplace(key, NamedSpec{.spec = &n.spec,
                                       .allocated = n.allocated,
                                       .rejected = file->Rejected(n.ref, n.own_errors)});
    }
  }
  const PodClaimLookup lookup = [&](bool is_template, const std::string& ns,
                                    const std::string& name) -> std::optional<NamedSpec> {
    if (auto it = named.find({is_template, ns, name}); it != named.end()) return it->second;
    if (is_template) return std::nullopt;
    auto it = snapshot_claims_.find({false, ns, name});
    if (it == snapshot_claims_.end()) return std::nullopt;
    return NamedSpec{.spec = &it->second->spec, .allocated = IsAllocated(*it->second)};
  };
  alloc::CelSelectorEvaluator evaluator(options_.satisfiability.allocator, programs_, devices_);
  for (const std::unique_ptr<FileCheck>& file : files_) {
    for (FileCheck::Subject& s : file->subjects_) {
      if (!s.deferred) {
        out.push_back(std::move(s.diagnostic));
        continue;
      }
      if (file->Rejected(s.ref, s.own_errors)) continue;
      Subject subject{.result = {.field = s.diagnostic.field}, .pod = s.pod};
      if (s.pod) {
        if (!ResolvePodClaims(s.name_space, s.pod_claims, lookup, subject)) continue;
      } else {
        validate::DefaultDeviceClaim(s.spec.devices);
        subject.claims.push_back(std::move(s.spec));
      }
      if (!subject.claims.empty()) subject.result.verdict = Allocate(subject.claims, evaluator);
      std::optional<Diagnostic> d =
          SatisfiabilityDiagnostic(subject.result, options_.satisfiability.unsatisfiable_severity);
      if (!d) continue;
      d->file = s.diagnostic.file;
      d->position = s.diagnostic.position;
      d->object = s.diagnostic.object;
      out.push_back(std::move(*d));
    }
    std::vector<FileCheck::Subject>().swap(file->subjects_);
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
  {
    std::lock_guard<std::mutex> lock(fold_mutex_);
    FoldDone(/*all=*/true);
  }
  auto locate = [&](Diagnostic& d) {
    if (!d.file.empty()) return;
    RefKey key = KeyOfRef(d.object);
    if (auto it = locators.find(key); it != locators.end()) {
      it->second->Locate(d);
      KeepLine(it->second->source(), d, lines);
    } else if (auto start = summary_starts_.find({std::move(key), d.field});
               start != summary_starts_.end()) {
      d.file = start->second.file;
      d.position = start->second.position;
    }
  };
  result.per_file.resize(files_.size());
  for (size_t i = 0; i < files_.size(); ++i) {
    result.per_file[i] = context_[i].diagnostics.items();
    for (Diagnostic& d : files_[i]->validation_) result.per_file[i].push_back(std::move(d));
  }
  if (options_.stages.references) {
    for (auto bucket : {&FileCheck::workloads_, &FileCheck::claims_, &FileCheck::templates_}) {
      for (const std::unique_ptr<FileCheck>& file : files_) {
        for (Diagnostic& d : (*file).*bucket) {
          locate(d);
          result.cross_object.push_back(std::move(d));
        }
      }
    }
    Diagnostics found;
    summaries_.Report(found);
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
  if (inventory_ != nullptr) FinishSatisfiability(result.cross_object);
  for (const std::unique_ptr<FileCheck>& file : files_) {
    file->ResolvePending(nullptr);
    for (auto& [name, found] : file->lines_) lines[name].merge(found);
  }
  return result;
}

}  // namespace draguard::pipeline
