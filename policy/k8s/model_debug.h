// A text of every field of a decoded ResourceClaim, ResourceClaimTemplate or DeviceClass, for
// tests and fuzzers that compare two routes to the same model (the webhook's direct decode,
// webhook/admission/direct_decode.h, against the tree decoders). Not a stable format.
#ifndef DRAGUARD_POLICY_K8S_MODEL_DEBUG_H_
#define DRAGUARD_POLICY_K8S_MODEL_DEBUG_H_

#include <string>

#include "policy/k8s/decode.h"

namespace draguard::k8s {

// Two objects of those kinds have the same text exactly when every field is equal; any other
// kind prints as its variant index only.
std::string ModelDebugString(const ObjectVariant& object);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_MODEL_DEBUG_H_
