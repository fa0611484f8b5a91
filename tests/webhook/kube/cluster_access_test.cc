// Cluster access for the CLI: kubeconfig files merged as kubectl merges them, exec credential
// plugins (a shell script in a temp dir), the one-shot ClusterReader against the fake API
// server (pages, 401 with plugin refresh, 403), and live pods (node filters, generated claims).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/webhook/kube/fake_api_server.h"
#include "tests/webhook/kube/scripted_api.h"
#include "tests/webhook/kube/testdata.h"
#include "webhook/kube/cluster_config.h"
#include "webhook/kube/cluster_snapshot.h"
#include "webhook/kube/exec_credential.h"
#include "webhook/kube/live_pods.h"

namespace draguard::webhook::kube {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::FakeApiServer;
using testing::Reply;
using testing::ScriptedApi;
using testing::Testdata;

class AccessTempDir {
 public:
  AccessTempDir() {
    path_ = fs::temp_directory_path() /
            ("draguard-access-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~AccessTempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string Write(const std::string& name, const std::string& content, bool executable = false) const {
    const fs::path file = path_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << content;
    if (executable) ::chmod(file.c_str(), 0755);
    return file.string();
  }
  std::string Read(const std::string& name) const {
    std::ifstream in(path_ / name);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text;
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

// A credential plugin: counts its runs in $DIR/count, records its arguments, environment and
// KUBERNETES_EXEC_INFO, and prints token "tok-N" expiring at $EXP (none when empty).
constexpr char kAccessPlugin[] = R"(#!/bin/sh
n=$(cat "$DIR/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$DIR/count"
echo "$KUBERNETES_EXEC_INFO" > "$DIR/info"
echo "$@" > "$DIR/args"
if [ -n "$FAIL" ]; then echo "$FAIL" >&2; exit 3; fi
exp=""; if [ -n "$EXP" ]; then exp=",\"expirationTimestamp\":\"$EXP\""; fi
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"tok-%s"%s}}' "${VERSION:-client.authentication.k8s.io/v1}" "$n" "$exp"
)";

ExecConfig AccessExec(const AccessTempDir& dir, const std::string& exp = "",
                      const std::string& fail = "") {
  ExecConfig exec;
  exec.api_version = "client.authentication.k8s.io/v1";
  exec.command = dir.Write("plugin.sh", kAccessPlugin, true);
  exec.args = {"get-token", "--cluster", "dev"};
  exec.env = {{"DIR", dir.path()}, {"EXP", exp}, {"FAIL", fail}};
  exec.interactive_mode = "Never";
  exec.install_hint = "install it with: brew install plugin";
  exec.where = "users[u].user.exec";
  return exec;
}

TEST(ExecPluginTest, RunsCommandWithArgsEnvAndExecInfo) {
  AccessTempDir dir;
  StatusOr<ExecCredential> credential = RunExecPlugin(AccessExec(dir), {});
  ASSERT_TRUE(credential.ok()) << credential.status().message();
  EXPECT_EQ(credential->token, "tok-1");
  EXPECT_FALSE(credential->expires.has_value());
  EXPECT_EQ(dir.Read("args"), "get-token --cluster dev\n");
  EXPECT_THAT(dir.Read("info"), HasSubstr(R"("apiVersion":"client.authentication.k8s.io/v1")"));
  EXPECT_THAT(dir.Read("info"), HasSubstr(R"("interactive":false)"));
  EXPECT_THAT(dir.Read("info"), HasSubstr(R"("kind":"ExecCredential")"));
}

struct ExecFailureCase {
  std::string name;
  std::function<void(ExecConfig&)> change;
  std::vector<std::string> parts;
};

class ExecFailureTest : public ::testing::TestWithParam<ExecFailureCase> {};

TEST_P(ExecFailureTest, ExplainsWhy) {
  AccessTempDir dir;
  ExecConfig exec = AccessExec(dir);
  GetParam().change(exec);
  StatusOr<ExecCredential> credential = RunExecPlugin(exec, {});
  ASSERT_FALSE(credential.ok());
  EXPECT_EQ(credential.status().code(), StatusCode::kFailedPrecondition);
  for (const std::string& part : GetParam().parts) {
    EXPECT_THAT(credential.status().message(), HasSubstr(part));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExecFailureTest,
    ::testing::Values(
        ExecFailureCase{"MissingCommandShowsInstallHint",
                        [](ExecConfig& e) { e.command = "draguard-no-such-plugin"; },
                        {"cannot run draguard-no-such-plugin", "brew install plugin"}},
        ExecFailureCase{"FailureQuotesStderr",
                        [](ExecConfig& e) { e.env[2].second = "token expired, run sso login"; },
                        {"exited with status 3", "token expired, run sso login",
                         "users[u].user.exec"}},
        ExecFailureCase{"ApiVersionMismatch",
                        [](ExecConfig& e) { e.api_version = "client.authentication.k8s.io/v1beta1"; },
                        {"asks for apiVersion client.authentication.k8s.io/v1beta1",
                         "returned \"client.authentication.k8s.io/v1\""}},
        ExecFailureCase{"AlwaysNeedsATerminal",
                        [](ExecConfig& e) { e.interactive_mode = "Always"; },
                        {"standard input is not a terminal"}}),
    [](const auto& info) { return info.param.name; });

TEST(ExecPluginTest, ParsesCredentialsStrictly) {
  ExecConfig exec;
  exec.api_version = "client.authentication.k8s.io/v1beta1";
  exec.command = "p";
  EXPECT_FALSE(ParseExecCredential("not json", exec).ok());
  EXPECT_THAT(ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{}})", exec)
                  .status().message(), HasSubstr("neither status.token nor"));
  EXPECT_THAT(ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"clientCertificateData":"x"}})", exec)
                  .status().message(), HasSubstr("only one of"));
  // A certificate and key without a token (client-go refreshCredsLocked accepts it).
  StatusOr<ExecCredential> cert = ParseExecCredential(R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"clientCertificateData":"C","clientKeyData":"K"}})", exec);
  ASSERT_TRUE(cert.ok()) << cert.status();
  EXPECT_EQ(cert->client_cert_pem, "C");
  EXPECT_EQ(cert->client_key_pem, "K");
  EXPECT_TRUE(cert->token.empty());
  StatusOr<ExecCredential> ok = ParseExecCredential(
      R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"2030-01-02T03:04:05Z"}})", exec);
  ASSERT_TRUE(ok.ok());
  ASSERT_TRUE(ok->expires.has_value());
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*ok->expires), 1893553445);
  EXPECT_EQ(ParseRfc3339("2030-01-02T05:04:05.123+02:00"), ok->expires);
  EXPECT_FALSE(ParseRfc3339("yesterday").has_value());
}

