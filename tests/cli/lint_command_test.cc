// The subcommands called directly: exit codes (0 clean, 1 errors, 2 usage or I/O), help,
// stdin, output formats and the flags that change verdicts. Inputs are the examples/ folder.
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/lint_flags.h"
#include "tests/cli/run_command.h"

namespace draguard::cli {
namespace {

using ::testing::HasSubstr;

std::string Example(const std::string& rel) {
  return std::string(DRAGUARD_SOURCE_DIR) + "/examples/" + rel;
}

std::string Testdata(const std::string& rel) {
  return std::string(DRAGUARD_SOURCE_DIR) + "/tests/testdata/cli/" + rel;
}

using testing::CommandRun;
using testing::RunDraguard;

struct ExitCase {
  std::string name;
  std::vector<std::string> args;
  int code;
  std::string stdin_text = "";
};

class ExitCodeTest : public ::testing::TestWithParam<ExitCase> {};

TEST_P(ExitCodeTest, ExitsWith) {
  CommandRun r = RunDraguard(GetParam().args, GetParam().stdin_text);
  EXPECT_EQ(r.code, GetParam().code) << "stdout:\n" << r.out << "stderr:\n" << r.err;
}

const char kValidClaim[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
    "  namespace: ns\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
    "        deviceClassName: gpu.example.com\n";

// A selector on the domain of a driver the attribute schema does not know: an info finding.
const char kPrivateDomainClaim[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
    "  namespace: ns\nspec:\n  devices:\n    requests:\n    - name: fpga\n      exactly:\n"
    "        deviceClassName: fpga.corp.example\n        selectors:\n        - cel:\n"
    "            expression: 'device.attributes[\"fpga.corp.example\"].board == \"u250\"'\n";

// resource.k8s.io/v1alpha3 no longer serves ResourceClaim (removed by 1.34).
const char kRemovedAlphaClaim[] =
    "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\nmetadata:\n  name: c\n"
    "  namespace: ns\nspec:\n  devices:\n    requests:\n    - name: gpu\n"
    "      deviceClassName: gpu.example.com\n";

// Served only with the DRADeviceTaintRules gate (off by default in 1.35).
const char kTaintRule[] =
    "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata:\n  name: r\n"
    "spec:\n  deviceSelector:\n    driver: gpu.example.com\n  taint:\n"
    "    key: example.com/broken\n    effect: NoSchedule\n";

INSTANTIATE_TEST_SUITE_P(
    Commands, ExitCodeTest,
    ::testing::Values(
        ExitCase{.name = "no_command", .args = {}, .code = kExitUsage},
        ExitCase{.name = "overview", .args = {"--help"}, .code = kExitOk},
        ExitCase{.name = "unknown_command", .args = {"lnit"}, .code = kExitUsage},
        ExitCase{.name = "version", .args = {"version"}, .code = kExitOk},
        ExitCase{.name = "version_help", .args = {"version", "--help"}, .code = kExitOk},
        ExitCase{.name = "version_extra_arg", .args = {"version", "x"}, .code = kExitUsage},
        ExitCase{.name = "lint_help", .args = {"lint", "--help"}, .code = kExitOk},
        ExitCase{.name = "good_examples", .args = {"lint", Example("good")}, .code = kExitOk},
        ExitCase{.name = "bad_examples", .args = {"lint", Example("bad")}, .code = kExitFindings},
        ExitCase{.name = "schema_error", .args = {"lint", Example("bad/attribute-typo.yaml")},
                 .code = kExitFindings},
        ExitCase{.name = "schema_rules_off_by_policy",
                 .args = {"lint", "--config", Testdata("schema-off.yaml"),
                          Example("bad/attribute-typo.yaml")},
                 .code = kExitOk},
        ExitCase{.name = "bad_policy_file",
                 .args = {"lint", "--config", Testdata("bad-policy.yaml"), Example("good")},
                 .code = kExitUsage},
        ExitCase{.name = "missing_policy_file",
                 .args = {"lint", "--config", Testdata("nope.yaml"), Example("good")},
                 .code = kExitUsage},
        ExitCase{.name = "missing_path", .args = {"lint", Example("nope.yaml")},
                 .code = kExitUsage},
        ExitCase{.name = "unknown_flag", .args = {"lint", "--ouput", "json"}, .code = kExitUsage},
        ExitCase{.name = "bad_format", .args = {"lint", "--output", "xml"}, .code = kExitUsage},
        ExitCase{.name = "unsupported_version", .args = {"lint", "--kubernetes-version", "1.33"},
                 .code = kExitUsage},
        ExitCase{.name = "unknown_gate", .args = {"lint", "--feature-gates", "NoSuchGate=true"},
                 .code = kExitUsage},
        ExitCase{.name = "bad_namespace_labels", .args = {"lint", "--namespace-labels", "ns"},
                 .code = kExitUsage},
        ExitCase{.name = "bad_jobs", .args = {"lint", "--jobs", "many"}, .code = kExitUsage},
        ExitCase{.name = "bad_read_twice", .args = {"lint", "--read-twice", "sometimes"},
                 .code = kExitUsage},
        ExitCase{.name = "read_twice_bad_examples",
                 .args = {"lint", "--read-twice", "always", Example("bad")},
                 .code = kExitFindings},
        // With an inventory too (issue 17 item 4): the unsatisfiable example claim is found.
        ExitCase{.name = "read_twice_inventory",
                 .args = {"lint", "--read-twice", "always", "--unsatisfiable", "error",
                          "--inventory", Example("inventory"), Example("inventory/claims.yaml")},
                 .code = kExitFindings},
        ExitCase{.name = "stdin_read_twice", .args = {"lint", "--read-twice", "always", "-"},
                 .code = kExitFindings,
                 .stdin_text = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nspec: [\n"},
        ExitCase{.name = "stdin_valid", .args = {"lint", "-"}, .code = kExitOk,
                 .stdin_text = kValidClaim},
        ExitCase{.name = "stdin_by_default", .args = {"lint"}, .code = kExitOk,
                 .stdin_text = kValidClaim},
        ExitCase{.name = "stdin_broken", .args = {"lint", "-"}, .code = kExitFindings,
                 .stdin_text = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nspec: [\n"},
        ExitCase{.name = "warning_only", .args = {"lint", Example("bad/old-api-version.yaml")},
                 .code = kExitOk},
        // schema.domain.unknown is info: no effect on the exit status, even with
        // --warnings-as-errors; --strict-schema makes it an error.
        ExitCase{.name = "private_domain_info", .args = {"lint", "-"}, .code = kExitOk,
                 .stdin_text = kPrivateDomainClaim},
        ExitCase{.name = "private_domain_info_warnings_as_errors",
                 .args = {"lint", "--warnings-as-errors", "-"}, .code = kExitOk,
                 .stdin_text = kPrivateDomainClaim},
        ExitCase{.name = "private_domain_strict", .args = {"lint", "--strict-schema", "-"},
                 .code = kExitFindings, .stdin_text = kPrivateDomainClaim},
        ExitCase{.name = "warnings_as_errors",
                 .args = {"lint", "--warnings-as-errors", Example("bad/old-api-version.yaml")},
                 .code = kExitFindings},
        // Issue 19 item 5: the flag wins over the policy file's warningsAsErrors either way.
        ExitCase{.name = "warnings_as_errors_by_policy",
                 .args = {"lint", "--config", Testdata("warnings-as-errors.yaml"),
                          Example("bad/old-api-version.yaml")},
                 .code = kExitFindings},
        ExitCase{.name = "warnings_as_errors_false_beats_policy",
                 .args = {"lint", "--config", Testdata("warnings-as-errors.yaml"),
                          "--warnings-as-errors=false", Example("bad/old-api-version.yaml")},
                 .code = kExitOk},
        ExitCase{.name = "warnings_as_errors_flag_true",
                 .args = {"lint", "--warnings-as-errors=true", Example("bad/old-api-version.yaml")},
                 .code = kExitFindings},
        // What the chosen release rejects is an error (issue 19 item 3); a cluster that
        // serves DeviceTaintRule says so with the gate, on the command line or in the policy.
        ExitCase{.name = "removed_alpha_version", .args = {"lint", "-"}, .code = kExitFindings,
                 .stdin_text = kRemovedAlphaClaim},
        ExitCase{.name = "taint_rule_gate_off", .args = {"lint", "-"}, .code = kExitFindings,
                 .stdin_text = kTaintRule},
        ExitCase{.name = "taint_rule_gate_flag",
                 .args = {"lint", "--feature-gates", "DRADeviceTaintRules=true", "-"},
                 .code = kExitOk, .stdin_text = kTaintRule},
        ExitCase{.name = "taint_rule_gate_policy",
                 .args = {"lint", "--config", Testdata("taint-rules-on.yaml"), "-"},
                 .code = kExitOk, .stdin_text = kTaintRule},
        // --namespace-labels wins over the unlabelled Namespace object among the inputs.
        ExitCase{.name = "namespace_labels_flag",
                 .args = {"lint", "--namespace-labels",
                          "debug-tools:resource.kubernetes.io/admin-access=true",
                          Example("bad/admin-access-unlabelled.yaml")},
                 .code = kExitOk},
        ExitCase{.name = "admin_access_unlabelled",
                 .args = {"lint", Example("bad/admin-access-unlabelled.yaml")},
                 .code = kExitFindings}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(LintCommandTest, UnknownFlagSuggestsTheRightOne) {
  CommandRun r = RunDraguard({"lint", "--ouput", "json"});
  EXPECT_THAT(r.err, HasSubstr("--output"));
}

TEST(LintCommandTest, JsonOutputSummary) {
  CommandRun r = RunDraguard({"lint", "--output", "json", Example("bad/negative-count.yaml")});
  ASSERT_EQ(r.code, kExitFindings) << r.err;
  nlohmann::json json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["summary"]["files"], 1);
  EXPECT_EQ(json["summary"]["errors"], 1);
  // The info before it says the DeviceClass could not be checked (no class among the inputs).
  ASSERT_EQ(json["diagnostics"].size(), 2u);
  EXPECT_EQ(json["diagnostics"][0]["code"], "refs.device-class.unchecked");
  EXPECT_EQ(json["diagnostics"][1]["code"], "claim.request.count.invalid");
  EXPECT_EQ(json["diagnostics"][1]["field"], "spec.devices.requests[0].exactly.count");
}

TEST(LintCommandTest, SarifAndJunitAreProduced) {
  CommandRun sarif = RunDraguard({"lint", "--output=sarif", Example("bad")});
  EXPECT_EQ(nlohmann::json::parse(sarif.out)["version"], "2.1.0");
  CommandRun junit = RunDraguard({"lint", "--output=junit", Example("bad")});
  EXPECT_THAT(junit.out, HasSubstr("<testsuites"));
}

// Issue 14 item 5: the upgrade check on stdin, in every format, and its flag errors.
constexpr char kBogusToleration[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\n"
    "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
    "        deviceClassName: gpu.example.com\n"
    "        tolerations: [{key: k, operator: Bogus, effect: NoSchedule}]\n";

TEST(LintCommandTest, UpgradeCheckReportsWhatBreaks) {
  CommandRun text = RunDraguard(
      {"lint", "--kubernetes-version", "1.35", "--upgrade-to", "1.36", "-"}, kBogusToleration);
  EXPECT_EQ(text.code, kExitFindings) << text.err;
  EXPECT_THAT(text.out, HasSubstr("[upgrade.object.invalid]"));
  EXPECT_THAT(text.out, HasSubstr("[toleration.operator.unsupported]"));
  CommandRun json = RunDraguard({"lint", "--kubernetes-version=1.35", "--upgrade-to=1.36",
                                "--output=json", "-"},
                               kBogusToleration);
  nlohmann::json doc = nlohmann::json::parse(json.out);
  std::vector<std::string> codes;
  for (const auto& d : doc["diagnostics"]) codes.push_back(d["code"].get<std::string>());
  EXPECT_THAT(codes, ::testing::UnorderedElementsAre("upgrade.object.invalid",
                                                     "upgrade.field.kept"));
  for (const char* format : {"sarif", "junit"}) {
    CommandRun r = RunDraguard({"lint", "--kubernetes-version=1.35", "--upgrade-to=1.36",
                               std::string("--output=") + format, "-"},
                              kBogusToleration);
    EXPECT_EQ(r.code, kExitFindings) << format;
    EXPECT_THAT(r.out, HasSubstr("upgrade.object.invalid")) << format;
  }
  // Downgrading makes the object valid: nothing breaks, exit 0.
  CommandRun down = RunDraguard(
      {"lint", "--kubernetes-version", "1.36", "--upgrade-to", "1.35", "-"}, kBogusToleration);
  EXPECT_EQ(down.code, kExitOk) << down.out;
  EXPECT_THAT(down.out, HasSubstr("[upgrade.object.valid]"));
}

TEST(LintCommandTest, UpgradeFlagErrorsAreUsageErrors) {
  CommandRun no_target = RunDraguard({"lint", "--upgrade-feature-gates", "DRADeviceTaints=true",
                                     "-"}, kValidClaim);
  EXPECT_EQ(no_target.code, kExitUsage);
  EXPECT_THAT(no_target.err, HasSubstr("--upgrade-feature-gates needs --upgrade-to"));
  CommandRun unknown = RunDraguard({"lint", "--upgrade-to", "1.37", "-"}, kValidClaim);
  EXPECT_EQ(unknown.code, kExitUsage);
  EXPECT_THAT(unknown.err, HasSubstr("1.34, 1.35 and 1.36"));
  // DRAAdminAccess is locked on in 1.36: the 1.35 gate flags cannot be kept.
  CommandRun locked = RunDraguard({"lint", "--kubernetes-version", "1.35", "--feature-gates",
                                  "DRAAdminAccess=false", "--upgrade-to", "1.36", "-"},
                                 kValidClaim);
  EXPECT_EQ(locked.code, kExitUsage);
  EXPECT_THAT(locked.err, HasSubstr("--upgrade-feature-gates"));
  CommandRun chosen = RunDraguard(
      {"lint", "--kubernetes-version", "1.35", "--feature-gates", "DRAAdminAccess=false",
       "--upgrade-to", "1.36", "--upgrade-feature-gates", "DRADeviceTaints=true", "-"},
      kValidClaim);
  EXPECT_NE(chosen.code, kExitUsage) << chosen.err;
}

TEST(LintCommandTest, TextHasNoColourWithoutTty) {
  CommandRun r = RunDraguard({"lint", Example("bad")});
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("\033[")));
}

TEST(LintCommandTest, ColourOnTtyButNotWithNoColor) {
  std::istringstream in;
  std::ostringstream out, err;
  CommandContext tty{.in = in, .out = out, .err = err, .out_is_tty = true};
  RunMain({"draguard", "lint", Example("bad/negative-count.yaml")}, tty);
  EXPECT_THAT(out.str(), HasSubstr("\033["));
  std::ostringstream out2;
  CommandContext no_color{.in = in, .out = out2, .err = err, .out_is_tty = true,
                          .no_color = true};
  RunMain({"draguard", "lint", Example("bad/negative-count.yaml")}, no_color);
  EXPECT_THAT(out2.str(), ::testing::Not(HasSubstr("\033[")));
}

TEST(LintCommandTest, QuietPrintsNothingWhenClean) {
  CommandRun r = RunDraguard({"lint", "--quiet", Example("good")});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.out, "");
}

struct LabelCase {
  std::string name;
  std::string text;
  bool ok;
  validate::NamespaceLabels labels;
};

class NamespaceLabelsTest : public ::testing::TestWithParam<LabelCase> {};

TEST_P(NamespaceLabelsTest, Parses) {
  validate::NamespaceLabels labels;
  Status status = validate::ParseNamespaceLabels(GetParam().text, labels);
  EXPECT_EQ(status.ok(), GetParam().ok) << status;
  if (GetParam().ok) {
    EXPECT_EQ(labels, GetParam().labels);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NamespaceLabelsTest,
    ::testing::Values(
        LabelCase{.name = "one", .text = "mon:resource.kubernetes.io/admin-access=true",
                  .ok = true,
                  .labels = {{"mon", {{"resource.kubernetes.io/admin-access", "true"}}}}},
        LabelCase{.name = "several", .text = "a:k=v,a:k2=,b:x=y", .ok = true,
                  .labels = {{"a", {{"k", "v"}, {"k2", ""}}}, {"b", {{"x", "y"}}}}},
        LabelCase{.name = "no_namespace", .text = "k=v", .ok = false, .labels = {}},
        LabelCase{.name = "no_value", .text = "a:k", .ok = false, .labels = {}},
        LabelCase{.name = "empty_key", .text = "a:=v", .ok = false, .labels = {}}),
    [](const auto& test_info) { return test_info.param.name; });

// Issue 19 item 7: an input that cannot be read is reported, the others are still linted and
// reported, and the exit status is 2.
TEST(LintInputsTest, UnreadableInputIsReportedAfterLintingTheRest) {
  CommandRun r = RunDraguard({"lint", Example("bad/negative-count.yaml"),
                             "/nonexistent-draguard-dir/x.yaml"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_THAT(r.out, HasSubstr("[claim.request.count.invalid]"));
  EXPECT_THAT(r.err, HasSubstr("cannot read /nonexistent-draguard-dir/x.yaml"));
}

}  // namespace
}  // namespace draguard::cli
