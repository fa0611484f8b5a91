#include "cli/cluster_flags.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace draguard::cli {
namespace {

namespace fs = std::filesystem;

class ClusterFlagsTest : public ::testing::Test {
 protected:
  std::string WriteConfig(const std::string& text) {
    path_ = fs::temp_directory_path() /
            ("draguard_cluster_flags_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
             ".yaml");
    std::ofstream(path_) << text;
    return path_.string();
  }
  void TearDown() override {
    if (!path_.empty()) fs::remove(path_);
  }
  fs::path path_;
  std::ostringstream err_;
};

TEST_F(ClusterFlagsTest, DefaultsAreTheLatestRelease) {
  StatusOr<ClusterSettings> s = ResolveClusterFlags({}, err_);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->version, KubernetesVersion::k1_36);
  EXPECT_EQ(s->allocator.version, KubernetesVersion::k1_36);
  EXPECT_TRUE(s->gates.Enabled(Gate::kDRAConsumableCapacity));  // beta, on in 1.36
}

TEST_F(ClusterFlagsTest, UnknownReleaseListsTheKnownOnes) {
  ClusterFlags flags;
  flags.kubernetes_version = "1.37";
  StatusOr<ClusterSettings> s = ResolveClusterFlags(flags, err_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "unsupported Kubernetes version \"1.37\": supported versions are 1.34, 1.35 and 1.36");
}

TEST_F(ClusterFlagsTest, LockedGateIsRefusedIn136) {
  ClusterFlags flags;
  flags.feature_gates = {"DRAAdminAccess=false"};
  EXPECT_FALSE(ResolveClusterFlags(flags, err_).ok());
  flags.kubernetes_version = "1.35";
  EXPECT_TRUE(ResolveClusterFlags(flags, err_).ok());
}

TEST_F(ClusterFlagsTest, FlagsWinOverThePolicyFile) {
  ClusterFlags flags;
  flags.config = WriteConfig(
      "apiVersion: draguard.dev/v1alpha1\nkind: Policy\nkubernetesVersion: \"1.34\"\n"
      "featureGates: {DRAConsumableCapacity: true, DRADeviceTaints: true}\n");
  StatusOr<ClusterSettings> from_file = ResolveClusterFlags(flags, err_);
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  EXPECT_EQ(from_file->version, KubernetesVersion::k1_34);
  EXPECT_EQ(from_file->allocator.version, KubernetesVersion::k1_34);
  EXPECT_TRUE(from_file->gates.Enabled(Gate::kDRAConsumableCapacity));

  flags.kubernetes_version = "1.35";
  flags.feature_gates = {"DRAConsumableCapacity=false"};
  StatusOr<ClusterSettings> both = ResolveClusterFlags(flags, err_);
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(both->version, KubernetesVersion::k1_35);
  EXPECT_FALSE(both->gates.Enabled(Gate::kDRAConsumableCapacity));
  EXPECT_TRUE(both->gates.Enabled(Gate::kDRADeviceTaints));  // file's, kept
}

// Issue 14 item 1: serve asks the API server only when neither the flag nor the policy file
// names a release, and the gates are parsed for the release it answers.
TEST_F(ClusterFlagsTest, DiscoveredReleaseOnlyWhenNoneIsGiven) {
  int asked = 0;
  const DiscoverRelease answer_135 = [&asked]() -> std::optional<KubernetesVersion> {
    ++asked;
    return KubernetesVersion::k1_35;
  };
  ClusterFlags flags;
  flags.feature_gates = {"DRADeviceTaintRules=true"};  // unknown to 1.34, known to 1.35
  StatusOr<ClusterSettings> found = ResolveClusterFlags(flags, err_, answer_135);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->version, KubernetesVersion::k1_35);
  EXPECT_EQ(found->allocator.version, KubernetesVersion::k1_35);
  EXPECT_EQ(VersionSourceName(found->version_source), "apiserver");
  EXPECT_TRUE(found->gates.Enabled(Gate::kDRADeviceTaintRules));
  EXPECT_EQ(asked, 1);

  const DiscoverRelease unreachable = [] { return std::optional<KubernetesVersion>(); };
  StatusOr<ClusterSettings> fallback = ResolveClusterFlags({}, err_, unreachable);
  ASSERT_TRUE(fallback.ok()) << fallback.status();
  EXPECT_EQ(fallback->version, kDefaultKubernetesVersion);
  EXPECT_EQ(VersionSourceName(fallback->version_source), "default");

  flags.kubernetes_version = "1.36";
  StatusOr<ClusterSettings> flag = ResolveClusterFlags(flags, err_, answer_135);
  ASSERT_TRUE(flag.ok()) << flag.status();
  EXPECT_EQ(flag->version, KubernetesVersion::k1_36);
  EXPECT_EQ(VersionSourceName(flag->version_source), "flag");

  ClusterFlags from_file;
  from_file.config = WriteConfig(
      "apiVersion: draguard.dev/v1alpha1\nkind: Policy\nkubernetesVersion: \"1.34\"\n");
  StatusOr<ClusterSettings> file = ResolveClusterFlags(from_file, err_, answer_135);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->version, KubernetesVersion::k1_34);
  EXPECT_EQ(VersionSourceName(file->version_source), "config");
  EXPECT_EQ(asked, 1);  // neither the flag nor the file asked the server
}

TEST_F(ClusterFlagsTest, PolicyFileErrorsArePrintedAndFail) {
  ClusterFlags flags;
  flags.config = WriteConfig("apiVersion: draguard.dev/v1alpha1\nkind: Policy\nrulez: {}\n");
  StatusOr<ClusterSettings> s = ResolveClusterFlags(flags, err_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(err_.str().find(":3:1: error:"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("config.field.unknown"), std::string::npos) << err_.str();
}

TEST_F(ClusterFlagsTest, MissingPolicyFileIsNotFound) {
  ClusterFlags flags;
  flags.config = "/nonexistent/draguard-policy.yaml";
  StatusOr<ClusterSettings> s = ResolveClusterFlags(flags, err_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kNotFound);
}

TEST_F(ClusterFlagsTest, BadFlagValuesAreInvalidArgument) {
  ClusterFlags version;
  version.kubernetes_version = "1.29";
  EXPECT_EQ(ResolveClusterFlags(version, err_).status().code(), StatusCode::kInvalidArgument);
  ClusterFlags gates;
  gates.feature_gates = {"NoSuchGate=true"};
  EXPECT_EQ(ResolveClusterFlags(gates, err_).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draguard::cli
