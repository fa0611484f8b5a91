// End-to-end linter tests on the small inputs in tests/testdata/lint/inputs/: decoding,
// validation, namespace labels from inputs and flags, cross-object references, positions,
// --warnings-as-errors, and parallel runs giving the sequential result.
#include "policy/lint/linter.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "policy/common/timings.h"
#include "policy/inventory/inventory_files.h"
#include "policy/lint/render.h"
#include "policy/lint/render_json.h"
#include "tests/policy/lint/golden.h"

namespace draguard::lint {
namespace {

using ::testing::IsEmpty;
using ::testing::UnorderedElementsAreArray;

std::string Input(const std::string& name) { return testing::TestdataPath("inputs/" + name); }

// What a test expects of one diagnostic: code, field, file (basename) and line.
struct Expected {
  std::string code;
  std::string field;
  std::string file;
  int line = 0;

  friend bool operator==(const Expected&, const Expected&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Expected& e) {
    return os << e.code << " @ " << e.field << " (" << e.file << ":" << e.line << ")";
  }
};

std::string Basename(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::vector<Expected> Actual(const LintReport& report, bool with_infos = false) {
  std::vector<Expected> out;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.severity == Severity::kInfo && !with_infos) continue;
    out.push_back({d.code, d.field, Basename(d.file), d.position.line});
  }
  return out;
}

struct LintCase {
  std::string name;
  std::vector<std::string> files;
  validate::NamespaceLabels namespace_labels;
  std::vector<Expected> expected;
  size_t objects = 0;
};

void PrintTo(const LintCase& c, std::ostream* os) { *os << c.name; }

class LinterTest : public ::testing::TestWithParam<LintCase> {};

TEST_P(LinterTest, ReportsExpectedDiagnostics) {
  const LintCase& c = GetParam();
  std::vector<inventory::Input> inputs;
  for (const std::string& f : c.files) inputs.push_back({Input(f)});
  LintOptions options;
  options.validation.namespace_labels = c.namespace_labels;
  StatusOr<LintReport> report = Lint(inputs, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_THAT(Actual(*report), UnorderedElementsAreArray(c.expected));
  EXPECT_EQ(report->objects.size(), c.objects);
  EXPECT_EQ(report->files.size(), c.files.size());
}

const validate::NamespaceLabels kAdminLabel = {
    {"monitoring", {{"resource.kubernetes.io/admin-access", "true"}}}};

INSTANTIATE_TEST_SUITE_P(
    Inputs, LinterTest,
    ::testing::Values(
        LintCase{.name = "valid_claim", .files = {"good-claim.yaml"}, .expected = {},
                 .objects = 1},
        // count: 0 is defaulted to 1 (pkg/apis/resource/v1/defaults.go); only negative counts
        // are rejected.
        LintCase{.name = "count_negative",
                 .files = {"count-negative.yaml"},
                 .expected = {{"claim.request.count.invalid",
                               "spec.devices.requests[0].exactly.count", "count-negative.yaml", 13}},
                 .objects = 1},
        LintCase{.name = "admin_access_namespace_labelled_in_inputs",
                 .files = {"admin-claim.yaml", "admin-namespace.yaml"},
                 .expected = {},
                 .objects = 2},
        LintCase{.name = "admin_access_namespace_without_label",
                 .files = {"admin-claim.yaml", "plain-namespace.yaml"},
                 .expected = {{"claim.admin-access.forbidden",
                               // The API server's path (pkg/registry/resource
                               // `AuthorizedForAdmin`) has no `exactly`; it is located at
                               // its nearest ancestor, the request.
                               "spec.devices.requests[0].adminAccess", "admin-claim.yaml", 9}},
                 .objects = 2},
        LintCase{.name = "admin_access_label_from_flags",
                 .files = {"admin-claim.yaml"},
                 .namespace_labels = kAdminLabel,
                 .expected = {},
                 .objects = 1},
        LintCase{.name = "flags_override_inputs",
                 .files = {"admin-claim.yaml", "plain-namespace.yaml"},
                 .namespace_labels = kAdminLabel,
                 .expected = {},
                 .objects = 2},
        LintCase{.name = "pod_references",
                 .files = {"pod-refs.yaml"},
                 // Issue 19 item 22: no template among the inputs, so the reference to one
                 // is an info (refs.pod.claim-template.unchecked), not a warning.
                 .expected = {{"refs.container.claim.unknown",
                               "spec.containers[0].resources.claims[0].name", "pod-refs.yaml", 15}},
                 .objects = 1},
        LintCase{.name = "unknown_field",
                 .files = {"unknown-field.yaml"},
                 .expected = {{"decode.unknown-field", "spec.selector", "unknown-field.yaml", 6}},
                 .objects = 1}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(LinterTest, UnknownNamespaceIsAWarning) {
  StatusOr<LintReport> report = Lint({{Input("admin-claim.yaml")}}, {});
  ASSERT_TRUE(report.ok());
  std::vector<Expected> actual = Actual(*report);
  ASSERT_EQ(actual.size(), 1u);
  EXPECT_EQ(actual[0].code, "claim.admin-access.unverified");
  EXPECT_EQ(report->Summary().errors, 0u);
}

TEST(LinterTest, WarningsAsErrors) {
  LintOptions options;
  options.warnings_as_errors = true;
  StatusOr<LintReport> report = Lint({{Input("admin-claim.yaml")}}, options);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->Summary().warnings, 0u);
  EXPECT_EQ(report->Summary().errors, 1u);
}

// Issue 19 item 5: an explicit false (--warnings-as-errors=false) wins over the policy file.
TEST(LinterTest, ExplicitWarningsAsErrorsFalseWinsOverPolicy) {
  LintOptions options;
  options.policy.warnings_as_errors = true;
  StatusOr<LintReport> by_policy = Lint({{Input("admin-claim.yaml")}}, options);
  ASSERT_TRUE(by_policy.ok());
  EXPECT_EQ(by_policy->Summary().warnings, 0u);
  options.warnings_as_errors = false;
  StatusOr<LintReport> report = Lint({{Input("admin-claim.yaml")}}, options);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->Summary().warnings, 1u);
  EXPECT_EQ(report->Summary().errors, 0u);
}

constexpr char kNegativeCount[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
    "  namespace: ml\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
    "        deviceClassName: gpu.example.com\n        count: -1%s\n";

// The codes of the errors and warnings (infos, such as the run's refs.*.unchecked, left out).
std::vector<std::string> Codes(const LintReport& report) {
  std::vector<std::string> codes;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.severity != Severity::kInfo) codes.push_back(d.code);
  }
  return codes;
}

TEST(LinterTest, InlineCommentSilencesOnlyItsCodeOnItsLine) {
  char with[512], other[512];
  std::snprintf(with, sizeof with, kNegativeCount, "  # draguard:ignore claim.request.*");
  std::snprintf(other, sizeof other, kNegativeCount, "  # draguard:ignore refs.*");
  EXPECT_THAT(Codes(LintSources({SourceText("a.yaml", with)}, {})), IsEmpty());
  EXPECT_THAT(Codes(LintSources({SourceText("a.yaml", other)}, {})),
              ::testing::ElementsAre("claim.request.count.invalid"));
}

// Issue 19 item 1: a marker inside a block scalar is part of the CEL expression (here it
// breaks it); it must not hide the errors it causes. Two errors, as cel-go reports them: the
// lexer's at '#', the parser's at the word after it.
TEST(LinterTest, MarkerInsideBlockScalarSilencesNothing) {
  constexpr char kClass[] =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec:\n"
      "  selectors:\n  - cel:\n      expression: |\n"
      "        device.driver == \"gpu.nvidia.com\" # draguard:ignore\n";
  EXPECT_THAT(Codes(LintSources({SourceText("a.yaml", kClass)}, {})),
              ::testing::ElementsAre("cel.syntax-error", "cel.syntax-error"));
}

// Issue 19: a typo in an inline suppression is reported (as the policy file reports its
// rules), with the closest code, and silences nothing.
TEST(LinterTest, InlineCommentWithUnknownCodeWarns) {
  char text[512];
  std::snprintf(text, sizeof text, kNegativeCount,
                "  # draguard:ignore claim.request.count.invlid");
  LintReport report = LintSources({SourceText("a.yaml", text)}, {});
  EXPECT_THAT(Codes(report), ::testing::UnorderedElementsAre("claim.request.count.invalid",
                                                            "lint.ignore.code.unknown"));
  for (const Diagnostic& d : report.diagnostics) {
    if (d.code != "lint.ignore.code.unknown") continue;
    EXPECT_EQ(d.severity, Severity::kWarning);
    EXPECT_EQ(d.suggestion, "claim.request.count.invalid");
    EXPECT_EQ(d.position, (SourcePosition{12, 38}));
  }
}

// Issue 19: an expression cut short at the end of a `|` block at the end of the file is
// reported on its last line, not on a line past the end.
TEST(LinterTest, ErrorAtTheEndOfATrailingBlockStaysInTheFile) {
  constexpr char kClass[] =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec:\n"
      "  selectors:\n  - cel:\n      expression: |\n        device.driver ==\n";
  LintReport report = LintSources({SourceText("a.yaml", kClass)}, {});
  ASSERT_THAT(Codes(report), ::testing::ElementsAre("cel.syntax-error"));
  EXPECT_EQ(report.diagnostics[0].position, (SourcePosition{9, 25}));
}

// Issue 19 item 9: a UTF-8 byte order mark moves no column, in YAML or inside CEL.
TEST(LinterTest, ByteOrderMarkMovesNoColumn) {
  char text[512];
  std::snprintf(text, sizeof text, kNegativeCount, "");
  constexpr char kClass[] =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec:\n"
      "  selectors:\n  - cel:\n      expression: device.drver == 'x'\n";
  for (const std::string& input : {std::string(text), std::string(kClass)}) {
    LintReport plain = LintSources({SourceText("a.yaml", input)}, {});
    LintReport bom = LintSources({SourceText("a.yaml", "\xEF\xBB\xBF" + input)}, {});
    ASSERT_EQ(plain.diagnostics.size(), bom.diagnostics.size());
    ASSERT_FALSE(plain.diagnostics.empty());
    for (size_t i = 0; i < plain.diagnostics.size(); ++i) {
      EXPECT_EQ(bom.diagnostics[i].position, plain.diagnostics[i].position)
          << plain.diagnostics[i].code;
    }
  }
}

// Issue 19 item 17: the v1 `exactly:` under resource.k8s.io/v1beta1 is one finding, the
// unknown field with the v1beta1 advice, not also "exactly or firstAvailable is required".
TEST(LinterTest, ExactlyInV1beta1IsOneFinding) {
  constexpr char kClaim[] =
      "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
      "  namespace: ml\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
      "        deviceClassName: gpu.example.com\n";
  LintReport report = LintSources({SourceText("a.yaml", kClaim)}, {});
  std::vector<Expected> found;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.severity != Severity::kError) continue;
    found.push_back({d.code, d.field, "a.yaml", d.position.line});
  }
  EXPECT_THAT(found, ::testing::ElementsAre(Expected{"decode.unknown-field",
                                                     "spec.devices.requests[0].exactly",
                                                     "a.yaml", 10}));
  for (const Diagnostic& d : report.diagnostics) {
    if (d.code == "decode.unknown-field") {
      EXPECT_THAT(d.suggestion, ::testing::HasSubstr("v1beta1 has no"));
    }
  }
}

