#include "policy/config/policy_config.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "policy/common/suggest.h"
#include "policy/diagnostics/codes.h"

namespace draguard::config {

std::string_view RuleActionName(RuleAction action) {
  switch (action) {
    case RuleAction::kOff:
      return "off";
    case RuleAction::kInfo:
      return "info";
    case RuleAction::kWarning:
      return "warning";
    case RuleAction::kError:
      return "error";
  }
  return "warning";
}

int Rule::Specificity(std::string_view code) const {
  if (pattern == "*") return 0;
  if (pattern.size() >= 2 && pattern.ends_with(".*")) {
    std::string_view prefix(pattern.data(), pattern.size() - 1);  // keeps the dot
    return code.starts_with(prefix) ? static_cast<int>(prefix.size()) : -1;
  }
  // An exact code outranks every prefix, however long.
  return code == pattern ? 1'000'000 : -1;
}

bool MatchesKnownCode(std::string_view pattern, std::string* closest) {
  const Rule probe{std::string(pattern), RuleAction::kOff};
  std::vector<std::string_view> codes;
  for (const diagnostics::CodeInfo& info : diagnostics::AllCodes()) {
    if (probe.Specificity(info.code) >= 0) return true;
    codes.push_back(info.code);
  }
  if (closest != nullptr) *closest = ClosestMatch(pattern, codes).value_or("");
  return false;
}

const Rule* PolicyConfig::RuleFor(std::string_view code) const {
  const Rule* best = nullptr;
  int best_specificity = -1;
  for (const Rule& rule : rules) {
    // Later rules win ties, as later lines of a file override earlier ones.
    int s = rule.Specificity(code);
    if (s >= 0 && s >= best_specificity) {
      best = &rule;
      best_specificity = s;
    }
  }
  return best;
}

bool PolicyConfig::IsExempt(const ObjectRef& object) const {
  return !object.name_space.empty() && exempt_namespaces.count(object.name_space) != 0;
}

namespace {

Severity SeverityOf(RuleAction action, Severity current) {
  switch (action) {
    case RuleAction::kInfo:
      return Severity::kInfo;
    case RuleAction::kWarning:
      return Severity::kWarning;
    case RuleAction::kError:
      return Severity::kError;
    case RuleAction::kOff:
      break;
  }
  return current;
}

}  // namespace

void ApplyPolicy(const PolicyConfig& config, std::vector<Diagnostic>& diagnostics) {
  std::vector<Diagnostic> kept;
  kept.reserve(diagnostics.size());
  for (Diagnostic& d : diagnostics) {
    if (config.IsExempt(d.object)) continue;
    if (const Rule* rule = config.RuleFor(d.code)) {
      if (rule->action == RuleAction::kOff) continue;
      d.severity = SeverityOf(rule->action, d.severity);
    }
    if (config.warnings_as_errors && d.severity == Severity::kWarning) {
      d.severity = Severity::kError;
    }
    kept.push_back(std::move(d));
  }
  diagnostics = std::move(kept);
}

}  // namespace draguard::config
