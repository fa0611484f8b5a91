// `draguard explain` against a live cluster: the fake API server replaying recorded lists, a
// kubeconfig whose user is an exec credential plugin (a shell script in a temp dir), pods
// named with pod/NAME and found with --pending, files checked against the live inventory.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/run_command.h"
#include "tests/webhook/kube/fake_api_server.h"
#include "tests/webhook/kube/scripted_api.h"
#include "tests/webhook/kube/testdata.h"

namespace draguard::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using webhook::kube::testing::FakeApiServer;
using webhook::kube::testing::Reply;
using webhook::kube::testing::ScriptedApi;
using webhook::kube::testing::Testdata;

std::string LivePodJson(const std::string& name, const std::string& phase,
                        const std::string& claims, const std::string& extra_spec = "",
                        const std::string& statuses = "[]", bool list_item = false) {
  return std::string("{") + (list_item ? "" : R"("apiVersion":"v1","kind":"Pod",)") +
         R"("metadata":{"name":")" + name + R"(","namespace":"ml"},"spec":{"containers":[{"name":"c","image":"i"}],"resourceClaims":)" +
         claims + extra_spec + R"(},"status":{"phase":")" + phase +
         R"(","resourceClaimStatuses":)" + statuses + "}}";
}

std::string LiveTemplate(const std::string& name, int count) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":")" +
         name + R"(","namespace":"ml"},"spec":{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.nvidia.com","count":)" +
         std::to_string(count) + "}}]}}}}";
}

const std::string kLiveOne = R"([{"name":"gpu","resourceClaimTemplateName":"gpu-one"}])";
const std::string kLiveMany = R"([{"name":"gpu","resourceClaimTemplateName":"gpu-many"}])";
const std::string kLivePinned = R"(,"nodeSelector":{"pool":"cpu"})";

// The recorded cluster (3 nodes with 2 GPUs each, one allocated to trainer-0) and four pods.
class ExplainLiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("draguard-explain-live-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    api_.Static("/apis/resource.k8s.io/v1/deviceclasses", Reply::Json(Testdata("deviceclasses.json")));
    api_.Static("/apis/resource.k8s.io/v1/resourceclaims", Reply::Json(Testdata("resourceclaims.json")));
    api_.Static("/api/v1/nodes", Reply::Json(Testdata("nodes.json")));
    api_.Static("/api/v1/namespaces/ml/pods/trainer-0",
                Reply::Json(LivePodJson("trainer-0", "Running", kLiveOne, "",
                                        R"([{"name":"gpu","resourceClaimName":"trainer-0-gpu-8x2lq"}])")));
    api_.Static("/api/v1/namespaces/ml/pods/waiting", Reply::Json(LivePodJson("waiting", "Pending", kLiveOne)));
    api_.Static("/api/v1/namespaces/ml/pods/pinned",
                Reply::Json(LivePodJson("pinned", "Pending", kLiveOne, kLivePinned)));
    const std::string pending = R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[)" +
                                LivePodJson("waiting", "Pending", kLiveOne, "", "[]", true) + "," +
                                LivePodJson("pinned", "Pending", kLiveOne, kLivePinned, "[]", true) + "," +
                                LivePodJson("greedy", "Pending", kLiveMany, "", "[]", true) + "]}";
    api_.Static("/api/v1/namespaces/ml/pods", Reply::Json(pending));
    api_.Static("/api/v1/pods", Reply::Json(pending));
    api_.Static("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaimtemplates/gpu-one",
                Reply::Json(LiveTemplate("gpu-one", 1)));
    api_.Static("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaimtemplates/gpu-many",
                Reply::Json(LiveTemplate("gpu-many", 7)));
    server_ = std::make_unique<FakeApiServer>(FakeApiServer::AuthHandler(
        [this](const std::string& target, const std::string& authorization) {
          if (authorization != "Bearer live-token") {
            return Reply::Json(R"({"kind":"Status","code":401,"message":"Unauthorized"})", 401);
          }
          return api_.Handle(target);
        }));
    const std::string plugin = (dir_ / "plugin.sh").string();
    std::ofstream(plugin) << "#!/bin/sh\nprintf '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\","
                             "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"live-token\"}}'\n";
    ::chmod(plugin.c_str(), 0755);
    kubeconfig_ = (dir_ / "config").string();
    std::ofstream(kubeconfig_)
        << "apiVersion: v1\nkind: Config\ncurrent-context: dev\n"
           "contexts: [{name: dev, context: {cluster: c, user: u, namespace: ml}}]\n"
           "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:"
        << server_->port()
        << "'}}]\nusers:\n- name: u\n  user:\n    exec:\n"
           "      apiVersion: client.authentication.k8s.io/v1beta1\n      command: ./plugin.sh\n";
  }
  void TearDown() override {
    server_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Every command lists the slices in two pages.
  testing::CommandRun Run(std::vector<std::string> args, const std::string& command = "explain") {
    api_.List("/apis/resource.k8s.io/v1/resourceslices", Reply::Json(Testdata("resourceslices-page1.json")));
    api_.List("/apis/resource.k8s.io/v1/resourceslices", Reply::Json(Testdata("resourceslices-page2.json")));
    args.insert(args.begin(), command);
    args.push_back("--kubeconfig");
    args.push_back(kubeconfig_);
    return testing::RunDraguard(std::move(args));
  }
  // As Run, with standard error a terminal (the progress line).
  testing::CommandRun RunOnTerminal(std::vector<std::string> args) {
    api_.List("/apis/resource.k8s.io/v1/resourceslices", Reply::Json(Testdata("resourceslices-page1.json")));
    api_.List("/apis/resource.k8s.io/v1/resourceslices", Reply::Json(Testdata("resourceslices-page2.json")));
    args.insert(args.begin(), {"draguard", "explain", "--kubeconfig", kubeconfig_});
    std::istringstream in;
    std::ostringstream out, err;
    CommandContext context{.in = in, .out = out, .err = err, .err_is_tty = true};
    const int code = RunMain(args, context);
    return {code, out.str(), err.str()};
  }

  fs::path dir_;
  std::string kubeconfig_;
  ScriptedApi api_;
  std::unique_ptr<FakeApiServer> server_;
};