TEST(LinterTest, PolicyRulesAndExemptNamespaces) {
  char text[512];
  std::snprintf(text, sizeof text, kNegativeCount, "");
  LintOptions options;
  options.policy.rules = {{"claim.*", config::RuleAction::kWarning}};
  LintReport downgraded = LintSources({SourceText("a.yaml", text)}, options);
  ASSERT_EQ(Codes(downgraded), std::vector<std::string>{"claim.request.count.invalid"});
  for (const Diagnostic& d : downgraded.diagnostics) {
    if (d.code == "claim.request.count.invalid") {
      EXPECT_EQ(d.severity, Severity::kWarning);
    }
  }

  options.policy.rules = {};
  options.policy.exempt_namespaces = {"ml"};
  EXPECT_THAT(Codes(LintSources({SourceText("a.yaml", text)}, options)), IsEmpty());
}

// Issue 19 item 7: a missing file is listed in the report (the CLI exits 2), never a
// diagnostic, and the other inputs are still linted.
TEST(LinterTest, MissingFileIsListedNotADiagnostic) {
  StatusOr<LintReport> report =
      Lint({{Input("does-not-exist.yaml")}, {Input("count-negative.yaml")}}, {});
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->unreadable_inputs.size(), 1u);
  EXPECT_EQ(report->unreadable_inputs[0].code(), StatusCode::kNotFound);
  EXPECT_THAT(Codes(*report), ::testing::ElementsAre("claim.request.count.invalid"));
}

