// The upgrade check (upgrade.h): two lint runs and a diff of their findings.
#include "policy/lint/upgrade.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace draguard::lint {
namespace {

// An object as findings name it: file, kind, namespace, name (the apiVersion is the same in
// both runs). File-level findings have an empty kind and name.
using ObjectKey = std::tuple<std::string, std::string, std::string, std::string>;
// A finding of one object: the object, code and field path.
using FindingKey = std::tuple<ObjectKey, std::string, std::string>;

ObjectKey ObjectOf(const Diagnostic& d) {
  return {d.file, d.object.kind, d.object.name_space, d.object.name};
}

FindingKey KeyOf(const Diagnostic& d) { return {ObjectOf(d), d.code, d.field}; }

enum class Category { kApiVersion, kField, kSelector, kClaim, kOther };

Category CategoryOf(std::string_view code) {
  if (code.starts_with("decode.api-version.")) return Category::kApiVersion;
  if (code.ends_with(".dropped")) return Category::kField;
  if (code.starts_with("cel.") || code.starts_with("schema.")) return Category::kSelector;
  if (code.starts_with("alloc.")) return Category::kClaim;
  return Category::kOther;
}

// The findings of one run, by key, and the errors of each object.
struct RunIndex {
  std::map<FindingKey, std::vector<const Diagnostic*>> findings;
  std::map<ObjectKey, size_t> errors;

  explicit RunIndex(const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics) {
      findings[KeyOf(d)].push_back(&d);
      if (d.is_error()) ++errors[ObjectOf(d)];
    }
  }
  size_t ErrorsOf(const ObjectKey& object) const {
    auto it = errors.find(object);
    return it == errors.end() ? 0 : it->second;
  }
};

int Rank(Severity s) { return s == Severity::kError ? 2 : s == Severity::kWarning ? 1 : 0; }

// "error [claim.request.count.invalid]: <message>", or "nothing" for no finding.
std::string Describe(const Diagnostic* d) {
  if (d == nullptr) return "nothing";
  return std::string(SeverityName(d->severity)) + " [" + d->code + "]: " + d->message;
}

struct Change {
  const Diagnostic* before = nullptr;  // the source release's finding, or null
  const Diagnostic* after = nullptr;   // the target release's finding, or null
};

class Differ {
 public:
  Differ(const RunIndex& from, const RunIndex& to, std::string_view from_name,
         std::string_view to_name)
      : from_(from), to_(to), from_name_(from_name), to_name_(to_name) {}

  Diagnostic Report(const Change& change) const {
    const Diagnostic& where = change.after != nullptr ? *change.after : *change.before;
    const ObjectKey object = ObjectOf(where);
    const bool valid_before = from_.ErrorsOf(object) == 0;
    const bool valid_after = to_.ErrorsOf(object) == 0;
    const Severity before = change.before ? change.before->severity : Severity::kInfo;
    const Severity after = change.after ? change.after->severity : Severity::kInfo;
    const bool worse = change.after != nullptr &&
                       (change.before == nullptr || Rank(after) > Rank(before));
    Diagnostic d;
    d.field = where.field;
    d.file = where.file;
    d.position = where.position;
    d.value_offset = where.value_offset;
    d.value_length = where.value_length;
    d.object = where.object;
    if (change.after != nullptr) d.suggestion = change.after->suggestion;
    std::string what;
    const Category category = CategoryOf(where.code);
    if (category == Category::kClaim) {
      d.code = "upgrade.claim.satisfiability";
      what = "the claim's satisfiability against the inventory changes";
      const bool unsatisfiable = change.after != nullptr && change.after->code == "alloc.unsatisfiable";
      d.severity = unsatisfiable ? Severity::kError : worse ? Severity::kWarning : Severity::kInfo;
    } else if (worse && after == Severity::kError && valid_before) {
      d.code = "upgrade.object.invalid";
      what = "rejected after the upgrade (accepted before)";
      d.severity = Severity::kError;
    } else if (!worse && before == Severity::kError && !valid_before && valid_after) {
      d.code = "upgrade.object.valid";
      what = "accepted after the upgrade (rejected before)";
      d.severity = Severity::kInfo;
    } else {
      d.severity = worse && after != Severity::kInfo ? Severity::kWarning : Severity::kInfo;
      CategoryCode(category, change, d.code, what);
    }
    d.message = "Kubernetes " + std::string(from_name_) + " -> " + std::string(to_name_) +
                ": " + what + ". " + std::string(from_name_) + ": " + Describe(change.before) +
                "; " + std::string(to_name_) + ": " + Describe(change.after);
    return d;
  }