TEST_F(ExplainLiveTest, PodWithTemplateClaimIsExplainedOnTheLiveInventory) {
  testing::CommandRun run = Run({"pod/waiting"});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Pod ml/waiting: satisfiable on node node-"));
  EXPECT_THAT(run.out, HasSubstr("(3 feasible nodes)"));
}

TEST_F(ExplainLiveTest, AllocatedClaimsAreReportedWithTheirDevices) {
  testing::CommandRun run = Run({"pod/trainer-0", "-n", "ml"});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Pod ml/trainer-0: allocated\n"));
  EXPECT_THAT(run.out, HasSubstr("claim gpu: allocated (ResourceClaim trainer-0-gpu-8x2lq) -> "
                                 "gpu.nvidia.com/node-1/gpu-0"));
}

TEST_F(ExplainLiveTest, NodeSelectorExcludingTheDeviceNodesIsTheVerdict) {
  testing::CommandRun run = Run({"pod/pinned", "--output", "json"});
  EXPECT_EQ(run.code, 1) << run.err;
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  ASSERT_EQ(doc["claims"].size(), 1u);
  const nlohmann::json& pod = doc["claims"][0];
  EXPECT_EQ(pod["kind"], "Pod");
  EXPECT_EQ(pod["verdict"], "unsatisfiable");
  ASSERT_EQ(pod["reasons"].size(), 3u);
  EXPECT_EQ(pod["reasons"][0]["code"], "alloc.node.excluded");
  EXPECT_EQ(pod["reasons"][0]["node"], "node-1");
  EXPECT_THAT(pod["reasons"][0]["message"].get<std::string>(),
              HasSubstr("nodeSelector pool=cpu does not match"));
  EXPECT_TRUE(pod["allocated"].empty());
}

TEST_F(ExplainLiveTest, PendingListsEveryPodWithUnallocatedClaims) {
  testing::CommandRun run = Run({"--pending", "-A"});
  EXPECT_EQ(run.code, 1) << run.err;
  const std::vector<std::string> lines = {"ml/greedy: unsatisfiable: ", "ml/pinned: unsatisfiable: node node-1 has the devices",
                                          "ml/waiting: satisfiable on node node-"};
  for (const std::string& line : lines) EXPECT_THAT(run.out, HasSubstr(line));
  EXPECT_LT(run.out.find("ml/greedy"), run.out.find("ml/pinned"));
  testing::CommandRun json = Run({"--pending", "-o", "json"});
  EXPECT_EQ(nlohmann::json::parse(json.out)["claims"].size(), 3u) << json.err;
}

TEST_F(ExplainLiveTest, FilesAreCheckedAgainstTheLiveInventory) {
  const std::string claim = (dir_ / "claim.yaml").string();
  std::ofstream(claim) << "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: two, namespace: ml}\n"
                          "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}]}}\n";
  testing::CommandRun run = Run({claim});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("ResourceClaim ml/two: satisfiable on node node-"));
  EXPECT_THAT(run.out, HasSubstr("(2 feasible nodes)"));  // node-1 has one GPU in use
}

