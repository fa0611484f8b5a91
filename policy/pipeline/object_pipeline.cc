#include "policy/pipeline/object_pipeline.h"

#include <variant>

#include "policy/validate/object.h"

namespace draguard::pipeline {

bool HasErrors(const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics) {
    if (d.is_error()) return true;
  }
  return false;
}

bool RunsSchema(Operation operation, const k8s::ObjectVariant& object) {
  return operation == Operation::kCreate || std::holds_alternative<k8s::DeviceClass>(object);
}

bool RunsSatisfiability(Operation operation) { return operation == Operation::kCreate; }

void RunObject(const ObjectInput& input, const validate::ValidationOptions& options,
               ObjectStages& stages, Diagnostics& out) {
  if (input.old_object != nullptr) {
    validate::ValidateObjectUpdate(*input.old_object, *input.object, options, out);
  } else {
    validate::ValidateObject(*input.object, options, out);
  }
  stages.AfterValidation(out);
  if (HasErrors(out)) return;
  if (RunsSchema(input.operation, *input.object)) stages.Schema(*input.object, out);
  if (HasErrors(out)) return;
  if (RunsSatisfiability(input.operation)) stages.Satisfiability(*input.object, out);
}

}  // namespace draguard::pipeline