TEST(LinterTest, ParallelRunEqualsSequentialRun) {
  LintOptions sequential;
  sequential.jobs = 1;
  LintOptions parallel;
  parallel.jobs = 4;
  parallel.parallel_threshold = 1;
  std::vector<inventory::Input> inputs = {{testing::TestdataPath("inputs")}};
  StatusOr<LintReport> a = Lint(inputs, sequential);
  StatusOr<LintReport> b = Lint(inputs, parallel);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(a->diagnostics.empty());
  EXPECT_EQ(RenderJson(*a), RenderJson(*b));
}

TEST(LinterTest, DirectoryGolden) {
  // Names relative to the repository so that the golden does not depend on the checkout path.
  std::vector<SourceText> sources;
  for (const char* name : {"admin-claim.yaml", "count-negative.yaml", "good-claim.yaml",
                           "pod-refs.yaml", "unknown-field.yaml"}) {
    sources.emplace_back(std::string("inputs/") + name, testing::ReadTestdata(
                                                           std::string("inputs/") + name));
  }
  testing::ExpectGolden("lint_inputs.json", RenderJson(LintSources(std::move(sources), {})));
}

// Issue 17 item 4: the API server's 3 MiB limit is per object, not per file. A 20 MB stream of
// documents (generated here, not committed) is linted whole; its last object's finding is
// located on its line; one object over 3 MiB is refused alone.
TEST(LinterTest, LargeMultiDocumentFileIsLintedPerObject) {
  const std::string path = ::testing::TempDir() + "/draguard_large_stream.yaml";
  const std::string padding(10 * 1024, 'x');
  constexpr int kClaims = 2'000;
  int line = 1;
  int big_line = 0;
  int last_count_line = 0;
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    for (int i = 0; i < kClaims; ++i) {
      const bool last = i == kClaims - 1;
      if (i == kClaims / 2) {  // one object over the limit, in the middle
        big_line = line;
        std::fprintf(f, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\n"
                        "data: {blob: %s}\n", std::string(3 * 1024 * 1024, 'y').c_str());
        line += 5;
      }
      std::fprintf(f,
                   "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n"
                   "  name: c-%d\n  namespace: ml\n  annotations: {pad: %s}\nspec:\n"
                   "  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
                   "        deviceClassName: gpu\n        count: %d\n",
                   i, padding.c_str(), last ? -1 : 1);
      last_count_line = line + 13;
      line += 14;
    }
    std::fclose(f);
  }
  StatusOr<LintReport> report = Lint({{path}}, {});
  std::remove(path.c_str());
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->objects.size(), static_cast<size_t>(kClaims));
  std::vector<Expected> errors;
  for (const Diagnostic& d : report->diagnostics) {
    if (d.is_error()) errors.push_back({d.code, d.field, Basename(d.file), d.position.line});
  }
  const std::string file = "draguard_large_stream.yaml";
  EXPECT_THAT(errors, UnorderedElementsAreArray(std::vector<Expected>{
                          {"decode.too-large", "", file, big_line + 1},
                          {"claim.request.count.invalid", "spec.devices.requests[0].exactly.count",
                           file, last_count_line}}));
}

