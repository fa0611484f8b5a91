// CEL selector benchmarks: compile (parse + check + cost estimate) per selector, evaluation
// per device for ten typical DRA selectors from the corpus, and a hand-written C++ predicate
// over the same device data (the floor). Results and commands: docs/benchmarks.md "CEL".
#include <benchmark/benchmark.h>

#include <array>
#include <cstdlib>
#include <map>
#include <string>

#include "policy/cel/compiler.h"
#include "policy/cel/dra/device.h"
#include "policy/cel/program.h"
#include "policy/common/quantity.h"

namespace draguard::cel {
namespace {

// Ten selectors in the shapes the corpus (../shared/corpus) uses most; index 0 is the
// two-lookup selector of the performance target.
constexpr std::array<const char*, 10> kSelectors = {
    R"(device.attributes["gpu.example.com"].model == "A100" && device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)",
    R"(device.driver == "gpu.example.com")",
    R"(device.attributes["resource.kubernetes.io"].pciBusID == "0008:06:00.0")",
    R"(has(device.attributes["dra.net"].ifName) && device.attributes["dra.net"].ifName == "dummy0")",
    R"(device.attributes['gpu.nvidia.com'].profile == '1g.5gb')",
    R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("4Gi")) >= 0)",
    R"(device.attributes["dra.net"].rdma == true && device.attributes["dra.net"].numaNode == 0)",
    R"(device.attributes["resource.kubernetes.io"]["pciBusID"] in ["0001:00:00.0","0002:00:00.0","0003:00:00.0","0008:06:00.0"])",
    R"(device.attributes["dra.net"].cloudNetwork.contains("dranet-net"))",
    R"(device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('1.0.0')))",
};

k8s::DeviceAttribute Str(std::string s) {
  k8s::DeviceAttribute a;
  a.string_value = std::move(s);
  return a;
}

DeviceData SampleDevice() {
  DeviceData d;
  d.driver = "gpu.example.com";
  d.attributes["gpu.example.com/model"] = Str("A100");
  d.attributes["gpu.example.com/driverVersion"].version_value = "1.2.3";
  d.attributes["resource.kubernetes.io/pciBusID"] = Str("0008:06:00.0");
  d.attributes["dra.net/ifName"] = Str("dummy0");
  d.attributes["dra.net/rdma"].bool_value = true;
  d.attributes["dra.net/numaNode"].int_value = 0;
  d.attributes["dra.net/cloudNetwork"] = Str("projects/x/dranet-net");
  d.attributes["gpu.nvidia.com/profile"] = Str("1g.5gb");
  d.capacity["gpu.example.com/memory"] = "80Gi";
  return d;
}

void BM_Compile(benchmark::State& state) {
  const char* expr = kSelectors[static_cast<size_t>(state.range(0))];
  for (auto _ : state) {
    SelectorCompileResult r = CompileSelector(expr, EnvOptions{});
    benchmark::DoNotOptimize(r.ast);
    if (!r.ok()) state.SkipWithError("selector does not compile");
  }
}
BENCHMARK(BM_Compile)->DenseRange(0, kSelectors.size() - 1);

void EvaluateLoop(benchmark::State& state, const char* expr) {
  SelectorCompileResult compiled = CompileSelector(expr, EnvOptions{});
  if (!compiled.ok()) {
    state.SkipWithError("selector does not compile");
    return;
  }
  StatusOr<Program> program = Plan(*compiled.ast);
  StatusOr<PreparedDevice> device = PreparedDevice::Prepare(SampleDevice());
  if (!program.ok() || !device.ok()) {
    state.SkipWithError("plan or device preparation failed");
    return;
  }
  EvalState eval_state;
  for (auto _ : state) {
    StatusOr<bool> r = EvaluateSelector(*program, *device, eval_state);
    if (!r.ok() || !*r) {
      state.SkipWithError("selector did not select the sample device");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
}

void BM_Evaluate(benchmark::State& state) {
  EvaluateLoop(state, kSelectors[static_cast<size_t>(state.range(0))]);
}
BENCHMARK(BM_Evaluate)->DenseRange(0, kSelectors.size() - 1);

// Regex selectors. A constant pattern is compiled once when the program is planned (0, 2);
// selector 1 builds the same pattern with `+` (not folded), so it is compiled on every
// evaluation, as any pattern computed at run time is.
constexpr std::array<const char*, 3> kRegexSelectors = {
    R"(device.attributes["dra.net"].ifName.matches("^dummy[0-9]+$"))",
    R"(device.attributes["dra.net"].ifName.matches("^dummy" + "[0-9]+$"))",
    R"(device.attributes["dra.net"].cloudNetwork.find("dranet-[a-z]+") == "dranet-net")",
};

void BM_EvaluateRegex(benchmark::State& state) {
  EvaluateLoop(state, kRegexSelectors[static_cast<size_t>(state.range(0))]);
}
BENCHMARK(BM_EvaluateRegex)->DenseRange(0, kRegexSelectors.size() - 1);

// The floor for selector 0: the same two lookups written by hand over the same kind of
// prepared data (attribute and capacity maps keyed by qualified name, quantities parsed
// once, the constant quantity parsed once).
void BM_HandWrittenTwoLookups(benchmark::State& state) {
  const DeviceData data = SampleDevice();
  std::map<std::string, Quantity, std::less<>> capacity;
  for (const auto& [name, text] : data.capacity) capacity[name] = *Quantity::Parse(text);
  const Quantity want = *Quantity::Parse("40Gi");
  for (auto _ : state) {
    bool selected = false;
    auto model = data.attributes.find("gpu.example.com/model");
    if (model != data.attributes.end() && model->second.string_value == "A100") {
      auto memory = capacity.find("gpu.example.com/memory");
      selected = memory != capacity.end() && memory->second.Cmp(want) >= 0;
    }
    benchmark::DoNotOptimize(selected);
  }
}
BENCHMARK(BM_HandWrittenTwoLookups);

}  // namespace
}  // namespace draguard::cel

BENCHMARK_MAIN();