 private:
  static void CategoryCode(Category category, const Change& change, std::string& code,
                           std::string& what) {
    switch (category) {
      case Category::kApiVersion:
        code = "upgrade.api-version";
        what = "how the API server serves this apiVersion changes";
        return;
      case Category::kField:
        code = change.after != nullptr ? "upgrade.field.dropped" : "upgrade.field.kept";
        what = change.after != nullptr
                   ? "the API server starts dropping this field"
                   : "the API server stops dropping this field: it is kept and validated";
        return;
      case Category::kSelector:
        code = "upgrade.selector";
        what = "the verdict on this selector or constraint changes";
        return;
      case Category::kClaim:
      case Category::kOther:
        break;
    }
    if (change.before == nullptr) {
      code = "upgrade.finding.new";
      what = "new finding";
    } else if (change.after == nullptr) {
      code = "upgrade.finding.gone";
      what = "finding no longer reported";
    } else {
      code = "upgrade.finding.severity";
      what = "the finding's severity changes";
    }
  }

  const RunIndex& from_;
  const RunIndex& to_;
  std::string_view from_name_;
  std::string_view to_name_;
};

// Pairs the findings of one key: equal severities cancel, then what is left pairs up as
// severity changes, and the rest are new or gone.
std::vector<Change> PairUp(const std::vector<const Diagnostic*>& before,
                           const std::vector<const Diagnostic*>& after) {
  std::vector<const Diagnostic*> left(before), right(after);
  for (auto it = left.begin(); it != left.end();) {
    auto match = std::find_if(right.begin(), right.end(), [&](const Diagnostic* d) {
      return d->severity == (*it)->severity;
    });
    if (match == right.end()) {
      ++it;
      continue;
    }
    right.erase(match);
    it = left.erase(it);
  }
  std::vector<Change> changes;
  const size_t paired = std::min(left.size(), right.size());
  for (size_t i = 0; i < paired; ++i) changes.push_back({left[i], right[i]});
  for (size_t i = paired; i < left.size(); ++i) changes.push_back({left[i], nullptr});
  for (size_t i = paired; i < right.size(); ++i) changes.push_back({nullptr, right[i]});
  return changes;
}

}  // namespace

LintReport DiffReports(LintReport from, const LintReport& to, std::string_view from_name,
                       std::string_view to_name) {
  const RunIndex before(from.diagnostics);
  const RunIndex after(to.diagnostics);
  const Differ differ(before, after, from_name, to_name);
  std::vector<Diagnostic> changes;
  static const std::vector<const Diagnostic*> kNone;
  for (const auto& [key, found] : before.findings) {
    auto it = after.findings.find(key);
    for (const Change& c : PairUp(found, it == after.findings.end() ? kNone : it->second)) {
      changes.push_back(differ.Report(c));
    }
  }
  for (const auto& [key, found] : after.findings) {
    if (before.findings.count(key) != 0) continue;
    for (const Change& c : PairUp(kNone, found)) changes.push_back(differ.Report(c));
  }
  from.diagnostics = std::move(changes);
  SortDiagnostics(from.files, from.diagnostics);
  return from;
}

LintReport LintUpgradeSources(std::vector<SourceText> sources, const UpgradeOptions& options) {
  // Each run's own verdicts; --warnings-as-errors applies to the changes, not the runs.
  LintOptions from = options.from;
  LintOptions to = options.to;
  from.warnings_as_errors = false;
  to.warnings_as_errors = false;
  const LintReport target = LintSources(sources, to);
  LintReport source = LintSources(std::move(sources), from);
  LintReport diff = DiffReports(std::move(source), target,
                                KubernetesVersionName(from.validation.version),
                                KubernetesVersionName(to.validation.version));
  const bool strict = options.from.warnings_as_errors.value_or(options.from.policy.warnings_as_errors);
  if (strict) {
    for (Diagnostic& d : diff.diagnostics) {
      if (d.severity == Severity::kWarning) d.severity = Severity::kError;
    }
  }
  return diff;
}

StatusOr<LintReport> LintUpgrade(const std::vector<inventory::Input>& inputs, const UpgradeOptions& options) {
  StatusOr<std::vector<SourceText>> sources = inventory::ReadInputs(inputs, options.from.input);
  if (!sources.ok()) return sources.status();
  return LintUpgradeSources(std::move(sources).value(), options);
}

}  // namespace draguard::lint
