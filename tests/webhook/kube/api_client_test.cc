// ApiConnection over plain HTTP and TLS (certificates minted at test time), LineSplitter, and
// the namespace lookup.
#include "webhook/kube/api_client.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/webhook/kube/fake_api_server.h"
#include "tests/webhook/kube/scripted_api.h"
#include "tests/webhook/kube/testdata.h"
#include "webhook/kube/cluster_config.h"
#include "webhook/kube/namespace_lookup.h"

namespace draguard::webhook::kube {
namespace {

using testing::Eventually;
using testing::FakeApiServer;
using testing::Reply;
using testing::Testdata;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

ClusterConfig PlainConfig(uint16_t port) {
  ClusterConfig config;
  config.scheme = "http";
  config.host = "127.0.0.1";
  config.port = port;
  return config;
}

struct SplitCase {
  std::string name;
  std::vector<std::string> chunks;
  std::vector<std::string> lines;
  size_t limit = 64;
  bool exhausted = false;
};

class LineSplitterTest : public ::testing::TestWithParam<SplitCase> {};

TEST_P(LineSplitterTest, Splits) {
  const SplitCase& c = GetParam();
  LineSplitter splitter(c.limit);
  std::vector<std::string> lines;
  Status status;
  for (const std::string& chunk : c.chunks) {
    status = splitter.Feed(chunk, [&](std::string_view line) {
      lines.emplace_back(line);
      return OkStatus();
    });
    if (!status.ok()) break;
  }
  EXPECT_EQ(status.code() == StatusCode::kResourceExhausted, c.exhausted) << status;
  EXPECT_EQ(lines, c.lines);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LineSplitterTest,
    ::testing::Values(
        SplitCase{.name = "OneChunkManyLines", .chunks = {"a\nbb\nccc\n"}, .lines = {"a", "bb", "ccc"}},
        SplitCase{.name = "LineAcrossChunks", .chunks = {"{\"ty", "pe\":1}", "\n"},
                  .lines = {"{\"type\":1}"}},
        SplitCase{.name = "CrLfAndBlankLines", .chunks = {"a\r\n\r\n\nb\n"}, .lines = {"a", "b"}},
        SplitCase{.name = "UnfinishedTailKept", .chunks = {"a\nb"}, .lines = {"a"}},
        SplitCase{.name = "TooLong", .chunks = {"12345", "6789\n"}, .lines = {}, .limit = 8,
                  .exhausted = true}),
    [](const auto& p) { return p.param.name; });

TEST(LineSplitterTest, HandlerErrorStops) {
  LineSplitter splitter(64);
  int calls = 0;
  Status status = splitter.Feed("a\nb\n", [&](std::string_view) {
    ++calls;
    return CancelledError("stop");
  });
  EXPECT_EQ(status.code(), StatusCode::kCancelled);
  EXPECT_EQ(calls, 1);
}

TEST(ApiConnectionTest, GetsOverKeepAliveAndReportsHttpStatus) {
  FakeApiServer server([](const std::string& target) {
    if (target == "/prefix/api/v1/nodes") return Reply::Json(Testdata("nodes.json"));
    return Reply::Json(Testdata("status-404-namespace.json"), 404);
  });
  ClusterConfig config = PlainConfig(server.port());
  config.path_prefix = "/prefix";
  ApiConnection connection(config, std::make_shared<BearerToken>(config));
  for (int i = 0; i < 2; ++i) {
    StatusOr<HttpResult> nodes = connection.Get("/api/v1/nodes");
    ASSERT_TRUE(nodes.ok()) << nodes.status();
    EXPECT_EQ(nodes->status, 200u);
    EXPECT_THAT(nodes->body, HasSubstr("NodeList"));
  }
  StatusOr<HttpResult> missing = connection.Get("/api/v1/namespaces/nope");
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_EQ(missing->status, 404u);
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(server.requests()[0].authorization, "");  // no credentials configured
}

TEST(ApiConnectionTest, BodyLimit) {
  FakeApiServer server([](const std::string&) { return Reply::Json(std::string(4096, ' ')); });
  ClusterConfig config = PlainConfig(server.port());
  ApiClientOptions options;
  options.max_body_bytes = 1024;
  ApiConnection connection(config, nullptr, options);
  EXPECT_EQ(connection.Get("/api").status().code(), StatusCode::kResourceExhausted);
}

TEST(ApiConnectionTest, StreamDeliversLinesAndLimitsThem) {
  FakeApiServer server([](const std::string& target) {
    if (target == "/big") {
      return Reply::Stream({"short", std::string(2000, 'x')}, Reply::End::kFinish);
    }
    return Reply::Stream({"one", "two"}, Reply::End::kFinish);
  });
  ClusterConfig config = PlainConfig(server.port());
  ApiClientOptions options;
  options.max_line_bytes = 1000;
  ApiConnection connection(config, nullptr, options);
  std::vector<std::string> lines;
  auto collect = [&](std::string_view line) {
    lines.emplace_back(line);
    return OkStatus();
  };
  StatusOr<HttpResult> ok = connection.Stream("/w", std::chrono::seconds(10), collect);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->status, 200u);
  EXPECT_THAT(lines, ElementsAre("one", "two"));
  lines.clear();
  StatusOr<HttpResult> big = connection.Stream("/big", std::chrono::seconds(10), collect);
  EXPECT_EQ(big.status().code(), StatusCode::kResourceExhausted);
  EXPECT_THAT(lines, ElementsAre("short"));
}

TEST(ApiConnectionTest, DroppedStreamIsUnavailable) {
  FakeApiServer server(
      [](const std::string&) { return Reply::Stream({"a"}, Reply::End::kDrop); });
  ApiConnection connection(PlainConfig(server.port()), nullptr);
  StatusOr<HttpResult> result = connection.Stream(
      "/w", std::chrono::seconds(10), [](std::string_view) { return OkStatus(); });
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
}

TEST(ApiConnectionTest, CancelAbortsAHeldStream) {
  FakeApiServer server([](const std::string&) { return Reply::Stream({}, Reply::End::kHold); });
  ApiConnection connection(PlainConfig(server.port()), nullptr);
  std::atomic<bool> started{false};
  std::thread canceller([&] {
    Eventually([&] { return started.load() && server.requests().size() == 1; });
    connection.Cancel();
  });
  started = true;
  StatusOr<HttpResult> result = connection.Stream(
      "/w", std::chrono::minutes(10), [](std::string_view) { return OkStatus(); });
  canceller.join();
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(connection.Get("/again").status().code(), StatusCode::kCancelled);
}

TEST(ApiConnectionTest, IdleStreamTimesOut) {
  FakeApiServer server([](const std::string&) { return Reply::Stream({}, Reply::End::kHold); });
  ApiConnection connection(PlainConfig(server.port()), nullptr);
  StatusOr<HttpResult> result = connection.Stream(
      "/w", std::chrono::milliseconds(50), [](std::string_view) { return OkStatus(); });
  EXPECT_EQ(result.status().code(), StatusCode::kDeadlineExceeded);
}

// TLS against certificates minted at test time (certs/mint-certs.sh: SANs
// draguard.draguard.svc and 127.0.0.1).
class TlsTest : public ::testing::Test {
 protected:
  // Minted once for the suite (openssl is most of these tests' time).
  static void SetUpTestSuite() {
    if (std::system("command -v openssl >/dev/null 2>&1") != 0) return;
    dir_ = std::filesystem::temp_directory_path() /
           ("draguard-kube-tls-" + std::to_string(::getpid()));
    other_ = dir_ / "other";
    for (const auto& d : {dir_, other_}) {
      // dir_ also gets a client CA and certificate (client-ca.crt, client.crt, client.key).
      const std::string command = std::string(DRAGUARD_SOURCE_DIR) + "/certs/mint-certs.sh --out " +
                                  d.string() + " --san 127.0.0.1 --days 1" +
                                  (d == dir_ ? " --client draguard-test" : "") + " >/dev/null 2>&1";
      if (std::system(command.c_str()) != 0) {
        mint_error_ = command;
        return;
      }
    }
    minted_ = true;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  void SetUp() override {
    if (std::system("command -v openssl >/dev/null 2>&1") != 0) {
      GTEST_SKIP() << "openssl CLI not installed; cannot mint certificates";
    }
    ASSERT_TRUE(minted_) << mint_error_;
  }

  ClusterConfig Config(uint16_t port, const std::filesystem::path& ca_dir) {
    ClusterConfig config;
    config.host = "127.0.0.1";
    config.port = port;
    config.ca_pem = *ReadSmallFile((ca_dir / "ca.crt").string());
    config.token = "sa-token";
    return config;
  }

  static inline std::filesystem::path dir_, other_;
  static inline bool minted_ = false;
  static inline std::string mint_error_;
};

TEST_F(TlsTest, VerifiesServerAndSendsToken) {
  FakeApiServer server([](const std::string&) { return Reply::Json(Testdata("nodes.json")); },
                       (dir_ / "tls.crt").string(), (dir_ / "tls.key").string());
  ClusterConfig config = Config(server.port(), dir_);
  ApiConnection by_ip(config, std::make_shared<BearerToken>(config));
  StatusOr<HttpResult> result = by_ip.Get("/api/v1/nodes");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->status, 200u);
  EXPECT_EQ(server.requests().back().authorization, "Bearer sa-token");

