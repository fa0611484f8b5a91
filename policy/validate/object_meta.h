// metadata validation shared by the five kinds (core validation `ValidateObjectMeta` and
// `ValidateTemplateObjectMeta`): name/generateName as DNS
// subdomains, labels and annotations as apimachinery checks them, and the template object
// meta of ResourceClaimTemplate where only labels and annotations may be set.
#ifndef DRAGUARD_POLICY_VALIDATE_OBJECT_META_H_
#define DRAGUARD_POLICY_VALIDATE_OBJECT_META_H_

#include "policy/common/field_path.h"
#include "policy/k8s/meta.h"
#include "policy/validate/reporter.h"

namespace draguard::validate {

inline constexpr size_t kTotalAnnotationSizeLimit = 256 * 1024;

// Validates `meta` at `field` (normally "metadata"). A missing name is an error only when
// generateName is empty too (the API server generates the name before validation). A missing
// namespace is not reported (the request URL supplies it); a namespace on a cluster-scoped
// kind gets a warning, since the API server silently clears it.
void ValidateObjectMeta(Reporter& r, const k8s::ObjectMeta& meta, bool namespaced,
                        const FieldPath& field);

// The identity rules of apimachinery's ValidateObjectMetaUpdate: name, namespace (namespaced
// kinds) and uid may not change (`Invalid: field is immutable`). Format checks of the new
// metadata are ValidateObjectMeta's.
void ValidateObjectMetaImmutable(Reporter& r, const k8s::ObjectMeta& old_meta,
                                 const k8s::ObjectMeta& new_meta, bool namespaced,
                                 const FieldPath& field);

// Labels and annotations only (used for template object meta as well).
void ValidateLabelsAndAnnotations(Reporter& r, const k8s::ObjectMeta& meta, const FieldPath& field);

// ResourceClaimTemplate `spec.metadata`: labels and annotations are validated; every other
// set field is `Forbidden: cannot be set for a template`.
void ValidateTemplateObjectMeta(Reporter& r, const k8s::ObjectMeta& meta, const FieldPath& field);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_OBJECT_META_H_
