#include "policy/config/load_config.h"

#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>
#include <vector>

#include "policy/common/suggest.h"
#include "policy/k8s/document.h"

namespace draguard::config {
namespace {

constexpr std::string_view kTopLevelFields[] = {
    "apiVersion", "kind",  "kubernetesVersion", "featureGates", "warningsAsErrors",
    "exemptNamespaces", "rules"};

// Adds diagnostics placed at `node` in `source`.
class Reporter {
 public:
  Reporter(const SourceText& source, Diagnostics& out) : source_(source), out_(out) {}

  Diagnostic& Error(std::string code, const k8s::DocNode& node, std::string field,
                    std::string message, std::string suggestion = {}) {
    return Place(out_.Error(std::move(code), FieldPath(field), std::move(message),
                            std::move(suggestion)),
                 node);
  }
  Diagnostic& Warning(std::string code, const k8s::DocNode& node, std::string field,
                      std::string message, std::string suggestion = {}) {
    return Place(out_.Warning(std::move(code), FieldPath(field), std::move(message),
                              std::move(suggestion)),
                 node);
  }

 private:
  Diagnostic& Place(Diagnostic& d, const k8s::DocNode& node) {
    d.file = source_.name();
    d.position = node.position;
    return d;
  }
  const SourceText& source_;
  Diagnostics& out_;
};

bool ExpectKind(const k8s::DocNode& node, k8s::NodeKind kind, const std::string& field,
                Reporter& report) {
  if (node.kind == kind) return true;
  report.Error("config.field.type", node, field,
               field + " must be " + std::string(k8s::NodeKindName(kind)) + ", not " +
                   std::string(k8s::NodeKindName(node.kind)));
  return false;
}

std::optional<RuleAction> ParseAction(std::string_view text) {
  if (text == "off") return RuleAction::kOff;
  if (text == "info") return RuleAction::kInfo;
  if (text == "warning") return RuleAction::kWarning;
  if (text == "error") return RuleAction::kError;
  return std::nullopt;
}

void ReadRules(const k8s::DocNode& node, PolicyConfig& config, Reporter& report) {
  if (!ExpectKind(node, k8s::NodeKind::kMap, "rules", report)) return;
  for (const k8s::MapEntry& entry : node.entries) {
    const std::string& pattern = entry.key.text;
    std::string field = "rules[" + pattern + "]";
    std::optional<RuleAction> action =
        entry.value.kind == k8s::NodeKind::kString ? ParseAction(entry.value.text) : std::nullopt;
    // YAML 1.1 reads a plain `off` as the boolean false.
    if (entry.value.kind == k8s::NodeKind::kBool && !entry.value.bool_value) {
      action = RuleAction::kOff;
    }
    if (!action) {
      report.Error("config.rule.action.invalid", entry.value, field,
                   "the action for \"" + pattern + "\" must be off, info, warning or error");
      continue;
    }
    if (std::string guess; !MatchesKnownCode(pattern, &guess)) {
      report.Warning("config.rule.code.unknown", entry.key, field,
                     "no diagnostic code matches \"" + pattern +
                         "\"; the rule has no effect (docs/diagnostics.md lists the codes)",
                     guess);
    }
    config.rules.push_back(Rule{pattern, *action});
  }
}

void ReadFeatureGates(const k8s::DocNode& node, PolicyConfig& config, Reporter& report) {
  std::string text;
  if (node.kind == k8s::NodeKind::kString) {
    text = node.text;
  } else if (node.kind == k8s::NodeKind::kMap) {
    for (const k8s::MapEntry& entry : node.entries) {
      if (entry.value.kind != k8s::NodeKind::kBool) {
        report.Error("config.field.type", entry.value, "featureGates." + entry.key.text,
                     "feature gate " + entry.key.text + " must be true or false");
        continue;
      }
      text += (text.empty() ? "" : ",") + entry.key.text + "=" +
              (entry.value.bool_value ? "true" : "false");
    }
  } else {
    report.Error("config.field.type", node, "featureGates",
                 "featureGates must be a string (Name=true,...) or a map of booleans");
    return;
  }
  KubernetesVersion version =
      config.kubernetes_version.value_or(kDefaultKubernetesVersion);
  if (StatusOr<FeatureGates> gates = FeatureGates::Parse(text, version);
      !gates.ok()) {
    report.Error("config.feature-gates.invalid", node, "featureGates",
                 std::string(gates.status().message()));
    return;
  }
  config.feature_gates = std::move(text);
}

void ReadNamespaces(const k8s::DocNode& node, PolicyConfig& config, Reporter& report) {
  if (!ExpectKind(node, k8s::NodeKind::kSequence, "exemptNamespaces", report)) return;
  for (size_t i = 0; i < node.items.size(); ++i) {
    const k8s::DocNode& item = node.items[i];
    if (ExpectKind(item, k8s::NodeKind::kString,
                   "exemptNamespaces[" + std::to_string(i) + "]", report)) {
      config.exempt_namespaces.insert(item.text);
    }
  }
}

void ReadTopLevel(const k8s::DocNode& root, LoadedConfig& out, Reporter& report) {
  PolicyConfig& config = out.config;
  // kubernetesVersion first: featureGates are checked against it.
  if (const k8s::DocNode* v = root.Find("kubernetesVersion")) {
    const std::string& text = v->text;
    if (StatusOr<KubernetesVersion> version = ParseKubernetesVersion(text);
        version.ok()) {
      config.kubernetes_version = *version;
    } else {
      report.Error("config.kubernetes-version.invalid", *v, "kubernetesVersion",
                   std::string(version.status().message()),
                   "kubernetesVersion: \"" +
                       std::string(KubernetesVersionName(kDefaultKubernetesVersion)) + "\"");
    }
  }
  for (const k8s::MapEntry& entry : root.entries) {
    const std::string& key = entry.key.text;
    const k8s::DocNode& value = entry.value;
    if (key == "apiVersion") {
      if (value.text != kPolicyApiVersion) {
        report.Error("config.api-version.invalid", value, key,
                     "apiVersion must be " + std::string(kPolicyApiVersion),
                     std::string("apiVersion: ") + kPolicyApiVersion);
      }
    } else if (key == "kind") {
      if (value.text != kPolicyKind) {
        report.Error("config.kind.invalid", value, key,
                     "kind must be " + std::string(kPolicyKind),
                     std::string("kind: ") + kPolicyKind);
      }
    } else if (key == "kubernetesVersion") {
      // read above
    } else if (key == "featureGates") {
      ReadFeatureGates(value, config, report);
    } else if (key == "warningsAsErrors") {
      if (ExpectKind(value, k8s::NodeKind::kBool, key, report)) {
        config.warnings_as_errors = value.bool_value;
      }
    } else if (key == "exemptNamespaces") {
      ReadNamespaces(value, config, report);
    } else if (key == "rules") {
      ReadRules(value, config, report);
    } else {
      std::vector<std::string_view> known(std::begin(kTopLevelFields), std::end(kTopLevelFields));
      std::optional<std::string> guess = ClosestMatch(key, known);
      report.Error("config.field.unknown", entry.key, key,
                   "unknown field \"" + key + "\" in the policy file",
                   guess ? *guess : "");
    }
  }
}

}  // namespace

LoadedConfig ParsePolicyConfig(const SourceText& source) {
  LoadedConfig out;
  Reporter report(source, out.diagnostics);
  k8s::ParseResult parsed = k8s::ParseDocuments(source);
  for (Diagnostic d : parsed.diagnostics.items()) {
    d.code = "config.yaml-syntax";
    d.severity = Severity::kError;
    d.file = source.name();
    out.diagnostics.Add(std::move(d));
  }
  if (!out.ok()) return out;
  std::vector<const k8s::Document*> docs;
  for (const k8s::Document& doc : parsed.documents) {
    if (!doc.empty) docs.push_back(&doc);
  }
  if (docs.size() != 1 || docs.front()->root.kind != k8s::NodeKind::kMap) {
    k8s::DocNode at;
    at.position = docs.empty() ? SourcePosition{} : docs.front()->root.position;
    report.Error("config.document.invalid", docs.empty() ? at : docs.front()->root, "",
                 "a policy file holds exactly one YAML map (apiVersion: " +
                     std::string(kPolicyApiVersion) + ", kind: " + kPolicyKind + ", ...)");
    return out;
  }
  ReadTopLevel(docs.front()->root, out, report);
  return out;
}

StatusOr<LoadedConfig> ReadPolicyConfig(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot read policy file " + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return ParsePolicyConfig(SourceText(path, std::move(text)));
}

StatusOr<FeatureGates> EffectiveGates(const PolicyConfig& config, KubernetesVersion version,
                                      std::string_view flag_gates) {
  std::string text = config.feature_gates;
  if (!flag_gates.empty()) text += (text.empty() ? "" : ",") + std::string(flag_gates);
  return FeatureGates::Parse(text, version);
}

}  // namespace draguard::config