TEST(ExecPluginTest, TokenCachedUntilExpiryAndRefreshedOnInvalidate) {
  AccessTempDir dir;
  ClusterConfig config;
  config.exec = AccessExec(dir, "2999-01-01T00:00:00Z");
  BearerToken token(config);
  EXPECT_EQ(*token.Fetch(), "tok-1");
  EXPECT_EQ(*token.Fetch(), "tok-1");
  EXPECT_EQ(token.plugin_runs(), 1);
  token.Invalidate();  // a 401
  EXPECT_EQ(*token.Fetch(), "tok-2");

  AccessTempDir expired_dir;
  ClusterConfig expired;
  expired.exec = AccessExec(expired_dir, "2001-01-01T00:00:00Z");
  BearerToken stale(expired);
  EXPECT_EQ(*stale.Fetch(), "tok-1");
  EXPECT_EQ(*stale.Fetch(), "tok-2");
}

// Two kubeconfig files as $KUBECONFIG lists them, with a missing one between.
class KubeconfigMergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    first_ = dir_.Write("a/config",
                        "current-context: ctx-a\n"
                        "contexts:\n"
                        "- {name: ctx-a, context: {cluster: c, user: u, namespace: from-a}}\n"
                        "clusters:\n- {name: c, cluster: {server: 'https://a.example:6443'}}\n"
                        "users:\n- {name: u, user: {token: token-a}}\n");
    second_ = dir_.Write("b/config",
                         "current-context: ctx-b\n"
                         "contexts:\n"
                         "- {name: ctx-a, context: {cluster: ignored, user: ignored}}\n"
                         "- {name: ctx-b, context: {cluster: c2, user: u2}}\n"
                         "clusters:\n- {name: c, cluster: {server: 'https://ignored.example'}}\n"
                         "- {name: c2, cluster: {server: 'https://b.example', "
                         "certificate-authority: ca.pem}}\n"
                         "users:\n- name: u2\n  user:\n    exec:\n"
                         "      apiVersion: client.authentication.k8s.io/v1beta1\n"
                         "      command: ./bin/plugin\n      args: [token]\n");
    dir_.Write("b/ca.pem", "PEM");
  }
  KubeconfigSelection Selection() const {
    KubeconfigSelection s;
    s.env_kubeconfig = first_ + ":" + dir_.path() + "/missing:" + second_;
    return s;
  }
  AccessTempDir dir_;
  std::string first_, second_;
};

