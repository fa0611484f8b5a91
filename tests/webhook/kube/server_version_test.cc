// The release `serve` checks for on a given API server (issue 14 item 1): /version parsing
// (managed clusters' "36+" minors and gitVersion suffixes), the mapping onto the release
// table, and the request against the fake API server.
#include "webhook/kube/server_version.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/webhook/kube/fake_api_server.h"

namespace draguard::webhook::kube {
namespace {

using testing::FakeApiServer;
using testing::Reply;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct VersionCase {
  std::string name;
  std::string body;
  bool ok = true;
  KubernetesVersion release = KubernetesVersion::k1_36;
  std::string warning;  // substring; empty: no warning
  std::string described;
};

class ServerVersionTest : public ::testing::TestWithParam<VersionCase> {};

TEST_P(ServerVersionTest, MapsOntoTheReleaseTable) {
  const VersionCase& c = GetParam();
  StatusOr<ServerVersion> parsed = ParseServerVersion(c.body);
  ASSERT_EQ(parsed.ok(), c.ok) << parsed.status().message();
  if (!c.ok) return;
  const ServerRelease release = ReleaseForServer(*parsed);
  EXPECT_EQ(release.release, c.release);
  if (c.warning.empty()) {
    EXPECT_THAT(release.warning, IsEmpty());
  } else {
    EXPECT_THAT(release.warning, HasSubstr(c.warning));
  }
  EXPECT_EQ(parsed->Describe(), c.described);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ServerVersionTest,
    ::testing::Values(
        VersionCase{.name = "Plain136",
                    .body = R"({"major":"1","minor":"36","gitVersion":"v1.36.0"})",
                    .described = "1.36"},
        VersionCase{.name = "Plain135",
                    .body = R"({"major":"1","minor":"35","gitVersion":"v1.35.3"})",
                    .release = KubernetesVersion::k1_35, .described = "1.35 (v1.35.3)"},
        VersionCase{.name = "PlusMinorAndSuffix",
                    .body = R"({"major":"1","minor":"34+","gitVersion":"v1.34.2-eks-4f5b2c1"})",
                    .release = KubernetesVersion::k1_34,
                    .described = "1.34 (v1.34.2-eks-4f5b2c1)"},
        VersionCase{.name = "OnlyGitVersion",
                    .body = R"({"major":"","minor":"","gitVersion":"v1.35.1-gke.1200"})",
                    .release = KubernetesVersion::k1_35, .described = "1.35 (v1.35.1-gke.1200)"},
        VersionCase{.name = "NewerPicksNewestKnown",
                    .body = R"({"major":"1","minor":"37","gitVersion":"v1.37.0-alpha.1"})",
                    .warning = "checking as Kubernetes 1.36, the newest it knows",
                    .described = "1.37 (v1.37.0-alpha.1)"},
        VersionCase{.name = "OlderPicksOldestKnown",
                    .body = R"({"major":"1","minor":"33","gitVersion":"v1.33.5"})",
                    .release = KubernetesVersion::k1_34,
                    .warning = "checking as Kubernetes 1.34, the oldest it knows",
                    .described = "1.33 (v1.33.5)"},
        VersionCase{.name = "NotJson", .body = "<html>", .ok = false},
        VersionCase{.name = "NoVersion", .body = R"({"platform":"linux/amd64"})", .ok = false}),
    [](const auto& p) { return p.param.name; });

ClusterConfig PlainConfig(uint16_t port) {
  ClusterConfig config;
  config.scheme = "http";
  config.host = "127.0.0.1";
  config.port = port;
  return config;
}

TEST(DiscoverServerReleaseTest, AsksTheFakeApiServer) {
  FakeApiServer server([](const std::string& target) {
    if (target == "/version") {
      return Reply::Json(R"({"major":"1","minor":"35+","gitVersion":"v1.35.2-eks-1"})");
    }
    return Reply::Json("{}", 404);
  });
  StatusOr<ServerRelease> found = DiscoverServerRelease(PlainConfig(server.port()));
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->release, KubernetesVersion::k1_35);
  EXPECT_THAT(found->warning, IsEmpty());
  EXPECT_EQ(found->server.git_version, "v1.35.2-eks-1");
  EXPECT_EQ(server.TargetsStartingWith("/version").size(), 1u);
}

TEST(DiscoverServerReleaseTest, HttpErrorsAreStatuses) {
  FakeApiServer server([](const std::string&) {
    return Reply::Json(R"({"kind":"Status","code":403,"message":"forbidden"})", 403);
  });
  StatusOr<ServerRelease> found = DiscoverServerRelease(PlainConfig(server.port()));
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), StatusCode::kPermissionDenied);
  EXPECT_THAT(found.status().message(), HasSubstr("/version: HTTP 403"));
}

}  // namespace
}  // namespace draguard::webhook::kube
