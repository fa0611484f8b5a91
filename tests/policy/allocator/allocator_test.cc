// Semantics of the scheduler's structured allocator (dynamic-resource-allocation structured/
// internal/*/{allocator,pools}_*.go), one table row per rule. Expected verdicts and codes come
// from the upstream function named in each group's heading.
#include "policy/allocator/allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "policy/allocator/internal/amount.h"
#include "policy/allocator/internal/capacity.h"
#include "tests/policy/allocator/fake_evaluator.h"
#include "tests/policy/allocator/test_inventory.h"

namespace draguard::alloc::testing {
namespace {

using Options = std::function<void(AllocatorOptions&)>;

struct Case {
  std::string name;
  std::function<InventoryInput()> inventory;
  std::vector<k8s::ResourceClaimSpec> claims;
  Options options = nullptr;
  VerdictKind want = VerdictKind::kSatisfiable;
  std::string code = "";                    // a reason with this code must be present
  std::string absent = "";                  // a reason with this code must not be present
  std::vector<std::string> devices = {};    // witness "pool/device" (request order), if given
  std::vector<std::string> nodes = {};      // feasible nodes, if given
  std::vector<std::string> requests = {};   // witness result request names, if given
};

k8s::ResourceClaimSpec Claim(std::vector<k8s::DeviceRequest> requests,
                             std::vector<k8s::DeviceConstraint> constraints = {}) {
  k8s::ResourceClaimSpec spec;
  spec.devices.requests = std::move(requests);
  spec.devices.constraints = std::move(constraints);
  return spec;
}

std::vector<k8s::Device> Gpus(int n, const std::string& prefix = "gpu",
                              std::vector<std::string> roots = {}) {
  std::vector<k8s::Device> out;
  for (int i = 0; i < n; ++i) {
    std::map<std::string, std::string> attrs{{"model", "a100"}};
    if (!roots.empty()) attrs["resource.kubernetes.io/pcieRoot"] = roots[static_cast<size_t>(i) % roots.size()];
    out.push_back(MakeDevice(prefix + std::to_string(i), attrs));
  }
  return out;
}

// Two nodes: node-1 with 2 GPUs, node-2 with 4 GPUs; class "gpu" selects driver gpu.x.
InventoryInput TwoNodes() {
  InventoryInput in;
  in.slices.push_back(MakeSlice("gpu.x", "node-1", "node-1", Gpus(2)));
  in.slices.push_back(MakeSlice("gpu.x", "node-2", "node-2", Gpus(4)));
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.x\""})};
  return in;
}

InventoryInput WithSlice(InventoryInput in, k8s::ResourceSlice slice) {
  in.slices.push_back(std::move(slice));
  return in;
}

k8s::ResourceSlice Pooled(k8s::ResourceSlice s, int64_t generation, int64_t count,
                          std::string name) {
  s.metadata.name = std::move(name);
  s.spec.pool.generation = generation;
  s.spec.pool.resource_slice_count = count;
  return s;
}

// One pool "p" on node-1 of devices d0, d1, ... with attribute model = models[i]; `in_use`
// lists "driver/pool/device" keys allocated to another claim. Class "gpu" takes every device,
// class "none" none.
InventoryInput ModelPool(std::vector<std::string> models, std::vector<std::string> in_use) {
  InventoryInput in;
  std::vector<k8s::Device> devices;
  for (size_t i = 0; i < models.size(); ++i) {
    devices.push_back(MakeDevice("d" + std::to_string(i), {{"model", models[i]}}));
  }
  in.slices = {MakeSlice("gpu.x", "p", "node-1", std::move(devices))};
  in.classes = {MakeClass("gpu"), MakeClass("none", {"false"})};
  if (!in_use.empty()) in.claims = {AllocatedClaim(std::move(in_use))};
  return in;
}

// One pool "p" on node-1 whose device i has the int-list attribute cores = lists[i].
InventoryInput ListPool(std::vector<std::vector<int64_t>> lists) {
  InventoryInput in;
  std::vector<k8s::Device> devices;
  for (size_t i = 0; i < lists.size(); ++i) {
    k8s::Device d = MakeDevice("d" + std::to_string(i));
    d.attributes["cores"].int_values = lists[i];
    devices.push_back(std::move(d));
  }
  in.slices = {MakeSlice("gpu.x", "p", "node-1", std::move(devices))};
  in.classes = {MakeClass("gpu")};
  return in;
}

k8s::DeviceSubRequest AllSub(std::string name, std::string device_class) {
  k8s::DeviceSubRequest sub = Sub(std::move(name), std::move(device_class), 1);
  sub.allocation_mode = k8s::kAllocationModeAll;
  sub.count = 0;
  return sub;
}

k8s::DeviceSubRequest TolerantAll(std::string name) {
  k8s::DeviceSubRequest sub = AllSub(std::move(name), "gpu");
  sub.tolerations.push_back(k8s::DeviceToleration{.key = "broken", .op = "Exists"});
  return sub;
}

// Two devices tainted NoSchedule ("broken"); d1 is allocated to another claim.
InventoryInput TaintedPair() {
  InventoryInput in = ModelPool({"ma", "ma"}, {"gpu.x/p/d1"});
  for (k8s::Device& d : in.slices.Mutable(0).spec.devices) {
    d.taints.push_back(k8s::DeviceTaint{.key = "broken", .value = "1", .effect = "NoSchedule"});
  }
  return in;
}

Options Gates(std::string spec, KubernetesVersion version = KubernetesVersion::k1_35) {
  return [spec, version](AllocatorOptions& o) {
    o.version = version;
    StatusOr<FeatureGates> gates = FeatureGates::Parse(spec, version);
    ASSERT_TRUE(gates.ok()) << gates.status();
    o.gates = *gates;
  };
}

Options Version(KubernetesVersion v) {
  return [v](AllocatorOptions& o) { o.version = v; };
}

k8s::DeviceRequest Tolerating(k8s::DeviceRequest r) {
  r.exactly->tolerations.push_back(k8s::DeviceToleration{.key = "broken", .op = "Exists"});
  return r;
}

k8s::Device Tainted(k8s::Device d, std::string effect) {
  d.taints.push_back(k8s::DeviceTaint{.key = "broken", .value = "1", .effect = std::move(effect)});
  return d;
}

// One GPU with a binding condition, on node-1.
InventoryInput OneBindingGpu() {
  InventoryInput in;
  auto d = Gpus(1);
  d[0].binding_conditions = {"attached"};
  in.slices = {MakeSlice("gpu.x", "p", "node-1", d)};
  in.classes = {MakeClass("gpu")};
  return in;
}

// One GPU tainted NoSchedule, on node-1.
InventoryInput OneTaintedGpu() {
  InventoryInput in;
  in.slices = {MakeSlice("gpu.x", "p", "node-1", {Tainted(Gpus(1)[0], "NoSchedule")})};
  in.classes = {MakeClass("gpu")};
  return in;
}

// Consumable capacity: one GPU that allows multiple allocations, with 40Gi of memory and an
// optional policy.
k8s::Device SharedGpu(std::optional<k8s::CapacityRequestPolicy> policy = std::nullopt,
                      bool multi = true) {
  k8s::Device d = MakeDevice("gpu0", {{"model", "a100"}});
  d.allow_multiple_allocations = multi;
  d.capacity["memory"] = k8s::DeviceCapacity{.value = "40Gi", .request_policy = std::move(policy)};
  return d;
}

InventoryInput SharedInventory(k8s::Device device) {
  InventoryInput in;
  in.slices = {MakeSlice("gpu.x", "p", "node-1", {std::move(device)})};
  in.classes = {MakeClass("gpu")};
  return in;
}

InventoryInput OneSharedGpu() { return SharedInventory(SharedGpu()); }

// A request for `count` devices with capacity.requests memory=`memory` (empty: none).
k8s::DeviceRequest Memory(std::string name, int64_t count, std::string memory) {
  k8s::DeviceRequest r = Exact(std::move(name), "gpu", count);
  if (!memory.empty()) r.exactly->capacity = k8s::CapacityRequirements{{{"memory", memory}}};
  return r;
}

// The shared GPU with a list attribute cores: [1, 2].
InventoryInput SharedListGpu() {
  k8s::Device d = SharedGpu();
  d.attributes["cores"].int_values = std::vector<int64_t>{1, 2};
  return SharedInventory(std::move(d));
}

// A claim in the inventory holding a share of gpu.x/p/gpu0 that consumed `memory`.
k8s::ResourceClaim ShareOf(std::string memory) {
  k8s::ResourceClaim claim = AllocatedClaim({"gpu.x/p/gpu0"});
  auto& r = claim.status->allocation->devices.results[0];
  r.share_id = "11111111-2222-4333-8444-555555555555";
  r.consumed_capacity["memory"] = std::move(memory);
  return claim;
}