TEST_F(KubeconfigMergeTest, FirstFileWinsCurrentContextAndNames) {
  StatusOr<ClusterConfig> config = LoadKubeconfigSelection(Selection());
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->host, "a.example");
  EXPECT_EQ(config->token, "token-a");
  EXPECT_EQ(config->name_space, "from-a");
  EXPECT_THAT(config->origin, HasSubstr("(context ctx-a)"));
}

TEST_F(KubeconfigMergeTest, ContextFromSecondFileResolvesItsPaths) {
  KubeconfigSelection selection = Selection();
  selection.context = "ctx-b";
  StatusOr<ClusterConfig> config = LoadKubeconfigSelection(selection);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->host, "b.example");
  EXPECT_EQ(config->ca_pem, "PEM");
  EXPECT_EQ(config->name_space, "default");
  ASSERT_TRUE(config->exec.has_value());
  EXPECT_EQ(config->exec->command, dir_.path() + "/b/./bin/plugin");
  EXPECT_EQ(config->exec->interactive_mode, "IfAvailable");  // v1beta1's default
  selection.name_space = "override";
  EXPECT_EQ(LoadKubeconfigSelection(selection)->name_space, "override");
}

TEST_F(KubeconfigMergeTest, ExplicitPathHomeAndNothing) {
  KubeconfigSelection selection = Selection();
  selection.explicit_path = second_;
  EXPECT_EQ(LoadKubeconfigSelection(selection)->host, "b.example");
  selection.explicit_path = dir_.path() + "/nope";
  EXPECT_EQ(LoadKubeconfigSelection(selection).status().code(), StatusCode::kNotFound);

  KubeconfigSelection home;
  home.home = dir_.path();
  EXPECT_EQ(LoadKubeconfigSelection(home).status().code(), StatusCode::kNotFound);
  dir_.Write(".kube/config", "current-context: x\ncontexts: [{name: x, context: {cluster: c}}]\n"
                             "clusters: [{name: c, cluster: {server: 'http://h:8080'}}]\n");
  EXPECT_EQ(LoadKubeconfigSelection(home)->host, "h");
}

TEST(KubeconfigExecTest, V1NeedsInteractiveModeAndAuthProviderIsRefused) {
  const std::string base =
      "current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n"
      "clusters: [{name: c, cluster: {server: 'https://h'}}]\nusers:\n- name: u\n  user:\n";
  EXPECT_THAT(ParseKubeconfig(base + "    exec: {apiVersion: client.authentication.k8s.io/v1, "
                                     "command: p}\n", "").status().message(),
              HasSubstr("interactiveMode must be specified"));
  EXPECT_THAT(ParseKubeconfig(base + "    exec: {apiVersion: client.authentication.k8s.io/v1alpha1, "
                                     "command: p}\n", "").status().message(),
              HasSubstr("is not supported"));
  EXPECT_EQ(ParseKubeconfig(base + "    auth-provider: {name: gcp}\n", "").status().code(),
            StatusCode::kUnimplemented);
}

ClusterConfig AccessLocal(uint16_t port) {
  ClusterConfig config;
  config.scheme = "http";
  config.host = "127.0.0.1";
  config.port = port;
  config.origin = "test kubeconfig";
  return config;
}

void ScriptAccessCluster(ScriptedApi& api) {
  api.List("/apis/resource.k8s.io/v1/resourceslices", Reply::Json(Testdata("resourceslices-page1.json")));
  api.List("/apis/resource.k8s.io/v1/resourceslices", Reply::Json(Testdata("resourceslices-page2.json")));
  api.List("/apis/resource.k8s.io/v1/deviceclasses", Reply::Json(Testdata("deviceclasses.json")));
  api.List("/apis/resource.k8s.io/v1/resourceclaims", Reply::Json(Testdata("resourceclaims.json")));
}

