#include "cli/verdict_render.h"

#include "policy/lint/render_text.h"

namespace draguard::cli {

std::string SubjectName(const pipeline::SatisfiabilityResult& r) {
  std::string ns = r.ref.name_space.empty() ? "" : r.ref.name_space + "/";
  return r.ref.kind + " " + ns + r.ref.name;
}

std::string ClaimLabel(const pipeline::SatisfiabilityResult& r, size_t claim) {
  return claim < r.pod_claims.size() && !r.pod_claims.empty() ? "claim " + r.pod_claims[claim] + ": "
                                                               : "";
}

std::string Indented(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    out += "  " + text.substr(start, end - start);
    start = end;
  }
  return out;
}

void RenderReasonsText(const pipeline::SatisfiabilityResult& r, std::ostream& out) {
  for (const Diagnostic& d : r.errors) out << Indented(lint::RenderTextDiagnostic(d, nullptr, {}));
  for (const alloc::Reason& reason : r.verdict.reasons) {
    out << "  " << ClaimLabel(r, reason.claim) << reason.message << " [" << reason.code << "]\n";
  }
}

nlohmann::json ReasonJson(const pipeline::SatisfiabilityResult& r, const alloc::Reason& reason) {
  nlohmann::json out = {{"code", reason.code}, {"message", reason.message}};
  if (!r.pod_claims.empty() && reason.claim < r.pod_claims.size()) {
    out["claim"] = r.pod_claims[reason.claim];
  }
  if (!reason.request.empty()) out["request"] = reason.request;
  if (!reason.node.empty()) out["node"] = reason.node;
  if (!reason.device.empty()) out["device"] = reason.device;
  return out;
}

nlohmann::json ErrorJson(const Diagnostic& d) {
  nlohmann::json out = {{"code", d.code}, {"message", d.message}, {"field", d.field},
                        {"file", d.file}, {"line", d.position.line},
                        {"column", d.position.column}};
  if (!d.suggestion.empty()) out["suggestion"] = d.suggestion;
  return out;
}

nlohmann::json ReasonsJson(const pipeline::SatisfiabilityResult& r) {
  nlohmann::json reasons = nlohmann::json::array();
  for (const Diagnostic& d : r.errors) reasons.push_back(ErrorJson(d));
  for (const alloc::Reason& reason : r.verdict.reasons) reasons.push_back(ReasonJson(r, reason));
  return reasons;
}

}  // namespace draguard::cli
