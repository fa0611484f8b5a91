// `draguard serve` flag handling: every bad value is a usage error (exit 2) with a message
// naming the flag, before anything listens; --help lists the inventory and schema flags.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/command.h"
#include "tests/webhook/kube/fake_api_server.h"

namespace draguard::cli {
namespace {

using ::testing::HasSubstr;

struct ServeRun {
  int status;
  std::string out, err;
};

ServeRun Serve(std::vector<std::string> args) {
  std::istringstream in;
  std::ostringstream out, err;
  CommandContext context{.in = in, .out = out, .err = err};
  int status = RunServe(args, context);
  return {status, out.str(), err.str()};
}

TEST(ServeCommandTest, HelpListsTheInventoryAndSchemaFlags) {
  ServeRun r = Serve({"--help"});
  EXPECT_EQ(r.status, kExitOk);
  for (const char* flag : {"--inventory", "--inventory-poll-interval", "--inventory-max-age",
                           "--unsatisfiable", "--satisfiability-budget", "--strict-schema",
                           "--no-builtin-schema"}) {
    EXPECT_THAT(r.out, HasSubstr(flag));
  }
}

struct BadFlag {
  std::string flag;
  std::string message;
};

class ServeBadFlagTest : public ::testing::TestWithParam<BadFlag> {};

TEST_P(ServeBadFlagTest, IsAUsageError) {
  ServeRun r = Serve({"--tls-cert-file=/nonexistent/tls.crt", "--tls-private-key-file=/nonexistent/k",
                 "--listen=127.0.0.1:0", GetParam().flag});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_THAT(r.err, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Serve, ServeBadFlagTest,
    ::testing::Values(BadFlag{"--unsatisfiable=maybe", "--unsatisfiable"},
                      BadFlag{"--inventory-max-age=5x", "--inventory-max-age"},
                      BadFlag{"--inventory-max-age=0s", "--inventory-max-age"},
                      BadFlag{"--satisfiability-budget=fast", "--satisfiability-budget"},
                      BadFlag{"--inventory-poll-interval=-1s", "--inventory-poll-interval"},
                      BadFlag{"--threads=many", "--threads"},
                      BadFlag{"--io-thread-slice=10us", "--io-thread-slice"},
                      BadFlag{"--io-thread-slice=1s", "--io-thread-slice"},
                      BadFlag{"--io-thread-slice=-100us", "--io-thread-slice"},
                      BadFlag{"--io-thread-slice=short", "--io-thread-slice"},
                      BadFlag{"--max-connections=0", "--max-connections"},
                      BadFlag{"--max-connections=lots", "--max-connections"},
                      BadFlag{"--handshake-timeout=0s", "--handshake-timeout"},
                      BadFlag{"--first-request-timeout=0s", "--first-request-timeout"},
                      BadFlag{"--first-request-timeout=later", "--first-request-timeout"},
                      BadFlag{"--request-timeout=soon", "--request-timeout"},
                      BadFlag{"--kubernetes-version=1.20", "1.20"}));

TEST(ServeCommandTest, UnreadableCertificateIsAUsageError) {
  ServeRun r = Serve({"--tls-cert-file=/nonexistent/tls.crt", "--tls-private-key-file=/nonexistent/k",
                 "--listen=127.0.0.1:0"});
  EXPECT_EQ(r.status, kExitUsage);
}

// Issue 14 item 1: with --kubeconfig and no --kubernetes-version, serve asks the (fake) API
// server's /version and says which release it checks for; the certificate then fails, so the
// command returns after start-up without serving.
class ServeReleaseTest : public ::testing::Test {
 protected:
  std::string WriteKubeconfig(uint16_t port) {
    path_ = std::filesystem::temp_directory_path() /
            ("draguard_serve_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
             ".kubeconfig");
    std::ofstream(path_) << "apiVersion: v1\nkind: Config\ncurrent-context: dev\n"
                            "contexts:\n- name: dev\n  context: {cluster: c1, user: u1}\n"
                            "clusters:\n- name: c1\n  cluster:\n    server: http://127.0.0.1:"
                         << port << "\nusers:\n- name: u1\n  user:\n    token: t\n";
    return path_.string();
  }
  void TearDown() override {
    if (!path_.empty()) std::filesystem::remove(path_);
  }
  std::filesystem::path path_;
};

TEST_F(ServeReleaseTest, TakesTheReleaseFromTheApiServer) {
  webhook::kube::testing::FakeApiServer server(
      [](const std::string& target) {
        if (target == "/version") {
          return webhook::kube::testing::Reply::Json(
              R"({"major":"1","minor":"35+","gitVersion":"v1.35.2-eks-1"})");
        }
        return webhook::kube::testing::Reply::Json("{}", 404);
      });
  ServeRun r = Serve({"--tls-cert-file=/nonexistent/tls.crt",
                      "--tls-private-key-file=/nonexistent/k", "--listen=127.0.0.1:0",
                      "--in-cluster=false", "--kubeconfig=" + WriteKubeconfig(server.port())});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_THAT(r.err, HasSubstr("checking as Kubernetes 1.35 (source: apiserver, server 1.35 "
                               "(v1.35.2-eks-1))"));
  EXPECT_EQ(server.TargetsStartingWith("/version").size(), 1u);
}

TEST_F(ServeReleaseTest, FlagWinsAndNewerServersAreWarnedAbout) {
  webhook::kube::testing::FakeApiServer server(
      [](const std::string& target) {
        if (target == "/version") {
          return webhook::kube::testing::Reply::Json(R"({"major":"1","minor":"37"})");
        }
        return webhook::kube::testing::Reply::Json("{}", 404);
      });
  const std::string kubeconfig = "--kubeconfig=" + WriteKubeconfig(server.port());
  ServeRun flag = Serve({"--tls-cert-file=/nonexistent/tls.crt",
                         "--tls-private-key-file=/nonexistent/k", "--listen=127.0.0.1:0",
                         "--in-cluster=false", kubeconfig, "--kubernetes-version=1.34"});
  EXPECT_THAT(flag.err, HasSubstr("checking as Kubernetes 1.34 (source: flag)"));
  EXPECT_TRUE(server.TargetsStartingWith("/version").empty());
  ServeRun newer = Serve({"--tls-cert-file=/nonexistent/tls.crt",
                          "--tls-private-key-file=/nonexistent/k", "--listen=127.0.0.1:0",
                          "--in-cluster=false", kubeconfig});
  EXPECT_THAT(newer.err, HasSubstr("warning: the API server is Kubernetes 1.37"));
  EXPECT_THAT(newer.err, HasSubstr("checking as Kubernetes 1.36 (source: apiserver"));
}

}  // namespace
}  // namespace draguard::cli
