#include "policy/lint/render_text.h"

#include <string_view>

#include "policy/common/diagnostic_text.h"

namespace draguard::lint {
namespace {

constexpr std::string_view kReset = "\033[0m";
constexpr std::string_view kBold = "\033[1m";

std::string_view SeverityColor(Severity severity) {
  switch (severity) {
    case Severity::kError: return "\033[1;31m";
    case Severity::kWarning: return "\033[1;35m";
    case Severity::kInfo: return "\033[1;36m";
  }
  return kBold;
}

std::string Plural(size_t n, std::string_view word) {
  std::string out = std::to_string(n);
  out += ' ';
  out += word;
  if (n != 1) out += 's';
  return out;
}

// Colours the caret line of a snippet ("  | text\n  |    ^").
std::string ColorCaret(std::string snippet, Severity severity) {
  size_t caret = snippet.rfind('^');
  if (caret == std::string::npos) return snippet;
  snippet.insert(caret + 1, kReset);
  snippet.insert(caret, SeverityColor(severity));
  return snippet;
}

}  // namespace

std::string RenderTextDiagnostic(const Diagnostic& d, const SourceText* source,
                                 const TextOptions& options) {
  std::string out;
  if (options.color) out += kBold;
  out += DiagnosticLocation(d);
  out += ": ";
  if (options.color) out += SeverityColor(d.severity);
  out += SeverityName(d.severity);
  out += ':';
  if (options.color) out += kReset;
  out += ' ';
  if (!d.field.empty()) out += d.field + ": ";
  out += d.message;
  if (!d.code.empty()) out += " [" + d.code + "]";
  out += '\n';
  if (source != nullptr && d.position.known()) {
    std::string snippet = RenderSnippet(*source, d.position);
    if (!snippet.empty()) {
      out += options.color ? ColorCaret(std::move(snippet), d.severity) : snippet;
      out += '\n';
    }
  }
  if (!d.suggestion.empty()) out += "  suggestion: " + d.suggestion + '\n';
  return out;
}

std::string RenderTextSummary(const LintSummary& s) {
  return Plural(s.files, "file") + ", " + Plural(s.objects, "object") + ": " +
         Plural(s.errors, "error") + ", " + Plural(s.warnings, "warning");
}

std::string RenderText(const LintReport& report, const TextOptions& options) {
  std::string out;
  for (const Diagnostic& d : report.diagnostics) {
    if (options.quiet && d.severity == Severity::kInfo) continue;
    out += RenderTextDiagnostic(d, report.FindSource(d.file, d.position.line), options);
  }
  LintSummary summary = report.Summary();
  if (options.quiet && summary.errors == 0 && summary.warnings == 0) return out;
  out += RenderTextSummary(summary);
  out += '\n';
  return out;
}

}  // namespace draguard::lint