TEST_F(ExplainLiveTest, UsageAndAccessErrors) {
  api_.Static("/api/v1/namespaces/ml/pods/nope", Reply::Json(R"({"kind":"Status","code":404})", 404));
  EXPECT_THAT(Run({"pod/nope"}).err, HasSubstr("pods nope in namespace ml not found"));
  EXPECT_EQ(Run({"pod/waiting", "--inventory", "x"}).code, 2);
  testing::CommandRun all = Run({"pod/waiting", "-A"});
  EXPECT_EQ(all.code, 2);
  EXPECT_THAT(all.err, HasSubstr("-A/--all-namespaces goes with --pending"));
  testing::CommandRun context = Run({"pod/waiting", "--context", "prod"});
  EXPECT_THAT(context.err, HasSubstr("contexts has no entry named \"prod\""));
}

// `capacity` through the same kubeconfig and exec plugin: new copies of a live pod (its
// template gives each copy a claim of its own: trainer-0's allocated claim is not reused),
// the pod's nodeSelector, and files counted against the live inventory.
TEST_F(ExplainLiveTest, CapacityCountsNewCopiesOfALivePod) {
  for (const std::string pod : {"pod/waiting", "pod/trainer-0"}) {
    testing::CommandRun run = Run({pod, "-o", "json"}, "capacity");
    EXPECT_EQ(run.code, 0) << run.err;
    const nlohmann::json entry = nlohmann::json::parse(run.out)["capacity"][0];
    EXPECT_EQ(entry["kind"], "Pod");
    EXPECT_EQ(entry["namespace"], "ml");
    EXPECT_EQ(entry["total"], 5) << pod;  // 6 GPUs, one in use by trainer-0
    EXPECT_EQ(entry["nodes"], nlohmann::json::parse(R"([{"name":"node-1","count":1},)"
                                                    R"({"name":"node-2","count":2},{"name":"node-3","count":2}])"));
    EXPECT_TRUE(entry["reasons"].empty());
  }
  testing::CommandRun text = Run({"pod/waiting"}, "capacity");
  EXPECT_THAT(text.out, HasSubstr("Pod ml/waiting: 5 more copies"));
}

TEST_F(ExplainLiveTest, CapacityHonoursThePodsNodeSelector) {
  testing::CommandRun run = Run({"pod/pinned", "-o", "json"}, "capacity");
  EXPECT_EQ(run.code, 1) << run.err;
  const nlohmann::json entry = nlohmann::json::parse(run.out)["capacity"][0];
  EXPECT_EQ(entry["total"], 0);
  ASSERT_FALSE(entry["reasons"].empty());
  EXPECT_EQ(entry["reasons"][0]["code"], "alloc.node.excluded");
}

TEST_F(ExplainLiveTest, CapacityOfFilesAgainstTheLiveInventory) {
  const std::string claim = (dir_ / "claim.yaml").string();
  std::ofstream(claim) << "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: two, namespace: ml}\n"
                          "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}]}}\n";
  testing::CommandRun run = Run({claim, "-o", "json"}, "capacity");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["capacity"][0]["total"], 2);  // node-2, node-3
  EXPECT_EQ(Run({"pod/waiting", "--inventory", claim}, "capacity").code, 2);
}

// Standard error a terminal: a progress line counting what is listed, redrawn with '\r' and
// cleared at the end; never with JSON output (or when standard error is not a terminal: the
// other tests see no progress in their err).
TEST_F(ExplainLiveTest, ProgressLineOnlyOnATerminal) {
  testing::CommandRun run = RunOnTerminal({"--pending", "-A"});
  EXPECT_EQ(run.code, 1) << run.err;
  EXPECT_THAT(run.err, HasSubstr("\r\x1b[Klisting 2 resourceslices"));
  EXPECT_THAT(run.err, HasSubstr("3 resourceslices, 2 deviceclasses, 3 nodes, 1 resourceclaims"));
  EXPECT_THAT(run.err, HasSubstr("3 pods"));
  EXPECT_EQ(run.err.substr(run.err.size() - 4), "\r\x1b[K");  // cleared before the answer
  EXPECT_THAT(run.out, Not(HasSubstr("listing")));
  EXPECT_EQ(RunOnTerminal({"--pending", "-o", "json"}).err, "");
  EXPECT_THAT(Run({"--pending"}).err, Not(HasSubstr("listing")));
}

}  // namespace
}  // namespace draguard::cli