TEST(LinterTest, EmptyInputHasNoFindings) {
  LintReport report = LintSources({SourceText("empty.yaml", "")}, {});
  EXPECT_THAT(report.diagnostics, IsEmpty());
  EXPECT_EQ(report.Summary().files, 1u);
}

// The apiVersion warnings follow the release validated for: DeviceTaintRule v1beta2 is
// served (beta, off by default) only from 1.36.
TEST(LinterTest, DecodesForTheValidatedRelease) {
  const std::string rule =
      "apiVersion: resource.k8s.io/v1beta2\nkind: DeviceTaintRule\nmetadata: {name: r}\n"
      "spec:\n  deviceSelector: {driver: gpu.example.com}\n"
      "  taint: {key: k, effect: NoSchedule}\n";
  LintOptions options;
  options.validation = validate::ValidationOptions::ForVersion(KubernetesVersion::k1_35);
  LintReport r135 = LintSources({SourceText("rule.yaml", rule)}, options);
  EXPECT_THAT(Codes(r135), ::testing::Contains("decode.api-version.not-served"));
  options.validation = validate::ValidationOptions::ForVersion(KubernetesVersion::k1_36);
  LintReport r136 = LintSources({SourceText("rule.yaml", rule)}, options);
  EXPECT_THAT(Codes(r136), ::testing::Not(::testing::Contains("decode.api-version.not-served")));
  EXPECT_THAT(Codes(r136), ::testing::Contains("decode.api-version.beta"));
}


