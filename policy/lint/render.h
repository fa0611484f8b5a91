// Output formats of `draguard lint` and one entry point that renders a report in any of them.
#ifndef DRAGUARD_POLICY_LINT_RENDER_H_
#define DRAGUARD_POLICY_LINT_RENDER_H_

#include <string>
#include <string_view>
#include <vector>

#include "policy/common/status_or.h"
#include "policy/lint/render_sarif.h"
#include "policy/lint/render_text.h"
#include "policy/lint/report.h"

namespace draguard::lint {

enum class OutputFormat { kText, kJson, kSarif, kJunit };

// "text", "json", "sarif", "junit".
std::string_view OutputFormatName(OutputFormat format);
// Every format name, in the order above (for help texts and did-you-mean).
std::vector<std::string_view> OutputFormatNames();
// Parses a format name; InvalidArgument naming the accepted values otherwise.
StatusOr<OutputFormat> ParseOutputFormat(std::string_view name);

struct RenderOptions {
  TextOptions text;
  SarifOptions sarif;
};

// Renders `report` in `format`. Never fails.
std::string Render(OutputFormat format, const LintReport& report, const RenderOptions& options);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_RENDER_H_
