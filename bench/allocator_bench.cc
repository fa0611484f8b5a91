// Allocator benchmarks: 1,000 nodes x 8 GPUs (2 per PCIe root) + 4 NICs, typical and
// pathological claims, with a plain depth-first search over the same node for comparison.
// Selectors are evaluated by a trivial driver-equality evaluator so the numbers measure the
// search, not CEL.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

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

void Run(benchmark::State& state, const Inventory& inv, const k8s::ResourceClaimSpec& claim,
         AllocatorOptions options, VerdictKind want) {
  options.all_nodes = false;  // first feasible node, as the scheduler's Filter would stop
  options.time_budget = std::chrono::milliseconds(1000);
  for (auto _ : state) {
    DriverEvaluator eval;
    AllocationVerdict v = CheckClaim(inv, claim, eval, options);
    if (v.kind != want) state.SkipWithError(std::string(VerdictName(v.kind)).c_str());
    benchmark::DoNotOptimize(v);
  }
}

void BM_SingleGpu(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 1)}, false), {}, VerdictKind::kSatisfiable);
}
// Every node searched: the feasible-node list `explain` prints (1,000 nodes).
void BM_SingleGpuAllNodes(benchmark::State& state) {
  k8s::ResourceClaimSpec claim = Claim({Request("gpu", "gpu", 1)}, false);
  AllocatorOptions options;
  options.time_budget = std::chrono::milliseconds(1000);
  for (auto _ : state) {
    DriverEvaluator eval;
    AllocationVerdict v = CheckClaim(Plain(), claim, eval, options);
    if (v.feasible_nodes.size() != kNodes) state.SkipWithError("not every node feasible");
    benchmark::DoNotOptimize(v);
  }
}
// The real CEL adapter (programs compiled and devices prepared once, outside the loop, as
// the webhook keeps its evaluators per inventory); every selector still runs per check.
void BM_SingleGpuCelAllNodes(benchmark::State& state) {
  k8s::ResourceClaimSpec claim = Claim({Request("gpu", "gpu", 1)}, false);
  AllocatorOptions options;
  options.time_budget = std::chrono::milliseconds(1000);
  CelSelectorEvaluator eval(options);
  for (auto _ : state) {
    AllocationVerdict v = CheckClaim(Plain(), claim, eval, options);
    if (v.feasible_nodes.size() != kNodes) state.SkipWithError("not every node feasible");
    benchmark::DoNotOptimize(v);
  }
}
// Pathological: 8 GPUs on one PCIe root; roots hold 2 (every node fails the group bound).
void BM_EightGpusSameRootNoGroup(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 8)}, true), {}, VerdictKind::kUnsatisfiable);
}
void BM_EightGpus(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 8)}, false), {}, VerdictKind::kSatisfiable);
}
void BM_TwoGpusSameRoot(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 2)}, true), {}, VerdictKind::kSatisfiable);
}
void BM_GpuNicPairOnOneRoot(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 1), Request("nic", "nic", 1)}, true), {},
      VerdictKind::kSatisfiable);
}
void BM_PartitionsSharedCounters(benchmark::State& s) {
  AllocatorOptions o;
  o.gates.partitionable_devices = true;
  Run(s, Partitioned(), Claim({Request("gpu", "gpu", 16)}, false), o, VerdictKind::kSatisfiable);
}
// Pathological: 9 GPUs wanted, 8 per node.
void BM_NWantedNMinusOneUsable(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 9)}, false), {}, VerdictKind::kUnsatisfiable);
}
// Pathological: 17 partitions; 16 fit the counters (4+4 per GPU), the 17th always overflows.
void BM_CountersOverflowOnLastPick(benchmark::State& s) {
  AllocatorOptions o;
  o.gates.partitionable_devices = true;
  Run(s, Partitioned(), Claim({Request("gpu", "gpu", 17)}, false), o, VerdictKind::kUnsatisfiable);
}
// Pathological: 3 GPUs on one PCIe root; roots hold 2.
void BM_MatchAttributeNoGroup(benchmark::State& s) {
  Run(s, Plain(), Claim({Request("gpu", "gpu", 3)}, true), {}, VerdictKind::kUnsatisfiable);
}

// Plain DFS (permutations, no pre-checks, no symmetry breaking) over one node's 8 GPUs for
// "3 on one root": the scheduler's ≤1.35 search on the same question, per node.
bool PlainDfs(const std::vector<std::string>& roots, std::vector<bool>& used, int left,
              const std::string* fixed, int64_t& steps) {
  if (left == 0) return true;
  for (size_t i = 0; i < roots.size(); ++i) {
    ++steps;
    if (used[i] || (fixed && *fixed != roots[i])) continue;
    used[i] = true;
    if (PlainDfs(roots, used, left - 1, fixed ? fixed : &roots[i], steps)) return true;
    used[i] = false;
  }
  return false;
}

void BM_PlainDfsMatchAttributeNoGroup(benchmark::State& state) {
  std::vector<std::string> roots;
  for (int g = 0; g < 8; ++g) roots.push_back("pci" + std::to_string(g / 2));
  for (auto _ : state) {
    int64_t steps = 0;
    bool found = false;
    for (int n = 0; n < kNodes; ++n) {
      std::vector<bool> used(roots.size());
      found = found || PlainDfs(roots, used, 3, nullptr, steps);
    }
    if (found) state.SkipWithError("plain DFS found a group");
    benchmark::DoNotOptimize(steps);
  }
}

BENCHMARK(BM_SingleGpu)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SingleGpuAllNodes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SingleGpuCelAllNodes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EightGpusSameRootNoGroup)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EightGpus)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoGpusSameRoot)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GpuNicPairOnOneRoot)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PartitionsSharedCounters)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NWantedNMinusOneUsable)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CountersOverflowOnLastPick)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MatchAttributeNoGroup)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlainDfsMatchAttributeNoGroup)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace draguard::alloc

BENCHMARK_MAIN();