k8s::CapacityRequestPolicy RangePolicy() {
  return k8s::CapacityRequestPolicy{
      .default_value = "10Gi",
      .valid_range = k8s::CapacityRequestPolicyRange{.min = "10Gi", .max = "40Gi", .step = "10Gi"}};
}

// Three nodes with two GPUs each (root r0); `change` edits node-2's inventory, so that node
// grouping (nodes with equal signatures are decided once) must tell node-2 apart.
std::function<InventoryInput()> ThreeNodes(std::function<void(InventoryInput&)> change) {
  return [change] {
    InventoryInput in;
    for (const char* node : {"node-1", "node-2", "node-3"}) {
      in.slices.push_back(MakeSlice("gpu.x", node, node, Gpus(2, "gpu", {"r0"})));
    }
    in.classes = {MakeClass("gpu", {"device.driver == \"gpu.x\""})};
    change(in);
    return in;
  };
}

k8s::Device& Node2Gpu1(InventoryInput& in) { return in.slices.Mutable(1).spec.devices[1]; }

// Three nodes, each with a 1.35 pool: a counter slice (memory `memory[i]`) and two 4Gi halves.
InventoryInput ThreePartitionedNodes(std::vector<std::string> memory) {
  InventoryInput in;
  for (int n = 0; n < 3; ++n) {
    std::string node = "node-" + std::to_string(n + 1);
    k8s::ResourceSlice counters = Pooled(MakeSlice("gpu.x", node, node, {}), 1, 2, node + "-c");
    counters.spec.shared_counters.push_back(
        k8s::CounterSet{.name = "gpu0", .counters = {{"memory", k8s::Counter{memory[n]}}}});
    std::vector<k8s::Device> parts;
    for (const char* name : {"half0", "half1"}) {
      k8s::Device d = MakeDevice(name, {{"model", "a100"}});
      d.consumes_counters.push_back(k8s::DeviceCounterConsumption{
          .counter_set = "gpu0", .counters = {{"memory", k8s::Counter{"4Gi"}}}});
      parts.push_back(d);
    }
    in.slices.push_back(counters);
    in.slices.push_back(Pooled(MakeSlice("gpu.x", node, node, parts), 1, 2, node + "-d"));
  }
  in.classes = {MakeClass("gpu")};
  return in;
}

// Pool p on node-1 in two slices listed "z-slice" (device z0) before "a-slice" (device a0).
InventoryInput SlicesZThenA() {
  InventoryInput in;
  in.slices.push_back(Pooled(MakeSlice("gpu.x", "p", "node-1", {MakeDevice("z0")}), 1, 2, "z-slice"));
  in.slices.push_back(Pooled(MakeSlice("gpu.x", "p", "node-1", {MakeDevice("a0")}), 1, 2, "a-slice"));
  in.classes = {MakeClass("gpu")};
  return in;
}

// Pool p1 (a plain device, then one with a binding condition) and pool p2 (a plain device).
InventoryInput BindingPoolFirst() {
  InventoryInput in;
  k8s::Device bound = MakeDevice("p1d1");
  bound.binding_conditions = {"attached"};
  bound.binding_failure_conditions = {"failed"};
  in.slices.push_back(MakeSlice("gpu.x", "p1", "node-1", {MakeDevice("p1d0"), bound}));
  in.slices.push_back(MakeSlice("gpu.x", "p2", "node-1", {MakeDevice("p2d0")}));
  in.classes = {MakeClass("gpu")};
  return in;
}

class AllocatorTest : public ::testing::TestWithParam<Case> {};

