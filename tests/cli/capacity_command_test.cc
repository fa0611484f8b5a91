// `draguard capacity`: text table and JSON shape, --what-if (drain, taint rule), reasons for a
// total of 0, exit codes, the live-cluster pod reference, and the kubectl plugin's usage.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "tests/cli/gpu_cluster.h"
#include "tests/cli/run_command.h"

namespace draguard::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// node-1 with two GPUs, node-2 with four, and their Node objects (so that a drain can be
// modelled).
const std::string kCapacityCluster = std::string(testing::kTwoNodeGpuCluster) +
                                     "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n"
                                     "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-2}\n";

std::string CapacityTemplate(const std::string& name, int count) {
  return "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: " +
         name + ", namespace: ml}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
         "        exactly:\n          deviceClassName: gpu\n          count: " +
         std::to_string(count) + "\n";
}

testing::CommandRun RunCapacityCli(std::vector<std::string> args, const std::string& stdin_text) {
  args.insert(args.begin(), "capacity");
  return testing::RunDraguard(std::move(args), stdin_text);
}

// A file in the test's temporary directory, removed with the fixture.
class CapacityCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("draguard-capacity-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(CapacityCommandTest, TextTableAndTotal) {
  auto r = RunCapacityCli({"-"}, kCapacityCluster + CapacityTemplate("one", 1));
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ResourceClaimTemplate ml/one: 6 more copies\n"));
  EXPECT_THAT(r.out, HasSubstr("  NODE    COPIES\n  node-1  2\n  node-2  4\n  total   6\n"));
}

TEST_F(CapacityCommandTest, JsonShape) {
  auto r = RunCapacityCli({"--output", "json", "-"},
                          kCapacityCluster + CapacityTemplate("pair", 2) +
                              CapacityTemplate("huge", 8));
  EXPECT_EQ(r.code, kExitFindings) << r.err;  // "huge" has no room
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["capacity"].size(), 2u);
  const nlohmann::json& pair = doc["capacity"][0];
  EXPECT_EQ(pair["kind"], "ResourceClaimTemplate");
  EXPECT_EQ(pair["namespace"], "ml");
  EXPECT_EQ(pair["name"], "pair");
  EXPECT_EQ(pair["total"], 3);
  EXPECT_EQ(pair["exact"], true);
  EXPECT_EQ(pair["nodes"], nlohmann::json::parse(
                               R"([{"name":"node-1","count":1},{"name":"node-2","count":2}])"));
  EXPECT_EQ(pair["reasons"], nlohmann::json::array());
  const nlohmann::json& huge = doc["capacity"][1];
  EXPECT_EQ(huge["total"], 0);
  EXPECT_EQ(huge["nodes"], nlohmann::json::array());
  ASSERT_FALSE(huge["reasons"].empty());
  EXPECT_EQ(huge["reasons"][0]["code"], "alloc.request.insufficient-devices");
  EXPECT_EQ(huge["reasons"][0]["request"], "gpu");
}

TEST_F(CapacityCommandTest, WhatIfDrainShowsTheDifference) {
  std::string cluster = Write("cluster.yaml", kCapacityCluster);
  std::string drain = Write("drain.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: node-2}\n"
                                          "spec: {unschedulable: true}\n");
  auto r = RunCapacityCli({"--inventory", cluster, "--what-if", drain, "--output", "json", "-"},
                          CapacityTemplate("one", 1));
  EXPECT_EQ(r.code, kExitOk) << r.err;
  nlohmann::json entry = nlohmann::json::parse(r.out)["capacity"][0];
  EXPECT_EQ(entry["total"], 2);
  EXPECT_EQ(entry["nodes"], nlohmann::json::parse(R"([{"name":"node-1","count":2}])"));
  EXPECT_EQ(entry["before"]["total"], 6);
  EXPECT_EQ(entry["difference"], -4);
  auto text = RunCapacityCli({"--inventory", cluster, "--what-if", drain, "-"},
                             CapacityTemplate("one", 1));
  EXPECT_THAT(text.out, HasSubstr("2 more copies after the change (-4)"));
  EXPECT_THAT(text.out, HasSubstr("  node-2  4       0      -4\n"));
  EXPECT_THAT(text.out, HasSubstr("not counted (unschedulable): node-2"));
}

