// Renderer tests: golden files for every format over one hand-built report, plus structural
// checks of the contracts each format promises (JSON keys, SARIF required properties, JUnit
// counts, colour rules).
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "policy/common/utf8.h"
#include "policy/lint/render.h"
#include "policy/lint/render_json.h"
#include "policy/lint/render_junit.h"
#include "policy/lint/render_sarif.h"
#include "policy/lint/render_text.h"
#include "policy/lint/report.h"
#include "tests/policy/lint/golden.h"

namespace draguard::lint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::ordered_json;

constexpr char kClaimFile[] = "examples/claims/bad-claim.yaml";
constexpr char kClaimText[] =
    "apiVersion: resource.k8s.io/v1\n"
    "kind: ResourceClaim\n"
    "metadata:\n"
    "  name: gpu-claim\n"
    "  namespace: ml\n"
    "spec:\n"
    "  devices:\n"
    "    requests:\n"
    "    - name: gpu\n"
    "      exactly:\n"
    "        deviceClassName: gpu.nvidia.com\n"
    "        count: 0\n";
constexpr char kBrokenFile[] = "examples/broken & <odd>.yaml";
constexpr char kBrokenText[] = "kind: [unterminated\n";

ObjectRef ClaimRef() { return {"resource.k8s.io/v1", "ResourceClaim", "ml", "gpu-claim"}; }

Diagnostic Make(Severity severity, std::string code, std::string field, std::string message,
                std::string file, SourcePosition position, ObjectRef object = {},
                std::string suggestion = {}) {
  Diagnostic d;
  d.severity = severity;
  d.code = std::move(code);
  d.field = std::move(field);
  d.message = std::move(message);
  d.suggestion = std::move(suggestion);
  d.file = std::move(file);
  d.position = position;
  d.object = std::move(object);
  return d;
}

// Two files: a claim with an error (count: 0 at 12:16) and a warning, and a file that is not
// valid YAML (error at 1:7, no object). An empty third file has no finding at all.
LintReport SampleReport() {
  LintReport report;
  report.files = {kClaimFile, kBrokenFile, "examples/empty.yaml"};
  report.sources.emplace(kClaimFile, SourceText(kClaimFile, kClaimText));
  report.sources.emplace(kBrokenFile, SourceText(kBrokenFile, kBrokenText));
  report.sources.emplace("examples/empty.yaml", SourceText("examples/empty.yaml", ""));
  report.objects = {{kClaimFile, ClaimRef(), {1, 1}}};
  report.diagnostics = {
      Make(Severity::kError, "claim.request.count.invalid", "spec.devices.requests[0].exactly.count",
           "Invalid value: 0: must be greater than zero", kClaimFile, {12, 16}, ClaimRef(),
           "remove `count` to request one device, or set it to 1 or more"),
      Make(Severity::kWarning, "claim.admin-access.namespace-unknown", "metadata.namespace",
           "namespace \"ml\" is not among the inputs; admin access could not be checked",
           kClaimFile, {5, 14}, ClaimRef()),
      Make(Severity::kError, "decode.yaml-syntax", "", "end of flow sequence not found",
           kBrokenFile, {1, 7}),
  };
  SortDiagnostics(report.files, report.diagnostics);
  return report;
}

struct GoldenCase {
  std::string name;
  OutputFormat format;
  std::string golden;
};

class RenderGoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(RenderGoldenTest, MatchesGolden) {
  RenderOptions options;
  options.sarif.tool_version = "0.1.0";
  options.sarif.describe_rule = [](std::string_view code) {
    RuleDescription rule;
    if (code == "decode.yaml-syntax") {
      rule.short_description = "The document is not valid YAML";
      rule.full_description = "The document is not valid YAML. Fix the syntax.";
      rule.help_uri = "https://example.com/diagnostics.md#decodeyaml-syntax";
    }
    return rule;
  };
  testing::ExpectGolden(GetParam().golden, Render(GetParam().format, SampleReport(), options));
}