TEST(ClusterReaderTest, ListsEveryKindInPages) {
  ScriptedApi api;
  ScriptAccessCluster(api);
  api.List("/api/v1/nodes", Reply::Json(Testdata("nodes.json")));
  FakeApiServer server(api.handler());
  ClusterReaderOptions options;
  options.page_size = 2;
  std::vector<std::string> progress;
  options.on_page = [&](const std::string& resource, size_t listed) {
    progress.push_back(resource + "=" + std::to_string(listed));
  };
  ClusterReader reader(AccessLocal(server.port()), options);
  StatusOr<ClusterSnapshot> snapshot = reader.LoadSnapshot();
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().message();
  EXPECT_THAT(progress, ::testing::ElementsAre("resourceslices.resource.k8s.io=2",
                                               "resourceslices.resource.k8s.io=3",
                                               "deviceclasses.resource.k8s.io=2", "nodes=3",
                                               "resourceclaims.resource.k8s.io=1"));
  EXPECT_EQ(snapshot->objects.slices.size(), 3u);
  EXPECT_EQ(snapshot->objects.classes.size(), 2u);
  EXPECT_EQ(snapshot->objects.nodes.size(), 3u);
  EXPECT_EQ(snapshot->objects.claims.size(), 1u);
  EXPECT_EQ(snapshot->node_scheduling.size(), 3u);
  const auto pages = server.TargetsStartingWith("/apis/resource.k8s.io/v1/resourceslices");
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0], "/apis/resource.k8s.io/v1/resourceslices?limit=2");
  EXPECT_THAT(pages[1], HasSubstr("&continue=eyJ2Ijoi"));
}

TEST(ClusterReaderTest, ForbiddenNamesVerbResourceAndScope) {
  ScriptedApi api;
  ScriptAccessCluster(api);
  api.Static("/api/v1/nodes", Reply::Json(Testdata("status-403-forbidden.json"), 403));
  api.Static("/api/v1/namespaces/team/pods",
             Reply::Json(R"({"kind":"Status","code":403,"reason":"Forbidden","message":"pods is forbidden"})", 403));
  FakeApiServer server(api.handler());
  ClusterReader reader(AccessLocal(server.port()));
  StatusOr<ClusterSnapshot> snapshot = reader.LoadSnapshot();
  ASSERT_EQ(snapshot.status().code(), StatusCode::kPermissionDenied);
  EXPECT_THAT(snapshot.status().message(), HasSubstr("forbidden: cannot list nodes cluster-wide"));
  StatusOr<std::vector<std::string>> pods = reader.ListObjects("", "v1", "pods", "Pod", "team");
  EXPECT_THAT(pods.status().message(),
              HasSubstr("cannot list pods in namespace team (API server: pods is forbidden)"));
}

TEST(ClusterReaderTest, UnauthorizedRerunsThePluginOnce) {
  AccessTempDir dir;
  // tok-1 is refused (expired at the server), tok-2 accepted.
  FakeApiServer server(FakeApiServer::AuthHandler(
      [](const std::string& target, const std::string& authorization) {
        if (authorization != "Bearer tok-2") {
          return Reply::Json(R"({"kind":"Status","code":401,"reason":"Unauthorized","message":"Unauthorized"})", 401);
        }
        if (target.rfind("/api/v1/namespaces/ml/pods/p", 0) == 0) return Reply::Json(R"({"kind":"Pod"})");
        return Reply::Json(R"({"kind":"Status","code":404})", 404);
      }));
  ClusterConfig config = AccessLocal(server.port());
  config.exec = AccessExec(dir);
  ClusterReader reader(config);
  StatusOr<std::string> pod = reader.GetObject("", "v1", "pods", "ml", "p");
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  EXPECT_EQ(reader.token().plugin_runs(), 2);
  StatusOr<std::string> missing = reader.GetObject("", "v1", "pods", "ml", "q");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(reader.token().plugin_runs(), 2);  // cached: no expiry given
}

TEST(ClusterReaderTest, UnauthorizedAfterRefreshNamesTheCredentials) {
  FakeApiServer server([](const std::string&) {
    return Reply::Json(R"({"kind":"Status","code":401,"message":"Unauthorized"})", 401);
  });
  ClusterReader reader(AccessLocal(server.port()));
  StatusOr<ClusterSnapshot> snapshot = reader.LoadSnapshot();
  EXPECT_EQ(snapshot.status().code(), StatusCode::kPermissionDenied);
  EXPECT_THAT(snapshot.status().message(), HasSubstr("unauthorized: the API server rejected the "
                                                     "credentials of test kubeconfig"));
}