TEST_P(AllocatorTest, Verdict) {
  const Case& c = GetParam();
  Inventory inv = Inventory::Build(c.inventory());
  AllocatorOptions options;
  if (c.options) c.options(options);
  FakeEvaluator eval;
  std::vector<const k8s::ResourceClaimSpec*> claims;
  for (const auto& claim : c.claims) claims.push_back(&claim);
  AllocationVerdict v = CheckPod(inv, claims, eval, options);
  SCOPED_TRACE(RenderVerdict(v));
  ASSERT_EQ(VerdictName(v.kind), VerdictName(c.want));
  if (!c.code.empty()) {
    EXPECT_TRUE(std::any_of(v.reasons.begin(), v.reasons.end(),
                            [&](const Reason& r) { return r.code == c.code; }))
        << "missing reason " << c.code;
  }
  if (!c.absent.empty()) {
    EXPECT_TRUE(std::none_of(v.reasons.begin(), v.reasons.end(),
                             [&](const Reason& r) { return r.code == c.absent; }))
        << "unexpected reason " << c.absent;
  }
  if (!c.devices.empty() || !c.requests.empty()) {
    std::vector<std::string> devices, requests;
    for (const auto& a : v.allocations) {
      for (const auto& r : a.devices.results) {
        devices.push_back(r.pool + "/" + r.device);
        requests.push_back(r.request);
      }
    }
    if (!c.devices.empty()) {
      EXPECT_EQ(devices, c.devices);
    }
    if (!c.requests.empty()) {
      EXPECT_EQ(requests, c.requests);
    }
  }
  if (!c.nodes.empty()) {
    EXPECT_EQ(v.feasible_nodes, c.nodes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Semantics, AllocatorTest,
    ::testing::Values(
        // node visibility (NodeMatches)
        Case{.name = "NodeNameLimitsToOneNode", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 3)})}, .nodes = {"node-2"}},
        Case{.name = "CountTooHighOnEveryNode", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 5)})}, .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.request.insufficient-devices"},
        Case{.name = "AllNodesSliceVisibleEverywhere",
             .inventory = [] { return WithSlice(TwoNodes(), MakeSlice("gpu.x", "net", "", Gpus(2, "net"))); },
             .claims = {Claim({Exact("gpu", "gpu", 4)})}, .nodes = {"node-1", "node-2"}},
        Case{.name = "NodeSelectorUsesNodeLabels",
             .inventory =
                 [] {
                   InventoryInput in = TwoNodes();
                   k8s::ResourceSlice s = MakeSlice("gpu.x", "rack", "", Gpus(3, "r"));
                   s.spec.all_nodes.reset();
                   s.spec.node_selector = k8s::NodeSelector{{k8s::NodeSelectorTerm{
                       .match_expressions = {{.key = "rack", .op = "In", .values = {"a"}}}}}};
                   in.slices.push_back(s);
                   k8s::Node n1, n2;
                   n1.metadata.name = "node-1";
                   n1.metadata.labels["rack"] = "a";
                   n2.metadata.name = "node-2";
                   in.nodes = {n1, n2};
                   return in;
                 },
             .claims = {Claim({Exact("gpu", "gpu", 5)})}, .nodes = {"node-1"}},
        Case{.name = "PerDeviceNodeSelectionNeedsGate",
             .inventory =
                 [] {
                   InventoryInput in = TwoNodes();
                   k8s::ResourceSlice s = MakeSlice("gpu.x", "pd", "", Gpus(2, "pd"));
                   s.spec.all_nodes.reset();
                   s.spec.per_device_node_selection = true;
                   s.spec.devices[0].node_name = "node-1";
                   s.spec.devices[1].node_name = "node-2";
                   in.slices.push_back(s);
                   return in;
                 },
             .claims = {Claim({Exact("gpu", "gpu", 3)})}, .options = Gates("DRAPartitionableDevices=true"),
             .nodes = {"node-1", "node-2"}},
        // pools (GatherPools)
        Case{.name = "IncompletePoolSkippedIn135",
             .inventory = [] {
               InventoryInput in;
               in.slices = {Pooled(MakeSlice("gpu.x", "p", "node-1", Gpus(2)), 1, 2, "s1")};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .want = VerdictKind::kUnsatisfiable},
        Case{.name = "IncompletePoolUsedIn134",
             .inventory = [] {
               InventoryInput in;
               in.slices = {Pooled(MakeSlice("gpu.x", "p", "node-1", Gpus(2)), 1, 2, "s1")};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Version(KubernetesVersion::k1_34)},
        Case{.name = "PoolSpanningNodesCompleteIn135",
             .inventory = [] {
               InventoryInput in;
               in.slices = {Pooled(MakeSlice("gpu.x", "p", "node-1", Gpus(1, "a")), 1, 2, "s1"),
                            Pooled(MakeSlice("gpu.x", "p", "node-2", Gpus(1, "b")), 1, 2, "s2")};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({AllOf("gpu", "gpu")})}, .nodes = {"node-1", "node-2"}},
        Case{.name = "AllOnPoolSpanningNodesFatalIn134",
             .inventory = [] {
               InventoryInput in;
               in.slices = {Pooled(MakeSlice("gpu.x", "p", "node-1", Gpus(1, "a")), 1, 2, "s1"),
                            Pooled(MakeSlice("gpu.x", "p", "node-2", Gpus(1, "b")), 1, 2, "s2")};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({AllOf("gpu", "gpu")})}, .options = Version(KubernetesVersion::k1_34),
             .want = VerdictKind::kError, .code = "alloc.request.all-incomplete-pool"},
        Case{.name = "StaleGenerationDropped",
             .inventory = [] {
               InventoryInput in;
               in.slices = {Pooled(MakeSlice("gpu.x", "p", "node-1", Gpus(4, "old")), 1, 1, "old"),
                            Pooled(MakeSlice("gpu.x", "p", "node-1", Gpus(1, "new")), 2, 1, "new")};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 2)})}, .want = VerdictKind::kUnsatisfiable},
        Case{.name = "InvalidPoolUnschedulableIn135",
             .inventory = [] {
               InventoryInput in;
               auto devices = Gpus(2);
               devices[1].name = devices[0].name;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", devices)};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.pool.invalid"},
        Case{.name = "InvalidPoolFatalIn134",
             .inventory = [] {
               InventoryInput in;
               auto devices = Gpus(2);
               devices[1].name = devices[0].name;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", devices)};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Version(KubernetesVersion::k1_34),
             .want = VerdictKind::kError, .code = "alloc.pool.invalid"},
        // selectors and classes (selectorsMatch)
        Case{.name = "RequestSelectorsNarrowClass", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1, {"device.attributes[\"gpu.x\"].model == \"h100\""})})},
             .want = VerdictKind::kUnsatisfiable, .code = "alloc.request.insufficient-devices"},
        Case{.name = "MissingClass", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "nope", 1)})}, .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.class.not-found"},
        Case{.name = "CelRuntimeErrorIsFatal", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1, {"device.attributes[\"gpu.x\"].healthy"})})},
             .want = VerdictKind::kError, .code = "alloc.selector.error"},
        // modes (validateDeviceRequest), availability (deviceInUse), admin access
        Case{.name = "AllTakesEveryDevice", .inventory = TwoNodes,
             .claims = {Claim({AllOf("gpu", "gpu")})}, .nodes = {"node-1", "node-2"}},
        Case{.name = "AllFailsWhenOneIsInUse",
             .inventory = [] {
               InventoryInput in = TwoNodes();
               in.slices.pop_back();
               in.claims = {AllocatedClaim({"gpu.x/node-1/gpu0"})};
               return in;
             },
             .claims = {Claim({AllOf("gpu", "gpu")})}, .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.request.all-unavailable"},
        Case{.name = "InUseDevicesSkipped",
             .inventory = [] {
               InventoryInput in = TwoNodes();
               in.claims = {AllocatedClaim({"gpu.x/node-2/gpu0", "gpu.x/node-2/gpu1"})};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 3)})}, .want = VerdictKind::kUnsatisfiable},
        Case{.name = "AdminAccessResultsDoNotConsume",
             .inventory = [] {
               InventoryInput in = TwoNodes();
               in.claims = {AllocatedClaim({"gpu.x/node-2/gpu0", "gpu.x/node-2/gpu1"}, true)};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 4)})}, .nodes = {"node-2"}},
        Case{.name = "AdminAccessMayUseAllocatedDevices",
             .inventory = [] {
               InventoryInput in = TwoNodes();
               in.slices.pop_back();
               in.claims = {AllocatedClaim({"gpu.x/node-1/gpu0", "gpu.x/node-1/gpu1"})};
               return in;
             },
             .claims = {[] {
               auto r = Exact("gpu", "gpu", 2);
               r.exactly->admin_access = true;
               return Claim({r});
             }()}},
        Case{.name = "AdminAccessNeedsGate", .inventory = TwoNodes,
             .claims = {[] {
               auto r = Exact("gpu", "gpu", 1);
               r.exactly->admin_access = false;
               return Claim({r});
             }()},
             .options = Gates("DRAAdminAccess=false"), .want = VerdictKind::kError,
             .code = "alloc.feature.disabled"},
        Case{.name = "ClaimsOfOnePodDoNotShare", .inventory = TwoNodes,
             .claims = {Claim({Exact("a", "gpu", 2)}), Claim({Exact("b", "gpu", 3)})},
             .want = VerdictKind::kUnsatisfiable},
        // firstAvailable (allocateOne's subrequests)
        Case{.name = "FirstAvailableFallsBack", .inventory = TwoNodes,
             .claims = {Claim({FirstAvailable("gpu", {Sub("eight", "gpu", 8), Sub("two", "gpu", 2)})})},
             .requests = {"gpu/two", "gpu/two"}},
        Case{.name = "FirstAvailableBacktracksAcrossRequests",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", Gpus(3, "gpu", {"r0", "r1", "r1"}))};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({FirstAvailable("a", {Sub("one", "gpu", 1), Sub("two", "gpu", 2)}),
                               Exact("b", "gpu", 1)},
                              {MatchAttr("resource.kubernetes.io/pcieRoot")})},
             .requests = {"a/one", "b"}},
        Case{.name = "FirstAvailableNeedsGate", .inventory = TwoNodes,
             .claims = {Claim({FirstAvailable("gpu", {Sub("one", "gpu", 1)})})},
             .options = Gates("DRAPrioritizedList=false"), .want = VerdictKind::kError,
             .code = "alloc.feature.disabled"},
        // constraints (matchAttributeConstraint, distinctAttributeConstraint)
        Case{.name = "MatchAttributeNoGroup",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", Gpus(4, "gpu", {"r0", "r1"}))};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 3)}, {MatchAttr("resource.kubernetes.io/pcieRoot")})},
             .want = VerdictKind::kUnsatisfiable, .code = "alloc.constraint.match-attribute"},
        Case{.name = "MatchAttributeBareIdInDriverDomain",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", Gpus(4, "gpu"))};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 4)}, {MatchAttr("gpu.x/model")})}},
        Case{.name = "MatchAttributeMissingAttributeNeverMatches",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", Gpus(4, "gpu"))};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {MatchAttr("other.io/model")})},
             .want = VerdictKind::kUnsatisfiable},
        Case{.name = "DistinctAttributeCountsWithinOneRequest",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", Gpus(4, "gpu", {"r0", "r0", "r1", "r1"}))};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 3)}, {DistinctAttr("resource.kubernetes.io/pcieRoot")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        // Default gates: DRAConsumableCapacity off in 1.35 (fatal), on in 1.36.
        Case{.name = "DistinctAttributeNeedsGate", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {DistinctAttr("gpu.x/model")})},
             .options = Gates(""), .want = VerdictKind::kError, .code = "alloc.feature.disabled"},
        Case{.name = "DistinctAttributeDefault136", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {DistinctAttr("gpu.x/model")})},
             .options = Gates("", KubernetesVersion::k1_36)},
        Case{.name = "AllViolatingConstraintIsFatal",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", Gpus(2, "gpu", {"r0", "r1"}))};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({AllOf("gpu", "gpu")}, {MatchAttr("resource.kubernetes.io/pcieRoot")})},
             .want = VerdictKind::kError, .code = "alloc.request.all-constraint"},
        // Issue #19 item 23: the scheduler's ordered search fails with an error before it
        // finds out that no device fits (allocateDevice: in use, counters, taints, then the
        // constraints, an error for an All request); pre-checks must not answer first.
        Case{.name = "AllConstraintErrorBeforeDeviceInUse",
             .inventory = [] { return ModelPool({"ma", "mb", "ma"}, {"gpu.x/p/d2"}); },
             .claims = {Claim({AllOf("gpu", "gpu")}, {MatchAttr("gpu.x/model")})},
             .want = VerdictKind::kError, .code = "alloc.request.all-constraint"},
        Case{.name = "AllDeviceInUseBeforeConstraintError",
             .inventory = [] { return ModelPool({"ma", "ma", "mb"}, {"gpu.x/p/d1"}); },
             .claims = {Claim({AllOf("gpu", "gpu")}, {MatchAttr("gpu.x/model")})},
             .want = VerdictKind::kUnsatisfiable, .absent = "alloc.request.all-constraint"},
        Case{.name = "AllConstraintErrorBeforeLaterRequestFails",
             .inventory = [] { return ModelPool({"ma", "mb"}, {}); },
             .claims = {Claim({AllOf("r0", "gpu"), Exact("r1", "none", 1)},
                              {MatchAttr("gpu.x/model")})},
             .want = VerdictKind::kError, .code = "alloc.request.all-constraint"},
        Case{.name = "EarlierRequestFailsBeforeAllConstraint",
             .inventory = [] { return ModelPool({"ma", "mb"}, {}); },
             .claims = {Claim({Exact("r1", "none", 1), AllOf("r0", "gpu")},
                              {MatchAttr("gpu.x/model")})},
             .want = VerdictKind::kUnsatisfiable, .absent = "alloc.request.all-constraint"},
        // Allocate's claim limit counts an All request as the devices it selects on the node.
        Case{.name = "AllOver33DevicesExceedsClaimLimit",
             .inventory = [] { return ModelPool(std::vector<std::string>(33, "ma"), {}); },
             .claims = {Claim({AllOf("gpu", "gpu")})}, .want = VerdictKind::kError,
             .code = "alloc.request.too-many-results"},
        Case{.name = "AllOver32DevicesFits",
             .inventory = [] { return ModelPool(std::vector<std::string>(32, "ma"), {}); },
             .claims = {Claim({AllOf("gpu", "gpu")})}},
        Case{.name = "TwoAllRequestsOver17ExceedClaimLimit",
             .inventory = [] { return ModelPool(std::vector<std::string>(17, "ma"), {}); },
             .claims = {Claim({AllOf("a", "gpu"), AllOf("b", "gpu")})}, .want = VerdictKind::kError,
             .code = "alloc.request.too-many-results"},
        Case{.name = "AllOver32PlusOneExceedsClaimLimit",
             .inventory = [] { return ModelPool(std::vector<std::string>(32, "ma"), {}); },
             .claims = {Claim({AllOf("a", "gpu"), Exact("b", "gpu", 1)})},
             .want = VerdictKind::kError, .code = "alloc.request.too-many-results"},
        // An All request that selects nothing counts zero: 32 + 0 is within the limit.
        Case{.name = "EmptyAllDoesNotCountTowardsClaimLimit",
             .inventory = [] { return ModelPool(std::vector<std::string>(32, "ma"), {}); },
             .claims = {Claim({Exact("a", "gpu", 32), AllOf("b", "none")})},
             .want = VerdictKind::kUnsatisfiable, .absent = "alloc.request.too-many-results"},
        // Issue #14 item 4, docs/k8s-releases.md A.6/C.9 A7: with DRAListTypeAttributes (1.36,
        // experimental allocator) matchAttribute keeps the running intersection of the
        // devices' value sets and distinctAttribute wants disjoint sets; a scalar is a
        // one-element set, different types never meet. Without the gate (scalar comparison) a
        // list matches nothing after the first device.
        Case{.name = "ListMatchIntersects", .inventory = [] { return ListPool({{1, 2}, {2, 3}}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {MatchAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36)},
        Case{.name = "ListMatchWithoutGate", .inventory = [] { return ListPool({{1, 2}, {2, 3}}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {MatchAttr("gpu.x/cores")})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ListMatchDisjoint", .inventory = [] { return ListPool({{1}, {2}}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {MatchAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36),
             .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ListMatchRunningIntersectionEmpties",
             .inventory = [] { return ListPool({{1, 2}, {2, 3}, {3, 4}}); },
             .claims = {Claim({Exact("gpu", "gpu", 3)}, {MatchAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36),
             .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ListMatchScalarIsOneElementSet",
             .inventory = [] {
               InventoryInput in = ListPool({{1, 2}});
               k8s::Device d = MakeDevice("scalar", {}, {{"cores", 2}});
               in.slices.Mutable(0).spec.devices.push_back(d);
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {MatchAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36)},
        Case{.name = "ListMatchTypeMismatch",
             .inventory = [] {
               InventoryInput in = ListPool({{1}});
               k8s::Device d = MakeDevice("strings", {});
               d.attributes["cores"].string_values = std::vector<std::string>{"1"};
               in.slices.Mutable(0).spec.devices.push_back(d);
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {MatchAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36),
             .want = VerdictKind::kUnsatisfiable},
        // Scalar comparison (gate off): the second pick of the same multi-allocatable device
        // meets the list as "unknown type" (matchAttributeConstraint.add) and fails.
        Case{.name = "ListSharedDeviceTwiceWithoutGate", .inventory = SharedListGpu,
             .claims = {Claim({Memory("a", 1, "1Gi"), Memory("b", 1, "1Gi")},
                              {MatchAttr("gpu.x/cores")})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ListSharedDeviceTwiceWithGate", .inventory = SharedListGpu,
             .claims = {Claim({Memory("a", 1, "1Gi"), Memory("b", 1, "1Gi")},
                              {MatchAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36),
             .devices = {"p/gpu0", "p/gpu0"}},
        Case{.name = "ListDistinctOverlapping", .inventory = [] { return ListPool({{1, 2}, {2, 3}}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {DistinctAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36),
             .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ListDistinctDisjoint", .inventory = [] { return ListPool({{1}, {2, 3}}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {DistinctAttr("gpu.x/cores")})},
             .options = Gates("DRAListTypeAttributes=true", KubernetesVersion::k1_36)},
        Case{.name = "ListDistinctWithoutGate", .inventory = [] { return ListPool({{1}, {2, 3}}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {DistinctAttr("gpu.x/cores")})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        // docs/k8s-releases.md A.6/C.9 A5: firstAvailable with All at subrequest >= 1 works
        // from 1.36 on (kubernetes/kubernetes#137347). Before, subrequest i was validated under
        // the selector-cache slot of subrequest i-1: an All subrequest 1 selects what an All
        // subrequest 0 selected, and an ExactCount subrequest 0 selects what an All
        // subrequest 1 selected.
        Case{.name = "FirstAvailableAllAfterEmptyAll134",
             .inventory = [] { return ModelPool({"ma", "ma"}, {}); },
             .claims = {Claim({FirstAvailable("req", {AllSub("a", "none"), AllSub("b", "gpu")})})},
             .options = Gates("", KubernetesVersion::k1_34), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "FirstAvailableAllAfterEmptyAll135",
             .inventory = [] { return ModelPool({"ma", "ma"}, {}); },
             .claims = {Claim({FirstAvailable("req", {AllSub("a", "none"), AllSub("b", "gpu")})})},
             .options = Gates("", KubernetesVersion::k1_35), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "FirstAvailableAllAfterEmptyAll136",
             .inventory = [] { return ModelPool({"ma", "ma"}, {}); },
             .claims = {Claim({FirstAvailable("req", {AllSub("a", "none"), AllSub("b", "gpu")})})},
             .options = Gates("", KubernetesVersion::k1_36), .devices = {"p/d0", "p/d1"},
             .requests = {"req/b", "req/b"}},
        Case{.name = "FirstAvailableSelectorSlotMixUp135",
             .inventory = [] { return ModelPool({"ma", "ma"}, {"gpu.x/p/d1"}); },
             .claims = {Claim({FirstAvailable("req", {Sub("a", "none", 1), AllSub("b", "gpu")})})},
             .options = Gates("", KubernetesVersion::k1_35), .devices = {"p/d0"},
             .requests = {"req/a"}},
        Case{.name = "FirstAvailableSelectorSlotMixUp136",
             .inventory = [] { return ModelPool({"ma", "ma"}, {"gpu.x/p/d1"}); },
             .claims = {Claim({FirstAvailable("req", {Sub("a", "none", 1), AllSub("b", "gpu")})})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        // After its first device the All subrequest continues as subrequest 0 would (count
        // 1: done), so the device in use is never looked at. Both devices are tainted; only
        // subrequest b tolerates it.
        Case{.name = "FirstAvailableAllContinuesAsFirst135",
             .inventory = TaintedPair,
             .claims = {Claim({FirstAvailable("req", {Sub("a", "gpu", 1), TolerantAll("b")})})},
             .options = Gates("DRADeviceTaints=true", KubernetesVersion::k1_35),
             .devices = {"p/d0"}, .requests = {"req/b"}},
        Case{.name = "FirstAvailableAllContinuesAsFirst136",
             .inventory = TaintedPair,
             .claims = {Claim({FirstAvailable("req", {Sub("a", "gpu", 1), TolerantAll("b")})})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        // partitionable devices (checkAvailableCounters)
        // Default gates: DRAPartitionableDevices off in 1.34/1.35, on in 1.36.
        Case{.name = "PartitionsNeedGate", .inventory = PartitionableGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .options = Gates(""),
             .want = VerdictKind::kUnsatisfiable},
        // 1.34 counters are slice-scoped: counters in another slice make the pool invalid.
        Case{.name = "PartitionsInOtherSliceInvalid134", .inventory = PartitionableGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_34), .want = VerdictKind::kError,
             .code = "alloc.pool.invalid"},
        Case{.name = "CountersOverflowOnThirdPick136", .inventory = PartitionableGpu,
             .claims = {Claim({Exact("gpu", "gpu", 3)})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.counters.exhausted"},
        Case{.name = "TwoHalvesFitTheCounters", .inventory = PartitionableGpu,
             .claims = {Claim({Exact("gpu", "gpu", 2)})}, .options = Gates("DRAPartitionableDevices=true"),
             .devices = {"p/half0", "p/half1"}},
        Case{.name = "CountersOverflowOnThirdPick", .inventory = PartitionableGpu,
             .claims = {Claim({Exact("gpu", "gpu", 3)})}, .options = Gates("DRAPartitionableDevices=true"),
             // The counter bound (8Gi / 4Gi = 2 devices) decides before any search; every
             // partition passes the filters alone, so no device-count reason may claim
             // otherwise.
             .want = VerdictKind::kUnsatisfiable, .code = "alloc.counters.exhausted",
             .absent = "alloc.request.insufficient-devices"},
        Case{.name = "SecondCounterOverflowsInSearch",
             .inventory =
                 [] {
                   InventoryInput in = PartitionableGpu();
                   in.slices.Mutable(0).spec.shared_counters[0].counters["units"] = k8s::Counter{"2"};
                   for (k8s::Device& d : in.slices.Mutable(1).spec.devices) {
                     d.consumes_counters[0].counters["units"] = k8s::Counter{"2"};
                   }
                   return in;
                 },
             // The memory bound admits two halves; only placing them shows that the
             // units counter holds one.
             .claims = {Claim({Exact("gpu", "gpu", 2)})}, .options = Gates("DRAPartitionableDevices=true"),
             .want = VerdictKind::kUnsatisfiable, .code = "alloc.search.exhausted"},
        Case{.name = "CommittedPartitionConsumesCounters",
             .inventory = [] {
               InventoryInput in = PartitionableGpu();
               in.claims = {AllocatedClaim({"gpu.x/p/half0"})};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1, {"device.attributes[\"gpu.x\"].model == \"a100\""})})},
             .options = Gates("DRAPartitionableDevices=true"), .devices = {"p/half1"}},
        // taints (taintPreventsAllocation)
        Case{.name = "TaintIgnoredWithoutGate",
             .inventory = OneTaintedGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .options = Gates("")},
        // DRADeviceTaints is on by default in 1.36 (docs/k8s-releases.md A3).
        Case{.name = "TaintBlocksByDefault136",
             .inventory = OneTaintedGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "TaintBlocksWithGate",
             .inventory = OneTaintedGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .options = Gates("DRADeviceTaints=true"),
             .want = VerdictKind::kUnsatisfiable, .code = "alloc.request.insufficient-devices"},
        Case{.name = "TolerationAllows",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", {Tainted(Gpus(1)[0], "NoExecute")})};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Tolerating(Exact("gpu", "gpu", 1))})}, .options = Gates("DRADeviceTaints=true")},
        Case{.name = "EffectNoneIgnoredIn135",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", {Tainted(Gpus(1)[0], "None")})};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .options = Gates("DRADeviceTaints=true")},
        Case{.name = "EveryTaintCountsIn134",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", {Tainted(Gpus(1)[0], "None")})};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("DRADeviceTaints=true", KubernetesVersion::k1_34),
             .want = VerdictKind::kUnsatisfiable},
        // docs/k8s-releases.md C.9 A2/A3: 1.36 has DRADeviceTaints on by default; None never
        // blocks, NoSchedule does unless tolerated.
        Case{.name = "EffectNoneIgnoredByDefault136",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", {Tainted(Gpus(1)[0], "None")})};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_36)},
        Case{.name = "NoScheduleBlocksByDefault136",
             .inventory = [] {
               InventoryInput in;
               in.slices = {MakeSlice("gpu.x", "p", "node-1", {Tainted(Gpus(1)[0], "NoSchedule")})};
               in.classes = {MakeClass("gpu")};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "TaintRuleApplies",
             .inventory = [] {
               InventoryInput in = TwoNodes();
               k8s::DeviceTaintRule rule;
               rule.spec.device_selector = k8s::DeviceTaintSelector{.pool = "node-2"};
               rule.spec.taint = k8s::DeviceTaint{.key = "maint", .effect = "NoSchedule"};
               in.taint_rules = {rule};
               return in;
             },
             .claims = {Claim({Exact("gpu", "gpu", 3)})},
             .options = Gates("DRADeviceTaints=true,DRADeviceTaintRules=true"),
             .want = VerdictKind::kUnsatisfiable},
        // binding conditions (hasBindingConditions)
        Case{.name = "BindingConditionsNeedGates",
             .inventory = OneBindingGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .options = Gates(""),
             .want = VerdictKind::kUnsatisfiable},
        Case{.name = "BindingConditionsAllowedByDefault136",
             .inventory = OneBindingGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_36)},
        Case{.name = "BindingConditionsAllowedWithGates",
             .inventory = OneBindingGpu,
             .claims = {Claim({Exact("gpu", "gpu", 1)})}, .options = Gates("DRADeviceBindingConditions=true")},
        // consumable capacity (consumable_capacity.go)
        Case{.name = "SharedDeviceBacksTwoRequests", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 1, "10Gi"), Memory("b", 1, "20Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .devices = {"p/gpu0", "p/gpu0"}},
        Case{.name = "SharedDeviceTwiceInOneRequest", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 2, "20Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .devices = {"p/gpu0", "p/gpu0"}},
        Case{.name = "SharedCapacityExhausted", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 1, "30Gi"), Memory("b", 1, "20Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.search.exhausted"},
        Case{.name = "SharesOfOnePodClaimsAddUp", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 1, "30Gi")}), Claim({Memory("b", 1, "20Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "CommittedSharesConsume",
             .inventory = [] {
               InventoryInput in = OneSharedGpu();
               in.claims = {ShareOf("30Gi")};
               return in;
             },
             .claims = {Claim({Memory("a", 1, "20Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable,
             .code = "alloc.request.insufficient-devices"},
        Case{.name = "CommittedSharesLeaveRoom",
             .inventory = [] {
               InventoryInput in = OneSharedGpu();
               in.claims = {ShareOf("30Gi")};
               return in;
             },
             .claims = {Claim({Memory("a", 1, "10Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .devices = {"p/gpu0"}},
        Case{.name = "SharedResultsMeanInUseWithoutGate",
             .inventory = [] {
               InventoryInput in = OneSharedGpu();
               in.claims = {ShareOf("1Gi")};
               return in;
             },
             .claims = {Claim({Exact("a", "gpu", 1)})}, .want = VerdictKind::kUnsatisfiable},
        Case{.name = "DedicatedAllocationBlocksSharing",
             .inventory = [] {
               InventoryInput in = OneSharedGpu();
               in.claims = {AllocatedClaim({"gpu.x/p/gpu0"})};
               return in;
             },
             .claims = {Claim({Memory("a", 1, "1Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "UnrequestedCapacityWithoutPolicyIsExclusive", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 2, "")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "UnrequestedCapacityTakesTheDefault",
             .inventory = [] { return SharedInventory(SharedGpu(RangePolicy())); },
             .claims = {Claim({Memory("a", 4, "")})},
             .options = Gates("DRAConsumableCapacity=true"),
             .devices = {"p/gpu0", "p/gpu0", "p/gpu0", "p/gpu0"}},
        Case{.name = "ValidRangeRoundsUpToStep",
             .inventory = [] { return SharedInventory(SharedGpu(RangePolicy())); },
             .claims = {Claim({Memory("a", 3, "15Gi")})},  // 3 x 20Gi > 40Gi
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ValidRangeFitsAfterRounding",
             .inventory = [] { return SharedInventory(SharedGpu(RangePolicy())); },
             .claims = {Claim({Memory("a", 2, "15Gi")})},  // 2 x 20Gi
             .options = Gates("DRAConsumableCapacity=true"), .devices = {"p/gpu0", "p/gpu0"}},
        Case{.name = "ValidRangeMaxRejects",
             .inventory = [] { return SharedInventory(SharedGpu(RangePolicy())); },
             .claims = {Claim({Memory("a", 1, "41Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ValidValuesAboveEveryValueRejects",
             .inventory =
                 [] {
                   return SharedInventory(SharedGpu(k8s::CapacityRequestPolicy{
                       .default_value = "10Gi", .valid_values = {"10Gi", "20Gi"}}));
                 },
             .claims = {Claim({Memory("a", 1, "25Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "ValidValuesRoundUp",
             .inventory =
                 [] {
                   return SharedInventory(SharedGpu(k8s::CapacityRequestPolicy{
                       .default_value = "10Gi", .valid_values = {"10Gi", "20Gi"}}));
                 },
             .claims = {Claim({Memory("a", 1, "15Gi"), Memory("b", 1, "11Gi")})},  // 20 + 20
             .options = Gates("DRAConsumableCapacity=true"), .devices = {"p/gpu0", "p/gpu0"}},
        Case{.name = "RequestedCapacityMissingOnDevice", .inventory = OneSharedGpu,
             .claims = {[] {
               k8s::DeviceRequest r = Exact("a", "gpu", 1);
               r.exactly->capacity = k8s::CapacityRequirements{{{"cores", "1"}}};
               return Claim({r});
             }()},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "DedicatedDeviceFiltersByCapacity",
             .inventory = [] { return SharedInventory(SharedGpu(std::nullopt, false)); },
             .claims = {Claim({Memory("a", 1, "50Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "DedicatedDeviceIsNotShared",
             .inventory = [] { return SharedInventory(SharedGpu(std::nullopt, false)); },
             .claims = {Claim({Memory("a", 1, "1Gi"), Memory("b", 1, "1Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "CapacityIgnoredWithoutGate",
             .inventory = [] { return SharedInventory(SharedGpu(std::nullopt, false)); },
             .claims = {Claim({Memory("a", 1, "50Gi")})}, .options = Gates(""),
             .devices = {"p/gpu0"}},
        Case{.name = "CapacityFiltersByDefault136",
             .inventory = [] { return SharedInventory(SharedGpu(std::nullopt, false)); },
             .claims = {Claim({Memory("a", 1, "50Gi")})},
             .options = Gates("", KubernetesVersion::k1_36), .want = VerdictKind::kUnsatisfiable},
        Case{.name = "CapacityRequestWithoutGateFatalInExperimental",
             .inventory = OneSharedGpu, .claims = {Claim({Memory("a", 1, "1Gi")})},
             .options = Gates("DRADeviceBindingConditions=true"), .want = VerdictKind::kError,
             .code = "alloc.feature.disabled"},
        // allocator channels (structured/allocator.go NewAllocator: the first of stable,
        // incubating, experimental whose SupportedFeatures cover the enabled features)
        Case{.name = "DistinctHonouredByIncubating136WithGateOff", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {DistinctAttr("gpu.x/model")})},
             .options = Gates("DRAConsumableCapacity=false", KubernetesVersion::k1_36)},
        Case{.name = "DistinctFailsInStable136", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {DistinctAttr("gpu.x/model")})},
             .options = Gates("DRAConsumableCapacity=false,DRADeviceBindingConditions=false",
                              KubernetesVersion::k1_36),
             .want = VerdictKind::kError, .code = "alloc.feature.disabled"},
        Case{.name = "DistinctHonouredByExperimental135WithGateOff", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {DistinctAttr("gpu.x/model")})},
             .options = Gates("DRADeviceBindingConditions=true")},
        Case{.name = "DistinctHonouredByExperimental134WithGateOff", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 1)}, {DistinctAttr("gpu.x/model")})},
             .options = Gates("DRADeviceBindingConditions=true", KubernetesVersion::k1_34)},
        Case{.name = "CapacityRequestFatalInIncubating136", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 1, "1Gi")})},
             .options = Gates("DRAConsumableCapacity=false", KubernetesVersion::k1_36),
             .want = VerdictKind::kError, .code = "alloc.feature.disabled"},
        Case{.name = "EmptyCapacityFatalInIncubating136", .inventory = OneSharedGpu,
             .claims = {Claim({[] {
               k8s::DeviceRequest r = Exact("a", "gpu", 1);
               r.exactly->capacity = k8s::CapacityRequirements{};  // Capacity != nil
               return r;
             }()})},
             .options = Gates("DRAConsumableCapacity=false", KubernetesVersion::k1_36),
             .want = VerdictKind::kError, .code = "alloc.feature.disabled"},
        Case{.name = "CapacityIgnoredByStable136", .inventory = OneSharedGpu,
             .claims = {Claim({Memory("a", 1, "50Gi")})},
             .options = Gates("DRAConsumableCapacity=false,DRADeviceBindingConditions=false",
                              KubernetesVersion::k1_36),
             .devices = {"p/gpu0"}},
        // search order: 1.36 incubating/experimental sort a pool's slices by name
        // (sortSlicesByName); before 1.36 and in 1.36 stable the input order stays.
        Case{.name = "SlicesByName136", .inventory = SlicesZThenA,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_36), .devices = {"p/a0"}},
        Case{.name = "SlicesInInputOrder135", .inventory = SlicesZThenA,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates(""), .devices = {"p/z0"}},
        Case{.name = "SlicesInInputOrderStable136", .inventory = SlicesZThenA,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("DRAConsumableCapacity=false,DRADeviceBindingConditions=false",
                              KubernetesVersion::k1_36),
             .devices = {"p/z0"}},
        // whole pools with a binding-condition device go last (poolHasBindingConditions),
        // in the channels that know binding conditions
        Case{.name = "BindingPoolLast136", .inventory = BindingPoolFirst,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("", KubernetesVersion::k1_36), .devices = {"p2/p2d0"}},
        Case{.name = "BindingPoolLastExperimental135", .inventory = BindingPoolFirst,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates("DRADeviceBindingConditions=true"), .devices = {"p2/p2d0"}},
        Case{.name = "BindingPoolInPlaceIncubating135", .inventory = BindingPoolFirst,
             .claims = {Claim({Exact("gpu", "gpu", 1)})},
             .options = Gates(""), .devices = {"p1/p1d0"}},
        Case{.name = "SharedPartitionDrawsCountersOnce",
             .inventory =
                 [] {
                   InventoryInput in = PartitionableGpu();
                   auto& devices = in.slices.Mutable(1).spec.devices;
                   devices.erase(devices.begin(), devices.begin() + 2);  // keep "full"
                   devices[0].allow_multiple_allocations = true;
                   devices[0].capacity["memory"] = k8s::DeviceCapacity{.value = "40Gi"};
                   return in;
                 },
             // "full" draws all 8Gi of the counter with its first share only.
             .claims = {Claim({Memory("a", 1, "10Gi"), Memory("b", 1, "10Gi")})},
             .options = Gates("DRAConsumableCapacity=true,DRAPartitionableDevices=true"),
             .devices = {"p/full", "p/full"}},
        // Every node starts from the committed state: what the search reserved on one node
        // (counters, capacity of a device visible everywhere) is released before the next.
        Case{.name = "NetworkCountersFreshOnEveryNode",
             .inventory =
                 [] {
                   InventoryInput in = PartitionableGpu();
                   for (size_t i = 0; i < in.slices.size(); ++i) {
                     in.slices.Mutable(i).spec.node_name.reset();
                     in.slices.Mutable(i).spec.all_nodes = true;
                   }
                   in.slices.push_back(MakeSlice("cpu.x", "c1", "node-1", {}));
                   in.slices.push_back(MakeSlice("cpu.x", "c2", "node-2", {}));
                   return in;
                 },
             .claims = {Claim({Exact("gpu", "gpu", 2)})},
             .options = Gates("DRAPartitionableDevices=true"), .nodes = {"node-1", "node-2"}},
        Case{.name = "NetworkCapacityFreshOnEveryNode",
             .inventory =
                 [] {
                   InventoryInput in = OneSharedGpu();
                   in.slices.Mutable(0).spec.node_name.reset();
                   in.slices.Mutable(0).spec.all_nodes = true;
                   in.slices.push_back(MakeSlice("cpu.x", "c1", "node-1", {}));
                   in.slices.push_back(MakeSlice("cpu.x", "c2", "node-2", {}));
                   return in;
                 },
             .claims = {Claim({Memory("a", 1, "30Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .nodes = {"node-1", "node-2"}},
        // Node grouping: node-2 differs from node-1 and node-3 in one input of the search.
        Case{.name = "GroupingSeparatesAttributeValues",
             .inventory = ThreeNodes([](InventoryInput& in) {
               Node2Gpu1(in).attributes["model"].string_value = "h100";
             }),
             .claims = {Claim({Exact("gpu", "gpu", 2, {"device.attributes[\"gpu.x\"].model == \"a100\""})})},
             .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesAvailability",
             .inventory = ThreeNodes([](InventoryInput& in) {
               in.claims.push_back(AllocatedClaim({"gpu.x/node-2/gpu1"}));
             }),
             .claims = {Claim({Exact("gpu", "gpu", 2)})}, .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesTaints",
             .inventory = ThreeNodes([](InventoryInput& in) {
               Node2Gpu1(in) = Tainted(Node2Gpu1(in), "NoSchedule");
             }),
             .claims = {Claim({Exact("gpu", "gpu", 2)})}, .options = Gates("DRADeviceTaints=true"),
             .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesConstraintAttributes",
             .inventory = ThreeNodes([](InventoryInput& in) {
               Node2Gpu1(in).attributes["resource.kubernetes.io/pcieRoot"].string_value = "r1";
             }),
             .claims = {Claim({Exact("gpu", "gpu", 2)}, {MatchAttr("resource.kubernetes.io/pcieRoot")})},
             .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesCounterCapacity",
             .inventory = [] { return ThreePartitionedNodes({"8Gi", "4Gi", "8Gi"}); },
             .claims = {Claim({Exact("gpu", "gpu", 2)})},
             .options = Gates("DRAPartitionableDevices=true"), .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesCommittedCounters",
             .inventory =
                 [] {
                   InventoryInput in = ThreePartitionedNodes({"8Gi", "8Gi", "8Gi"});
                   // A third half on node-2, in another slice of its pool, already allocated:
                   // node-2 sees the same devices but less free memory.
                   k8s::Device d = MakeDevice("half2", {{"model", "a100"}});
                   d.consumes_counters.push_back(k8s::DeviceCounterConsumption{
                       .counter_set = "gpu0", .counters = {{"memory", k8s::Counter{"4Gi"}}}});
                   for (size_t i = 0; i < in.slices.size(); ++i) {
                     if (in.slices[i].spec.pool.name == "node-2") {
                       in.slices.Mutable(i).spec.pool.resource_slice_count = 3;
                     }
                   }
                   k8s::ResourceSlice extra = Pooled(MakeSlice("gpu.x", "node-2", "", {d}), 1, 3, "x");
                   extra.spec.all_nodes.reset();
                   extra.spec.node_name = "elsewhere";
                   in.slices.push_back(extra);
                   in.claims.push_back(AllocatedClaim({"gpu.x/node-2/half2"}));
                   return in;
                 },
             .claims = {Claim({Exact("gpu", "gpu", 2)})},
             .options = Gates("DRAPartitionableDevices=true"),
             .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesPoolCompleteness",
             .inventory = ThreeNodes([](InventoryInput& in) {
               in.slices.Mutable(1).spec.pool.resource_slice_count = 2;
             }),
             .claims = {Claim({Exact("gpu", "gpu", 2)})}, .nodes = {"node-1", "node-3"}},
        Case{.name = "GroupingSeparatesCommittedShares",
             .inventory =
                 [] {
                   InventoryInput in;
                   for (const char* node : {"node-1", "node-2", "node-3"}) {
                     in.slices.push_back(MakeSlice("gpu.x", "p", node, {SharedGpu()}));
                     in.slices.MutableBack().spec.pool.name = node;
                   }
                   in.classes = {MakeClass("gpu")};
                   k8s::ResourceClaim share = ShareOf("20Gi");
                   share.status->allocation->devices.results[0].pool = "node-2";
                   in.claims.push_back(share);
                   return in;
                 },
             .claims = {Claim({Memory("a", 1, "30Gi")})},
             .options = Gates("DRAConsumableCapacity=true"), .nodes = {"node-1", "node-3"}},
        // limits (AllocationResultsMaxSize in Allocate), budget
        Case{.name = "MoreThan32ResultsFatal", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 33)})}, .want = VerdictKind::kError,
             .code = "alloc.request.too-many-results"},
        Case{.name = "BudgetExhaustedIsUndecided", .inventory = TwoNodes,
             .claims = {Claim({Exact("gpu", "gpu", 2)})},
             .options = [](AllocatorOptions& o) { o.max_steps = 1; },
             .want = VerdictKind::kUndecided, .code = "alloc.budget.exhausted"}),
    [](const ::testing::TestParamInfo<Case>& param) { return param.param.name; });

TEST(AllocatorResultTest, NodeLocalDevicesPinTheNode) {
  Inventory inv = Inventory::Build(TwoNodes());
  FakeEvaluator eval;
  k8s::ResourceClaimSpec claim = Claim({Exact("gpu", "gpu", 1)});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  ASSERT_EQ(v.allocations.size(), 1u);
  const auto& sel = v.allocations[0].node_selector;
  ASSERT_TRUE(sel.has_value());
  ASSERT_EQ(sel->node_selector_terms.size(), 1u);
  const auto& fields = sel->node_selector_terms[0].match_fields;
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].key, "metadata.name");
  EXPECT_EQ(fields[0].values, std::vector<std::string>{v.node});
}

TEST(AllocatorResultTest, NetworkDevicesLeaveNoSelector) {
  InventoryInput in;
  in.slices = {MakeSlice("nic.x", "fabric", "", Gpus(2, "nic"))};
  in.classes = {MakeClass("nic")};
  Inventory inv = Inventory::Build(std::move(in));
  FakeEvaluator eval;
  k8s::ResourceClaimSpec claim = Claim({Exact("nic", "nic", 1)});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  EXPECT_FALSE(v.allocations[0].node_selector.has_value());
}

TEST(AllocatorResultTest, SelectorsRunOncePerDeviceContent) {
  InventoryInput in = TwoNodes();
  in.slices.push_back(MakeSlice("nic.x", "fabric", "", Gpus(3, "nic")));
  Inventory inv = Inventory::Build(std::move(in));
  FakeEvaluator eval;
  k8s::ResourceClaimSpec claim = Claim({Exact("gpu", "gpu", 1)});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  // 6 node-local GPUs and 3 shared NICs, on two nodes: two device contents, two evaluations.
  EXPECT_EQ(eval.calls(), 2);
}

TEST(AllocatorResultTest, DevicesDifferingInWhatCelSeesAreEvaluatedApart) {
  InventoryInput in;
  in.slices.push_back(MakeSlice("gpu.x", "node-1", "node-1", Gpus(2, "gpu", {"r0", "r1"})));
  in.slices.push_back(MakeSlice("gpu.x", "node-2", "node-2", Gpus(3, "gpu", {"r0", "r1", "r2"})));
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.x\""})};
  Inventory inv = Inventory::Build(std::move(in));
  // The general path (the evaluator does not say what the selector reads).
  FakeEvaluator eval(/*report_reads=*/false);
  k8s::ResourceClaimSpec claim = Claim({Exact("gpu", "gpu", 1)});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  EXPECT_EQ(v.feasible_nodes, (std::vector<std::string>{"node-1", "node-2"}));
  EXPECT_EQ(eval.calls(), 3);  // pcieRoot r0, r1, r2
}

// Which attributes identify devices does not depend on how the drivers' devices interleave
// or on attribute lists that differ from one device to the next (the scan reuses the previous
// device's entries while they match).
TEST(AllocatorResultTest, IdentifyingAttributesAcrossDriversAndUnevenAttributeLists) {
  auto device = [](const std::string& name, std::vector<std::pair<std::string, std::string>> attrs) {
    k8s::Device d;
    d.name = name;
    for (auto& [key, value] : attrs) d.attributes[key].string_value = value;
    return d;
  };
  InventoryInput in;
  for (int n = 0; n < 3; ++n) {
    const std::string i = std::to_string(n);
    const std::string node = "node-" + i;
    in.slices.push_back(MakeSlice(
        "gpu.x", node, node,
        {device("a", {{"model", "m"}, {"serial", "s"}}),
         device("b", {{"model", "m"}, {"zzz", "z-" + i}}), device("c", {{"model", "m"}, {"uuid", "u-c" + i}})}));
    in.slices.push_back(MakeSlice("nic.y", node + "-nic", node,
                                  {device("nic", {{"model", "n" + i}, {"uuid", "same"}})}));
  }
  Inventory inv = Inventory::Build(std::move(in));
  EXPECT_EQ(inv.IdentifyingAttributes(),
            (std::vector<AttributeName>{{.domain = "gpu.x", .name = "uuid"},
                                        {.domain = "gpu.x", .name = "zzz"},
                                        {.domain = "nic.y", .name = "model"}}));
}

// A fleet's GPUs differ in their uuids only: a check whose selectors read no uuid decides one
// device content and searches one node; one that reads the uuid tells them all apart.
TEST(AllocatorResultTest, NodesDifferingOnlyInUuidsAreSearchedOnce) {
  InventoryInput in;
  for (int n = 0; n < 50; ++n) {
    std::vector<k8s::Device> gpus = Gpus(4);
    for (size_t g = 0; g < gpus.size(); ++g) {
      gpus[g].attributes["uuid"].string_value = "u-" + std::to_string(n) + "-" + std::to_string(g);
    }
    const std::string node = "node-" + std::to_string(100 + n);
    in.slices.push_back(MakeSlice("gpu.x", node, node, std::move(gpus)));
  }
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.x\""})};
  Inventory inv = Inventory::Build(std::move(in));
  EXPECT_EQ(inv.IdentifyingAttributes(),
            (std::vector<AttributeName>{{.domain = "gpu.x", .name = "uuid"}}));
  EXPECT_EQ(inv.selector_classes(), 200u);
  EXPECT_EQ(inv.shape_selector_classes(), 1u);

  FakeEvaluator eval;
  k8s::ResourceClaimSpec claim =
      Claim({Exact("gpu", "gpu", 2, {"device.attributes[\"gpu.x\"].model == \"a100\""})});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  EXPECT_EQ(v.feasible_nodes.size(), 50u);
  EXPECT_EQ(v.steps, 2);       // two placements on the first node, none on the 49 others
  EXPECT_EQ(eval.calls(), 2);  // class and request selector, once

  FakeEvaluator pinned;
  claim = Claim({Exact("gpu", "gpu", 1, {"device.attributes[\"gpu.x\"].uuid == \"u-7-3\""})});
  v = CheckClaim(inv, claim, pinned, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  EXPECT_EQ(v.feasible_nodes, (std::vector<std::string>{"node-107"}));
  EXPECT_EQ(v.allocations.at(0).devices.results.at(0).device, "gpu3");
}

TEST(AllocatorResultTest, IdenticalNodesAreSearchedOnce) {
  InventoryInput in;
  std::vector<std::string> names;
  for (int n = 0; n < 50; ++n) {
    names.push_back("node-" + std::to_string(n));
    in.slices.push_back(MakeSlice("gpu.x", names.back(), names.back(), Gpus(4)));
  }
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.x\""})};
  Inventory inv = Inventory::Build(std::move(in));
  FakeEvaluator eval;
  k8s::ResourceClaimSpec claim = Claim({Exact("gpu", "gpu", 2)});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable);
  std::sort(names.begin(), names.end());  // nodes derived from slices are sorted
  EXPECT_EQ(v.feasible_nodes, names);
  EXPECT_EQ(v.steps, 2);  // two placements on the first node, none on the 49 others
}

TEST(AllocatorResultTest, FunnelExplainsTheBestNode) {
  Inventory inv = Inventory::Build(TwoNodes());
  FakeEvaluator eval;
  k8s::ResourceClaimSpec claim = Claim({Exact("gpu", "gpu", 5)});
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kUnsatisfiable);
  ASSERT_EQ(v.funnels.size(), 1u);
  EXPECT_EQ(v.funnels[0].node, "node-2");
  EXPECT_EQ(v.funnels[0].usable, 4);
  EXPECT_EQ(v.funnels[0].cluster_match, 6);
  EXPECT_EQ(v.funnels[0].needed, 5);
}

// Capacities are parsed with the inventory (InventoryDevice::capacity_values, its demands),
// not by each check that tries a device: once the Inventory is built, a check of a request that
// asks for no capacity parses no capacity list (internal::CapacityParsesOnThisThread counts
// them), and the devices of one model share one parsed list.
TEST(AllocatorResultTest, CapacitiesAreParsedOncePerInventory) {
  InventoryInput in;
  std::vector<k8s::Device> gpus;
  for (int i = 0; i < 4; ++i) {
    k8s::Device d = SharedGpu(RangePolicy());
    d.name = "gpu" + std::to_string(i);
    gpus.push_back(std::move(d));
  }
  in.slices = {MakeSlice("gpu.x", "p", "node-1", std::move(gpus))};
  in.classes = {MakeClass("gpu")};
  const size_t before_build = internal::CapacityParsesOnThisThread();
  Inventory inv = Inventory::Build(std::move(in));
  // One content: its values and its demand, parsed once for the four devices.
  EXPECT_EQ(internal::CapacityParsesOnThisThread() - before_build, 2u);
  for (const InventoryDevice& dev : inv.devices()) {
    EXPECT_EQ(dev.capacity_values, inv.devices()[0].capacity_values) << dev.id;
    EXPECT_EQ(dev.unrequested_demand, inv.devices()[0].unrequested_demand) << dev.id;
  }
  FakeEvaluator eval;
  AllocatorOptions options;
  options.gates.SetEnabled(Gate::kDRAConsumableCapacity, true);
  k8s::ResourceClaimSpec claim = Claim({Memory("a", 3, "")});
  const size_t before_checks = internal::CapacityParsesOnThisThread();
  for (int round = 0; round < 2; ++round) {
    AllocationVerdict v = CheckClaim(inv, claim, eval, options);
    EXPECT_EQ(v.kind, VerdictKind::kSatisfiable) << "round " << round << RenderVerdict(v);
  }
  EXPECT_EQ(internal::CapacityParsesOnThisThread(), before_checks);
}

// A fleet whose nodes all differ (PCIe roots numbered per node) and a request no device
// matches: the selectors are decided once per content they can see (the model, not the root),
// and the verdict without searching node by node, with the per-node search's reasons.
TEST(AllocatorResultTest, NoMatchingDeviceIsDecidedClusterWide) {
  InventoryInput in;
  for (int n = 0; n < 50; ++n) {
    const std::string node = "node-" + std::to_string(100 + n);
    const std::string root = "r" + std::to_string(n);
    in.slices.push_back(MakeSlice("gpu.x", node, node, Gpus(4, "gpu", {root, root})));
  }
  in.slices.push_back(MakeSlice("nic.x", "fabric", "", Gpus(2, "nic")));
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.x\""})};
  Inventory inv = Inventory::Build(std::move(in));
  ASSERT_EQ(inv.Groups(AllocatorOptions{}, /*shape=*/true).first.size(), 50u);
  k8s::ResourceClaimSpec claim =
      Claim({Exact("gpu", "gpu", 2, {"device.attributes[\"gpu.x\"].model == \"h100\""})});

  FakeEvaluator eval;
  AllocationVerdict v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  ASSERT_EQ(v.kind, VerdictKind::kUnsatisfiable);
  EXPECT_EQ(v.nodes_searched, 0u);
  EXPECT_LE(eval.calls(), 4);  // per content the selectors read: GPU or NIC, a100
  AllocatorOptions per_node;
  per_node.cluster_wide_decisions = false;
  FakeEvaluator per_node_eval;
  AllocationVerdict searched = CheckClaim(inv, claim, per_node_eval, per_node);
  EXPECT_EQ(searched.nodes_searched, 50u);
  EXPECT_EQ(RenderVerdict(v), RenderVerdict(searched));
  ASSERT_EQ(v.funnels.size(), 1u);
  ASSERT_EQ(searched.funnels.size(), 1u);
  EXPECT_EQ(v.funnels[0].node, searched.funnels[0].node);
  EXPECT_EQ(v.funnels[0].visible, searched.funnels[0].visible);
  EXPECT_EQ(v.funnels[0].class_match, searched.funnels[0].class_match);
  EXPECT_EQ(v.funnels[0].class_match, 4);

  // Some device matches: the nodes are searched (the first one fits).
  claim = Claim({Exact("gpu", "gpu", 2, {"device.attributes[\"gpu.x\"].model == \"a100\""})});
  v = CheckClaim(inv, claim, eval, AllocatorOptions{});
  EXPECT_EQ(v.kind, VerdictKind::kSatisfiable);
  EXPECT_GT(v.nodes_searched, 0u);
}

TEST(AllocatorResultTest, SharesCarryShareIdAndConsumedCapacity) {
  Inventory inv = Inventory::Build(SharedInventory(SharedGpu(RangePolicy())));
  FakeEvaluator eval;
  AllocatorOptions options;
  options.gates.SetEnabled(Gate::kDRAConsumableCapacity, true);
  k8s::ResourceClaimSpec claim = Claim({Memory("a", 1, "15Gi"), Memory("b", 1, "")});
  AllocationVerdict v = CheckClaim(inv, claim, eval, options);
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable) << RenderVerdict(v);
  const auto& results = v.allocations.at(0).devices.results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_NE(results[0].share_id, results[1].share_id);
  EXPECT_EQ(results[0].share_id.size(), 36u);
  EXPECT_EQ(results[0].consumed_capacity.at("memory"), std::to_string(20LL << 30));
  EXPECT_EQ(results[1].consumed_capacity.at("memory"), std::to_string(10LL << 30));
}

}  // namespace
}  // namespace draguard::alloc::testing
