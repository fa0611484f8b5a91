// The batch pipeline (pipeline.h) over inputs read twice, so that the objects checked are not
// all held at once: `draguard lint` over large inputs (policy/lint/linter.h).
//
//   pass 1  the caller reads every input and keeps only the context objects (IsContextObject:
//           what the cross-object stages read whole) in its DecodeResults; every other checked
//           object is given to ContextNotes::Note (its names and request names for the
//           references stage) and dropped.
//   pass 2  StreamedBatch is built from the context; the caller reads the inputs again and
//           gives each object to FileCheck::Check as it is decoded: validation, references
//           and schema findings are made and located right away, and the object dropped.
//   finish  StreamedBatch::Finish puts the findings in RunBatch's order.
//
// For the same objects, Finish gives what RunBatch gives, stage by stage and in the same
// order (the differential tests in tests/policy/lint/linter_test.cc hold both to it), as
// long as SupportsTwoPass: the satisfiability stage is not run this way (it resolves a pod's
// claims to their whole specs and their validation errors, across inputs).
//
// What is held: the context objects, per claim or template its names and request names,
// the findings, and a copy of the first object of each ObjectRef that several inputs share
// (a references finding about a repeated object is located in its first one, as RunBatch
// does).
#ifndef DRAGUARD_POLICY_PIPELINE_STREAMED_BATCH_H_
#define DRAGUARD_POLICY_PIPELINE_STREAMED_BATCH_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "policy/pipeline/pipeline.h"
#include "policy/pipeline/schema_stage.h"
#include "policy/validate/references.h"

namespace draguard::pipeline {

// Objects the cross-object stages read whole (Namespaces for validation, DeviceClasses,
// ResourceSlices, Nodes, DeviceTaintRules): kept from the first pass.
bool IsContextObject(const k8s::DecodedObject& object);

// Whether StreamedBatch gives RunBatch's result for these options (not with the
// satisfiability stage against a snapshot).
bool SupportsTwoPass(const inventory::ClusterObjects* snapshot, const PipelineOptions& options);

// What pass 1 notes about one input file's objects that are not kept.
class ContextNotes {
 public:
  // `file` is the index of the input (the group references resolve in first).
  void Note(size_t file, const k8s::DecodedObject& object);
  validate::ReferenceIndex& index() { return index_; }

 private:
  validate::ReferenceIndex index_;
};

using RefKey = std::tuple<std::string, std::string, std::string, std::string>;
RefKey KeyOfRef(const ObjectRef& ref);

// Lines of the inputs that findings point at, by file name then line (for snippets): the
// documents they are in are not kept.
using KeptLines = std::map<std::string, std::map<int, std::string>>;

class StreamedBatch;

// The pass-2 checks of one input file; files may be checked concurrently, each by its own
// FileCheck.
class FileCheck {
 public:
  // Checks one object of the file, in input order (only the objects RunBatch would be given).
  void Check(const k8s::DecodedObject& object);
  // Objects checked so far.
  size_t checked() const { return checked_; }

 private:
  friend class StreamedBatch;
  FileCheck(const StreamedBatch& batch, size_t group);
  // Locates `d` in `object` and keeps the line it points at.
  void Locate(const k8s::DecodedObject& object, Diagnostic& d);
  // Keeps the lines just past the last piece (pending_): `next`'s first line when it starts
  // there (null: there is no next piece with a checked object).
  void ResolvePending(const SourceText* next);

  const StreamedBatch* batch_;
  size_t group_;
  size_t checked_ = 0;
  std::vector<Diagnostic> validation_;
  std::vector<Diagnostic> workloads_, claims_, templates_;  // references, by kind
  std::vector<Diagnostic> schema_;
  validate::ReferenceChecker references_;
  // The first object of each repeated ObjectRef in this file, and the objects a references
  // summary started on.
  std::map<RefKey, k8s::DecodedObject> locators_;
  KeptLines lines_;
  std::vector<std::pair<std::string, int>> pending_;  // file, line: of the last piece
};

class StreamedBatch {
 public:
  // `context`: pass 1's DecodeResults, one per input file, holding the context objects (and
  // possibly others); `notes`: pass 1's notes per file; `groups`: the `file` each file's notes
  // were taken with (references resolve in the referring object's group first);
  // `repeated`: the ObjectRefs several checked objects share, among all inputs. `context` and
  // `snapshot` (may be null) must outlive the batch.
  StreamedBatch(const std::vector<k8s::DecodeResult>& context, std::vector<ContextNotes> notes,
                const std::vector<size_t>& groups, std::set<RefKey> repeated,
                const inventory::ClusterObjects* snapshot, const PipelineOptions& options);
  ~StreamedBatch();

  // The check of input file `file` (at most one per file).
  FileCheck& File(size_t file) { return *files_[file]; }

  // RunBatch's result (per_file starts with each file's decoding diagnostics from
  // `context`); the lines the findings point at are added to `lines`.
  BatchResult Finish(KeptLines& lines);

 private:
  friend class FileCheck;
  const std::vector<k8s::DecodeResult>& context_;
  PipelineOptions options_;
  validate::ValidationOptions validation_;
  validate::ReferenceIndex index_;
  std::set<RefKey> repeated_;
  std::unique_ptr<SchemaPhase> schema_;
  std::vector<std::unique_ptr<FileCheck>> files_;
};

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_STREAMED_BATCH_H_
