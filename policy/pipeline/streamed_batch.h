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
// order (the differential tests in tests/policy/lint/linter_test.cc hold both to it).
//
// What is held: the context objects, per claim or template its names and request names,
// the findings, and a copy of the first object of each ObjectRef that several inputs share
// (a references finding about a repeated object is located in its first one, as RunBatch
// does). A references summary's position is taken while its first object is at hand, and
// the files' summaries are folded in input order as they are done (Done). With the satisfiability stage (a snapshot): the allocator's inventory (the snapshot
// merged with the inputs' cluster objects, as RunBatch merges them), each allocated claim
// among the inputs whole and of the other claims their names (they replace inventory claims
// of the same name), the claims and templates the pods name (pass 1 notes the names; pass 2
// keeps the spec of the first of each), and per pod its claim references, until Finish checks
// the pods. Claims and templates are checked as pass 2 reads them (those whose ObjectRef
// repeats wait for Finish with their spec: another object of the same ref may reject them).
#ifndef DRAGUARD_POLICY_PIPELINE_STREAMED_BATCH_H_
#define DRAGUARD_POLICY_PIPELINE_STREAMED_BATCH_H_

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "policy/allocator/cel_evaluator.h"
#include "policy/allocator/inventory.h"
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

using RefKey = std::tuple<std::string, std::string, std::string, std::string>;
RefKey KeyOfRef(const ObjectRef& ref);
// A claim (false) or template (true) as pods name it: namespace ("default" when unset), name.
using SpecKey = std::tuple<bool, std::string, std::string>;

// What pass 1 notes about one input file's objects that are not kept.
class ContextNotes {
 public:
  ContextNotes() = default;
  // `satisfiability`: also what the satisfiability stage reads across objects (the snapshot
  // is given): the claims and templates pods name, each claim's namespace and name, and the
  // allocated claims whole.
  explicit ContextNotes(bool satisfiability) : satisfiability_(satisfiability) {}
  // `file` is the index of the input (the group references resolve in first).
  void Note(size_t file, const k8s::DecodedObject& object);
  validate::ReferenceIndex& index() { return index_; }

 private:
  friend class StreamedBatch;
  // A claim among the inputs: allocated ones whole (cluster state), others by name only.
  struct ClaimNote {
    std::string name_space;  // as written
    std::string name;
    std::unique_ptr<k8s::ResourceClaim> allocated;
  };
  bool satisfiability_ = false;
  validate::ReferenceIndex index_;
  std::vector<ClaimNote> claims_;
  std::set<SpecKey> named_;  // by pods
};

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
  ~FileCheck();

 private:
  friend class StreamedBatch;
  FileCheck(const StreamedBatch& batch, size_t file, size_t group);
  // Locates `d` in `object` and keeps the line it points at.
  void Locate(const k8s::DecodedObject& object, Diagnostic& d);
  // Keeps the lines just past the last piece (pending_): `next`'s first line when it starts
  // there (null: there is no next piece with a checked object).
  void ResolvePending(const SourceText* next);
  // Notes where the summaries of `kinds` (bits of ReferenceChecker::started_summaries) that
  // `object` just started have their first reference.
  void NoteSummaryStarts(const k8s::DecodedObject& object, unsigned kinds);

  const StreamedBatch* batch_;
  size_t group_;
  size_t checked_ = 0;
  std::vector<Diagnostic> validation_;
  std::vector<Diagnostic> workloads_, claims_, templates_;  // references, by kind
  std::vector<Diagnostic> schema_;
  validate::ReferenceChecker references_;
  // The first object of each repeated ObjectRef in this file (its references findings are
  // located in the first object of the ref among all inputs, as RunBatch locates them).
  std::map<RefKey, k8s::DecodedObject> locators_;
  // Where the references summaries this file started have their first reference, located as
  // the object was checked (the object is not kept): the batch keeps those of the first file
  // to start each summary when it folds this file (StreamedBatch::Done).
  struct SummaryStart {
    unsigned kind = 0;  // validate::ReferenceChecker's
    Diagnostic located;  // field, file, position, object (the summary's first reference)
    std::optional<std::string> line;  // the text of the line it points at, when in the piece
  };
  std::vector<SummaryStart> summary_starts_;
  KeptLines lines_;
  std::vector<std::pair<std::string, int>> pending_;  // file, line: of the last piece

  // satisfiability (with a snapshot)
  // A satisfiability subject of one file: its finding, or what its check at Finish needs.
  struct Subject {
    Diagnostic diagnostic;  // located; the finding itself unless `deferred`
    bool deferred = false;
    RefKey ref;
    bool own_errors = false;
    bool pod = false;
    std::string name_space;                         // pods: as written
    std::vector<k8s::PodResourceClaim> pod_claims;  // pods
    k8s::ResourceClaimSpec spec;                    // claims and templates
  };

  // A claim or template a pod names: the first of its key in the file.
  struct Named {
    RefKey ref;
    bool allocated = false;
    bool own_errors = false;
    k8s::ResourceClaimSpec spec;  // empty when allocated
  };
  // The subject `object` is, if any: checked now, or (pods, repeated refs) left for Finish.
  void CheckSatisfiability(const k8s::DecodedObject& object, std::vector<Diagnostic> errors);
  // Whether the API server rejects the object `ref` of this file (errors of its own: `own`).
  bool Rejected(const RefKey& ref, bool own) const;
  std::unique_ptr<alloc::CelSelectorEvaluator> evaluator_;
  std::vector<Subject> subjects_;
  std::map<SpecKey, Named> named_;  // the first of each in this file
  std::set<RefKey> decode_errors_;  // refs with decoding errors in this file
  std::set<RefKey> error_refs_;     // repeated refs with validation errors in this file
};

