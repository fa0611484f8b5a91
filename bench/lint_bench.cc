// Lint throughput (issue 2 item 9): 10,000 generated claims and templates, one core.
// Reports resources/s as the `items_per_second` counter; the target is >= 10,000/s.
// Generation happens once, outside the timed loop; each iteration lints copies of the texts
// (LintSources takes ownership), which costs little next to decoding.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench/manifest_generator.h"
#include "policy/lint/linter.h"

namespace draguard::bench {
namespace {

constexpr size_t kResources = 10'000;

void BM_LintGeneratedSet(benchmark::State& state) {
  const std::vector<SourceText> files =
      GenerateManifests(kResources, static_cast<size_t>(state.range(0)));
  lint::LintOptions options;
  options.jobs = 1;  // one core
  // Second argument: the schema phase on (1) or off (0); issue 4 allows it at most +20%.
  options.schema.enabled = state.range(1) != 0;
  size_t errors = 0;
  for (auto _ : state) {
    lint::LintReport report = lint::LintSources(files, options);
    errors = report.Summary().errors;
    benchmark::DoNotOptimize(report);
  }
  if (errors != 0) state.SkipWithError("generated manifests must lint without errors");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kResources));
  state.counters["files"] = static_cast<double>(files.size());
}
// Objects per file: one per file, and small multi-document files; schema checks on and off.
BENCHMARK(BM_LintGeneratedSet)
    ->ArgNames({"per_file", "schema"})
    ->Args({1, 1})
    ->Args({1, 0})
    ->Args({10, 1})
    ->Args({10, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace draguard::bench

BENCHMARK_MAIN();
