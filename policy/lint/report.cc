#include "policy/lint/report.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>

namespace draguard::lint {

LintSummary LintReport::Summary() const {
  LintSummary summary;
  summary.files = files.size();
  summary.objects = objects.size();
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError) ++summary.errors;
    if (d.severity == Severity::kWarning) ++summary.warnings;
  }
  return summary;
}

const SourceText* LintReport::FindSource(const std::string& file) const {
  auto it = sources.find(file);
  return it == sources.end() ? nullptr : &it->second;
}

const SourceText* LintReport::FindSource(const std::string& file, int line) const {
  if (const SourceText* whole = FindSource(file)) return whole;
  auto it = lines.find(file);
  if (it == lines.end()) return nullptr;
  auto at = it->second.find(line);
  return at == it->second.end() ? nullptr : &at->second;
}

void SortDiagnostics(const std::vector<std::string>& files, std::vector<Diagnostic>& diagnostics) {
  std::unordered_map<std::string, size_t> rank;
  for (size_t i = 0; i < files.size(); ++i) rank.emplace(files[i], i);
  auto file_rank = [&](const std::string& file) {
    auto it = rank.find(file);
    return it == rank.end() ? std::numeric_limits<size_t>::max() : it->second;
  };
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [&](const Diagnostic& a, const Diagnostic& b) {
                     return std::forward_as_tuple(file_rank(a.file), a.file, a.position.line,
                                                  a.position.column, a.severity, a.code, a.field,
                                                  a.message) <
                            std::forward_as_tuple(file_rank(b.file), b.file, b.position.line,
                                                  b.position.column, b.severity, b.code, b.field,
                                                  b.message);
                   });
}

}  // namespace draguard::lint