class StreamedBatch {
 public:
  // `context`: pass 1's DecodeResults, one per input file, holding the context objects (and
  // possibly others); `notes`: pass 1's notes per file; `groups`: the `file` each file's notes
  // were taken with (references resolve in the referring object's group first);
  // `repeated`: the ObjectRefs several checked objects share, among all inputs. `context` and
  // `snapshot` (may be null) must outlive the batch.
  // With `owned` (== snapshot, given over) the satisfiability stage moves the snapshot's
  // slices, nodes and taint rules into its cluster instead of copying them.
  StreamedBatch(const std::vector<k8s::DecodeResult>& context, std::vector<ContextNotes> notes,
                const std::vector<size_t>& groups, std::set<RefKey> repeated,
                const inventory::ClusterObjects* snapshot, const PipelineOptions& options,
                inventory::ClusterObjects* owned = nullptr);
  ~StreamedBatch();

  // The check of input file `file` (at most one per file).
  FileCheck& File(size_t file) { return *files_[file]; }
  // Says that input file `file` has been checked (or will not be: each file once); the batch
  // folds what it keeps per file for the references summaries as soon as every file before
  // it is done too. Thread-safe. Finish folds the files never said done.
  void Done(size_t file);

  // RunBatch's result (per_file starts with each file's decoding diagnostics from
  // `context`); the lines the findings point at are added to `lines`.
  BatchResult Finish(KeptLines& lines);

 private:
  friend class FileCheck;
  // Builds the allocator's inventory from the snapshot (taken from `owned` when given) and
  // the inputs' cluster objects, as RunBatch merges them; takes what pass 1 noted for it.
  void StartSatisfiability(std::vector<ContextNotes>& notes,
                           const inventory::ClusterObjects& snapshot,
                           inventory::ClusterObjects* owned);
  alloc::AllocationVerdict Allocate(const std::vector<k8s::ResourceClaimSpec>& claims,
                                    alloc::CelSelectorEvaluator& evaluator) const;
  // The satisfiability findings in input order, the checks left for the end done.
  void FinishSatisfiability(std::vector<Diagnostic>& out);
  // Folds the files from folded_ on that are done (all of them with `all`), in input order.
  // Callers hold fold_mutex_.
  void FoldDone(bool all);

  const std::vector<k8s::DecodeResult>& context_;
  PipelineOptions options_;
  validate::ValidationOptions validation_;
  validate::ReferenceIndex index_;
  std::set<RefKey> repeated_;
  std::unique_ptr<SchemaPhase> schema_;
  // satisfiability: the allocator's inventory (null: the stage does not run), the caches its
  // evaluators share, what pods name, the snapshot's claims (looked up after the inputs').
  std::unique_ptr<alloc::Inventory> inventory_;
  std::shared_ptr<alloc::CelProgramCache> programs_;
  std::shared_ptr<alloc::PreparedDevices> devices_;
  std::set<SpecKey> named_;
  std::map<SpecKey, const k8s::ResourceClaim*> snapshot_claims_;
  std::vector<std::unique_ptr<FileCheck>> files_;
  // The references summaries of the files folded so far (files before folded_), and where
  // each summary's first reference is (by its ObjectRef and field).
  std::mutex fold_mutex_;
  std::vector<bool> done_;
  size_t folded_ = 0;
  validate::ReferenceChecker summaries_;
  std::map<std::pair<RefKey, std::string>, Diagnostic> summary_starts_;
};

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_STREAMED_BATCH_H_
