// PolicyConfig: what a platform team decides once for every lint run and every admission
// (docs/policy.md): the Kubernetes version and feature gates of its clusters, how loud each
// diagnostic code is, and which namespaces draguard leaves alone.
//
// Command-line flags win over the file; the file wins over built-in defaults.
#ifndef DRAGUARD_POLICY_CONFIG_POLICY_CONFIG_H_
#define DRAGUARD_POLICY_CONFIG_POLICY_CONFIG_H_

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/kubernetes_version.h"

namespace draguard::config {

// What a rule does to the diagnostics it matches.
enum class RuleAction { kOff, kInfo, kWarning, kError };

// "off", "info", "warning", "error".
std::string_view RuleActionName(RuleAction action);

// One entry of `rules:`. `pattern` is a diagnostic code ("schema.attribute.unknown") or a
// prefix ending in ".*" ("schema.*", "refs.*"); "*" matches every code.
struct Rule {
  std::string pattern;
  RuleAction action = RuleAction::kWarning;

  // Whether `code` is matched, and how specifically (longer is more specific): an exact
  // code beats any prefix; a longer prefix beats a shorter one. -1 when not matched.
  int Specificity(std::string_view code) const;
};

struct PolicyConfig {
  std::optional<KubernetesVersion> kubernetes_version;
  // Kube syntax, `Name=true,Other=false`; parsed against the effective version by
  // EffectiveGates, since the version may come from a flag.
  std::string feature_gates;
  std::vector<Rule> rules;
  // Objects in these namespaces are not checked (lint: their findings are dropped; the
  // webhook allows them untouched). Cluster-scoped objects are never exempt.
  std::set<std::string> exempt_namespaces;
  bool warnings_as_errors = false;

  // The most specific rule matching `code`, or nullptr.
  const Rule* RuleFor(std::string_view code) const;
  bool IsExempt(const ObjectRef& object) const;
};

// Whether `pattern` (a rule key or an inline suppression: a code, `prefix.*` or `*`) matches
// at least one diagnostic code draguard has (policy/diagnostics/codes.h). When it does not,
// `*closest` (if not null) gets the nearest code, or stays empty when none is close.
bool MatchesKnownCode(std::string_view pattern, std::string* closest);

// Applies the rules and exemptions: drops diagnostics whose rule is `off` or whose object
// is exempt, sets the severity of the others their rule names, then (warnings_as_errors)
// turns warnings into errors. Order is kept.
void ApplyPolicy(const PolicyConfig& config, std::vector<Diagnostic>& diagnostics);

}  // namespace draguard::config

#endif  // DRAGUARD_POLICY_CONFIG_POLICY_CONFIG_H_
