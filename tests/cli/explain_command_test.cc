// `draguard explain`: exit codes, the JSON shape, text reasons, --inventory and flags.
#include <filesystem>
#include <fstream>
#include <map>
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

// node-1 with two GPUs, node-2 with four; the class selects the driver.
constexpr const char* kCluster = testing::kTwoNodeGpuCluster;

std::string Claim(const std::string& name, int count) {
  return "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
         ", namespace: ml}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
         "        deviceClassName: gpu\n        count: " + std::to_string(count) + "\n";
}

using testing::CommandRun;

CommandRun Explain(std::vector<std::string> args, const std::string& stdin_text) {
  args.insert(args.begin(), "explain");
  return testing::RunDraguard(std::move(args), stdin_text);
}

struct ExitCase {
  std::string name;
  std::vector<std::string> args;
  std::string stdin_text;
  int code;
};

class ExplainExitTest : public ::testing::TestWithParam<ExitCase> {};

TEST_P(ExplainExitTest, ExitsWith) {
  CommandRun r = Explain(GetParam().args, GetParam().stdin_text);
  EXPECT_EQ(r.code, GetParam().code) << "stdout:\n" << r.out << "stderr:\n" << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Explain, ExplainExitTest,
    ::testing::Values(
        ExitCase{"Satisfiable", {}, std::string(kCluster) + Claim("c", 3), kExitOk},
        ExitCase{"Unsatisfiable", {}, std::string(kCluster) + Claim("c", 5), kExitFindings},
        ExitCase{"OneOfTwoUnsatisfiable", {}, std::string(kCluster) + Claim("a", 1) + Claim("b", 9),
                 kExitFindings},
        ExitCase{"NothingToCheck", {}, kCluster, kExitOk},
        ExitCase{"MissingFile", {"/nonexistent/claims.yaml"}, "", kExitUsage},
        ExitCase{"BadOutput", {"--output", "xml"}, "", kExitUsage},
        ExitCase{"BadVersion", {"--kubernetes-version", "1.20"}, "", kExitUsage},
        ExitCase{"BadGates", {"--feature-gates", "DRAPartitionableDevices=maybe"}, "", kExitUsage},
        ExitCase{"BadBudget", {"--budget", "soon"}, "", kExitUsage},
        ExitCase{"Help", {"--help"}, "", kExitOk}),
    [](const ::testing::TestParamInfo<ExitCase>& param_info) { return param_info.param.name; });

TEST(ExplainJsonTest, HasExactlyTheDocumentedShape) {
  CommandRun r = Explain({"--output", "json"}, std::string(kCluster) + Claim("fits", 3) + Claim("big", 5));
  ASSERT_EQ(r.code, kExitFindings) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.size(), 1u);
  ASSERT_EQ(doc["claims"].size(), 2u);
  for (const auto& claim : doc["claims"]) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : claim.items()) keys.push_back(key);
    EXPECT_THAT(keys, ::testing::UnorderedElementsAre("kind", "namespace", "name", "verdict",
                                                      "nodes", "allocation", "reasons"));
  }
  const auto& fits = doc["claims"][0];
  EXPECT_EQ(fits["kind"], "ResourceClaim");
  EXPECT_EQ(fits["namespace"], "ml");
  EXPECT_EQ(fits["name"], "fits");
  EXPECT_EQ(fits["verdict"], "satisfiable");
  EXPECT_EQ(fits["nodes"], nlohmann::json::array({"node-2"}));
  EXPECT_EQ(fits["allocation"]["devices"]["results"].size(), 3u);
  EXPECT_EQ(fits["allocation"]["devices"]["results"][0]["pool"], "node-2");
  const auto& big = doc["claims"][1];
  EXPECT_EQ(big["verdict"], "unsatisfiable");
  EXPECT_EQ(big["nodes"], nlohmann::json::array());
  ASSERT_FALSE(big["reasons"].empty());
  EXPECT_EQ(big["reasons"][0]["code"], "alloc.request.insufficient-devices");
}

