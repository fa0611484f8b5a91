#include "policy/cel/cel_issue.h"

#include <algorithm>
#include <vector>

namespace draguard::cel {
namespace {

void AppendBlock(const SourceText& expr, const Diagnostic& d, std::string& out) {
  const std::string& name = expr.name().empty() ? std::string("<input>") : expr.name();
  if (d.value_offset < 0) {
    out += "ERROR: " + name + ":-1:0: " + d.message;
    return;
  }
  SourcePosition pos = expr.PositionOf(static_cast<size_t>(d.value_offset));
  out += "ERROR: " + name + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
         ": " + d.message;
  std::string line(expr.Line(pos.line));
  std::replace(line.begin(), line.end(), '\t', ' ');
  out += "\n | ";
  out += line;
  out += "\n | ";
  out.append(static_cast<size_t>(pos.column - 1), '.');
  out += '^';
}

}  // namespace

std::string FormatCelIssues(const SourceText& expr, const Diagnostics& issues) {
  std::vector<const Diagnostic*> errors;
  errors.reserve(issues.size());
  for (const Diagnostic& d : issues) {
    if (d.is_error()) errors.push_back(&d);
  }
  std::stable_sort(errors.begin(), errors.end(), [](const Diagnostic* a, const Diagnostic* b) {
    return a->value_offset < b->value_offset;
  });
  std::string out;
  for (size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) out += '\n';
    AppendBlock(expr, *errors[i], out);
  }
  return out;
}

}  // namespace draguard::cel
