#include "webhook/server/metrics.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/policy/common/allocated_bytes.h"

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
      metrics.Render({.spec_memo = SpecMemoStats{
                          .entries = 3, .hits = 40, .misses = 5, .first_sights = 2}});
  EXPECT_NE(text.find("draguard_spec_memo_entries 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("draguard_spec_memo_lookups_total{result=\"hit\"} 40\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_spec_memo_lookups_total{result=\"miss\"} 5\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_spec_memo_first_sights_total 2\n"), std::string::npos) << text;
}

// Issue 14 item 1: which release the checks follow, and where it came from.
TEST(MetricsTest, KubernetesReleaseInfoOnlyWhenGiven) {
  Metrics metrics;
  EXPECT_EQ(metrics.Render({}).find("draguard_kubernetes_release_info"), std::string::npos);
  std::string text =
      metrics.Render({.release = {.release = "1.35", .source = "apiserver"}});
  EXPECT_NE(text.find("# TYPE draguard_kubernetes_release_info gauge\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_kubernetes_release_info{release=\"1.35\",source=\"apiserver\"} 1\n"),
            std::string::npos)
      << text;
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

// Issue 19 item 16: the kind is the client's text; 300 made-up kinds made 301 series, kept
// forever. Kinds the webhook does not serve share the series "other".
TEST(MetricsTest, KindsOutsideTheServedOnesShareOneSeries) {
  Metrics metrics;
  for (int i = 0; i < 300; ++i) {
    metrics.RecordRequest("validate", "Made\"Up\n" + std::to_string(i), "allowed", 0);
  }
  metrics.RecordRequest("validate", "ResourceClaim", "allowed", 0);
  const std::string text = metrics.Render({});
  EXPECT_NE(text.find("kind=\"other\",verdict=\"allowed\"} 300\n"), std::string::npos) << text;
  EXPECT_NE(text.find("kind=\"ResourceClaim\",verdict=\"allowed\"} 1\n"), std::string::npos);
  EXPECT_EQ(text.find("MadeUp"), std::string::npos);
  EXPECT_EQ(text.find("Made\\\"Up"), std::string::npos);
}

TEST(MetricsTest, CachesWithTheirLimitsAndEvictions) {
  Metrics metrics;
  EXPECT_EQ(metrics.Render({}).find("draguard_cache_"), std::string::npos);
  const std::vector<NamedCacheStats> caches = {
      {"cel_programs",
       CacheStats{.entries = 7, .bytes = 9000, .limits = {.max_entries = 64, .max_bytes = 1 << 20},
                  .hits = 5, .misses = 9, .evictions = 2}},
      {"spec_memo", CacheStats{.entries = 1, .bytes = 100, .limits = {.max_entries = 2,
                                                                     .max_bytes = 4096}}}};
  const std::string text = metrics.Render({.caches = caches});
  for (const char* line : {"draguard_cache_entries{cache=\"cel_programs\"} 7\n",
                           "draguard_cache_bytes{cache=\"cel_programs\"} 9000\n",
                           "draguard_cache_max_entries{cache=\"cel_programs\"} 64\n",
                           "draguard_cache_max_bytes{cache=\"cel_programs\"} 1048576\n",
                           "draguard_cache_evictions_total{cache=\"cel_programs\"} 2\n",
                           "draguard_cache_hits_total{cache=\"cel_programs\"} 5\n",
                           "draguard_cache_misses_total{cache=\"cel_programs\"} 9\n",
                           "draguard_cache_entries{cache=\"spec_memo\"} 1\n",
                           "# TYPE draguard_cache_evictions_total counter\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << text;
  }
}

TEST(MetricsTest, ProcessMemoryWhenKnown) {
  Metrics metrics;
  const std::string none = metrics.Render({});
  EXPECT_EQ(none.find("process_resident_memory_bytes"), std::string::npos);
  EXPECT_EQ(none.find("draguard_heap_bytes"), std::string::npos);
  const std::string text = metrics.Render(
      {.memory = {.resident_bytes = 60 << 20, .heap_in_use_bytes = 41 << 20,
                  .heap_free_bytes = 3 << 20}});
  for (const char* line : {"# TYPE process_resident_memory_bytes gauge\n",
                           "process_resident_memory_bytes 62914560\n",
                           "# TYPE draguard_heap_bytes gauge\n",
                           "draguard_heap_bytes{state=\"in_use\"} 42991616\n",
                           "draguard_heap_bytes{state=\"free\"} 3145728\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << text;
  }
}

// This process's own figures: plausible, and the heap's in-use bytes follow an allocation.
TEST(ProcessMemoryTest, ReadsThisProcess) {
  const ProcessMemory before = ReadProcessMemory();
#if defined(__linux__)
  ASSERT_TRUE(before.resident_bytes.has_value());
  EXPECT_GT(*before.resident_bytes, 1u << 20);
#endif
// Under AddressSanitizer the heap is its own, not glibc's.
#if defined(__GLIBC__) && !defined(DRAGUARD_TESTS_ASAN_ALLOCATOR)
  ASSERT_TRUE(before.heap_in_use_bytes.has_value());
  auto block = std::make_unique<char[]>(8 << 20);
  block[0] = 1;
  const ProcessMemory after = ReadProcessMemory();
  EXPECT_GE(*after.heap_in_use_bytes, *before.heap_in_use_bytes + (8u << 20));
#endif
}

}  // namespace
}  // namespace draguard::webhook