TEST(ExplainTextTest, SaysHowManyDevicesMatchAndTheBestNode) {
  CommandRun r = Explain({}, std::string(kCluster) + Claim("big", 5));
  EXPECT_THAT(r.out, HasSubstr("ResourceClaim ml/big: unsatisfiable"));
  EXPECT_THAT(r.out, HasSubstr("request gpu: 6 devices match"));
  EXPECT_THAT(r.out, HasSubstr("at most 4 usable on one node (node-2)"));
}

TEST(ExplainInventoryTest, ReadsClusterObjectsFromInventoryPaths) {
  std::string path = ::testing::TempDir() + "/explain_inventory.yaml";
  {
    std::ofstream file(path);
    file << kCluster;
  }
  CommandRun r = Explain({"--inventory", path, "--output", "json"}, Claim("c", 2));
  ASSERT_EQ(r.code, kExitOk) << r.out << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["claims"][0]["nodes"], nlohmann::json::array({"node-1", "node-2"}));
  std::remove(path.c_str());
}

// Scenarios from examples/inventory: GPU+NIC on one PCIe root, two MI300X partitions of one
// parent GPU, and MIG profiles that overflow the A100's memory counter (1.35 layout).
TEST(ExplainExamplesTest, AmdPartitionsMigAndGpuNicPairs) {
  std::string dir = std::string(DRAGUARD_SOURCE_DIR) + "/examples/inventory";
  CommandRun r = Explain({dir, "--output", "json", "--feature-gates", "DRAPartitionableDevices=true"}, "");
  ASSERT_EQ(r.code, kExitFindings) << r.out << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& claim : doc["claims"]) by_name[claim["name"]] = claim;
  ASSERT_EQ(by_name.count("gpu-nic-same-root"), 1u);
  EXPECT_EQ(by_name["gpu-nic-same-root"]["verdict"], "satisfiable");
  const auto& partitions = by_name["two-partitions-one-parent"];
  ASSERT_EQ(partitions["verdict"], "satisfiable");
  const auto& results = partitions["allocation"]["devices"]["results"];
  ASSERT_EQ(results.size(), 2u);
  std::string a = results[0]["device"], b = results[1]["device"];
  EXPECT_EQ(a.substr(0, a.rfind('-')), b.substr(0, b.rfind('-'))) << "one parent GPU";
  const auto& mig = by_name["mig-overflow"];
  EXPECT_EQ(mig["verdict"], "unsatisfiable");
  ASSERT_FALSE(mig["reasons"].empty());
  EXPECT_EQ(mig["reasons"][0]["code"], "alloc.counters.exhausted");
}

// Issue 19 item 12: with the release's default gates (1.35: DRAPartitionableDevices off) the
// example inventory's A100 pool is read as the API server stores it when created then: its
// counters dropped (lint warns "will be ignored"), its devices plain. explain used to call the
// pool invalid and the claim unsatisfiable; lint and explain now agree that it fits.
TEST(ExplainExamplesTest, GateOffFieldsAreDroppedAsLintSays) {
  const std::string dir = std::string(DRAGUARD_SOURCE_DIR) + "/examples/inventory";
  const std::string claim =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: one-a100}\n"
      "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: "
      "gpu.nvidia.com}\n";
  for (const char* version : {"1.34", "1.35", "1.36"}) {
    CommandRun r = Explain({"--inventory", dir, "--kubernetes-version", version}, claim);
    EXPECT_EQ(r.code, kExitOk) << version << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("satisfiable on node a100-0")) << version;
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr("alloc.pool.invalid"))) << version;

    CommandRun lint = testing::RunDraguard({"lint", "--inventory", dir, "--kubernetes-version",
                                            version, "--unsatisfiable", "error", "-"},
                                           claim);
    EXPECT_EQ(lint.code, kExitOk) << version << "\n" << lint.out << lint.err;
    EXPECT_THAT(lint.out, ::testing::Not(HasSubstr("alloc.unsatisfiable"))) << version;
  }
}

