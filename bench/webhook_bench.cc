// The admission hot path without the network: HandleAdmission with the real PolicyChecker on
// the typical review of bench/webhook-review.json (2.8 KB ResourceClaim), on /validate and
// /mutate, without and with a 10,000-device inventory (satisfiability on every request), and
// the deployment cases of bench/webhook-load.sh (issue 16): BM_Case* with the case's letter.
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
#include "webhook/admission/review_scanner.h"
#include "webhook/inventory_source.h"

namespace draguard::webhook {
namespace {

std::string ReadReview(const char* name = "webhook-review.json") {
  std::ifstream in(std::string(DRAGUARD_SOURCE_DIR) + "/bench/" + name);
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

// One request through the handler, as the server makes it; a non-200 answer ends the benchmark.
void Admit(benchmark::State& state, PolicyChecker& checker, const std::string& review,
           AdmissionEndpoint endpoint = AdmissionEndpoint::kValidate) {
  HttpAdmissionResponse r = HandleAdmission(
      {.endpoint = endpoint, .content_type = "application/json", .body = review}, checker);
  if (r.http_status != 200) state.SkipWithError("not 200");
  benchmark::DoNotOptimize(r);
}

void Run(benchmark::State& state, PolicyChecker& checker, AdmissionEndpoint endpoint) {
  const std::string review = ReadReview();
  for (auto _ : state) Admit(state, checker, review, endpoint);
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

// The allocator's CEL evaluators as `draguard serve` makes them: one program cache, planned
// from the selectors validation compiled.
void UseCelEvaluators(PolicyCheckerOptions& options) {
  options.compiled_selectors = std::make_shared<cel::SelectorCache>(
      options.selector_cache, cel::SelectorCache::kShapeLimits, options.selector_sightings);
  options.satisfiability.new_evaluator =
      [allocator = options.satisfiability.allocator,
       programs = std::make_shared<alloc::CelProgramCache>(
           alloc::CelProgramCache::kDefaultLimits, options.compiled_selectors,
           alloc::CelProgramCache::KeepPolicy::kOnSecondMiss)](
          std::shared_ptr<alloc::PreparedDevices> devices) {
        return std::make_unique<alloc::CelSelectorEvaluator>(allocator, programs,
                                                              std::move(devices));
      };
}

void BM_ValidateWithInventory(benchmark::State& state) {
  static StaticSource* source = new StaticSource(TenThousandDevices());
  PolicyCheckerOptions options;
  options.satisfiability.source = source;
  UseCelEvaluators(options);
  PolicyChecker checker(std::move(options));
  Run(state, checker, AdmissionEndpoint::kValidate);
}
BENCHMARK(BM_ValidateWithInventory)->Unit(benchmark::kMicrosecond);

// The review scan alone (the hand-written lexer: validation of the whole body, the handler's
// fields, the object's tree), as the handler runs it with one ReviewFields per thread. Compared
// with simdjson's On-Demand API in docs/dependencies.md.
void BM_ScanReview(benchmark::State& state) {
  const std::string review = ReadReview();
  ReviewFields fields;
  for (auto _ : state) {
    Status s = ScanAdmissionReview(review, ScanOptions{}, fields);
    if (!s.ok()) state.SkipWithError("scan failed");
    benchmark::DoNotOptimize(fields);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * review.size()));
}
BENCHMARK(BM_ScanReview);

// The handler's scan (the object's spec deferred for the spec memo), then the spec read as on
// a memo miss (case (b)); with state.range(0) == 0 the spec is left unread, as on a hit
// (case (a)).
void BM_ScanReviewDeferred(benchmark::State& state) {
  const std::string review = ReadReview();
  ReviewFields fields;
  const ScanOptions options{.defer_object_spec = true};
  for (auto _ : state) {
    Status s = ScanAdmissionReview(review, options, fields);
    if (s.ok() && state.range(0) != 0) s = CompleteObjectSpec(review, options, fields);
    if (!s.ok()) state.SkipWithError("scan failed");
    benchmark::DoNotOptimize(fields);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * review.size()));
}
BENCHMARK(BM_ScanReviewDeferred)->Arg(0)->Arg(1);

// --- The deployment cases of bench/webhook-load.sh (issue 16 items 1-2). ---

// 1000 nodes with 8 GPUs each: the 8,000 devices of cases c-e, identical machines as
// bench/fleet-inventory.sh writes them for the server (PCI addresses repeat from node to node,
// so all nodes form one node group).
StaticSource& EightThousandDevices() {
  static StaticSource* source = new StaticSource(
      testing::FleetInventory(1000, 8, 0, testing::FleetMachines::kIdenticalMachines));
  return *source;
}

// The same GPUs with PCIe roots numbered per node: 1,000 node groups, each searched when no
// device matches (what case d costs on a fleet whose nodes all differ).
StaticSource& EightThousandDistinctNodes() {
  static StaticSource* source = new StaticSource(testing::FleetInventory(1000, 8, 0));
  return *source;
}

PolicyCheckerOptions WithInventory(InventorySource* source) {
  PolicyCheckerOptions options;
  if (source == nullptr) return options;
  options.satisfiability.source = source;
  UseCelEvaluators(options);
  return options;
}

// A checker on `source` with what derives from the snapshot built before timing starts, as
// `draguard serve` builds it before it reports ready (the first request otherwise pays for the
// allocator's view, the schema and the prepared devices, ~0.5 s of CPU for 8,000 devices, and
// the benchmark, which makes a checker per run, divided that by a few dozen iterations).
std::unique_ptr<PolicyChecker> WarmChecker(InventorySource* source) {
  auto checker = std::make_unique<PolicyChecker>(WithInventory(source));
  checker->Warm();
  return checker;
}

// Every request a spec never seen before, as bench/distinct-specs.lua makes them: the A100
// selector gets a clause with a fresh constant, `op` "!=" (true for every device) or "=="
// (true for none).
void RunFresh(benchmark::State& state, PolicyChecker& checker, const std::string& review,
              const char* op) {
  const std::string anchor = R"(startsWith(\"NVIDIA A100\"))";
  const size_t at = review.find(anchor);
  if (at == std::string::npos) {
    state.SkipWithError("no A100 selector");
    return;
  }
  const std::string head = review.substr(0, at + anchor.size());
  const std::string tail = review.substr(at + anchor.size());
  const std::string clause =
      std::string(R"( && device.attributes[\"gpu.nvidia.com\"].productName )") + op + R"( \"x)";
  int64_t n = 0;
  std::string body;
  // One request before timing: the first selector's environment, caches and evaluators.
  Admit(state, checker, head + clause + "warm\\\"" + tail);
  for (auto _ : state) {
    body = head;
    body += clause;
    body += std::to_string(n++);
    body += R"(\")";
    body += tail;
    Admit(state, checker, body);
  }
}

void BM_CaseB_FreshSpecs(benchmark::State& state) {
  PolicyChecker checker(WithInventory(nullptr));
  RunFresh(state, checker, ReadReview(), "!=");
}
BENCHMARK(BM_CaseB_FreshSpecs)->Unit(benchmark::kMicrosecond);

void BM_CaseC_FreshSatisfiable(benchmark::State& state) {
  std::unique_ptr<PolicyChecker> checker = WarmChecker(&EightThousandDevices());
  RunFresh(state, *checker, ReadReview("webhook-review-gpus.json"), "!=");
}
BENCHMARK(BM_CaseC_FreshSatisfiable)->Unit(benchmark::kMicrosecond);

void BM_CaseD_FreshNoDevice(benchmark::State& state) {
  std::unique_ptr<PolicyChecker> checker = WarmChecker(&EightThousandDevices());
  RunFresh(state, *checker, ReadReview("webhook-review-gpus.json"), "==");
}
BENCHMARK(BM_CaseD_FreshNoDevice)->Unit(benchmark::kMicrosecond);

void BM_CaseD_FreshNoDeviceDistinctNodes(benchmark::State& state) {
  std::unique_ptr<PolicyChecker> checker = WarmChecker(&EightThousandDistinctNodes());
  RunFresh(state, *checker, ReadReview("webhook-review-gpus.json"), "==");
}
BENCHMARK(BM_CaseD_FreshNoDeviceDistinctNodes)->Unit(benchmark::kMicrosecond);

// Case e's steady state: the GPU review repeated against the 8,000 devices.
void BM_CaseE_Repeated(benchmark::State& state) {
  std::unique_ptr<PolicyChecker> checker = WarmChecker(&EightThousandDevices());
  const std::string review = ReadReview("webhook-review-gpus.json");
  Admit(state, *checker, review);
  for (auto _ : state) {
    Admit(state, *checker, review);
  }
}
BENCHMARK(BM_CaseE_Repeated)->Unit(benchmark::kMicrosecond);

// What each change of case e costs: the first request on a new snapshot of the 8,000
// devices (the allocator's Inventory built anew, the selector results and prepared devices
// started afresh). The copy that stands for the new snapshot is not timed.
class SwappingSource : public InventorySource {
 public:
  Status Start() override { return OkStatus(); }
  void Stop() override {}
  std::shared_ptr<const inventory::ClusterObjects> Current() const override { return current; }
  InventorySourceState State() const override {
    return {.synced = true, .confirmed_at = std::chrono::system_clock::now(),
            .objects = CountObjects(*current)};
  }
  std::shared_ptr<const inventory::ClusterObjects> current;
};

void BM_CaseE_NewSnapshot(benchmark::State& state) {
  SwappingSource source;
  source.current = EightThousandDevices().Current();
  PolicyChecker checker(WithInventory(&source));
  const std::string review = ReadReview("webhook-review-gpus.json");
  for (auto _ : state) {
    state.PauseTiming();
    source.current = std::make_shared<const inventory::ClusterObjects>(*source.current);
    state.ResumeTiming();
    Admit(state, checker, review);
  }
}
BENCHMARK(BM_CaseE_NewSnapshot)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace draguard::webhook

BENCHMARK_MAIN();
