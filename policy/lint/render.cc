#include "policy/lint/render.h"

#include "policy/common/suggest.h"
#include "policy/lint/render_json.h"
#include "policy/lint/render_junit.h"

namespace draguard::lint {

std::string_view OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kText: return "text";
    case OutputFormat::kJson: return "json";
    case OutputFormat::kSarif: return "sarif";
    case OutputFormat::kJunit: return "junit";
  }
  return "text";
}

std::vector<std::string_view> OutputFormatNames() { return {"text", "json", "sarif", "junit"}; }

StatusOr<OutputFormat> ParseOutputFormat(std::string_view name) {
  for (OutputFormat f : {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kSarif,
                         OutputFormat::kJunit}) {
    if (OutputFormatName(f) == name) return f;
  }
  std::string message = "unknown output format \"" + std::string(name) +
                        "\" (expected text, json, sarif or junit)";
  if (auto close = ClosestMatch(name, OutputFormatNames())) {
    message += "; did you mean \"" + *close + "\"?";
  }
  return InvalidArgumentError(std::move(message));
}

std::string Render(OutputFormat format, const LintReport& report, const RenderOptions& options) {
  switch (format) {
    case OutputFormat::kText: return RenderText(report, options.text);
    case OutputFormat::kJson: return RenderJson(report);
    case OutputFormat::kSarif: return RenderSarif(report, options.sarif);
    case OutputFormat::kJunit: return RenderJunit(report);
  }
  return RenderText(report, options.text);
}

}  // namespace draguard::lint