// An invalid pool is named with its reason; the node named for a request is the one where it
// got furthest (node-b: its device is of the class but fails the request's selector), not the
// first node tried (node-a: only devices of another driver).
constexpr char kTwoNodes[] = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a}
spec:
  driver: nic.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices: [{name: nic-0}, {name: nic-1}, {name: nic-2}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-b}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes: {model: {string: a100}}
)";

TEST(ExplainTextTest, NamesTheNodeWhereTheRequestGotFurthest) {
  const std::string claim =
      "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: h100}\n"
      "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
      "        deviceClassName: gpu\n        selectors:\n"
      "        - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}\n";
  CommandRun r = Explain({}, std::string(kTwoNodes) + claim);
  EXPECT_THAT(r.out, HasSubstr("at most 0 usable on one node (node-b)")) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 visible, 1 pass the class selectors")) << r.out;
}

TEST(ExplainTextTest, NamesTheInvalidPoolAndWhy) {
  const std::string broken = R"(---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-3}
spec:
  driver: gpu.example.com
  nodeName: node-3
  pool: {name: node-3-pool, generation: 1, resourceSliceCount: 2}
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-3-more}
spec:
  driver: gpu.example.com
  nodeName: node-3
  pool: {name: node-3-pool, generation: 1, resourceSliceCount: 2}
  devices: [{name: gpu-0}]
)";
  CommandRun r = Explain({"--kubernetes-version", "1.35"}, std::string(kCluster) + broken +
                                                              Claim("big", 5));
  EXPECT_THAT(r.out, HasSubstr("[alloc.pool.invalid]")) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("pool node-3-pool of driver gpu.example.com: ")) << r.out;
}

// Issue 19 item 2: what the API server rejects is never allocated. Each input is validated
// as lint validates it; an invalid subject gets `error` with its validation errors (code,
// field, file:line:col), in every output format.
struct InvalidCase {
  std::string name;
  std::string input;   // after kCluster
  std::string code;    // of the first reason
  std::string field;   // of the first reason; empty for a pod's reason
  int line;            // of the first reason in <stdin>; 0 when not a validation error
};

class ExplainInvalidTest : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(ExplainInvalidTest, VerdictIsErrorWithTheValidationErrors) {
  const InvalidCase& c = GetParam();
  CommandRun json = Explain({"--output", "json"}, std::string(kCluster) + c.input);
  ASSERT_EQ(json.code, kExitFindings) << json.out << json.err;
  nlohmann::json doc = nlohmann::json::parse(json.out);
  ASSERT_FALSE(doc["claims"].empty());
  const auto& subject = doc["claims"].back();
  EXPECT_EQ(subject["verdict"], "error") << subject.dump(2);
  EXPECT_EQ(subject["allocation"], nlohmann::json::object());
  ASSERT_FALSE(subject["reasons"].empty());
  const auto& reason = subject["reasons"][0];
  EXPECT_EQ(reason["code"], c.code) << reason.dump();
  if (c.line > 0) {
    EXPECT_EQ(reason["field"], c.field);
    EXPECT_EQ(reason["file"], "<stdin>");
    EXPECT_EQ(reason["line"], c.line);
    EXPECT_GT(reason["column"].get<int>(), 0);
  }

  CommandRun text = Explain({}, std::string(kCluster) + c.input);
  EXPECT_EQ(text.code, kExitFindings);
  EXPECT_THAT(text.out, HasSubstr(": error\n")) << text.out;
  EXPECT_THAT(text.out, HasSubstr("[" + c.code + "]"));
  if (c.line > 0) {
    EXPECT_THAT(text.out, HasSubstr("  <stdin>:" + std::to_string(c.line) + ":"));
    EXPECT_THAT(text.out, HasSubstr(c.field + ": "));
  }
  EXPECT_THAT(text.out, ::testing::Not(HasSubstr("satisfiable on node")));
}