TEST_F(CapacityCommandTest, WhatIfTaintRule) {
  std::string cluster = Write("cluster.yaml", kCapacityCluster);
  std::string taint = Write("taint.yaml", R"(apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1}
  taint: {key: maintenance, effect: NoSchedule}
)");
  auto r = RunCapacityCli({"--inventory", cluster, "--what-if", taint, "--feature-gates",
                           "DRADeviceTaints=true,DRADeviceTaintRules=true", "--output", "json", "-"},
                          CapacityTemplate("one", 1));
  ASSERT_EQ(r.code, kExitOk) << r.err;
  nlohmann::json entry = nlohmann::json::parse(r.out)["capacity"][0];
  EXPECT_EQ(entry["total"], 4);
  EXPECT_EQ(entry["difference"], -2);
}

TEST_F(CapacityCommandTest, NoRoomExplainedAsExplainDoes) {
  auto r = RunCapacityCli({"-"}, kCapacityCluster + CapacityTemplate("huge", 8));
  EXPECT_EQ(r.code, kExitFindings);
  EXPECT_THAT(r.out, HasSubstr("ml/huge: 0 more copies"));
  EXPECT_THAT(r.out, HasSubstr("[alloc.request.insufficient-devices]"));
}

TEST_F(CapacityCommandTest, UsageErrors) {
  EXPECT_EQ(RunCapacityCli({"--output", "yaml", "-"}, "").code, kExitUsage);
  EXPECT_EQ(RunCapacityCli({"--max-copies", "0", "-"}, "").code, kExitUsage);
  // pod/NAME reads the live cluster (tests/cli/explain_live_test.cc); without one: usage.
  auto pod = RunCapacityCli({"pod/trainer", "--kubeconfig", (dir_ / "missing").string()}, "");
  EXPECT_EQ(pod.code, kExitUsage);
  EXPECT_THAT(pod.err, HasSubstr("cannot read"));
  EXPECT_EQ(RunCapacityCli({"pod/", "--kubeconfig", "x"}, "").code, kExitUsage);
  EXPECT_EQ(RunCapacityCli({"-A", "-"}, "").code, kExitUsage);  // no --pending here
}

TEST_F(CapacityCommandTest, KubectlPluginNameChangesUsage) {
  std::istringstream in;
  std::ostringstream out, err;
  CommandContext context{.in = in, .out = out, .err = err};
  EXPECT_EQ(RunMain({"/usr/local/bin/kubectl-draguard", "capacity", "--help"}, context), kExitOk);
  EXPECT_THAT(out.str(), HasSubstr("Usage: kubectl draguard capacity [PATH|-|pod/NAME]..."));
  std::ostringstream overview, err2;
  CommandContext plain{.in = in, .out = overview, .err = err2};
  EXPECT_EQ(RunMain({"draguard", "--help"}, plain), kExitOk);
  EXPECT_THAT(overview.str(), HasSubstr("SYNOPSIS\n    draguard <command>"));
  EXPECT_THAT(overview.str(), Not(HasSubstr("kubectl draguard <command>")));
  std::ostringstream plugin_overview, err3;
  CommandContext plugin{.in = in, .out = plugin_overview, .err = err3};
  EXPECT_EQ(RunMain({"kubectl-draguard", "--help"}, plugin), kExitOk);
  EXPECT_THAT(plugin_overview.str(), HasSubstr("SYNOPSIS\n    kubectl draguard <command>"));
}

}  // namespace
}  // namespace draguard::cli