  config.tls_server_name = "draguard.draguard.svc";
  ApiConnection by_name(config, nullptr);
  EXPECT_TRUE(by_name.Get("/api/v1/nodes").ok());
}

TEST_F(TlsTest, RejectsUnknownCaAndWrongName) {
  FakeApiServer server([](const std::string&) { return Reply::Json("{}"); },
                       (dir_ / "tls.crt").string(), (dir_ / "tls.key").string());
  ClusterConfig wrong_ca = Config(server.port(), other_);
  ApiConnection untrusted(wrong_ca, nullptr);
  StatusOr<HttpResult> result = untrusted.Get("/api");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(result.status().message(), HasSubstr("TLS handshake"));

  ClusterConfig wrong_name = Config(server.port(), dir_);
  wrong_name.tls_server_name = "kubernetes.default.svc";
  ApiConnection mismatched(wrong_name, nullptr);
  EXPECT_FALSE(mismatched.Get("/api").ok());

  wrong_ca.insecure_skip_tls_verify = true;  // explicitly asked for: no verification
  ApiConnection insecure(wrong_ca, nullptr);
  EXPECT_TRUE(insecure.Get("/api").ok());
  EXPECT_EQ(server.requests().size(), 1u);
}

// JSON string text of a PEM file (newlines escaped).
std::string TlsJsonString(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) out += ch == '\n' ? std::string("\\n") : std::string(1, ch);
  return out + "\"";
}