// Streamed inputs (Lint reads files and stdin one document at a time) against the whole-text
// path (LintSources): the same report, byte for byte, in every format. The stream joins the
// examples and test inputs (errors, warnings, suppressions, cross-object references) with
// filler documents, so that documents cross the reader's 64 KiB chunks and most of the text
// is dropped as read.
std::string StreamDiffText() {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"/examples/bad", "/examples/good", "/tests/testdata/lint/inputs"}) {
    const std::filesystem::path root = std::string(DRAGUARD_SOURCE_DIR) + dir;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::string text = "# draguard:ignore-file refs.class.not-found\n";
  for (int round = 0; round < 2; ++round) {
    for (const std::filesystem::path& path : files) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream body;
      body << in.rdbuf();
      if (body.str().find("{{") != std::string::npos) continue;  // a template: whole input
      text += "---\n" + body.str();
      if (!text.ends_with('\n')) text += '\n';
      for (int i = 0; i < 20; ++i) {
        text += "--- # filler\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: filler-" +
                std::to_string(text.size()) + "\ndata:\n  key: \"" + std::string(120, 'x') +
                "\"\n";
      }
    }
  }
  return text;
}

TEST(LinterStreamTest, StreamedInputGivesTheWholeTextReport) {
  const std::string text = StreamDiffText();
  ASSERT_GT(text.size(), size_t{2} * 64 * 1024);
  LintOptions options;
  options.jobs = 1;
  LintReport whole = LintSources({SourceText(inventory::kStdinName, text)}, options);
  std::istringstream in(text);
  options.input.stdin_stream = &in;
  StatusOr<LintReport> streamed = Lint({{"-"}}, options);
  ASSERT_TRUE(streamed.ok()) << streamed.status();
  ASSERT_GT(whole.diagnostics.size(), size_t{20});
  EXPECT_EQ(streamed->objects.size(), whole.objects.size());
  for (OutputFormat format :
       {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kSarif, OutputFormat::kJunit}) {
    EXPECT_EQ(Render(format, *streamed, {}), Render(format, whole, {}))
        << OutputFormatName(format);
  }
}

// Standard input read twice (copied as read) gives the same report as the whole text.
TEST(LinterStreamTest, StdinReadTwiceGivesTheWholeTextReport) {
  const std::string text = StreamDiffText();
  LintOptions options;
  options.jobs = 1;
  LintReport whole = LintSources({SourceText(inventory::kStdinName, text)}, options);
  std::istringstream in(text);
  options.input.stdin_stream = &in;
  options.read_twice_from_bytes = 64 * 1024;  // past it: a temporary file
  StatusOr<LintReport> twice = Lint({{"-"}}, options);
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_THAT(twice->unreadable_inputs, IsEmpty());
  for (OutputFormat format :
       {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kSarif, OutputFormat::kJunit}) {
    EXPECT_EQ(Render(format, *twice, {}), Render(format, whole, {})) << OutputFormatName(format);
  }
}

// Issue 17 item 4: large inputs are read twice (pipeline/streamed_batch.h); the report must be
// the one-pass report, byte for byte, whatever crosses files.
struct TwoPassDiffCase {
  std::string name;
  std::vector<std::pair<std::string, std::string>> files;  // name -> text; "@dir" = a directory
  // --inventory: YAML text, or "@dir" (a directory of the repository); empty: none.
  std::string inventory;
};

void PrintTo(const TwoPassDiffCase& c, std::ostream* os) { *os << c.name; }

class LinterTwoPassTest : public ::testing::TestWithParam<TwoPassDiffCase> {};

constexpr char kTwoPassClass[] =
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n";
constexpr char kTwoPassTemplate[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, "
    "namespace: ml}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
    "        exactly: {deviceClassName: gpu.exampel.com}\n";
constexpr char kTwoPassPod[] =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n"
    "  resourceClaims:\n  - {name: a, resourceClaimTemplateName: t}\n"
    "  - {name: b, resourceClaimTemplateName: tt}\n  - {name: c, resourceClaimName: elsewhere}\n"
    "  containers:\n  - name: x\n    image: x\n    resources:\n      claims:\n"
    "      - {name: a, request: gpx}\n      - {name: z}\n";

// An inventory of 3 GPUs on one node, gpu-0 held by claim ml/held.
constexpr char kTwoPassInventory[] =
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpus}\nspec:\n"
    "  driver: gpu.example.com\n  nodeName: n1\n"
    "  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n  - name: gpu-0\n  - name: gpu-1\n  - name: gpu-2\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: held, namespace: ml}\n"
    "spec:\n  devices:\n    requests:\n    - name: gpu\n"
    "      exactly: {deviceClassName: gpu.example.com}\nstatus:\n  allocation:\n    devices:\n"
    "      results:\n      - {request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}\n";

