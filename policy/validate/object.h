// Validation of any decoded object, for callers that hold a k8s::ObjectVariant (lint, the
// webhook): dispatches to the per-kind validators. Workloads, Nodes and Namespaces have no
// object-local API rules (workloads are checked across objects by references.h).
#ifndef DRAGUARD_POLICY_VALIDATE_OBJECT_H_
#define DRAGUARD_POLICY_VALIDATE_OBJECT_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/validate/options.h"

namespace draguard::validate {

// Create validation of `object`.
void ValidateObject(const k8s::ObjectVariant& object, const ValidationOptions& options,
                    Diagnostics& diagnostics);

// Update validation: `old_object` and `new_object` must hold the same kind; otherwise the new
// object is validated as a create.
void ValidateObjectUpdate(const k8s::ObjectVariant& old_object,
                          const k8s::ObjectVariant& new_object, const ValidationOptions& options,
                          Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_OBJECT_H_
