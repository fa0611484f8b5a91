// Allocator benchmarks: 1,000 nodes x 8 GPUs (2 per PCIe root) + 4 NICs, typical and
// pathological claims. Every claim runs in five ways over the same prepared Inventory:
//
//   Alloc/<claim>/FirstNode       CheckClaim stopping at the first feasible node (the
//                                 scheduler's Filter question)
//   Alloc/<claim>/AllNodes        CheckClaim listing every feasible node (`draguard explain`)
//   Alloc/<claim>/AllNodesCel     the same with the real CEL adapter
//   PlainDfs/<claim>/AllNodes     plain depth-first search (bench/plain_dfs.h) answering the
//   PlainDfs/<claim>/AllNodesCel  same question: verdict and every feasible node
//
// The stub evaluator understands `device.driver == "x"` so that those rows measure the search,
// not CEL. The CEL adapter is built once per benchmark, outside the timed loop (programs
// compiled and devices prepared once, as the webhook keeps its evaluators per Inventory); the
// stub and every per-check memo start empty in each iteration. Before timing, the allocator's
// and the plain DFS's answers are compared; the label says whether they agree.
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/plain_dfs.h"
#include "policy/allocator/allocator.h"
#include "policy/allocator/cel_evaluator.h"

namespace draguard::alloc {
namespace {

constexpr int kNodes = 1000;

// Understands `device.driver == "x"` and `true`; everything else matches.
class DriverEvaluator : public SelectorEvaluator {
 public:
  SelectorResult Evaluate(std::string_view e, const DeviceView& d) override {
    constexpr std::string_view kPrefix = "device.driver == \"";
    if (e.substr(0, kPrefix.size()) != kPrefix) return SelectorResult::Match();
    std::string_view want = e.substr(kPrefix.size(), e.size() - kPrefix.size() - 1);
    return d.driver == want ? SelectorResult::Match() : SelectorResult::NoMatch();
  }
};

k8s::Device Device(std::string name, std::string root) {
  k8s::Device d;
  d.name = std::move(name);
  d.attributes["resource.kubernetes.io/pcieRoot"].string_value = std::move(root);
  d.attributes["model"].string_value = "a100";
  return d;
}

k8s::ResourceSlice Slice(std::string driver, std::string node, std::vector<k8s::Device> devices) {
  k8s::ResourceSlice s;
  s.spec.driver = std::move(driver);
  s.spec.pool = k8s::ResourcePool{.name = node, .generation = 1, .resource_slice_count = 1};
  s.spec.node_name = node;
  s.spec.devices = std::move(devices);
  return s;
}

// `partitions`: each node's GPUs are 3 partitions (4+4+8 of 8 memory) sharing a counter.
InventoryInput Cluster(bool partitions) {
  InventoryInput in;
  for (int n = 0; n < kNodes; ++n) {
    std::string node = "node-" + std::to_string(n);
    std::vector<k8s::Device> gpus, nics;
    k8s::ResourceSlice gpu_slice = Slice("gpu.example.com", node, {});
    for (int g = 0; g < 8; ++g) {
      std::string root = "pci" + std::to_string(g / 2);
      if (!partitions) {
        gpus.push_back(Device("gpu-" + std::to_string(g), root));
        continue;
      }
      std::string set = "gpu-" + std::to_string(g);
      gpu_slice.spec.shared_counters.push_back(
          k8s::CounterSet{.name = set, .counters = {{"memory", k8s::Counter{"8"}}}});
      for (auto [suffix, mem] : {std::pair{"a", "4"}, {"b", "4"}, {"c", "8"}}) {
        k8s::Device d = Device(set + suffix, root);
        d.consumes_counters.push_back(k8s::DeviceCounterConsumption{
            .counter_set = set, .counters = {{"memory", k8s::Counter{mem}}}});
        gpus.push_back(d);
      }
    }
    for (int i = 0; i < 4; ++i) nics.push_back(Device("nic-" + std::to_string(i), "pci" + std::to_string(i)));
    gpu_slice.spec.devices = std::move(gpus);
    in.slices.push_back(std::move(gpu_slice));
    in.slices.push_back(Slice("nic.example.com", node, std::move(nics)));
  }
  auto cls = [](std::string name, std::string driver) {
    k8s::DeviceClass c;
    c.metadata.name = std::move(name);
    c.spec.selectors.push_back(
        k8s::DeviceSelector{.cel = k8s::CELDeviceSelector{"device.driver == \"" + driver + "\""}});
    return c;
  };
  in.classes = {cls("gpu", "gpu.example.com"), cls("nic", "nic.example.com")};
  return in;
}

const Inventory& Plain() {
  static const Inventory* inv = new Inventory(Inventory::Build(Cluster(false)));
  return *inv;
}

const Inventory& Partitioned() {
  static const Inventory* inv = new Inventory(Inventory::Build(Cluster(true)));
  return *inv;
}

k8s::DeviceRequest Request(std::string name, std::string cls, int64_t count) {
  k8s::DeviceRequest r;
  r.name = std::move(name);
  r.exactly.emplace();
  r.exactly->device_class_name = std::move(cls);
  r.exactly->allocation_mode = k8s::kAllocationModeExactCount;
  r.exactly->count = count;
  return r;
}

k8s::ResourceClaimSpec Claim(std::vector<k8s::DeviceRequest> reqs, bool same_root) {
  k8s::ResourceClaimSpec spec;
  spec.devices.requests = std::move(reqs);
  if (same_root) {
    spec.devices.constraints.push_back(
        k8s::DeviceConstraint{.match_attribute = "resource.kubernetes.io/pcieRoot"});
  }
  return spec;
}

struct Scenario {
  std::string name;
  const Inventory& (*inventory)();
  k8s::ResourceClaimSpec claim;
  bool partitionable = false;
  VerdictKind want;
};

std::vector<Scenario> Scenarios() {
  return {
      // Typical claims.
      {"OneGpu", Plain, Claim({Request("gpu", "gpu", 1)}, false), false, VerdictKind::kSatisfiable},
      {"EightGpus", Plain, Claim({Request("gpu", "gpu", 8)}, false), false,
       VerdictKind::kSatisfiable},
      // On this inventory a root holds 2 GPUs: no node qualifies, every node is decided.
      {"EightGpusSameRoot", Plain, Claim({Request("gpu", "gpu", 8)}, true), false,
       VerdictKind::kUnsatisfiable},
      {"TwoGpusSameRoot", Plain, Claim({Request("gpu", "gpu", 2)}, true), false,
       VerdictKind::kSatisfiable},
      {"GpuNicSameRoot", Plain, Claim({Request("gpu", "gpu", 1), Request("nic", "nic", 1)}, true),
       false, VerdictKind::kSatisfiable},
      {"SixteenPartitions", Partitioned, Claim({Request("gpu", "gpu", 16)}, false), true,
       VerdictKind::kSatisfiable},
      // Pathological: 9 GPUs wanted, 8 per node.
      {"NineGpus", Plain, Claim({Request("gpu", "gpu", 9)}, false), false,
       VerdictKind::kUnsatisfiable},
      // Pathological: 17 partitions; 16 fit the counters (4+4 per GPU), the 17th overflows.
      {"SeventeenPartitions", Partitioned, Claim({Request("gpu", "gpu", 17)}, false), true,
       VerdictKind::kUnsatisfiable},
      // Pathological: 3 GPUs on one PCIe root; roots hold 2.
      {"ThreeGpusSameRoot", Plain, Claim({Request("gpu", "gpu", 3)}, true), false,
       VerdictKind::kUnsatisfiable},
  };
}

AllocatorOptions Options(const Scenario& s, bool all_nodes) {
  AllocatorOptions o;
  o.gates.SetEnabled(Gate::kDRAPartitionableDevices, s.partitionable);
  o.all_nodes = all_nodes;
  o.time_budget = std::chrono::milliseconds(60'000);
  return o;
}

// Whether the plain DFS gives the allocator's answer: verdict and feasible nodes.
std::string Agreement(const Scenario& s) {
  DriverEvaluator a, b;
  AllocatorOptions o = Options(s, true);
  AllocationVerdict alloc = CheckClaim(s.inventory(), s.claim, a, o);
  bench::PlainDfsVerdict dfs = bench::PlainDfsCheck(s.inventory(), s.claim, b, o);
  if (dfs.kind == VerdictKind::kUndecided) {
    return "plain DFS undecided after " + std::to_string(o.max_steps) + " steps";
  }
  if (dfs.kind != alloc.kind || dfs.feasible_nodes != alloc.feasible_nodes) return "";
  return "same answer, " + std::to_string(alloc.feasible_nodes.size()) + " feasible nodes";
}

void RunAlloc(benchmark::State& state, const Scenario& s, bool all_nodes, bool cel) {
  s.inventory();  // built once, outside the timed loop
  AllocatorOptions o = Options(s, all_nodes);
  CelSelectorEvaluator cel_eval(o);
  for (auto _ : state) {
    DriverEvaluator stub;
    SelectorEvaluator& eval = cel ? static_cast<SelectorEvaluator&>(cel_eval) : stub;
    AllocationVerdict v = CheckClaim(s.inventory(), s.claim, eval, o);
    if (v.kind != s.want) state.SkipWithError(std::string(VerdictName(v.kind)).c_str());
    benchmark::DoNotOptimize(v);
  }
}

void RunPlainDfs(benchmark::State& state, const Scenario& s, bool cel) {
  std::string agreement = Agreement(s);
  if (agreement.empty()) {
    state.SkipWithError("plain DFS and allocator disagree");
    return;
  }
  state.SetLabel(agreement);
  AllocatorOptions o = Options(s, true);
  CelSelectorEvaluator cel_eval(o);
  int64_t steps = 0;
  for (auto _ : state) {
    DriverEvaluator stub;
    SelectorEvaluator& eval = cel ? static_cast<SelectorEvaluator&>(cel_eval) : stub;
    bench::PlainDfsVerdict v = bench::PlainDfsCheck(s.inventory(), s.claim, eval, o);
    steps = v.steps;
    benchmark::DoNotOptimize(v);
  }
  state.counters["steps"] = static_cast<double>(steps);
}

void Register() {
  static const std::vector<Scenario> scenarios = Scenarios();
  for (const Scenario& s : scenarios) {
    const Scenario* p = &s;
    auto add = [](const std::string& name, std::function<void(benchmark::State&)> fn) {
      benchmark::RegisterBenchmark(name.c_str(), fn)->Unit(benchmark::kMicrosecond);
    };
    add("Alloc/" + s.name + "/FirstNode", [p](benchmark::State& st) { RunAlloc(st, *p, false, false); });
    add("Alloc/" + s.name + "/AllNodes", [p](benchmark::State& st) { RunAlloc(st, *p, true, false); });
    add("Alloc/" + s.name + "/AllNodesCel", [p](benchmark::State& st) { RunAlloc(st, *p, true, true); });
    add("PlainDfs/" + s.name + "/AllNodes", [p](benchmark::State& st) { RunPlainDfs(st, *p, false); });
    add("PlainDfs/" + s.name + "/AllNodesCel", [p](benchmark::State& st) { RunPlainDfs(st, *p, true); });
  }
}

}  // namespace
}  // namespace draguard::alloc

int main(int argc, char** argv) {
  draguard::alloc::Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
