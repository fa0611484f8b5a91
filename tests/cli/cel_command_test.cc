// `draguard cel check|eval`: output formats (issue 19 items 20 and 24).
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "tests/cli/run_command.h"

namespace draguard::cli {
namespace {

using testing::CommandRun;

CommandRun RunCel(std::vector<std::string> args, const std::string& stdin_text = "") {
  args.insert(args.begin(), "cel");
  return testing::RunDraguard(std::move(args), stdin_text);
}

constexpr char kSlice[] =
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
    "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
    "  nodeName: n\n  devices:\n  - name: gpu-0\n"
    "    attributes: {model: {string: a100}}\n";

TEST(CelCommandTest, CheckPrintsJson) {
  CommandRun r = RunCel({"check", "device.driver == \"gpu.example.com\"", "--output", "json"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["resultType"], "bool");
  EXPECT_EQ(j["costLimit"], 1000000);
  EXPECT_TRUE(j["diagnostics"].empty());
}

TEST(CelCommandTest, CheckJsonListsDiagnostics) {
  CommandRun r = RunCel({"check", "devce.driver == 1", "--output=json"});
  EXPECT_EQ(r.code, kExitFindings);
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
  ASSERT_FALSE(j["diagnostics"].empty());
  EXPECT_EQ(j["diagnostics"][0]["code"], "cel.undeclared-reference");
  EXPECT_EQ(j["diagnostics"][0]["column"], 1);
}

// The JSON output replaces bytes that are not UTF-8 instead of aborting.
TEST(CelCommandTest, EvalJsonSurvivesBytesThatAreNotUtf8) {
  CommandRun r = RunCel({"eval", "false ? device.attributes[\"d\"].x : b\"\\xff\"", "--device", "-",
                        "--output", "json"},
                       kSlice);
  EXPECT_NE(r.out, "");
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  EXPECT_EQ(r.code, kExitFindings) << r.out << r.err;
}

}  // namespace
}  // namespace draguard::cli
