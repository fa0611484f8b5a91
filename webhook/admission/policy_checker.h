// PolicyChecker: the real AdmissionChecker, the same checks as `draguard lint` applied to one
// object of an AdmissionReview.
//
// Validate: decode the object (and, for UPDATE, the old object) from its JSON, then run
// API-server-parity validation with the CEL selector compile (policy/validate). Admin access
// needs no API call: the ValidatingWebhookConfiguration routes namespaces labelled
// `resource.kubernetes.io/admin-access: "true"` to the admin-access endpoint, so the namespace's
// label is known from the request itself.
// Schema checks (schema_check.h) type-check selectors and constraints against the attribute
// catalog and the inventory's slices, on CREATE (and DeviceClass updates), for valid objects.
// Satisfiability (when an inventory is configured, satisfiability_check.h): a valid claim or
// template is checked against the cluster's devices on CREATE (specs are immutable);
// unsatisfiable is a warning, or an error with --unsatisfiable=deny; an unavailable or stale
// inventory skips the check with a warning.
// Claims and templates on CREATE: findings about the object's metadata come first, then those
// about its spec. The latter are remembered by the spec's text (spec_memo.h): the claims a
// template makes share one spec, so only their metadata is decoded and validated again.
// Mutate: the API defaults of requests (allocationMode, count) made explicit as JSON Patch, for
// clients that send sparse objects, and, when an inventory is configured, the annotation
// draguard.dev/satisfiable with the verdict and the number of feasible nodes; an object that
// already carries them yields no patch, so a reinvocation is idempotent.
//
// Thread safe: Check may run concurrently; compiled selectors are shared through a cache.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_POLICY_CHECKER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_POLICY_CHECKER_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/compiler.h"
#include "policy/config/policy_config.h"
#include "policy/k8s/document.h"
#include "policy/validate/options.h"
#include "webhook/admission/checker.h"
#include "webhook/admission/satisfiability_check.h"
#include "webhook/admission/schema_check.h"
#include "webhook/admission/spec_memo.h"

namespace draguard::webhook {

struct PolicyCheckerOptions {
  // Version and gates; namespace labels and the selector hook are filled per request.
  validate::ValidationOptions validation;
  // Compiled selectors kept for reuse across requests, each from its second miss within the
  // last `selector_sightings` misses (cel::SelectorCache; 0: from the first).
  CacheLimits selector_cache = cel::SelectorCache::kDefaultLimits;
  size_t selector_sightings = 4096;
  // The cache of compiled selectors to use, when shared with the allocator's programs
  // (alloc::CelProgramCache plans from it instead of compiling each new selector again);
  // null: the checker makes its own with the limits and sightings above.
  std::shared_ptr<cel::SelectorCache> compiled_selectors;
  // The inventory and what to do with unsatisfiable claims; source null: not checked.
  SatisfiabilityOptions satisfiability;
  // Attribute schema checks of selectors and constraints (catalog, plus the inventory's
  // slices and classes when schema.source is set).
  SchemaCheckOptions schema;
  // The policy file: per-code rules apply to every finding; objects in exempt namespaces
  // are allowed untouched.
  config::PolicyConfig policy;
  // Findings about claim and template specs remembered by their text (spec_memo.h).
  SpecMemoOptions spec_memo;
};

class PolicyChecker : public AdmissionChecker {
 public:
  explicit PolicyChecker(PolicyCheckerOptions options);

  CheckOutcome Check(const AdmissionRequest& request) override;
  // Looks the spec up in the memo for a /validate CREATE of a claim or template outside the
  // exempt namespaces (where Check would look it up): Check then uses what it found, or takes
  // its miss without looking again.
  void FindKnownSpec(const AdmissionRequest& request, SpecLookup& lookup) override;

  // Prepares the inventory's current snapshot for satisfiability and schema checks before
  // serving (SatisfiabilityCheck::Warm, SchemaCheck::Warm).
  void Warm() {
    satisfiability_.Warm();
    schema_.Warm();
  }

  // The specs remembered so far, and how often the memo answered (for tests and /metrics).
  size_t remembered_specs() const { return memo_.size(); }
  SpecMemoStats spec_memo_stats() const { return memo_.stats(); }
  // Every bounded cache the checker holds, by name, for /metrics.
  std::vector<NamedCacheStats> cache_stats();

 private:
  CheckOutcome Validate(const AdmissionRequest& request);
  // Validate() before the policy's rules.
  CheckOutcome Diagnose(const AdmissionRequest& request);
  // Diagnose() of a claim or template on CREATE, given its tree.
  // `compiled`: what the options' selector checker remembers (OptionsFor).
  CheckOutcome DiagnoseCreatedClaim(const AdmissionRequest& request,
                                    const validate::ValidationOptions& options,
                                    cel::CompiledSelectors& compiled);
  // The same when the memo knows the spec: only the rest of the object is decoded.
  CheckOutcome DiagnoseKnownSpec(const AdmissionRequest& request,
                                 const validate::ValidationOptions& options,
                                 const SpecFindings& spec);
  CheckOutcome Mutate(const AdmissionRequest& request);
  // The validation options for `request`: the shared selector checker (built once, in the
  // constructor), and with `compiled` as their remembered_selectors, where it keeps what it
  // compiles for the schema check of the same object.
  validate::ValidationOptions OptionsFor(const AdmissionRequest& request,
                                         cel::CompiledSelectors* compiled = nullptr) const;

  PolicyCheckerOptions options_;
  std::shared_ptr<cel::SelectorCache> cache_;
  SchemaCheck schema_;
  SatisfiabilityCheck satisfiability_;
  SpecMemo memo_;
};

// The JSON Patch operation that sets the draguard.dev/satisfiable annotation to `value`, or
// nothing when `annotations` already holds that value (idempotent reinvocation).
std::vector<JsonPatchOperation> AnnotationPatch(
    const std::map<std::string, std::string>& annotations, std::string_view key,
    std::string_view value);

// The JSON Patch that makes request defaults explicit in `object` (the JSON tree of a
// ResourceClaim or ResourceClaimTemplate of apiVersion `version`, json_object.h):
// allocationMode ExactCount where absent, and count 1 where absent under ExactCount. Empty
// when nothing is missing or the object has another shape. Never throws.
std::vector<JsonPatchOperation> DefaultingPatch(std::string_view kind, std::string_view version,
                                                const k8s::DocNode& object);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_POLICY_CHECKER_H_