INSTANTIATE_TEST_SUITE_P(
    Formats, RenderGoldenTest,
    ::testing::Values(GoldenCase{.name = "text", .format = OutputFormat::kText,
                                 .golden = "render_sample.txt"},
                      GoldenCase{.name = "json", .format = OutputFormat::kJson,
                                 .golden = "render_sample.json"},
                      GoldenCase{.name = "sarif", .format = OutputFormat::kSarif,
                                 .golden = "render_sample.sarif"},
                      GoldenCase{.name = "junit", .format = OutputFormat::kJunit,
                                 .golden = "render_sample.junit.xml"}),
    [](const auto& test_info) { return test_info.param.name; });

std::vector<std::string> Keys(const Json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

TEST(RenderJsonTest, HasExactlyTheDocumentedShape) {
  Json json = Json::parse(RenderJson(SampleReport()));
  EXPECT_THAT(Keys(json), ElementsAre("diagnostics", "summary"));
  ASSERT_EQ(json["diagnostics"].size(), 3u);
  for (const Json& d : json["diagnostics"]) {
    EXPECT_THAT(Keys(d), ElementsAre("file", "line", "column", "severity", "code", "field",
                                     "message", "suggestion", "object"));
    EXPECT_THAT(Keys(d["object"]), ElementsAre("apiVersion", "kind", "namespace", "name"));
  }
  EXPECT_THAT(Keys(json["summary"]), ElementsAre("files", "objects", "errors", "warnings"));
  EXPECT_EQ(json["summary"]["files"], 3);
  EXPECT_EQ(json["summary"]["objects"], 1);
  EXPECT_EQ(json["summary"]["errors"], 2);
  EXPECT_EQ(json["summary"]["warnings"], 1);
  const Json& first = json["diagnostics"][0];
  EXPECT_EQ(first["line"], 5);
  EXPECT_EQ(first["column"], 14);
  EXPECT_EQ(first["severity"], "warning");
}

TEST(RenderJsonTest, EmptyReport) {
  Json json = Json::parse(RenderJson(LintReport{}));
  EXPECT_TRUE(json["diagnostics"].is_array());
  EXPECT_TRUE(json["diagnostics"].empty());
  EXPECT_EQ(json["summary"]["errors"], 0);
}

TEST(RenderJsonTest, InvalidUtf8IsReplacedNotThrown) {
  LintReport report;
  report.diagnostics = {Make(Severity::kError, "x.y", "", "bad \xff byte", "f.yaml", {})};
  Json json = Json::parse(RenderJson(report));
  EXPECT_THAT(json["diagnostics"][0]["message"].get<std::string>(), HasSubstr("\xEF\xBF\xBD"));
}

TEST(RenderSarifTest, HasTheRequiredProperties) {
  Json log = Json::parse(RenderSarif(SampleReport(), {}));
  EXPECT_EQ(log["version"], "2.1.0");
  ASSERT_EQ(log["runs"].size(), 1u);
  const Json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "draguard");
  const Json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 3u);
  for (const Json& rule : rules) EXPECT_TRUE(rule["shortDescription"]["text"].is_string());
  EXPECT_EQ(run["artifacts"].size(), 3u);
  for (const Json& result : run["results"]) {
    EXPECT_TRUE(result["message"]["text"].is_string());
    const Json& rule = rules[result["ruleIndex"].get<size_t>()];
    EXPECT_EQ(rule["id"], result["ruleId"]);
    const Json& region = result["locations"][0]["physicalLocation"]["region"];
    EXPECT_GE(region["startLine"].get<int>(), 1);
    EXPECT_GE(region["startColumn"].get<int>(), 1);
  }
  EXPECT_EQ(run["results"][2]["level"], "error");
  EXPECT_EQ(run["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["index"],
            1);
}

