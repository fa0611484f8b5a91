#include "webhook/server/metrics.h"

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace draguard::webhook {
namespace {

struct BucketCase {
  double seconds;
  std::string first_bucket_counting_it;  // le label of the smallest bucket that counts it
};

class BucketTest : public ::testing::TestWithParam<BucketCase> {};

// Prometheus buckets are cumulative: an observation counts in every bucket with le >= value.
TEST_P(BucketTest, CumulativeBuckets) {
  Metrics metrics;
  metrics.RecordRequest("validate", "ResourceClaim", "allowed", GetParam().seconds);
  std::string text = metrics.Render({});
  std::string prefix = "draguard_admission_request_duration_seconds_bucket{endpoint=\"validate\",le=\"";
  bool counting = false;
  for (double bound : Metrics::kBuckets) {
    char label[32];
    std::snprintf(label, sizeof label, "%.9g", bound);
    if (label == GetParam().first_bucket_counting_it) counting = true;
    std::string line = prefix + label + "\"} " + (counting ? "1" : "0") + "\n";
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
  EXPECT_NE(text.find(prefix + "+Inf\"} 1\n"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Metrics, BucketTest,
                         ::testing::Values(BucketCase{0.00001, "5e-05"},
                                           BucketCase{0.0001, "0.0001"},
                                           BucketCase{0.003, "0.005"},
                                           BucketCase{0.5, "1"}));

TEST(MetricsTest, ConnectionsAndReloads) {
  Metrics metrics;
  metrics.ConnectionOpened();
  metrics.ConnectionOpened();
  metrics.ConnectionClosed();
  metrics.ConnectionRejected();
  metrics.CertReloaded(true);
  metrics.CertReloaded(false);
  metrics.CertReloaded(false);
  std::string text = metrics.Render({});
  EXPECT_NE(text.find("draguard_connections_active 1\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_connections_rejected_total 1\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_certificate_reloads_total{result=\"failure\"} 2\n"),
            std::string::npos);
  EXPECT_EQ(text.find("draguard_inventory_objects"), std::string::npos);  // not configured
  EXPECT_EQ(text.find("draguard_certificate_expiry_seconds"), std::string::npos);
}

TEST(MetricsTest, ExpiryIsRelativeToNow) {
  Metrics metrics;
  std::string text = metrics.Render({.cert_not_after_unix = 1000, .now_unix = 400});
  EXPECT_NE(text.find("draguard_certificate_expiry_seconds 600\n"), std::string::npos);
}

TEST(MetricsTest, SpecMemoOnlyWhenGiven) {
  Metrics metrics;
  EXPECT_EQ(metrics.Render({}).find("draguard_spec_memo"), std::string::npos);
  std::string text =
      metrics.Render({.spec_memo = SpecMemoStats{.entries = 3, .hits = 40, .misses = 5}});
  EXPECT_NE(text.find("draguard_spec_memo_entries 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("draguard_spec_memo_lookups_total{result=\"hit\"} 40\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_spec_memo_lookups_total{result=\"miss\"} 5\n"), std::string::npos);
}

// Issue 19 item 4: files whose last good content is in use show in /metrics.
TEST(MetricsTest, InventoryFilesFailingAndStaleness) {
  Metrics metrics;
  std::string text = metrics.Render({.inventory = InventoryStats{.configured = true,
                                                                 .synced = true,
                                                                 .objects = 7,
                                                                 .files_failing = 2,
                                                                 .stale_seconds = 42.5,
                                                                 .file_failures = 3}});
  EXPECT_NE(text.find("draguard_inventory_synced 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("draguard_inventory_files_failing 2\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_inventory_stale_seconds 42.5\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE draguard_inventory_file_failures_total counter\n"),
            std::string::npos);
  EXPECT_NE(text.find("draguard_inventory_file_failures_total 3\n"), std::string::npos);
}

TEST(MetricsTest, EscapesLabelValues) {
  Metrics metrics;
  metrics.RecordRequest("validate", "a\"b\\c\nd", "allowed", 0);
  EXPECT_NE(metrics.Render({}).find("kind=\"a\\\"b\\\\c\\nd\""), std::string::npos);
}

}  // namespace
}  // namespace draguard::webhook
