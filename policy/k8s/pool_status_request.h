// ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, Kubernetes 1.36, alpha): draguard does
// not decode the kind into a model; it checks the spec fields a user writes, as the
// declarative validation tags of kubernetes/api v0.36.0 resource/v1alpha3/types.go define
// them (plain `+k8s:` tags, not alpha-shadowed):
//   spec.driver    +k8s:required +k8s:format=k8s-long-name-caseless
//   spec.poolName  +k8s:optional +k8s:format=k8s-resource-pool-name
//   spec.limit     +k8s:optional +k8s:minimum=1 +k8s:maximum=1000 (default 100)
// The status is written by the controller and is not checked; nor is the immutability of
// `spec` on update. The API server's message texts for these tags were not readable (the
// apimachinery validate package at v0.36.0 is not mirrored): draguard words them itself.
#ifndef DRAGUARD_POLICY_K8S_POOL_STATUS_REQUEST_H_
#define DRAGUARD_POLICY_K8S_POOL_STATUS_REQUEST_H_

#include "policy/common/diagnostic.h"
#include "policy/k8s/document.h"

namespace draguard::k8s {

inline constexpr int64_t kPoolStatusLimitMin = 1;
inline constexpr int64_t kPoolStatusLimitMax = 1000;

// Reports the spec problems of the ResourcePoolStatusRequest whose root map is `root`.
void CheckResourcePoolStatusRequestSpec(const DocNode& root, Diagnostics& diagnostics);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_POOL_STATUS_REQUEST_H_
