// The text renderer: compiler-style diagnostics for terminals and CI logs.
//
//   claim.yaml:14:22: error: spec.devices.requests[0].exactly.count: Invalid value: 0: must be
//   greater than zero [claim.request.count.invalid]
//     | count: 0
//     |        ^
//     suggestion: ...
//
// then one summary line: "2 files, 5 objects: 1 error, 2 warnings".
#ifndef DRAGUARD_POLICY_LINT_RENDER_TEXT_H_
#define DRAGUARD_POLICY_LINT_RENDER_TEXT_H_

#include <string>

#include "policy/common/diagnostic.h"
#include "policy/lint/report.h"

namespace draguard::lint {

struct TextOptions {
  // ANSI colours for severities and carets. The CLI enables it only on a TTY and never when
  // NO_COLOR is set.
  bool color = false;
  // Omit infos and the summary line when there is nothing to report.
  bool quiet = false;
};

// One diagnostic: the header line, the snippet (when `source` is non-null and the position
// known) and the suggestion line. Ends with a newline.
std::string RenderTextDiagnostic(const Diagnostic& diagnostic, const SourceText* source,
                                 const TextOptions& options);

// "2 files, 5 objects: 1 error, 2 warnings" (no newline).
std::string RenderTextSummary(const LintSummary& summary);

// The whole report: every diagnostic in order, then the summary line. Never fails.
std::string RenderText(const LintReport& report, const TextOptions& options);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_RENDER_TEXT_H_
