// The JSON renderer (`--output json`). The shape is fixed (docs/output-formats.md):
//
//   {"diagnostics":[{"file","line","column","severity","code","field","message","suggestion",
//                    "object":{"apiVersion","kind","namespace","name"}}],
//    "summary":{"files","objects","errors","warnings"}}
//
// Every key is always present, in this order: strings are "" when unknown or not applicable,
// line and column are 0 when the position is unknown. Severity is "error", "warning" or "info".
#ifndef DRAGUARD_POLICY_LINT_RENDER_JSON_H_
#define DRAGUARD_POLICY_LINT_RENDER_JSON_H_

#include <string>

#include "policy/lint/report.h"

namespace draguard::lint {

// The report as one line of JSON followed by a newline. Never fails; invalid UTF-8 in the
// input is replaced (U+FFFD) rather than rejected.
std::string RenderJson(const LintReport& report);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_RENDER_JSON_H_
