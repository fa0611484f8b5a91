// The object pipeline for one object (pipeline.h has the stage table): what the admission
// webhook runs for each request, after decoding the review's object.
//
//   validate        ValidateObject, or ValidateObjectUpdate against the old object on UPDATE
//   (hook)          ObjectStages::AfterValidation may rewrite the findings so far (the
//                   webhook's spec memo replaces what validation said about a spec it knows)
//   (stop)          when any finding so far is an error: the API server rejects the object
//                   in its own validation before calling validating webhooks, so nothing
//                   else about it matters (kStages: single_after_errors)
//   schema          on CREATE, and on UPDATE of a DeviceClass (claim and template specs are
//                   immutable, an UPDATE would only repeat its CREATE's findings)
//   (stop)          when the schema stage found an error
//   satisfiability  on CREATE only (an allocated claim would compete with its own allocation)
//
// The schema and satisfiability stages are the caller's (ObjectStages): the webhook keeps the
// schema and the allocator's view per inventory snapshot, with its own staleness rules, and
// replays the findings of a spec it remembers (its spec memo) through the hook and its
// stages; a live-cluster command can implement them over a snapshot read from
// the API server. The order and the stops are this file's alone.
//
// Thread-compatible; RunObject is reentrant when the stages are.
#ifndef DRAGUARD_POLICY_PIPELINE_OBJECT_PIPELINE_H_
#define DRAGUARD_POLICY_PIPELINE_OBJECT_PIPELINE_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/validate/options.h"

namespace draguard::pipeline {

enum class Operation { kCreate, kUpdate };

// The stages after validation, for one object. Each appends its findings, with field paths
// from the object's root, to `out`.
class ObjectStages {
 public:
  virtual ~ObjectStages() = default;
  // Runs right after validation, before the stop on an error, with every finding so far
  // (decoding's and validation's); may reorder, remember or replace them. Default: nothing.
  virtual void AfterValidation(Diagnostics& out) { (void)out; }
  virtual void Schema(const k8s::ObjectVariant& object, Diagnostics& out) = 0;
  virtual void Satisfiability(const k8s::ObjectVariant& object, Diagnostics& out) = 0;
};

struct ObjectInput {
  // The decoded object; must hold an object (not monostate).
  const k8s::ObjectVariant* object = nullptr;
  // The stored object on UPDATE when it decoded; null otherwise (then the object is validated
  // as on create).
  const k8s::ObjectVariant* old_object = nullptr;
  Operation operation = Operation::kCreate;
};

// Whether the schema stage runs for an object of this operation (after a clean validation).
bool RunsSchema(Operation operation, const k8s::ObjectVariant& object);
// Whether the satisfiability stage runs (after clean validation and schema stages).
bool RunsSatisfiability(Operation operation);

// Runs validate -> (hook) -> schema -> satisfiability for `input` as described above,
// appending to `out` (which may already hold the decoding findings: an error among them stops
// everything after validation as well).
void RunObject(const ObjectInput& input, const validate::ValidationOptions& options,
               ObjectStages& stages, Diagnostics& out);

// True when any of `diagnostics` is an error.
bool HasErrors(const Diagnostics& diagnostics);

}  // namespace draguard::pipeline

#endif  // DRAGUARD_POLICY_PIPELINE_OBJECT_PIPELINE_H_
