// The upgrade check behind `draguard lint --kubernetes-version 1.35 --upgrade-to 1.36`: what
// changes for these files when the cluster is upgraded from one release to another.
//
// The same lint runs twice, once per release (each LintOptions carries its release, gates and
// allocator view; inputs, inventory, schema and policy are the same), and the two reports are
// diffed per object by (code, field path) and severity. Each change is one diagnostic with an
// upgrade.* code, located where the finding is (the target release's run, or the source's for
// a finding that disappears); the message names both releases and quotes the finding, with its
// own code, so a reader sees both verdicts. The codes, by what the finding is about:
//
//   upgrade.object.invalid     (error)   a new error on an object the source release accepts
//   upgrade.object.valid       (info)    an error gone, and the target accepts the object
//   upgrade.api-version        served, not served or deprecated changes (decode.api-version.*)
//   upgrade.field.dropped      (warning) a field the target release starts dropping (*.dropped)
//   upgrade.field.kept         (info)    a field the target no longer drops: now validated
//   upgrade.selector           a selector's compile, type or cost verdict changes (cel.*, schema.*)
//   upgrade.claim.satisfiability  the verdict against the inventory changes (alloc.*)
//   upgrade.finding.new        another finding the target adds
//   upgrade.finding.gone       (info)    another finding the target drops
//   upgrade.finding.severity   same code and field, other severity
//
// Severity of the category codes: error when the change is a new error on an object the
// source accepts (it is rejected after the upgrade) or a claim that becomes unsatisfiable
// (alloc.unsatisfiable appears); warning for other new errors and warnings; info for what
// disappears and for new infos. Findings equal in both runs are not reported.
#ifndef DRAGUARD_POLICY_LINT_UPGRADE_H_
#define DRAGUARD_POLICY_LINT_UPGRADE_H_

#include <vector>

#include "policy/common/source.h"
#include "policy/common/status_or.h"
#include "policy/inventory/inputs.h"
#include "policy/lint/linter.h"
#include "policy/lint/report.h"

namespace draguard::lint {

// The two runs. `from.validation.version` and `to.validation.version` name the releases.
struct UpgradeOptions {
  LintOptions from;
  LintOptions to;
};

// Diffs two reports of the same sources (`from` and `to`, each sorted) into a report of
// upgrade.* diagnostics only, with from's files, sources and objects. `from_name`/`to_name`
// ("1.35") are used in messages. Pure; exposed for tests.
LintReport DiffReports(LintReport from, const LintReport& to, std::string_view from_name,
                       std::string_view to_name);

// Lints `sources` for both releases and diffs them. Never fails.
LintReport LintUpgradeSources(std::vector<SourceText> sources, const UpgradeOptions& options);

// Reads the inputs (with options.from.input) and runs LintUpgradeSources. A non-OK status only
// for I/O problems and input limits.
StatusOr<LintReport> LintUpgrade(const std::vector<inventory::Input>& inputs, const UpgradeOptions& options);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_UPGRADE_H_