k8s::Node AccessNode(const std::string& name, std::map<std::string, std::string> labels) {
  k8s::Node node;
  node.metadata.name = name;
  node.metadata.labels = std::move(labels);
  return node;
}

TEST(NodeExclusionTest, SchedulerFilters) {
  const k8s::Node gpu = AccessNode("gpu-1", {{"pool", "a"}, {"rank", "5"}});
  PodPlacement none;
  EXPECT_FALSE(NodeExclusion(none, gpu, nullptr).has_value());

  PodPlacement selector;
  selector.node_selector = {{"pool", "b"}};
  EXPECT_THAT(*NodeExclusion(selector, gpu, nullptr), HasSubstr("nodeSelector pool=b"));

  PodPlacement pinned;
  pinned.node_name = "cpu-1";
  EXPECT_THAT(*NodeExclusion(pinned, gpu, nullptr), HasSubstr("spec.nodeName is cpu-1"));

  PodPlacement affinity;
  affinity.required_terms = {{{"pool", "NotIn", {"a"}, false}}, {{"rank", "Gt", {"7"}, false}}};
  EXPECT_THAT(*NodeExclusion(affinity, gpu, nullptr), HasSubstr("node affinity"));
  affinity.required_terms->push_back({{"rank", "Gt", {"4"}, false}});
  EXPECT_FALSE(NodeExclusion(affinity, gpu, nullptr).has_value());

  NodeScheduling tainted;
  tainted.taints = {{"nvidia.com/gpu", "", "NoSchedule"}, {"soft", "", "PreferNoSchedule"}};
  EXPECT_THAT(*NodeExclusion(none, gpu, &tainted), HasSubstr("taint nvidia.com/gpu:NoSchedule"));
  PodPlacement tolerates;
  tolerates.tolerations = {{"nvidia.com/gpu", "Exists", "", ""}};
  EXPECT_FALSE(NodeExclusion(tolerates, gpu, &tainted).has_value());

  NodeScheduling cordoned;
  cordoned.unschedulable = true;
  EXPECT_THAT(*NodeExclusion(none, gpu, &cordoned), HasSubstr("cordoned"));
}

TEST(LivePodTest, GeneratedClaimsAllocatedAndTemplatesFetched) {
  ClusterSnapshot snapshot;
  k8s::ResourceClaim allocated;
  allocated.metadata.name = "trainer-0-gpu-8x2lq";
  allocated.metadata.name_space = "ml";
  allocated.status.emplace();
  allocated.status->allocation.emplace();
  allocated.status->allocation->devices.results.push_back({});
  snapshot.objects.claims.push_back(allocated);
  const std::string pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"trainer-0","namespace":"ml","managedFields":[{}]},
    "spec":{"resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"gpu-t"},{"name":"nic","resourceClaimTemplateName":"nic-t"}],
            "nodeSelector":{"pool":"a"}},
    "status":{"phase":"Pending","resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"trainer-0-gpu-8x2lq"}]}})";
  std::vector<std::string> fetched;
  StatusOr<LivePod> live = PrepareLivePod(pod, snapshot, [&](const std::string& ns, const std::string& name) -> StatusOr<std::string> {
    fetched.push_back(ns + "/" + name);
    return std::string(R"({"kind":"ResourceClaimTemplate"})");
  });
  ASSERT_TRUE(live.ok()) << live.status().message();
  EXPECT_EQ(fetched, std::vector<std::string>{"ml/nic-t"});
  ASSERT_EQ(live->allocated.size(), 1u);
  EXPECT_EQ(live->allocated[0].pod_claim, "gpu");
  EXPECT_EQ(live->allocated[0].claim_name, "trainer-0-gpu-8x2lq");
  EXPECT_EQ(live->unallocated, 1u);
  EXPECT_EQ(live->placement.node_selector.at("pool"), "a");
  EXPECT_THAT(live->text, HasSubstr(R"("resourceClaimName":"trainer-0-gpu-8x2lq")"));
  EXPECT_THAT(live->text, ::testing::Not(HasSubstr("managedFields")));
  EXPECT_THAT(live->text, HasSubstr("\n---\n{\"kind\":\"ResourceClaimTemplate\"}"));

  StatusOr<LivePod> no_claims = PrepareLivePod(R"({"metadata":{"name":"x"},"spec":{}})", snapshot,
                                               [](const std::string&, const std::string&) -> StatusOr<std::string> { return std::string(); });
  EXPECT_EQ(no_claims.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draguard::webhook::kube
