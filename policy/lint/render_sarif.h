// The SARIF 2.1.0 renderer (`--output sarif`), for code-scanning UIs (GitHub, GitLab, VS Code).
//
// One run whose tool.driver lists one rule per diagnostic code seen (sorted by id), the
// linted files as artifacts, and one result per diagnostic with its level (error, warning,
// note), message ("field: message", plus the suggestion), and a physical location with the
// artifact URI and a region (startLine/startColumn, 1-based; omitted when the position is
// unknown). File names become URI references: relative paths stay relative, absolute paths
// become file:// URIs without "." and ".." segments (resolved lexically), and characters
// outside RFC 3986's unreserved set are percent-encoded.
//
// What GitHub code scanning requires (Microsoft's `Sarif.Multitool validate --rule-kind
// "Gh;Sarif"` checks it): every rule has a name, shortDescription, fullDescription, help (text
// and markdown) and helpUri, taken from `describe_rule`; every artifact has the role
// analysisTarget (the artifacts list every linted file, findings or not); every result has
// partialFingerprints["draguardFindingHash/v1"], a hash of the code, file, object, field path
// and the finding's ordinal among identical keys: stable across runs and when lines move.
#ifndef DRAGUARD_POLICY_LINT_RENDER_SARIF_H_
#define DRAGUARD_POLICY_LINT_RENDER_SARIF_H_

#include <functional>
#include <string>
#include <string_view>

#include "policy/lint/report.h"

namespace draguard::lint {

// The texts of one rule (diagnostic code). Empty members get a fallback built from the code.
struct RuleDescription {
  std::string short_description;  // one sentence
  std::string full_description;   // plain text
  std::string help_uri;           // the code's section in docs/diagnostics.md
};

struct SarifOptions {
  std::string tool_version = "0.0.0";
  // The texts of a code's rule; when unset, every text falls back to the code itself.
  std::function<RuleDescription(std::string_view code)> describe_rule;
};

// The key of the partial fingerprint in every result.
inline constexpr char kSarifFingerprintKey[] = "draguardFindingHash/v1";

// The SARIF log as pretty-printed JSON followed by a newline. Never fails.
std::string RenderSarif(const LintReport& report, const SarifOptions& options);

// A file name as a SARIF artifact URI (see above). Exposed for tests.
std::string FileUri(std::string_view file);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_RENDER_SARIF_H_
