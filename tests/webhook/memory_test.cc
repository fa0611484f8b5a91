// Issue 17 item 0: no request stream grows the webhook past its budget. AdmissionReviews,
// each with a selector (and so a spec) never seen before, over TLS on loopback, against a
// server wired as `draguard serve --inventory` wires it. Before the caches were bounded, the
// allocator's compiled programs alone grew by ~10 KB a request.
//
// Two scales, the same code and checks. By default (CTest) 6,000 reviews against 2,000
// devices with every cache limit divided by 8, so that each cache fills and evicts within a
// tenth of the stream: ~20 s under the sanitizers instead of ~390 s. With
// DRAGUARD_MEMORY_TEST_SCALE=full, the default limits, 50,000 reviews and 8,000 devices
// (1,000 nodes x 8 GPUs), as `draguard serve` runs; bench/webhook-memory.sh measures the
// release build's resident set the same way. The GPUs publish what NVIDIA's driver publishes
// (testing::FleetInventory). At full scale the release build held 70-71 MiB (2026-11-27); at
// CTest scale ~25 MiB, so there the 96 MiB bound catches runaway growth, not a budget overrun.
//
// Checked: every cache stays within its limits at every sample; the process holds at most
// 96 MiB; and what it holds does not grow from the first sample after warm-up to the end.
// "Holds" is the resident set, except under AddressSanitizer, whose shadow memory and
// quarantine make the resident set meaningless: there it is the live heap as ASan's
// allocator counts it. All loops are bounded in count and time.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "policy/allocator/cel_evaluator.h"
#include "tests/policy/common/allocated_bytes.h"
#include "tests/webhook/testing/fake_inventory.h"
#include "tests/webhook/testing/tls_client.h"
#include "webhook/admission/policy_checker.h"
#include "webhook/server/server.h"

namespace draguard::webhook {
namespace {

using testing::HaveTool;
using testing::MintCerts;
using testing::Response;
using testing::TlsClient;
using namespace std::chrono_literals;

// How much to send and how large the caches are (see the file comment).
struct Scale {
  int requests;
  int nodes;           // of 8 GPUs each
  size_t limit_divisor;  // every cache limit is divided by this
};

Scale ChosenScale() {
  const char* scale = std::getenv("DRAGUARD_MEMORY_TEST_SCALE");
  if (scale != nullptr && std::string_view(scale) == "full") return {50'000, 1000, 1};
  return {6'000, 250, 8};
}

CacheLimits Divided(CacheLimits limits, size_t divisor) {
  return {.max_entries = limits.max_entries / divisor, .max_bytes = limits.max_bytes / divisor};
}

constexpr int kClients = 2;
constexpr int kSamples = 10;
constexpr size_t kBudgetBytes = 96u << 20;

[[maybe_unused]] size_t ResidentBytes() {
  long pages_total = 0, pages_resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages_total, &pages_resident) != 2) pages_resident = 0;
    std::fclose(f);
  }
  return static_cast<size_t>(pages_resident) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

size_t HeldBytes() {
#if defined(DRAGUARD_TESTS_ASAN_ALLOCATOR)
  return ::draguard::testing::AllocatedBytes();
#else
  return ResidentBytes();
#endif
}

// A claim whose one request selects GPUs with a selector unique to `i`: a new expression to
// compile, plan, type-check and evaluate against the inventory, and a new spec for the memo.
std::string ReviewWithSelector(int i) {
  nlohmann::json review = testing::MakeReview();
  review["request"]["uid"] = "uid-" + std::to_string(i);
  const std::string expression =
      "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"" +
      std::to_string(i % 80) + "Gi\")) >= 0 && device.attributes[\"gpu.nvidia.com\"]" +
      ".productName != \"x" + std::to_string(i) + "\"";
  review["request"]["object"]["spec"]["devices"]["requests"] = nlohmann::json::array(
      {{{"name", "gpu"},
        {"exactly",
         {{"deviceClassName", "gpu.nvidia.com"},
          {"selectors", nlohmann::json::array({{{"cel", {{"expression", expression}}}}})}}}}});
  return review.dump();
}

class MemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveTool("openssl")) GTEST_SKIP() << "openssl CLI not installed; cannot mint certificates";
    char tmpl[] = "/tmp/draguard-memory-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ASSERT_TRUE(MintCerts(dir_, false));
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string dir_;
};