// kCluster has 24 lines; what follows starts on line 25 with "---".
INSTANTIATE_TEST_SUITE_P(
    Explain, ExplainInvalidTest,
    ::testing::Values(
        InvalidCase{.name = "NegativeCount",
                    .input = Claim("neg", -2),
                    .code = "claim.request.count.invalid",
                    .field = "spec.devices.requests[0].exactly.count",
                    .line = 35},
        InvalidCase{.name = "V1beta1NegativeCount",
                    .input = "---\napiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\n"
                             "metadata: {name: neg, namespace: ml}\nspec:\n  devices:\n"
                             "    requests:\n    - name: gpu\n      deviceClassName: gpu\n"
                             "      count: -1\n",
                    .code = "claim.request.count.invalid",
                    .field = "spec.devices.requests[0].exactly.count",
                    .line = 34},
        InvalidCase{.name = "PodOfAnInvalidTemplate",
                    .input = "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
                             "metadata: {name: t, namespace: ml}\nspec:\n  spec:\n    devices:\n"
                             "      requests:\n      - name: gpu\n        exactly:\n"
                             "          deviceClassName: gpu\n          count: -3\n---\n"
                             "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\n"
                             "spec:\n  containers: [{name: c, image: busybox}]\n"
                             "  resourceClaims: [{name: gpus, resourceClaimTemplateName: t}]\n",
                    .code = "alloc.claim.invalid",
                    .field = "",
                    .line = 0}),
    [](const ::testing::TestParamInfo<InvalidCase>& param_info) { return param_info.param.name; });

// The reproduction of issue 19 item 2 on the bundled examples.
TEST(ExplainInvalidTest, BundledNegativeCountIsAnErrorNotAnAllocation) {
  std::string root = DRAGUARD_SOURCE_DIR;
  CommandRun r = Explain({root + "/examples/bad/negative-count.yaml", "--inventory",
                         root + "/examples/inventory", "--output", "json"},
                        "");
  ASSERT_EQ(r.code, kExitFindings) << r.out << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["claims"].size(), 1u) << r.out;
  EXPECT_EQ(doc["claims"][0]["verdict"], "error");
  EXPECT_EQ(doc["claims"][0]["nodes"], nlohmann::json::array());
  EXPECT_EQ(doc["claims"][0]["reasons"][0]["code"], "claim.request.count.invalid");
  EXPECT_EQ(doc["claims"][0]["reasons"][0]["line"], 16);
}

// Issue 17 item 4: an inventory as `kubectl get ... -o yaml` prints it (one `kind: List`
// document) larger than 3 MiB is read item by item: the limit is per object.
TEST(ExplainInventoryTest, LargeListExportIsReadWhole) {
  const std::string path = ::testing::TempDir() + "/explain_large_inventory.yaml";
  {
    std::ofstream file(path);
    file << "apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n  metadata: {name: gpu}\n"
            "  spec:\n    selectors:\n"
            "    - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n";
    const std::string padding(3 * 1024, 'p');
    for (int i = 0; i < 3'000; ++i) {
      const std::string node = "node-" + std::to_string(i);
      file << "- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata:\n"
              "    name: " << node << "\n    annotations: {pad: " << padding << "}\n"
              "  spec:\n    driver: gpu.example.com\n    nodeName: " << node << "\n"
              "    pool: {name: " << node << ", generation: 1, resourceSliceCount: 1}\n"
              "    devices: [{name: gpu-0}, {name: gpu-1}]\n";
    }
    file << "metadata: {resourceVersion: \"\"}\n";
  }
  ASSERT_GT(std::filesystem::file_size(path), 9'000'000u);
  CommandRun r = Explain({"--inventory", path, "--output", "json"}, Claim("c", 2));
  std::remove(path.c_str());
  ASSERT_EQ(r.code, kExitOk) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["claims"][0]["verdict"], "satisfiable");
}