// An exec plugin that returns a client certificate and no token (status.clientCertificateData
// and clientKeyData): the TLS connection presents it to a server that requires one.
TEST_F(TlsTest, ExecPluginClientCertificateIsPresented) {
  FakeApiServer server([](const std::string&) { return Reply::Json(Testdata("nodes.json")); },
                       (dir_ / "tls.crt").string(), (dir_ / "tls.key").string());
  server.RequireClientCertificate((dir_ / "client-ca.crt").string());
  ClusterConfig config = Config(server.port(), dir_);
  config.token.clear();
  ApiConnection anonymous(config, std::make_shared<BearerToken>(config));
  EXPECT_FALSE(anonymous.Get("/api/v1/nodes").ok());  // the server insists on a certificate

  const std::string credential =
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":)" +
      TlsJsonString(*ReadSmallFile((dir_ / "client.crt").string())) + R"(,"clientKeyData":)" +
      TlsJsonString(*ReadSmallFile((dir_ / "client.key").string())) + "}}";
  std::ofstream(dir_ / "credential.json") << credential;
  const std::string plugin = (dir_ / "plugin.sh").string();
  std::ofstream(plugin) << "#!/bin/sh\ncat '" << (dir_ / "credential.json").string() << "'\n";
  std::filesystem::permissions(plugin, std::filesystem::perms::owner_all);
  config.exec = ExecConfig{.api_version = "client.authentication.k8s.io/v1",
                           .command = plugin,
                           .interactive_mode = "Never",
                           .where = "users[u].user.exec"};
  auto credentials = std::make_shared<BearerToken>(config);
  ApiConnection with_plugin(config, credentials);
  for (int i = 0; i < 2; ++i) {
    StatusOr<HttpResult> result = with_plugin.Get("/api/v1/nodes");
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->status, 200u);
  }
  EXPECT_EQ(credentials->plugin_runs(), 1);  // no expirationTimestamp: cached
  EXPECT_EQ(server.requests().back().authorization, "");
}

