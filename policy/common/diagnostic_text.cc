#include "policy/common/diagnostic_text.h"

namespace draguard {

std::string DiagnosticLocation(const Diagnostic& d) {
  std::string out = d.file.empty() ? std::string("<input>") : d.file;
  if (d.position.known()) {
    out += ':' + std::to_string(d.position.line) + ':' + std::to_string(d.position.column);
  }
  return out;
}

std::string DiagnosticHeadline(const Diagnostic& d) {
  std::string out = DiagnosticLocation(d);
  out += ": ";
  out += SeverityName(d.severity);
  out += ": ";
  if (!d.field.empty()) out += d.field + ": ";
  out += d.message;
  if (!d.code.empty()) out += " [" + d.code + "]";
  return out;
}

}  // namespace draguard
