#include "policy/lint/render_sarif.h"

#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace draguard::lint {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kSchema[] = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr char kInformationUri[] = "https://github.com/draguard/draguard";

std::string_view Level(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "note";
  }
  return "error";
}

bool Unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

// Rule id -> index into the rules array, in id order.
std::map<std::string, size_t> RuleIndex(const LintReport& report) {
  std::map<std::string, size_t> index;
  for (const Diagnostic& d : report.diagnostics) index.emplace(d.code, 0);
  size_t i = 0;
  for (auto& [code, value] : index) value = i++;
  return index;
}

Json Rules(const std::map<std::string, size_t>& index, const SarifOptions& options) {
  Json rules = Json::array();
  for (const auto& [code, unused] : index) {
    std::string text = options.describe_rule ? options.describe_rule(code) : std::string();
    Json rule = Json::object();
    rule["id"] = code;
    rule["shortDescription"] = {{"text", text.empty() ? code : text}};
    rules.push_back(std::move(rule));
  }
  return rules;
}

Json Location(const Diagnostic& d, const std::map<std::string, size_t>& artifacts) {
  Json artifact = Json::object();
  artifact["uri"] = FileUri(d.file);
  if (auto it = artifacts.find(d.file); it != artifacts.end()) artifact["index"] = it->second;
  Json physical = Json::object();
  physical["artifactLocation"] = std::move(artifact);
  if (d.position.known()) {
    physical["region"] = {{"startLine", d.position.line},
                          {"startColumn", d.position.column > 0 ? d.position.column : 1}};
  }
  Json location = Json::object();
  location["physicalLocation"] = std::move(physical);
  if (!d.field.empty()) {
    location["logicalLocations"] = Json::array({{{"fullyQualifiedName", d.field}}});
  }
  return location;
}

std::string MessageText(const Diagnostic& d) {
  std::string text = d.field.empty() ? d.message : d.field + ": " + d.message;
  if (!d.suggestion.empty()) text += " Suggestion: " + d.suggestion;
  return text;
}

Json Result(const Diagnostic& d, const std::map<std::string, size_t>& rules,
            const std::map<std::string, size_t>& artifacts) {
  Json result = Json::object();
  result["ruleId"] = d.code;
  result["ruleIndex"] = rules.at(d.code);
  result["level"] = std::string(Level(d.severity));
  result["message"] = {{"text", MessageText(d)}};
  result["locations"] = Json::array({Location(d, artifacts)});
  return result;
}

}  // namespace

std::string FileUri(std::string_view file) {
  std::string out = !file.empty() && file.front() == '/' ? "file://" : "";
  for (char c : file) {
    if (Unreserved(c)) {
      out += c;
      continue;
    }
    char buf[4];
    std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
    out += buf;
  }
  return out;
}

std::string RenderSarif(const LintReport& report, const SarifOptions& options) {
  std::map<std::string, size_t> rules = RuleIndex(report);
  std::map<std::string, size_t> artifact_index;
  Json artifacts = Json::array();
  for (const std::string& file : report.files) {
    if (!artifact_index.emplace(file, artifact_index.size()).second) continue;
    artifacts.push_back({{"location", {{"uri", FileUri(file)}}}});
  }
  Json results = Json::array();
  for (const Diagnostic& d : report.diagnostics) {
    results.push_back(Result(d, rules, artifact_index));
  }
  Json driver = Json::object();
  driver["name"] = "draguard";
  driver["version"] = options.tool_version;
  driver["informationUri"] = kInformationUri;
  driver["rules"] = Rules(rules, options);
  Json run = Json::object();
  run["tool"] = {{"driver", std::move(driver)}};
  run["artifacts"] = std::move(artifacts);
  run["results"] = std::move(results);
  Json log = Json::object();
  log["$schema"] = kSchema;
  log["version"] = "2.1.0";
  log["runs"] = Json::array({std::move(run)});
  return log.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace draguard::lint