TEST_F(MemoryTest, DistinctSelectorsAgainstALargeInventoryStayWithinTheBudget) {
  const Scale scale = ChosenScale();
  const int kRequests = scale.requests;
  testing::FakeInventorySource source;
  source.Publish(testing::FleetInventory(scale.nodes, 8, 0));
  PolicyCheckerOptions checker_options;
  checker_options.selector_cache = Divided(checker_options.selector_cache, scale.limit_divisor);
  // As `draguard serve` wires them: the programs are planned from validation's compiles.
  checker_options.compiled_selectors =
      std::make_shared<cel::SelectorCache>(checker_options.selector_cache,
                                           cel::SelectorCache::kShapeLimits,
                                           checker_options.selector_sightings);
  auto programs = std::make_shared<alloc::CelProgramCache>(
      Divided(alloc::CelProgramCache::kDefaultLimits, scale.limit_divisor),
      checker_options.compiled_selectors);
  checker_options.satisfiability.selector_results =
      Divided(checker_options.satisfiability.selector_results, scale.limit_divisor);
  checker_options.schema.selector_memo =
      Divided(checker_options.schema.selector_memo, scale.limit_divisor);
  checker_options.spec_memo.entries /= scale.limit_divisor;
  checker_options.spec_memo.max_bytes /= scale.limit_divisor;
  checker_options.satisfiability.source = &source;
  checker_options.schema.source = &source;
  checker_options.satisfiability.new_evaluator = [programs,
                                                  allocator = checker_options.satisfiability.allocator](
                                                     std::shared_ptr<alloc::PreparedDevices> devices) {
    return std::make_unique<alloc::CelSelectorEvaluator>(allocator, programs, std::move(devices));
  };
  PolicyChecker checker(std::move(checker_options));
  checker.Warm();

  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.tls_cert_file = dir_ + "/tls.crt";
  options.tls_private_key_file = dir_ + "/tls.key";
  options.threads = 2;
  ServerHooks hooks;
  hooks.log = [](std::string_view) {};
  Server server(options, checker, std::move(hooks));
  ASSERT_TRUE(server.Start().ok());

  auto caches = [&] {
    std::vector<NamedCacheStats> all = checker.cache_stats();
    all.push_back({"cel_programs", programs->stats()});
    return all;
  };
  std::atomic<int> next{0}, failures{0};
  std::vector<size_t> held;  // one sample per kRequests / kSamples requests
  std::mutex held_mu;
  const auto deadline = std::chrono::steady_clock::now() + 15min;
  std::cout << kRequests << " reviews, " << scale.nodes * 8 << " devices, cache limits / "
            << scale.limit_divisor << '\n';
  auto client = [&] {
    TlsClient tls(dir_ + "/ca.crt", server.port());
    if (tls.Connect()) {
      failures += kRequests;
      return;
    }
    for (int i = next++; i < kRequests && std::chrono::steady_clock::now() < deadline;
         i = next++) {
      Response res;
      // Allowed, so that every request went through satisfiability (a denied claim stops
      // before it).
      // Each review twice: the spec memo keeps a spec from its second miss, so a stream of
      // specs seen once would never fill it (this stream is the one that does).
      if (tls.Request(testing::http::verb::post, "/validate", ReviewWithSelector(i / 2), res) ||
          res.result_int() != 200 || res.body().find("\"allowed\":true") == std::string::npos) {
        if (failures == 0) ADD_FAILURE() << "request " << i << ": " << res.body();
        ++failures;
        if (tls.Connect()) return;  // a fresh connection after an error; give up if refused
      }
      if ((i + 1) % (kRequests / kSamples) == 0) {
        std::lock_guard lock(held_mu);
        held.push_back(HeldBytes());
        for (const NamedCacheStats& c : caches()) {
          EXPECT_LE(c.stats.bytes, c.stats.limits.max_bytes) << c.name << " after " << i;
          EXPECT_LE(c.stats.entries, c.stats.limits.max_entries) << c.name << " after " << i;
        }
      }
    }
  };
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) clients.emplace_back(client);
  for (std::thread& t : clients) t.join();
  server.Shutdown();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_GE(next.load(), kRequests) << "the stream did not finish within its time bound";
  ASSERT_GE(held.size(), 3u);
  for (size_t i = 0; i < held.size(); ++i) {
    EXPECT_LE(held[i], kBudgetBytes) << "sample " << i << ": " << (held[i] >> 20) << " MiB";
  }
  // Warm-up is over after the first sample: the caches are full by then. What is held at the
  // end may not exceed the second sample by more than 5% (allocator noise).
  EXPECT_LE(held.back(), held[1] + held[1] / 20)
      << "grew from " << (held[1] >> 20) << " MiB to " << (held.back() >> 20) << " MiB";
  std::cout << "held (MiB) at each tenth of the stream:";
  for (size_t h : held) std::cout << ' ' << (h >> 20);
  std::cout << '\n';
  for (const NamedCacheStats& c : caches()) {
    std::cout << c.name << ": " << c.stats.entries << " entries, " << c.stats.bytes
              << " bytes, " << c.stats.evictions << " evictions, " << c.stats.misses
              << " misses\n";
  }
  for (const NamedCacheStats& c : caches()) {
    if (c.name == "selector_compile" || c.name == "cel_programs" || c.name == "spec_memo" ||
        c.name == "schema_selectors") {
      EXPECT_GT(c.stats.evictions, 0u) << c.name << " never filled: the stream did not test it";
    }
  }
}

}  // namespace
}  // namespace draguard::webhook
