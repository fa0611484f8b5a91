#include "webhook/kube/cluster_config.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace draguard::webhook::kube {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A fresh directory under the test temp dir, removed at the end.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("draguard-kube-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string Write(const std::string& name, const std::string& content) const {
    const fs::path file = path_ / name;
    std::ofstream(file) << content;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

constexpr char kCaPem[] = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
// base64 of kCaPem.
constexpr char kCaPemBase64[] =
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJmYWtlCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0K";

std::string Kubeconfig(const std::string& cluster, const std::string& user,
                       const std::string& current = "dev") {
  return "apiVersion: v1\nkind: Config\ncurrent-context: " + current +
         "\ncontexts:\n"
         "- name: dev\n  context: {cluster: c1, user: u1, namespace: team-a}\n"
         "- name: other\n  context: {cluster: c2, user: u1}\n"
         "clusters:\n"
         "- name: c1\n  cluster:\n" + cluster +
         "- name: c2\n  cluster:\n    server: https://other.example.com:6443\n"
         "users:\n- name: u1\n  user:\n" + user;
}

struct KubeconfigCase {
  std::string name;
  std::string cluster;
  std::string user;
  std::string context;  // "" = current-context
  StatusCode code = StatusCode::kOk;
  std::string error_part;  // a part of the message when code != kOk
  // Expectations when ok:
  std::string host = "10.0.0.1";
  uint16_t port = 6443;
  std::string scheme = "https";
  std::string token;
  bool token_file = false;
  bool insecure = false;
  bool ca = false;
  bool client_cert = false;
  std::string prefix;
};

class KubeconfigTest : public ::testing::TestWithParam<KubeconfigCase> {};

TEST_P(KubeconfigTest, Parses) {
  const KubeconfigCase& c = GetParam();
  TempDir dir;
  dir.Write("ca.crt", kCaPem);
  dir.Write("token", "file-token\n");
  StatusOr<ClusterConfig> config =
      ParseKubeconfig(Kubeconfig(c.cluster, c.user), dir.path(), c.context);
  if (c.code != StatusCode::kOk) {
    ASSERT_FALSE(config.ok());
    EXPECT_EQ(config.status().code(), c.code) << config.status();
    EXPECT_THAT(config.status().message(), HasSubstr(c.error_part));
    return;
  }
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->scheme, c.scheme);
  EXPECT_EQ(config->host, c.host);
  EXPECT_EQ(config->port, c.port);
  EXPECT_EQ(config->path_prefix, c.prefix);
  EXPECT_EQ(config->token, c.token);
  EXPECT_EQ(!config->token_file.empty(), c.token_file);
  if (c.token_file) {
    EXPECT_EQ(config->token_file, dir.path() + "/token");
  }
  EXPECT_EQ(config->insecure_skip_tls_verify, c.insecure);
  EXPECT_EQ(config->ca_pem == kCaPem, c.ca);
  EXPECT_EQ(!config->client_cert_pem.empty(), c.client_cert);
}