// A claim (kind ResourceClaim) or template of `count` devices of `device_class`, and a pod
// (or, with `kind` "Deployment", a workload) naming claims and templates.
std::string TwoPassClaim(const std::string& kind, const std::string& name, int count,
                         const std::string& device_class = "gpu.example.com") {
  const std::string request = "- name: gpu\n  exactly: {deviceClassName: " + device_class +
                              ", allocationMode: ExactCount, count: " + std::to_string(count) +
                              "}\n";
  std::string indented;
  const std::string indent = kind == "ResourceClaim" ? "    " : "      ";
  for (size_t start = 0; start < request.size();) {
    const size_t end = request.find('\n', start);
    indented += indent + request.substr(start, end - start + 1);
    start = end + 1;
  }
  return "apiVersion: resource.k8s.io/v1\nkind: " + kind + "\nmetadata: {name: " + name +
         ", namespace: ml}\nspec:\n" +
         (kind == "ResourceClaim" ? "  devices:\n    requests:\n"
                                  : "  spec:\n    devices:\n      requests:\n") +
         indented;
}
std::string TwoPassPodOf(const std::string& name,
                         const std::vector<std::pair<std::string, std::string>>& claims,
                         const std::string& kind = "Pod") {
  std::string refs;
  for (const auto& [claim, target] : claims) {
    refs += "  - {name: " + claim + ", " +
            (target.starts_with("t:") ? "resourceClaimTemplateName: " + target.substr(2)
                                      : "resourceClaimName: " + target) +
            "}\n";
  }
  std::string spec = "resourceClaims:\n" + refs + "containers:\n- name: x\n  image: x\n";
  if (kind == "Pod") {
    std::string indented;
    for (size_t start = 0; start < spec.size();) {
      const size_t end = spec.find('\n', start);
      indented += "  " + spec.substr(start, end - start + 1);
      start = end + 1;
    }
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
           ", namespace: ml}\nspec:\n" + indented;
  }
  std::string indented;
  for (size_t start = 0; start < spec.size();) {
    const size_t end = spec.find('\n', start);
    indented += "      " + spec.substr(start, end - start + 1);
    start = end + 1;
  }
  return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: " + name +
         ", namespace: ml}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n"
         "    metadata: {labels: {app: x}}\n    spec:\n" + indented;
}

std::string TwoPassJoin(const std::vector<std::string>& documents) {
  std::string out;
  for (const std::string& d : documents) out += (out.empty() ? "" : "---\n") + d;
  return out;
}

// The inventory of a row, loaded; null without one. Not const: a run may take it over.
std::shared_ptr<inventory::ClusterObjects> TwoPassInventory(const std::string& spec,
                                                            const std::string& dir) {
  if (spec.empty()) return nullptr;
  std::string path = std::string(DRAGUARD_SOURCE_DIR) + "/" + spec.substr(1);
  if (!spec.starts_with("@")) {
    path = dir + "/inventory.yaml";
    std::ofstream(path, std::ios::binary) << spec;
  }
  StatusOr<inventory::LoadedInventory> loaded =
      inventory::LoadInventoryFiles({{path}}, inventory::InputOptions());
  if (!loaded.ok()) return nullptr;
  return std::make_shared<inventory::ClusterObjects>(std::move(loaded->objects));
}

