#include "policy/lint/render_sarif.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
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

// "claim.request.count.invalid" -> "ClaimRequestCountInvalid": the Pascal-case friendly name
// SARIF recommends for reportingDescriptor.name.
std::string RuleName(std::string_view code) {
  std::string name;
  bool upper = true;
  for (char c : code) {
    if (c == '.' || c == '-' || c == '_') {
      upper = true;
      continue;
    }
    name += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return name;
}

std::string WithPeriod(std::string text) {
  if (!text.empty() && text.back() != '.') text += '.';
  return text;
}

Json Rule(const std::string& code, const SarifOptions& options) {
  RuleDescription d = options.describe_rule ? options.describe_rule(code) : RuleDescription{};
  std::string short_text = WithPeriod(d.short_description.empty() ? code : d.short_description);
  std::string full_text = d.full_description.empty() ? short_text : WithPeriod(d.full_description);
  std::string help_text = full_text;
  std::string help_markdown = "**`" + code + "`**: " + full_text;
  if (!d.help_uri.empty()) {
    help_text += " Documentation: " + d.help_uri;
    help_markdown += "\n\nSee [`" + code + "` in docs/diagnostics.md](" + d.help_uri + ").";
  }
  Json rule = Json::object();
  rule["id"] = code;
  rule["name"] = RuleName(code);
  rule["shortDescription"] = {{"text", short_text}};
  rule["fullDescription"] = {{"text", full_text}};
  rule["help"] = {{"text", help_text}, {"markdown", help_markdown}};
  if (!d.help_uri.empty()) rule["helpUri"] = d.help_uri;
  return rule;
}

Json Rules(const std::map<std::string, size_t>& index, const SarifOptions& options) {
  Json rules = Json::array();
  for (const auto& [code, unused] : index) rules.push_back(Rule(code, options));
  return rules;
}

// FNV-1a, 64 bits: stable across runs, platforms and builds (std::hash is not).
uint64_t Fnv1a(std::string_view text, uint64_t hash = 0xcbf29ce484222325ULL) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// What identifies a finding independently of where its lines are: code, file, object, field.
std::string FingerprintKey(const Diagnostic& d) {
  std::string key;
  for (std::string_view part : {std::string_view(d.code), std::string_view(d.file),
                                std::string_view(d.object.kind),
                                std::string_view(d.object.name_space),
                                std::string_view(d.object.name), std::string_view(d.field)}) {
    key += part;
    key += '\0';
  }
  return key;
}

std::string Fingerprint(const std::string& key, size_t ordinal) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx:%zu",
                static_cast<unsigned long long>(Fnv1a(key)), ordinal);  // NOLINT(runtime/int)
  return buf;
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
            const std::map<std::string, size_t>& artifacts, const std::string& fingerprint) {
  Json result = Json::object();
  result["ruleId"] = d.code;
  result["ruleIndex"] = rules.at(d.code);
  result["level"] = std::string(Level(d.severity));
  result["message"] = {{"text", MessageText(d)}};
  result["locations"] = Json::array({Location(d, artifacts)});
  result["partialFingerprints"] = {{kSarifFingerprintKey, fingerprint}};
  return result;
}

}  // namespace

std::string FileUri(std::string_view file) {
  const bool absolute = !file.empty() && file.front() == '/';
  std::string out = absolute ? "file://" : "";
  // A file URI may not hold "." or ".." segments (SARIF1002): resolve them lexically.
  const std::string path =
      absolute ? std::filesystem::path(file).lexically_normal().string() : std::string(file);
  for (char c : path) {
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
    artifacts.push_back(
        {{"location", {{"uri", FileUri(file)}}}, {"roles", Json::array({"analysisTarget"})}});
  }
  Json results = Json::array();
  std::map<std::string, size_t> seen;  // fingerprint key -> findings so far
  for (const Diagnostic& d : report.diagnostics) {
    std::string key = FingerprintKey(d);
    size_t ordinal = seen[key]++;
    results.push_back(Result(d, rules, artifact_index, Fingerprint(key, ordinal)));
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
