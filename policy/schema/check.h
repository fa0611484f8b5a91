// Type-checking selectors and constraints against the attribute schema (schema.h).
//
//   schema::CheckOptions options;
//   options.classes = {...every DeviceClass known: lint inputs, inventory, live cluster...};
//   Diagnostics found;
//   schema::CheckObject(decoded.object, schema, options, found);
//   for (Diagnostic& d : found.mutable_items()) decoded.Locate(d);
//
// Every diagnostic carries the API-server field path of the selector expression (or the
// constraint's matchAttribute/distinctAttribute) and, inside an expression, value_offset and
// value_length. Checks walk the parsed CEL AST; expressions that do not parse are skipped
// (validation reports them).
//
// Codes (severity per issue 4 item 3: an error when the schema declares the domain and
// Kubernetes would certainly fail or never match; a warning when the schema may be
// incomplete):
//   schema.domain.unknown            warning; did-you-mean; the `"dra.net/rdma"` mix-up is an
//                                    error (schema.domain.qualified-name)
//   schema.domain.qualified-name     error: a "domain/name" string used as a domain
//   schema.attribute.unknown         warning (error with strict); did-you-mean
//   schema.attribute.removed         error: removed from the driver (NVIDIA index/minor,
//                                    dra.net name/cloudNetwork), with the replacement
//   schema.attribute.deprecated      warning
//   schema.capacity.unknown          warning (error with strict); did-you-mean
//   schema.type.mismatch             error: compared with a literal of another type
//                                    (`cardIndex == "56"`, version vs string, capacity vs
//                                    number/string); suggestion is the corrected comparison
//   schema.value.never-matches       error: a string outside a closed value set
//   schema.driver.unreachable        error: the expression reads only domains that the class
//                                    (or the expression) rules out by device.driver
//   schema.attribute.unguarded       warning: some reachable device types do not publish it;
//                                    suggestion is the guarded form
//   schema.constraint.attribute.unknown        warning (error with strict)
//   schema.constraint.attribute.not-published  error: the constrained requests can only
//                                              select device types without it
//   schema.constraint.attribute.type-differs   error
#ifndef DRAGUARD_POLICY_SCHEMA_CHECK_H_
#define DRAGUARD_POLICY_SCHEMA_CHECK_H_

#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/k8s/device_class.h"
#include "policy/schema/schema.h"

namespace draguard::schema {

struct CheckOptions {
  // --strict-schema: unknown attributes, capacities and constraint names are errors.
  bool strict = false;
  // DeviceClasses that requests may name; their selectors narrow the reachable devices.
  // Pointers must outlive the call. A request whose class is not here reaches "any device".
  std::vector<const k8s::DeviceClass*> classes;
};

// Checks the selectors and constraints of a ResourceClaim, ResourceClaimTemplate or
// DeviceClass; other kinds are ignored. Appends to `out`; never throws. Thread safe for
// concurrent calls sharing `schema` and `options`.
void CheckObject(const k8s::ObjectVariant& object, const Schema& schema,
                 const CheckOptions& options, Diagnostics& out);

}  // namespace draguard::schema

#endif  // DRAGUARD_POLICY_SCHEMA_CHECK_H_
