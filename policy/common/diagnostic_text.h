// Plain one-line text of a diagnostic, for logs and for the text renderer
// (policy/lint/render_text.h adds colours, the source snippet and the suggestion).
#ifndef DRAGUARD_POLICY_COMMON_DIAGNOSTIC_TEXT_H_
#define DRAGUARD_POLICY_COMMON_DIAGNOSTIC_TEXT_H_

#include <string>

#include "policy/common/diagnostic.h"

namespace draguard {

// "file:line:col", "file" when the position is unknown, "<input>" without a file.
std::string DiagnosticLocation(const Diagnostic& d);

// "file:line:col: severity: field: message [code]" (no newline); the field and the code are
// left out when empty.
std::string DiagnosticHeadline(const Diagnostic& d);

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_DIAGNOSTIC_TEXT_H_
