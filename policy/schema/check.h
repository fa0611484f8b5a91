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
// Codes (severity per issue 4 item 3: an error where Kubernetes would certainly fail or never
// match given a schema that declares the attribute; a warning where the schema may be
// incomplete). "strict" is CheckOptions::strict (--strict-schema):
//   schema.domain.unknown            info: most often a private driver's domain, which the
//                                    schema cannot know; warning when it is a near miss of a
//                                    known domain (a typo); error with strict. Also for a
//                                    constraint's domain. Did-you-mean over domains
//   schema.domain.qualified-name     error: a "domain/name" string used as the domain
//                                    (`device.attributes["dra.net/rdma"]`)
//   schema.attribute.unknown         warning (error with strict); did-you-mean
//   schema.capacity.unknown          warning (error with strict); did-you-mean
//   schema.attribute.removed         error: removed from the driver (NVIDIA index/minor,
//                                    dra.net name/cloudNetwork), suggestion = replacement
//   schema.attribute.deprecated      warning, suggestion = replacement
//   schema.type.mismatch             error: compared with a literal of another type, or with
//                                    another attribute or capacity of another type (marked:
//                                    the right operand's name), or versions/quantities ordered
//                                    with an operator, or a method of another type called on
//                                    it; suggestion is the corrected comparison (`cardIndex ==
//                                    56`, `.isGreaterThan(semver("550.0.0"))`, `quantity("40Gi")`,
//                                    `string(a) == b`, `a.isLessThan(b)`)
//   schema.value.never-matches       error (==) / warning (!=): outside a closed value set
//   schema.driver.unreachable        error: facts pin device.driver to drivers that do not
//                                    publish the domain read
//   schema.attribute.not-published   error: no reachable device type publishes it
//   schema.attribute.unguarded       warning: some reachable device types lack it;
//                                    suggestion is the guarded expression
//   schema.constraint.attribute.unknown        warning (error with strict): a name its
//                                              known domain does not publish
//   schema.constraint.attribute.not-published  error: the constrained requests can only
//                                              select device types without it
//   schema.constraint.attribute.type-mismatch  two constrained requests reach only devices
//                                              publishing it with different types: error
//                                              for matchAttribute (never satisfied) when the
//                                              schema states both types, warning when one
//                                              is assumed (a driver the schema does not
//                                              describe) and for distinctAttribute (never
//                                              rejects). Types per driver: what its slices
//                                              publish, else the declared type
// Guards and unknown names: a presence test (has(), `in`, `.?`) never produces an
// "unknown" finding. "Reachable devices" come from the request's DeviceClass (when among
// CheckOptions::classes), earlier selectors and the conjunctions enclosing the access;
// without a known class no unguarded/not-published finding is made.
#ifndef DRAGUARD_POLICY_SCHEMA_CHECK_H_
#define DRAGUARD_POLICY_SCHEMA_CHECK_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "policy/cel/compiler.h"
#include "policy/common/bounded_cache.h"
#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "policy/k8s/device_class.h"
#include "policy/schema/schema.h"

namespace draguard::schema {

// What the checks of selectors found, remembered across objects: a selector's findings and the
// facts it establishes are a pure function of its text, the facts given to it (its
// DeviceClass's and the earlier selectors'), whether its class is known, and the schema and
// options of the check. The webhook sees the same selectors on request after request (a
// template's claims, a client's few shapes), and lint the same ones in file after file:
// checking one again cost ~5,000 instructions (its analysis, the schema lookups, the messages
// of its findings), a lookup here a few hundred. Entries are keyed by text that clients
// choose: bounded in entries and bytes (bounded_cache.h). Thread safe.
// Also by shape (cel::AppendSelectorShape): a selector differing from one checked before only
// in literals the check did not read (a string compared with a string attribute that has no
// closed value set, not its domain's type attribute) is answered from the other's entry, its
// findings' offsets re-based token by token; a literal the check read must be spelled the
// same. Findings that quote the whole text or cover part of a token make no shape entry.
// Only with CheckOptions::compiled (the webhook): the shape is made of the tokens its compile
// lexed (cel::SelectorCompileResult::tokens), which lint would have to lex again.
class SelectorMemo {
 public:
  // A selector's entry is its findings (each ~0.5 KB) and facts: 2 MiB keeps thousands.
  static constexpr CacheLimits kDefaultLimits{.max_entries = 4096, .max_bytes = 2 << 20};
  // What one selector's check gave (check.cc).
  struct Outcome;

  explicit SelectorMemo(CacheLimits limits = kDefaultLimits);
  ~SelectorMemo();
  SelectorMemo(const SelectorMemo&) = delete;
  SelectorMemo& operator=(const SelectorMemo&) = delete;

  // A number no earlier call returned: the generation of one schema and one set of options
  // (CheckOptions::memo_generation). Entries of other generations are never served.
  uint64_t NewGeneration() { return next_generation_.fetch_add(1) + 1; }
  CacheStats stats() const;

  // For check.cc: the outcome stored under `key`, or null; and storing one.
  std::shared_ptr<const Outcome> Find(const CacheKey& key);
  std::shared_ptr<const Outcome> Insert(const CacheKey& key, std::shared_ptr<const Outcome> value,
                                        size_t value_bytes);

 private:
  ConcurrentCache<Outcome> cache_;
  std::atomic<uint64_t> next_generation_{0};
};

struct CheckOptions {
  // --strict-schema: unknown attributes, capacities and constraint names are errors.
  bool strict = false;
  // DeviceClasses that requests may name; their selectors narrow the reachable devices.
  // Pointers must outlive the call. A request whose class is not here reaches "any device".
  std::vector<const k8s::DeviceClass*> classes;
  // Compiled selectors to take the parsed expressions from, with the environment they were
  // compiled in: the webhook passes its compile cache, which validation has just filled with
  // the same texts. Null: each expression is parsed here.
  std::shared_ptr<cel::SelectorCache> compiled;
  cel::EnvOptions compiled_env;
  // Where the findings of selectors checked before are remembered; null: none are. A memo
  // may be shared by checks with different schemas or options (the webhook's schema of each
  // inventory snapshot): each schema, with its `strict` and `compiled_env`, must then have a
  // generation of its own (memo->NewGeneration()), so that no check is answered from what
  // another schema said. DeviceClasses may change within a generation (they enter the key
  // as the facts given to a selector).
  std::shared_ptr<SelectorMemo> memo;
  uint64_t memo_generation = 0;
};

// Checks the selectors and constraints of a ResourceClaim, ResourceClaimTemplate or
// DeviceClass; other kinds are ignored. Appends to `out`; never throws. Thread safe for
// concurrent calls sharing `schema` and `options`. `known` (may be null): the compile results
// validation looked up for this object, in the order this check reads them (under
// options.compiled_env), taken before options.compiled.
void CheckObject(const k8s::ObjectVariant& object, const Schema& schema,
                 const CheckOptions& options, Diagnostics& out,
                 cel::CompiledSelectors* known = nullptr);

}  // namespace draguard::schema

#endif  // DRAGUARD_POLICY_SCHEMA_CHECK_H_