// A problem in an inventory file is said on stderr with its file and line; lint and explain
// exit 2 when objects are missing (the file could not be read to its end) and go on after a
// warning (a malformed object, kept as far as it decodes).
struct InventoryProblemCase {
  std::string name;
  std::string command;  // "lint" or "explain"
  std::string extra;    // appended to kCluster in the inventory file
  int code;
  std::string stderr_has;  // after the file name
};

class InventoryProblemTest : public ::testing::TestWithParam<InventoryProblemCase> {};

TEST_P(InventoryProblemTest, IsReportedWithFileAndLine) {
  const InventoryProblemCase& c = GetParam();
  const std::string path = ::testing::TempDir() + "/inventory_problem_" + c.name + ".yaml";
  {
    std::ofstream file(path);
    file << kCluster << c.extra;
  }
  CommandRun r = testing::RunDraguard({c.command, "--inventory", path}, Claim("c", 2));
  std::remove(path.c_str());
  EXPECT_EQ(r.code, c.code) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr(path + c.stderr_has));
}

constexpr char kSyntaxError[] = "---\nkind: ResourceSlice\nspec: [unclosed\n";
constexpr char kMalformedClass[] =
    "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: other}\n"
    "spec: {selectors: {}}\n";

INSTANTIATE_TEST_SUITE_P(
    Inventory, InventoryProblemTest,
    ::testing::Values(
        InventoryProblemCase{"ExplainSyntaxError", "explain", kSyntaxError, kExitUsage, ":28:"},
        InventoryProblemCase{"LintSyntaxError", "lint", kSyntaxError, kExitUsage, ":28:"},
        InventoryProblemCase{"ExplainMalformedObjectIsAWarning", "explain", kMalformedClass,
                             kExitOk, ":29:"},
        InventoryProblemCase{"LintMalformedObjectIsAWarning", "lint", kMalformedClass, kExitOk,
                             ":29:"}),
    [](const ::testing::TestParamInfo<InventoryProblemCase>& param_info) {
      return param_info.param.name;
    });

// `draguard lint --inventory PATH --unsatisfiable SEVERITY` (cli/lint_flags.cc).
TEST(LintInventoryFlagsTest, ReportsUnsatisfiableClaimsWithTheChosenSeverity) {
  std::string path = ::testing::TempDir() + "/lint_inventory.yaml";
  {
    std::ofstream file(path);
    file << kCluster;
  }
  auto lint = [](std::vector<std::string> args, const std::string& in) {
    args.insert(args.begin(), "lint");
    return testing::RunDraguard(std::move(args), in);
  };
  CommandRun warning = lint({"--inventory", path}, Claim("big", 5));
  EXPECT_EQ(warning.code, kExitOk) << warning.out << warning.err;
  EXPECT_THAT(warning.out, HasSubstr("[alloc.unsatisfiable]"));
  CommandRun error = lint({"--inventory", path, "--unsatisfiable", "error"}, Claim("big", 5));
  EXPECT_EQ(error.code, kExitFindings) << error.out << error.err;
  CommandRun fits = lint({"--inventory", path, "--unsatisfiable", "error"}, Claim("small", 2));
  EXPECT_EQ(fits.code, kExitOk) << fits.out << fits.err;
  EXPECT_EQ(lint({"--unsatisfiable", "fatal"}, Claim("c", 1)).code, kExitUsage);
  // Rejected by validation, so not allocated: the validation error is the finding.
  CommandRun invalid = lint({"--inventory", path, "--unsatisfiable", "error"}, Claim("neg", -2));
  EXPECT_THAT(invalid.out, HasSubstr("[claim.request.count.invalid]"));
  EXPECT_THAT(invalid.out, ::testing::Not(HasSubstr("alloc.unsatisfiable")));
  EXPECT_EQ(lint({"--inventory", "/nonexistent/inventory.yaml"}, Claim("c", 1)).code, kExitUsage);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace draguard::cli
