// ResourceSlice validation (validation.go `ValidateResourceSlice`): driver, pool, node selection,
// devices with their attributes, capacities, taints, counters and binding conditions, plus the
// update rules (driver, pool.name and nodeName immutable). Same conventions as resource_claim.h.
#ifndef DRAGUARD_POLICY_VALIDATE_RESOURCE_SLICE_H_
#define DRAGUARD_POLICY_VALIDATE_RESOURCE_SLICE_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/options.h"

namespace draguard::validate {

void ValidateResourceSlice(const k8s::ResourceSlice& slice, const ValidationOptions& options,
                           Diagnostics& diagnostics);

// Update: create validation of the new object (gated fields kept when the old slice used
// them; unchanged device taints are not re-validated) plus the immutable fields.
void ValidateResourceSliceUpdate(const k8s::ResourceSlice& old_slice,
                                 const k8s::ResourceSlice& new_slice,
                                 const ValidationOptions& options, Diagnostics& diagnostics);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_RESOURCE_SLICE_H_