TEST(RenderSarifTest, RulesHaveWhatGitHubRequires) {
  SarifOptions options;
  options.describe_rule = [](std::string_view code) {
    return RuleDescription{.short_description = "Short " + std::string(code),
                           .full_description = "Long " + std::string(code),
                           .help_uri = "https://example.com/d.md#" + std::string(code)};
  };
  Json log = Json::parse(RenderSarif(SampleReport(), options));
  const Json& rules = log["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_FALSE(rules.empty());
  for (const Json& rule : rules) {
    std::string id = rule["id"];
    EXPECT_EQ(rule["shortDescription"]["text"], "Short " + id + ".");
    EXPECT_EQ(rule["fullDescription"]["text"], "Long " + id + ".");
    EXPECT_THAT(rule["help"]["text"].get<std::string>(), HasSubstr("Long " + id));
    EXPECT_THAT(rule["help"]["markdown"].get<std::string>(),
                HasSubstr("(https://example.com/d.md#" + id + ")"));
    EXPECT_EQ(rule["helpUri"], "https://example.com/d.md#" + id);
    EXPECT_TRUE(rule["name"].is_string());
  }
  for (const Json& artifact : log["runs"][0]["artifacts"]) {
    EXPECT_EQ(artifact["roles"], Json::array({"analysisTarget"}));
  }
}

TEST(RenderSarifTest, RulesFallBackToTheCode) {
  Json log = Json::parse(RenderSarif(SampleReport(), {}));
  for (const Json& rule : log["runs"][0]["tool"]["driver"]["rules"]) {
    EXPECT_EQ(rule["shortDescription"]["text"], rule["id"].get<std::string>() + ".");
    EXPECT_TRUE(rule["fullDescription"]["text"].is_string());
    EXPECT_TRUE(rule["help"]["markdown"].is_string());
  }
}

std::vector<std::string> Fingerprints(const LintReport& report) {
  Json log = Json::parse(RenderSarif(report, {}));
  std::vector<std::string> out;
  for (const Json& result : log["runs"][0]["results"]) {
    out.push_back(result["partialFingerprints"][kSarifFingerprintKey]);
  }
  return out;
}

TEST(RenderSarifTest, FingerprintsSurviveLineMovesAndTellDuplicatesApart) {
  LintReport report = SampleReport();
  std::vector<std::string> before = Fingerprints(report);
  EXPECT_EQ(Fingerprints(report), before);  // stable across runs
  for (Diagnostic& d : report.diagnostics) {
    d.position.line += 7;
    d.position.column += 2;
  }
  EXPECT_EQ(Fingerprints(report), before);  // and when lines move
  std::set<std::string> distinct(before.begin(), before.end());
  EXPECT_EQ(distinct.size(), before.size());

  LintReport twice;
  twice.files = {"a.yaml"};
  twice.diagnostics = {Make(Severity::kError, "x.y", "spec.a", "m", "a.yaml", {.line = 3}),
                       Make(Severity::kError, "x.y", "spec.a", "m", "a.yaml", {.line = 9}),
                       Make(Severity::kError, "x.y", "spec.b", "m", "a.yaml", {.line = 9})};
  std::vector<std::string> prints = Fingerprints(twice);
  EXPECT_EQ(std::set<std::string>(prints.begin(), prints.end()).size(), 3u);
}

TEST(RenderSarifTest, OmitsRegionWhenPositionUnknown) {
  LintReport report;
  report.files = {"a.yaml"};
  report.diagnostics = {Make(Severity::kInfo, "decode.template", "", "t", "a.yaml", {})};
  Json log = Json::parse(RenderSarif(report, {}));
  const Json& result = log["runs"][0]["results"][0];
  EXPECT_EQ(result["level"], "note");
  EXPECT_FALSE(result["locations"][0]["physicalLocation"].contains("region"));
}

struct UriCase {
  std::string file;
  std::string uri;
};

class FileUriTest : public ::testing::TestWithParam<UriCase> {};

TEST_P(FileUriTest, Encodes) { EXPECT_EQ(FileUri(GetParam().file), GetParam().uri); }

INSTANTIATE_TEST_SUITE_P(
    Cases, FileUriTest,
    ::testing::Values(UriCase{.file = "examples/claim.yaml", .uri = "examples/claim.yaml"},
                      UriCase{.file = "/abs/my claim.yaml", .uri = "file:///abs/my%20claim.yaml"},
                      UriCase{.file = "/work/wt/../shared/./c.yaml",
                              .uri = "file:///work/shared/c.yaml"},
                      UriCase{.file = "<stdin>", .uri = "%3Cstdin%3E"},
                      UriCase{.file = "a#b?.yml", .uri = "a%23b%3F.yml"}));

TEST(RenderJunitTest, OneSuitePerFileOneCasePerObject) {
  std::string xml = RenderJunit(SampleReport());
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"draguard lint\" tests=\"2\" failures=\"2\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"examples/claims/bad-claim.yaml\" tests=\"1\" "
                             "failures=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<testcase name=\"ResourceClaim ml/gpu-claim\""));
  EXPECT_THAT(xml, HasSubstr("type=\"claim.request.count.invalid\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"examples/broken &amp; &lt;odd&gt;.yaml\""));
  EXPECT_THAT(xml, HasSubstr("<testsuite name=\"examples/empty.yaml\" tests=\"0\""));
}

