// Options of API-server-parity validation: the Kubernetes version whose rules apply and its
// feature gates (policy/common/kubernetes_version.h), what is known about namespaces (admin
// access), the CEL selector hook and the limits that protect draguard itself.
#ifndef DRAGUARD_POLICY_VALIDATE_OPTIONS_H_
#define DRAGUARD_POLICY_VALIDATE_OPTIONS_H_

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "policy/common/diagnostic.h"
#include "policy/common/field_path.h"
#include "policy/common/kubernetes_version.h"
#include "policy/common/release.h"
#include "policy/common/status_or.h"

namespace draguard::cel {
class CompiledSelectors;
}  // namespace draguard::cel

namespace draguard::validate {

// Which CEL environment a selector expression must compile in (validation.go
// `validateCELSelector`, its `stored` flag): new expressions
// (create, changed selectors) use the NewExpressions environment; expressions that were
// already stored (unchanged DeviceClass selectors on update, 1.34 claim re-validation on
// update) use the more permissive StoredExpressions environment.
enum class SelectorKind { kNewExpression, kStoredExpression };

// Called for every CEL selector expression that passed the length limit, with the full
// API-server path of its `expression` field. Adds its findings to the Diagnostics; must not
// throw. `remember` is the validated object's ValidationOptions::remembered_selectors (may be
// null): a checker that compiles keeps each result there, in order. The checker itself is
// built once and shared by every object (a webhook's requests): what is per object comes
// through these arguments. Unset: only the length limit is checked.
using SelectorChecker =
    std::function<void(std::string_view expression, const FieldPath& field, SelectorKind kind,
                       Diagnostics& diagnostics, cel::CompiledSelectors* remember)>;

// Namespace name -> labels, for the admin-access check. A namespace that is absent is
// "unknown": the check cannot be made and a warning says so.
using NamespaceLabels = std::map<std::string, std::map<std::string, std::string>>;

// Parses `NS:KEY=VALUE,NS:KEY=VALUE,...` (the `--namespace-labels` flag and the webhook's
// query parameter) into `labels`, adding to what is there. `NS:` alone marks a namespace as
// known without labels. Spaces around items are ignored. Returns InvalidArgument naming the
// first malformed item (missing ':', missing '=', empty namespace or key).
Status ParseNamespaceLabels(std::string_view text, NamespaceLabels& labels);

// Limits that protect draguard from hostile input; API limits are fixed by the API and are
// not configurable.
struct ValidationLimits {
  // Diagnostics reported per validated object; further findings are counted in a single
  // `validate.too-many-diagnostics` info. Keeps the response to an adversarial object small.
  size_t max_diagnostics_per_object = 1000;
};

struct ValidationOptions {
  KubernetesVersion version = kDefaultKubernetesVersion;
  // Must be built for `version` (FeatureGates(version) or FeatureGates::Parse).
  FeatureGates gates{kDefaultKubernetesVersion};
  NamespaceLabels namespace_labels;
  SelectorChecker selector_checker;
  // Per object: where selector_checker keeps the compile results of the object's selectors
  // for the stages after validation (the webhook's schema check reads them instead of
  // looking each selector up again). Not owned; must outlive the validation and the stages
  // that read it. Null: nothing is kept.
  cel::CompiledSelectors* remembered_selectors = nullptr;
  ValidationLimits limits;

  // Options for `version` with its default gates.
  static ValidationOptions ForVersion(KubernetesVersion version);
  bool Enabled(Gate gate) const { return gates.Enabled(gate); }
  // What differs in `version`'s API server (policy/common/release.h).
  const ValidationDialect& dialect() const { return ReleaseFor(version).validation; }
  CounterModel counters() const { return ReleaseFor(version).counters; }
};

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_OPTIONS_H_