TEST_P(LinterTwoPassTest, ReadTwiceGivesTheOnePassReport) {
  const std::string dir = ::testing::TempDir() + "/draguard_two_pass_" + GetParam().name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<inventory::Input> inputs;
  for (const auto& [name, text] : GetParam().files) {
    if (name.starts_with("@")) {
      inputs.push_back({std::string(DRAGUARD_SOURCE_DIR) + "/" + name.substr(1)});
      continue;
    }
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
    inputs.push_back({dir + "/" + name});
  }
  LintOptions once;
  once.jobs = 1;
  once.read_twice_from_bytes = SIZE_MAX;
  once.inventory = TwoPassInventory(GetParam().inventory, dir);
  ASSERT_EQ(once.inventory == nullptr, GetParam().inventory.empty());
  LintOptions twice = once;
  twice.read_twice_from_bytes = 0;
  LintOptions parallel = twice;
  parallel.jobs = 3;
  parallel.parallel_threshold = 1;
  StatusOr<LintReport> a = Lint(inputs, once);
  // The phases show that satisfiability ran the two-pass way (no fallback to one pass).
  Timings phases;
  LintOptions timed = twice;
  timed.satisfiability.timings = &phases;
  StatusOr<LintReport> b = Lint(inputs, timed);
  StatusOr<LintReport> c = Lint(inputs, parallel);
  // Two passes that take the inventory over (the CLI's run).
  LintOptions owning = twice;
  owning.inventory = TwoPassInventory(GetParam().inventory, dir);
  StatusOr<LintReport> d = Lint(inputs, std::move(owning));
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok() && d.ok());
  EXPECT_FALSE(a->diagnostics.empty());
  if (!GetParam().inventory.empty()) {
    EXPECT_TRUE(std::any_of(a->diagnostics.begin(), a->diagnostics.end(),
                            [](const Diagnostic& x) { return x.code == "alloc.unsatisfiable"; }));
    EXPECT_TRUE(std::any_of(phases.phases().begin(), phases.phases().end(),
                            [](const Timings::Phase& p) {
                              return p.name.starts_with("satisfiability: checks (pods;");
                            }));
  }
  for (OutputFormat format :
       {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kSarif, OutputFormat::kJunit}) {
    EXPECT_EQ(Render(format, *b, {}), Render(format, *a, {})) << OutputFormatName(format);
    EXPECT_EQ(Render(format, *c, {}), Render(format, *a, {})) << OutputFormatName(format);
    EXPECT_EQ(Render(format, *d, {}), Render(format, *a, {})) << OutputFormatName(format);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rows, LinterTwoPassTest,
    ::testing::Values(
        // A pod in one file, its template in the next, the class (typo'd) in the last.
        TwoPassDiffCase{"references_across_files",
                        {{"1-pod.yaml", kTwoPassPod},
                         {"2-template.yaml", kTwoPassTemplate},
                         {"3-class.yaml", kTwoPassClass}}},
        // The class after its claims, in the same file; a Namespace's labels after the claim
        // that needs them.
        TwoPassDiffCase{"defined_after_use",
                        {{"all.yaml", std::string(kTwoPassPod) + "---\n" + kTwoPassTemplate +
                                          "---\n" + kTwoPassClass + "---\n" +
                                          "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
                                          "metadata: {name: adm, namespace: ops}\nspec:\n"
                                          "  devices:\n    requests:\n    - name: r\n"
                                          "      exactly: {deviceClassName: gpu.example.com, "
                                          "adminAccess: true}\n---\napiVersion: v1\n"
                                          "kind: Namespace\nmetadata:\n  name: ops\n  labels: "
                                          "{resource.kubernetes.io/admin-access: \"true\"}\n"}}},
        // The same template (and pod) in two files and twice in one: findings about them are
        // located in the first; summaries (unchecked classes) start on a repeated object.
        TwoPassDiffCase{"duplicates",
                        {{"a.yaml", std::string(kTwoPassTemplate) + "---\n" + kTwoPassPod},
                         {"b.yaml", std::string(kTwoPassPod) + "---\n" + kTwoPassTemplate +
                                        "---\n" + kTwoPassTemplate}}},
        TwoPassDiffCase{"unchecked_summaries_only",
                        {{"t.yaml", std::string(kTwoPassTemplate) + "---\n" + kTwoPassPod},
                         {"u.yaml", "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
                                    "metadata: {name: u}\nspec:\n  devices:\n    requests:\n"
                                    "    - name: r\n      exactly: {deviceClassName: other}\n"}}},
        // Summaries that start in later files (located as each file is checked, kept for the
        // first file that starts each when the files are folded): the DeviceClass summary's
        // first reference is a claim's, in a file after the template's.
        TwoPassDiffCase{
            "summaries_start_in_later_files",
            {{"0-class.yaml", kTwoPassClass},
             {"1-template.yaml",
              "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
              "metadata: {name: t1}\nspec:\n  spec:\n    devices:\n      requests:\n"
              "      - name: r\n        exactly: {deviceClassName: vendor-a}\n"},
             {"2-pod.yaml",
              "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  resourceClaims:\n"
              "  - {name: a, resourceClaimTemplateName: absent}\n  containers:\n"
              "  - {name: x, image: x}\n"},
             {"3-claim.yaml",
              "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
              "spec:\n  devices:\n    requests:\n    - name: r\n"
              "      exactly: {deviceClassName: vendor-b}\n"},
             {"4-claim.yaml",
              "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: d}\n"
              "spec:\n  devices:\n    requests:\n    - name: r\n"
              "      exactly: {deviceClassName: vendor-c}\n"}}},
        // The repository's examples and lint inputs, as directories.
        TwoPassDiffCase{"examples_and_inputs",
                        {{"@examples/bad", ""},
                         {"@examples/good", ""},
                         {"@examples/inventory", ""},
                         {"@tests/testdata/lint/inputs", ""}}},
        // --inventory: pods naming claims and templates of other files, before and after
        // them; satisfiable and unsatisfiable ones, a missing class, a missing and a rejected
        // claim, a workload, an inventory claim (allocated: skipped).
        TwoPassDiffCase{
            "inventory_across_files",
            {{"0-early.yaml",
              TwoPassJoin({TwoPassClaim("ResourceClaim", "early", 1),
                           TwoPassPodOf("p-early", {{"a", "early"}, {"b", "t:one"}})})},
             {"1-pods.yaml",
              TwoPassJoin({TwoPassPodOf("p-fits", {{"a", "t:one"}, {"b", "late"}}),
                           TwoPassPodOf("p-big", {{"a", "t:three"}}),
                           TwoPassPodOf("p-missing", {{"a", "missing"}, {"b", "t:one"}}),
                           TwoPassPodOf("p-invalid", {{"a", "bad"}}),
                           TwoPassPodOf("p-held", {{"a", "held"}, {"b", "t:one"}}),
                           TwoPassPodOf("p-noclass", {{"a", "t:noclass"}}),
                           TwoPassPodOf("d-too-many", {{"a", "t:one"}, {"b", "t:one2"},
                                                       {"c", "late"}}, "Deployment")})},
             {"2-claims.yaml",
              TwoPassJoin({TwoPassClaim("ResourceClaimTemplate", "one", 1),
                           TwoPassClaim("ResourceClaimTemplate", "one2", 1),
                           TwoPassClaim("ResourceClaimTemplate", "three", 3),
                           TwoPassClaim("ResourceClaim", "late", 1),
                           TwoPassClaim("ResourceClaim", "bad", -1),
                           TwoPassClaim("ResourceClaimTemplate", "noclass", 1, "nope.example.com"),
                           TwoPassClaim("ResourceClaim", "solo", 2),
                           TwoPassClaim("ResourceClaim", "solo3", 3)})}},
            kTwoPassInventory},
        // Claims among the inputs that change the inventory: an allocated one takes gpu-1, an
        // unallocated namesake of ml/held frees gpu-0. Repeated templates: the first of a name
        // is the one pods get; two of one name in one file share their errors.
        TwoPassDiffCase{
            "inventory_changed_by_inputs",
            {{"a.yaml",
              TwoPassJoin({TwoPassClaim("ResourceClaim", "taken", 1) +
                               "status:\n  allocation:\n    devices:\n      results:\n"
                               "      - {request: gpu, driver: gpu.example.com, pool: n1, "
                               "device: gpu-1}\n",
                           TwoPassClaim("ResourceClaim", "two", 2),
                           TwoPassClaim("ResourceClaim", "three", 3),
                           TwoPassClaim("ResourceClaimTemplate", "first", 3),
                           TwoPassPodOf("p", {{"a", "t:first"}}),
                           TwoPassPodOf("q", {{"a", "t:shared"}})})},
             {"b.yaml",
              TwoPassJoin({TwoPassClaim("ResourceClaim", "held", 1),
                           TwoPassClaim("ResourceClaimTemplate", "first", 1),
                           TwoPassClaim("ResourceClaimTemplate", "shared", 3),
                           TwoPassClaim("ResourceClaimTemplate", "shared", -1)})}},
            kTwoPassInventory},
        // The repository's examples against its example inventory.
        TwoPassDiffCase{"inventory_examples",
                        {{"@examples/bad", ""},
                         {"@examples/good", ""},
                         {"@examples/inventory/claims.yaml", ""}},
                        "@examples/inventory"}),
    [](const ::testing::TestParamInfo<TwoPassDiffCase>& info) { return info.param.name; });

TEST(LinterStreamTest, DocumentOverTheMemoryBoundMakesTheInputUnreadable) {
  std::istringstream in("apiVersion: v1\nkind: ConfigMap\n---\n" + std::string(4096, '#'));
  LintOptions options;
  options.input.stdin_stream = &in;
  options.input.max_file_bytes = 1024;
  StatusOr<LintReport> report = Lint({{"-"}}, options);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->unreadable_inputs.size(), 1u);
  EXPECT_EQ(report->unreadable_inputs[0].code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace draguard::lint