const std::string kServer = "    server: https://10.0.0.1:6443\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, KubeconfigTest,
    ::testing::Values(
        KubeconfigCase{.name = "TokenAndCaData",
                       .cluster = kServer + "    certificate-authority-data: " + kCaPemBase64 + "\n",
                       .user = "    token: abc.def\n",
                       .token = "abc.def",
                       .ca = true},
        KubeconfigCase{.name = "RelativeCaFileAndTokenFile",
                       .cluster = kServer + "    certificate-authority: ca.crt\n",
                       .user = "    tokenFile: token\n",
                       .token_file = true,
                       .ca = true},
        KubeconfigCase{.name = "Insecure",
                       .cluster = kServer + "    insecure-skip-tls-verify: true\n",
                       .user = "    token: t\n",
                       .token = "t",
                       .insecure = true},
        KubeconfigCase{.name = "ClientCertificateData",
                       .cluster = kServer,
                       .user = std::string("    client-certificate-data: ") + kCaPemBase64 +
                               "\n    client-key-data: " + kCaPemBase64 + "\n",
                       .client_cert = true},
        KubeconfigCase{.name = "HttpProxyWithPrefixDefaultPort",
                       .cluster = "    server: http://localhost/k8s/clusters/c-1/\n",
                       .user = "    token: t\n",
                       .host = "localhost",
                       .port = 80,
                       .scheme = "http",
                       .token = "t",
                       .prefix = "/k8s/clusters/c-1"},
        KubeconfigCase{.name = "Ipv6DefaultHttpsPort",
                       .cluster = "    server: https://[fd00::1]\n",
                       .user = "    token: t\n",
                       .host = "fd00::1",
                       .port = 443,
                       .token = "t"},
        KubeconfigCase{.name = "ExplicitContext",
                       .cluster = kServer,
                       .user = "    token: t\n",
                       .context = "other",
                       .host = "other.example.com",
                       .token = "t"},
        KubeconfigCase{.name = "ExecPluginWithoutApiVersion",
                       .cluster = kServer,
                       .user = "    exec:\n      command: aws\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "users[u1].user.exec.apiVersion"},
        KubeconfigCase{.name = "ExecPlugin",
                       .cluster = kServer,
                       .user = "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                               "      command: aws\n      interactiveMode: Never\n"},
        KubeconfigCase{.name = "AuthProviderRefused",
                       .cluster = kServer,
                       .user = "    auth-provider:\n      name: gcp\n",
                       .code = StatusCode::kUnimplemented,
                       .error_part = "auth-provider"},
        KubeconfigCase{.name = "UnknownContext",
                       .cluster = kServer,
                       .user = "    token: t\n",
                       .context = "prod",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "contexts has no entry named \"prod\""},
        KubeconfigCase{.name = "MissingServer",
                       .cluster = "    insecure-skip-tls-verify: true\n",
                       .user = "    token: t\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "clusters[c1].cluster.server is missing"},
        KubeconfigCase{.name = "BadScheme",
                       .cluster = "    server: ftp://10.0.0.1\n",
                       .user = "    token: t\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "scheme"},
        KubeconfigCase{.name = "BadPort",
                       .cluster = "    server: https://10.0.0.1:99999\n",
                       .user = "    token: t\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "port"},
        KubeconfigCase{.name = "MissingCaFile",
                       .cluster = kServer + "    certificate-authority: nope.crt\n",
                       .user = "    token: t\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "certificate-authority"},
        KubeconfigCase{.name = "BadBase64",
                       .cluster = kServer + "    certificate-authority-data: \"***\"\n",
                       .user = "    token: t\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "base64"},
        KubeconfigCase{.name = "CertWithoutKey",
                       .cluster = kServer,
                       .user = std::string("    client-certificate-data: ") + kCaPemBase64 + "\n",
                       .code = StatusCode::kInvalidArgument,
                       .error_part = "go together"},
        KubeconfigCase{.name = "ProxyUrlRefused",
                       .cluster = kServer + "    proxy-url: http://proxy:3128\n",
                       .user = "    token: t\n",
                       .code = StatusCode::kUnimplemented,
                       .error_part = "proxy-url"}),
    [](const auto& p) { return p.param.name; });

TEST(KubeconfigFileTest, SyntaxErrorNamesFileAndLine) {
  TempDir dir;
  const std::string path = dir.Write("config", "clusters: [\n  - {name: a\n");
  StatusOr<ClusterConfig> config = LoadKubeconfig(path);
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(config.status().message(), HasSubstr(path));
  EXPECT_THAT(config.status().message(), HasSubstr("line"));
}

TEST(KubeconfigFileTest, MissingFileAndNoCurrentContext) {
  EXPECT_EQ(LoadKubeconfig("/nonexistent/kubeconfig").status().code(), StatusCode::kNotFound);
  TempDir dir;
  StatusOr<ClusterConfig> config = LoadKubeconfig(dir.Write("config", "apiVersion: v1\n"));
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.status().message(), HasSubstr("current-context"));
}

TEST(KubeconfigFileTest, OriginNamesPathAndContext) {
  TempDir dir;
  const std::string path = dir.Write("config", Kubeconfig(kServer, "    token: t\n"));
  StatusOr<ClusterConfig> config = LoadKubeconfig(path);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->origin, "kubeconfig " + path + " (context dev)");
  EXPECT_EQ(config->name_space, "team-a");
}

TEST(InClusterTest, ReadsServiceAccountDirectory) {
  TempDir dir;
  dir.Write("token", "sa-token\n");
  dir.Write("ca.crt", kCaPem);
  dir.Write("namespace", "draguard\n");
  InClusterOptions options{.service_host = "10.96.0.1", .service_port = "443",
                           .service_account_dir = dir.path()};
  EXPECT_TRUE(InClusterAvailable(options));
  StatusOr<ClusterConfig> config = LoadInClusterConfig(options);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->host, "10.96.0.1");
  EXPECT_EQ(config->port, 443);
  EXPECT_EQ(config->ca_pem, kCaPem);
  EXPECT_EQ(config->name_space, "draguard");
  EXPECT_EQ(config->token_file, dir.path() + "/token");
  EXPECT_TRUE(config->token.empty());
  options.pod_namespace = "from-downward-api";  // POD_NAMESPACE wins (client-go)
  EXPECT_EQ(LoadInClusterConfig(options)->name_space, "from-downward-api");
}

// client-go's rest.InClusterConfig: no ca.crt is logged, the system store verifies; no
// namespace file and no POD_NAMESPACE is "default".
TEST(InClusterTest, MissingCaAndNamespaceFallBack) {
  TempDir dir;
  dir.Write("token", "sa-token\n");
  InClusterOptions options{.service_host = "fd00::1", .service_port = "6443",
                           .service_account_dir = dir.path()};
  StatusOr<ClusterConfig> config = LoadInClusterConfig(options);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->ca_pem.empty());
  EXPECT_THAT(config->origin, HasSubstr("the system's CAs"));
  EXPECT_EQ(config->name_space, "default");
  EXPECT_EQ(config->host, "fd00::1");
  EXPECT_EQ(config->port, 6443);
  std::filesystem::remove(dir.path() + "/token");
  std::filesystem::create_directory(dir.path() + "/token");
  EXPECT_FALSE(InClusterAvailable(options));  // a directory is not a token (Possible())
}

// kubectl's order (clientcmd DeferredLoadingClientConfig): kubeconfig files first, the pod's
// service account only when there is none and no --kubeconfig or --context names one; -n
// wins over the pod's namespace.
TEST(InClusterTest, ClientConfigFallsBackToThePodWithoutKubeconfig) {
  TempDir dir;
  dir.Write("token", "t");
  dir.Write("namespace", "ml");
  const InClusterOptions pod{.service_host = "10.96.0.1", .service_port = "443",
                             .service_account_dir = dir.path()};
  KubeconfigSelection none;
  none.home = dir.path();  // no .kube/config there
  StatusOr<ClusterConfig> in_pod = LoadClientConfig(none, pod);
  ASSERT_TRUE(in_pod.ok()) << in_pod.status();
  EXPECT_THAT(in_pod->origin, HasSubstr("in-cluster"));
  EXPECT_EQ(in_pod->name_space, "ml");
  none.name_space = "other";
  EXPECT_EQ(LoadClientConfig(none, pod)->name_space, "other");
  KubeconfigSelection named = none;
  named.context = "prod";
  EXPECT_EQ(LoadClientConfig(named, pod).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(LoadClientConfig(none, InClusterOptions{.service_account_dir = dir.path()})
                .status()
                .code(),
            StatusCode::kNotFound);
  KubeconfigSelection with_file = none;
  with_file.env_kubeconfig = dir.Write("config", Kubeconfig(kServer, "    token: t\n"));
  StatusOr<ClusterConfig> from_file = LoadClientConfig(with_file, pod);
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  EXPECT_EQ(from_file->host, "10.0.0.1");
}

TEST(InClusterTest, OutsideAPodIsFailedPrecondition) {
  TempDir dir;
  InClusterOptions options{.service_account_dir = dir.path()};
  EXPECT_FALSE(InClusterAvailable(options));
  EXPECT_EQ(LoadInClusterConfig(options).status().code(), StatusCode::kFailedPrecondition);
  options.service_host = "10.96.0.1";
  options.service_port = "443";
  // Variables set but no token mounted (automountServiceAccountToken: false).
  StatusOr<ClusterConfig> config = LoadInClusterConfig(options);
  EXPECT_EQ(config.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(config.status().message(), HasSubstr("automountServiceAccountToken"));
  dir.Write("token", "t");
  options.service_port = "https";
  EXPECT_EQ(LoadInClusterConfig(options).status().code(), StatusCode::kInvalidArgument);
}

TEST(BearerTokenTest, RereadsRotatedTokenFile) {
  TempDir dir;
  ClusterConfig config;
  config.token_file = dir.Write("token", "first\n");
  BearerToken token(config, std::chrono::hours(1));
  EXPECT_EQ(token.Get(), "first");
  dir.Write("token", "second\n");
  EXPECT_EQ(token.Get(), "first");  // within the refresh period
  token.Invalidate();               // as after a 401
  EXPECT_EQ(token.Get(), "second");
  BearerToken eager(config, std::chrono::milliseconds(0));
  EXPECT_EQ(eager.Get(), "second");
  dir.Write("token", "third");
  EXPECT_EQ(eager.Get(), "third");
  std::filesystem::remove(config.token_file);
  EXPECT_EQ(eager.Get(), "third");  // a missing file keeps the last good token
}

TEST(ResolveClusterConfigTest, KubeconfigThenPodThenNothing) {
  TempDir dir;
  dir.Write("token", "t");
  dir.Write("ca.crt", kCaPem);
  const InClusterOptions pod{.service_host = "10.96.0.1", .service_port = "443",
                             .service_account_dir = dir.path()};
  const InClusterOptions outside{.service_account_dir = dir.path()};
  const std::string kubeconfig = dir.Write("config", Kubeconfig(kServer, "    token: t\n"));

  auto from_file = ResolveClusterConfig(kubeconfig, InClusterMode::kAuto, pod);
  ASSERT_TRUE(from_file.ok() && from_file->has_value()) << from_file.status();
  EXPECT_EQ((*from_file)->host, "10.0.0.1");
  auto in_pod = ResolveClusterConfig("", InClusterMode::kAuto, pod);
  ASSERT_TRUE(in_pod.ok() && in_pod->has_value()) << in_pod.status();
  EXPECT_EQ((*in_pod)->origin, "in-cluster");
  auto never = ResolveClusterConfig("", InClusterMode::kNever, pod);
  ASSERT_TRUE(never.ok());
  EXPECT_FALSE(never->has_value());
  auto auto_outside = ResolveClusterConfig("", InClusterMode::kAuto, outside);
  ASSERT_TRUE(auto_outside.ok());
  EXPECT_FALSE(auto_outside->has_value());
  EXPECT_EQ(ResolveClusterConfig("", InClusterMode::kAlways, outside).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(ResolveClusterConfig(dir.path() + "/missing", InClusterMode::kAuto, pod)
                .status()
                .code(),
            StatusCode::kNotFound);
}

TEST(ResolveClusterConfigTest, ParsesMode) {
  EXPECT_EQ(*ParseInClusterMode("auto"), InClusterMode::kAuto);
  EXPECT_EQ(*ParseInClusterMode("true"), InClusterMode::kAlways);
  EXPECT_EQ(*ParseInClusterMode("false"), InClusterMode::kNever);
  EXPECT_FALSE(ParseInClusterMode("yes").ok());
}

TEST(BearerTokenTest, InlineToken) {
  ClusterConfig config;
  config.token = "inline";
  BearerToken token(config);
  EXPECT_EQ(token.Get(), "inline");
}

}  // namespace
}  // namespace draguard::webhook::kube
