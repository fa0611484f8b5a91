// The webhook's direct decode: parts of request.object read from the JSON tokens straight into
// the model, with no DocNode tree between them (issue 16).
//
// The general route (json_object.h) copies each member into a tree node, and the k8s decoders
// (policy/k8s/field_reader.h) look every field up again by name and copy it into the model:
// for metadata, read on every request, that was a fifth of a request's instructions. Here each
// member is dispatched by its name in document order and read into its model field at once.
//
// The contract is all or nothing: a direct decoder returns true only when its result is
// exactly what the tree route gives for the same text (the same model, and no finding, since
// the tree route finds none in such a text). On anything it does not decode exactly so
// (an unknown or repeated member, a JSON type its field does not take, null, a number that is
// not a plain integer, a nesting deeper than the limit allows, invalid JSON) it returns false
// and the caller reads the same text by the tree route, which gives the exact model and every
// diagnostic. The API server sends objects it has decoded and encoded again, so nearly every
// review takes the direct route; tests/webhook/admission/direct_decode_test.cc compares both
// routes on the corpus and on mutated variants, fuzz/webhook_object_fuzzer.cc on any input.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_DIRECT_DECODE_H_
#define DRAGUARD_WEBHOOK_ADMISSION_DIRECT_DECODE_H_

#include <cstddef>

#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::webhook {

class JsonLexer;

// Decodes the ObjectMeta (any kind: k8s ReadObjectMeta's fields, with unknown fields ignored as
// the webhook decodes) whose JSON value starts at `lexer`'s position, `depth` collections deep;
// the lexer is left after it. `meta` must be default. On false, `meta` and the lexer's position
// are unspecified: the caller seeks back and takes the tree route.
bool DecodeObjectMetaDirect(JsonLexer& lexer, size_t depth, size_t max_depth,
                            k8s::ObjectMeta& meta);

// Decodes the `spec` of a ResourceClaim (`template_metadata` null) or of a
// ResourceClaimTemplate (its spec.metadata into `*template_metadata`, its spec.spec into
// `spec`) in resource.k8s.io/v1, as k8s ReadClaimSpec reads it: devices.requests (exactly,
// firstAvailable; selectors, tolerations, capacity), constraints and config with opaque
// parameters (their compact JSON as k8s::NodeToJson writes it). Other versions are not
// covered: the caller does not ask. The same contract as DecodeObjectMetaDirect; `spec` and
// `*template_metadata` must be default.
bool DecodeClaimSpecDirect(JsonLexer& lexer, size_t depth, size_t max_depth,
                           k8s::ResourceClaimSpec& spec, k8s::ObjectMeta* template_metadata);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_DIRECT_DECODE_H_