TEST(RenderJunitTest, XmlEscape) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'\x01"), "a&lt;b&gt;&amp;&quot;c&apos;");
}

// Issue 19 item 8: a byte that is not UTF-8 (`name: "c\xe9"`) must not make the XML
// ill-formed; it becomes U+FFFD, as in the JSON output. Valid sequences stay.
TEST(RenderJunitTest, InvalidUtf8IsReplaced) {
  EXPECT_EQ(XmlEscape("c\xe9"), "c\xEF\xBF\xBD");
  EXPECT_EQ(XmlEscape("\xC3\xA9\xE2\x82\xAC"), "\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(XmlEscape("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  LintReport report;
  report.files = {"f.yaml"};
  report.diagnostics = {Make(Severity::kError, "x.y", "", "bad \xff byte", "f.yaml", {})};
  EXPECT_TRUE(IsValidUtf8(RenderJunit(report)));
}

TEST(RenderTextTest, NoColourUnlessAsked) {
  EXPECT_THAT(RenderText(SampleReport(), {}), Not(HasSubstr("\033[")));
  TextOptions color;
  color.color = true;
  EXPECT_THAT(RenderText(SampleReport(), color), HasSubstr("\033[1;31merror:"));
}

TEST(RenderTextTest, QuietOmitsSummaryWhenClean) {
  LintReport report;
  report.files = {"a.yaml"};
  TextOptions quiet;
  quiet.quiet = true;
  EXPECT_EQ(RenderText(report, quiet), "");
  EXPECT_EQ(RenderText(report, {}), "1 file, 0 objects: 0 errors, 0 warnings\n");
}

TEST(RenderTextTest, HeaderWithoutFieldOrPosition) {
  Diagnostic d = Make(Severity::kInfo, "decode.template", "", "looks like a Helm template",
                      "chart/x.yaml", {});
  EXPECT_EQ(RenderTextDiagnostic(d, nullptr, {}),
            "chart/x.yaml: info: looks like a Helm template [decode.template]\n");
}

TEST(SortDiagnosticsTest, FileOrderThenPositionThenSeverity) {
  std::vector<Diagnostic> d = {
      Make(Severity::kWarning, "b", "", "", "b.yaml", {1, 1}),
      Make(Severity::kWarning, "w", "", "", "a.yaml", {3, 1}),
      Make(Severity::kError, "e", "", "", "a.yaml", {3, 1}),
      Make(Severity::kError, "z", "", "", "zz.yaml", {1, 1}),
      Make(Severity::kError, "first", "", "", "a.yaml", {1, 5}),
  };
  SortDiagnostics({"b.yaml", "a.yaml"}, d);
  std::vector<std::string> codes;
  for (const Diagnostic& x : d) codes.push_back(x.code);
  EXPECT_THAT(codes, ElementsAre("b", "first", "e", "w", "z"));
}

TEST(OutputFormatTest, ParsesNamesAndSuggests) {
  EXPECT_EQ(ParseOutputFormat("sarif").value(), OutputFormat::kSarif);
  StatusOr<OutputFormat> bad = ParseOutputFormat("jsno");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("\"json\""));
}

}  // namespace
}  // namespace draguard::lint
