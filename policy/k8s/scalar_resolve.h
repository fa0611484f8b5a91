// Scalar type resolution as Kubernetes' YAML decoder does it.
//
// sigs.k8s.io/yaml converts YAML to JSON through go-yaml v2, which resolves plain scalars with
// YAML 1.1 rules: `y`, `yes`, `on`, `true` (in lower, Title and UPPER case) are true, `n`, `no`,
// `off`, `false` are false; `~`, `null` and the empty scalar are null; integers may carry a
// sign, underscores and 0x/0o/0b prefixes (or a leading 0 for octal); integers outside int64
// become floats. Quoted and block scalars, and those tagged `!!str`, are strings.
#ifndef DRAGUARD_POLICY_K8S_SCALAR_RESOLVE_H_
#define DRAGUARD_POLICY_K8S_SCALAR_RESOLVE_H_

#include "policy/k8s/document.h"

namespace draguard::k8s {

// Sets node.kind and the matching value from node.text, node.style and the scalar's explicit
// `tag` as written ("!!int", "tag:yaml.org,2002:str"; empty when untagged).
void ResolveScalar(DocNode& node, std::string_view tag = {});

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_SCALAR_RESOLVE_H_