// In a pod: the service account's token, CA and namespace (a temporary directory stands in
// for /var/run/secrets/kubernetes.io/serviceaccount), and the token file read again when the
// API server refuses the old token after a rotation.
TEST_F(TlsTest, InClusterServiceAccountWithRotatedToken) {
  std::mutex mu;
  std::string valid = "Bearer pod-token-1";
  FakeApiServer server(
      FakeApiServer::AuthHandler([&](const std::string&, const std::string& authorization) {
        std::lock_guard<std::mutex> lock(mu);
        if (authorization != valid) return Reply::Json(R"({"kind":"Status","code":401})", 401);
        return Reply::Json(Testdata("namespace-ml.json"));
      }),
      (dir_ / "tls.crt").string(), (dir_ / "tls.key").string());
  const std::filesystem::path account = dir_ / "serviceaccount";
  std::filesystem::create_directories(account);
  std::ofstream(account / "token") << "pod-token-1\n";
  std::filesystem::copy_file(dir_ / "ca.crt", account / "ca.crt");
  std::ofstream(account / "namespace") << "ml\n";
  const InClusterOptions pod{.service_host = "127.0.0.1",
                             .service_port = std::to_string(server.port()),
                             .service_account_dir = account.string()};
  KubeconfigSelection no_kubeconfig;
  no_kubeconfig.home = account.string();
  StatusOr<ClusterConfig> config = LoadClientConfig(no_kubeconfig, pod);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->name_space, "ml");
  auto token = std::make_shared<BearerToken>(*config);
  ApiConnection connection(*config, token);
  StatusOr<HttpResult> first = connection.Get("/api/v1/namespaces/ml");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->status, 200u);
  std::ofstream(account / "token") << "pod-token-2\n";  // the kubelet rotates the token
  {
    std::lock_guard<std::mutex> lock(mu);
    valid = "Bearer pod-token-2";
  }
  StatusOr<HttpResult> second = connection.Get("/api/v1/namespaces/ml");
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->status, 200u);  // 401, file read again, retried
  EXPECT_EQ(server.requests().back().authorization, "Bearer pod-token-2");
}

TEST(TlsConfigTest, GarbageCaIsInvalidArgument) {
  ClusterConfig config;
  config.host = "127.0.0.1";
  config.port = 1;
  config.ca_pem = "not a certificate";
  ApiConnection connection(config, nullptr);
  EXPECT_EQ(connection.Get("/api").status().code(), StatusCode::kInvalidArgument);
}

TEST(NamespaceLookupTest, CachesLabelsAndNotFound) {
  FakeApiServer server([](const std::string& target) {
    if (target == "/api/v1/namespaces/ml") return Reply::Json(Testdata("namespace-ml.json"));
    return Reply::Json(Testdata("status-404-namespace.json"), 404);
  });
  KubeNamespaceLookup lookup(PlainConfig(server.port()));
  for (int i = 0; i < 3; ++i) {
    StatusOr<LabelMap> labels = lookup.Labels("ml");
    ASSERT_TRUE(labels.ok()) << labels.status();
    EXPECT_EQ(labels->at("resource.kubernetes.io/admin-access"), "true");
  }
  EXPECT_EQ(lookup.Labels("nope").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(lookup.Labels("nope").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(lookup.api_calls(), 2u);
  EXPECT_EQ(lookup.Labels("Not_A/Name").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(lookup.Labels("").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(NamespaceLookupTest, ExpiredEntriesAreFetchedAgainAndFailuresReported) {
  std::atomic<int> forbidden{0};
  FakeApiServer server([&](const std::string&) {
    if (forbidden.load()) return Reply::Json(Testdata("status-403-forbidden.json"), 403);
    return Reply::Json(Testdata("namespace-ml.json"));
  });
  NamespaceLookupOptions options;
  options.ttl = std::chrono::milliseconds(0);
  options.failure_ttl = std::chrono::milliseconds(0);
  KubeNamespaceLookup lookup(PlainConfig(server.port()), options);
  EXPECT_TRUE(lookup.Labels("ml").ok());
  forbidden = 1;
  EXPECT_EQ(lookup.Labels("ml").status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(lookup.api_calls(), 2u);
}

}  // namespace
}  // namespace draguard::webhook::kube
