// The SARIF 2.1.0 renderer (`--output sarif`), for code-scanning UIs (GitHub, GitLab, VS Code).
//
// One run whose tool.driver lists one rule per diagnostic code seen (sorted by id), the
// linted files as artifacts, and one result per diagnostic with its level (error, warning,
// note), message ("field: message", plus the suggestion), and a physical location with the
// artifact URI and a region (startLine/startColumn, 1-based; omitted when the position is
// unknown). File names become URI references: relative paths stay relative, absolute paths
// become file:// URIs, and characters outside RFC 3986's unreserved set are percent-encoded.
#ifndef DRAGUARD_POLICY_LINT_RENDER_SARIF_H_
#define DRAGUARD_POLICY_LINT_RENDER_SARIF_H_

#include <functional>
#include <string>
#include <string_view>

#include "policy/lint/report.h"

namespace draguard::lint {

struct SarifOptions {
  std::string tool_version = "0.0.0";
  // One-line description of a code for the rule's shortDescription; when unset or when it
  // returns "", the code itself is used.
  std::function<std::string(std::string_view code)> describe_rule;
};

// The SARIF log as pretty-printed JSON followed by a newline. Never fails.
std::string RenderSarif(const LintReport& report, const SarifOptions& options);

// A file name as a SARIF artifact URI (see above). Exposed for tests.
std::string FileUri(std::string_view file);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_RENDER_SARIF_H_
