// Deep equality of the model pieces that immutability rules compare (validation.go's
// `ValidateImmutableField` calls in the `Validate...Update` functions). The model
// structs carry no operator==, so validation defines the comparisons it needs.
#ifndef DRAGUARD_POLICY_VALIDATE_EQUALITY_H_
#define DRAGUARD_POLICY_VALIDATE_EQUALITY_H_

#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::validate::internal {

bool Equal(const k8s::DeviceClaim& a, const k8s::DeviceClaim& b);
// Template object meta: every field of ObjectMeta.
bool Equal(const k8s::ObjectMeta& a, const k8s::ObjectMeta& b);
bool Equal(const k8s::AllocationResult& a, const k8s::AllocationResult& b);
bool Equal(const k8s::NodeSelector& a, const k8s::NodeSelector& b);

}  // namespace draguard::validate::internal

#endif  // DRAGUARD_POLICY_VALIDATE_EQUALITY_H_
