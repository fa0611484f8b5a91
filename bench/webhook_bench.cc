// The admission hot path without the network: HandleAdmission with the real PolicyChecker on
// the typical review of bench/webhook-review.json (2.8 KB ResourceClaim), on /validate and
// /mutate, without and with a 10,000-device inventory (satisfiability on every request).
// bench/webhook-load.sh measures the same over TLS against nginx.
#include <benchmark/benchmark.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "policy/allocator/cel_evaluator.h"
#include "policy/k8s/decode.h"
#include "tests/webhook/testing/fake_inventory.h"
#include "webhook/admission/handler.h"
#include "webhook/admission/policy_checker.h"
#include "webhook/inventory_source.h"

namespace draguard::webhook {
namespace {

std::string ReadReview() {
  std::ifstream in(std::string(DRAGUARD_SOURCE_DIR) + "/bench/webhook-review.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// 1000 nodes with 8 GPUs and 2 NICs each, as bench/webhook-load.sh generates them.
inventory::ClusterObjects TenThousandDevices() { return testing::FleetInventory(1000, 8, 2); }

class StaticSource : public InventorySource {
 public:
  explicit StaticSource(inventory::ClusterObjects objects)
      : objects_(std::make_shared<const inventory::ClusterObjects>(std::move(objects))) {}
  Status Start() override { return OkStatus(); }
  void Stop() override {}
  std::shared_ptr<const inventory::ClusterObjects> Current() const override { return objects_; }
  InventorySourceState State() const override {
    return {.synced = true, .confirmed_at = std::chrono::system_clock::now(),
            .objects = CountObjects(*objects_)};
  }

 private:
  std::shared_ptr<const inventory::ClusterObjects> objects_;
};

void Run(benchmark::State& state, PolicyChecker& checker, AdmissionEndpoint endpoint) {
  const std::string review = ReadReview();
  for (auto _ : state) {
    HttpAdmissionResponse r = HandleAdmission(
        {.endpoint = endpoint, .content_type = "application/json", .body = review}, checker);
    if (r.http_status != 200) state.SkipWithError("not 200");
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * review.size()));
}

// The review repeats, as the claims a template makes repeat their spec: after the first
// request its spec's findings come from the spec memo.
void BM_Validate(benchmark::State& state) {
  PolicyChecker checker(PolicyCheckerOptions{});
  Run(state, checker, AdmissionEndpoint::kValidate);
}
BENCHMARK(BM_Validate);

// Every spec new to the checker: the memo off, so the whole object is checked each time.
void BM_ValidateUnremembered(benchmark::State& state) {
  PolicyCheckerOptions options;
  options.spec_memo.entries = 0;
  PolicyChecker checker(std::move(options));
  Run(state, checker, AdmissionEndpoint::kValidate);
}
BENCHMARK(BM_ValidateUnremembered);

void BM_Mutate(benchmark::State& state) {
  PolicyChecker checker(PolicyCheckerOptions{});
  Run(state, checker, AdmissionEndpoint::kMutate);
}
BENCHMARK(BM_Mutate);

void BM_ValidateWithInventory(benchmark::State& state) {
  static StaticSource* source = new StaticSource(TenThousandDevices());
  PolicyCheckerOptions options;
  options.satisfiability.source = source;
  options.satisfiability.new_evaluator = [allocator = options.satisfiability.allocator,
                                          programs = std::make_shared<alloc::CelProgramCache>()](
                                             std::shared_ptr<alloc::PreparedDevices> devices) {
    return std::make_unique<alloc::CelSelectorEvaluator>(allocator, programs, std::move(devices));
  };
  PolicyChecker checker(std::move(options));
  Run(state, checker, AdmissionEndpoint::kValidate);
}
BENCHMARK(BM_ValidateWithInventory)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace draguard::webhook

BENCHMARK_MAIN();
