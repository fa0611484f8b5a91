#include "policy/lint/render_json.h"

#include <nlohmann/json.hpp>

namespace draguard::lint {
namespace {

using Json = nlohmann::ordered_json;

Json ObjectJson(const ObjectRef& ref) {
  Json out = Json::object();
  out["apiVersion"] = ref.api_version;
  out["kind"] = ref.kind;
  out["namespace"] = ref.name_space;
  out["name"] = ref.name;
  return out;
}

Json DiagnosticJson(const Diagnostic& d) {
  Json out = Json::object();
  out["file"] = d.file;
  out["line"] = d.position.line;
  out["column"] = d.position.column;
  out["severity"] = std::string(SeverityName(d.severity));
  out["code"] = d.code;
  out["field"] = d.field;
  out["message"] = d.message;
  out["suggestion"] = d.suggestion;
  out["object"] = ObjectJson(d.object);
  return out;
}

}  // namespace

std::string RenderJson(const LintReport& report) {
  Json diagnostics = Json::array();
  for (const Diagnostic& d : report.diagnostics) diagnostics.push_back(DiagnosticJson(d));
  LintSummary s = report.Summary();
  Json summary = Json::object();
  summary["files"] = s.files;
  summary["objects"] = s.objects;
  summary["errors"] = s.errors;
  summary["warnings"] = s.warnings;
  Json out = Json::object();
  out["diagnostics"] = std::move(diagnostics);
  out["summary"] = std::move(summary);
  return out.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace draguard::lint
