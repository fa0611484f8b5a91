// CountCopies (policy/capacity/capacity.h): table tests of what a copy consumes (devices in use,
// counters, constraints, taints, shared pools, unschedulable nodes, budget caps), and the
// per-node counts against the brute-force reference allocator (k copies enumerated) on small
// random inventories. Compiled into allocator_test, which has the reference and generators.
#include "policy/capacity/capacity.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tests/policy/allocator/fake_evaluator.h"
#include "tests/policy/allocator/random_inventory.h"
#include "tests/policy/allocator/reference_allocator.h"
#include "tests/policy/allocator/test_inventory.h"

namespace draguard::capacity {
namespace {

using alloc::testing::AllocatedClaim;
using alloc::testing::Exact;
using alloc::testing::FakeEvaluator;
using alloc::testing::MakeClass;
using alloc::testing::MakeDevice;
using alloc::testing::MakeSlice;
using alloc::testing::MatchAttr;
using alloc::testing::PartitionableGpu;
using inventory::ClusterObjects;

k8s::ResourceClaimSpec CapClaim(std::vector<k8s::DeviceRequest> requests,
                                std::vector<k8s::DeviceConstraint> constraints = {}) {
  k8s::ResourceClaimSpec spec;
  spec.devices.requests = std::move(requests);
  spec.devices.constraints = std::move(constraints);
  return spec;
}

// n devices "<prefix>0".. with attribute numa = numa[i % size] (when given).
std::vector<k8s::Device> CapGpus(int n, const std::string& prefix, std::vector<std::string> numa = {}) {
  std::vector<k8s::Device> out;
  for (int i = 0; i < n; ++i) {
    std::map<std::string, std::string> attrs{{"model", "a100"}};
    if (!numa.empty()) attrs["numa"] = numa[static_cast<size_t>(i) % numa.size()];
    out.push_back(MakeDevice(prefix + std::to_string(i), attrs));
  }
  return out;
}

k8s::Node CapNode(std::string name, bool unschedulable = false) {
  k8s::Node node;
  node.metadata.name = std::move(name);
  node.unschedulable = unschedulable;
  return node;
}

// node-1 with `a` GPUs, node-2 with `b`; class "gpu" takes them all.
ClusterObjects CapTwoNodes(int a, int b) {
  ClusterObjects c;
  c.slices.push_back(MakeSlice("gpu.x", "node-1", "node-1", CapGpus(a, "a")));
  c.slices.push_back(MakeSlice("gpu.x", "node-2", "node-2", CapGpus(b, "b")));
  c.classes = {MakeClass("gpu")};
  c.nodes = {CapNode("node-1"), CapNode("node-2")};
  return c;
}

struct CapCase {
  std::string name;
  std::function<ClusterObjects()> cluster;
  std::vector<k8s::ResourceClaimSpec> claims;
  std::map<std::string, int64_t> nodes;  // every node with its count
  int64_t total = 0;
  bool exact = true;
  std::string code = "";  // a reason of the one-copy verdict with this code
  int64_t max_copies = 64;
};

class CapacityTableTest : public ::testing::TestWithParam<CapCase> {};

TEST_P(CapacityTableTest, Counts) {
  const CapCase& c = GetParam();
  FakeEvaluator evaluator;
  CapacityOptions options{.max_copies = c.max_copies};
  CapacityResult r = CountCopies(c.cluster(), c.claims, evaluator, options);
  std::map<std::string, int64_t> nodes;
  for (const NodeCapacity& n : r.nodes) nodes[n.name] = n.count;
  EXPECT_EQ(nodes, c.nodes);
  EXPECT_TRUE(std::is_sorted(r.nodes.begin(), r.nodes.end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }));
  EXPECT_EQ(r.total, c.total);
  EXPECT_EQ(r.total_exact, c.exact);
  if (!c.code.empty()) {
    EXPECT_TRUE(std::any_of(r.one_copy.reasons.begin(), r.one_copy.reasons.end(),
                            [&](const alloc::Reason& reason) { return reason.code == c.code; }))
        << alloc::RenderVerdict(r.one_copy);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, CapacityTableTest,
    ::testing::Values(
        CapCase{.name = "OneDeviceEach",
                .cluster = [] { return CapTwoNodes(2, 4); },
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 2}, {"node-2", 4}},
                .total = 6},
        CapCase{.name = "TwoDevicesEach",
                .cluster = [] { return CapTwoNodes(3, 4); },
                .claims = {CapClaim({Exact("r", "gpu", 2)})},
                .nodes = {{"node-1", 1}, {"node-2", 2}},
                .total = 3},
        CapCase{.name = "DevicesInUseAreNotCounted",
                .cluster =
                    [] {
                      ClusterObjects c = CapTwoNodes(2, 4);
                      c.claims = {AllocatedClaim({"gpu.x/node-2/b0", "gpu.x/node-2/b1"})};
                      return c;
                    },
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 2}, {"node-2", 2}},
                .total = 4},
        CapCase{.name = "PodOfTwoClaims",
                .cluster = [] { return CapTwoNodes(2, 5); },
                .claims = {CapClaim({Exact("r", "gpu", 1)}), CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 1}, {"node-2", 2}},
                .total = 3},
        CapCase{.name = "SharedCountersLimitPartitions",
                .cluster = PartitionableGpu,
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 2}},
                .total = 2},
        CapCase{.name = "MatchAttributeGroupsDevices",
                .cluster =
                    [] {
                      ClusterObjects c;
                      c.slices = {MakeSlice("gpu.x", "p", "node-1", CapGpus(4, "g", {"0", "0", "0", "1"}))};
                      c.classes = {MakeClass("gpu")};
                      return c;
                    },
                .claims = {CapClaim({Exact("r", "gpu", 2)}, {MatchAttr("numa")})},
                .nodes = {{"node-1", 1}},
                .total = 1},
        CapCase{.name = "TaintedDevicesAreNotCounted",
                .cluster =
                    [] {
                      ClusterObjects c = CapTwoNodes(2, 2);
                      c.slices.Mutable(1).spec.devices[0].taints.push_back(
                          k8s::DeviceTaint{.key = "broken", .effect = "NoSchedule"});
                      return c;
                    },
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 2}, {"node-2", 1}},
                .total = 3},
        CapCase{.name = "NetworkPoolCountsOnceInTheTotal",
                .cluster =
                    [] {
                      ClusterObjects c = CapTwoNodes(0, 0);
                      c.slices.push_back(MakeSlice("gpu.x", "net", "", CapGpus(3, "n")));
                      return c;
                    },
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 3}, {"node-2", 3}},
                .total = 3},
        CapCase{.name = "LocalAndNetworkDevices",
                .cluster =
                    [] {
                      ClusterObjects c = CapTwoNodes(1, 1);
                      c.slices.push_back(MakeSlice("gpu.x", "net", "", CapGpus(2, "n")));
                      return c;
                    },
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 3}, {"node-2", 3}},
                .total = 4},
        CapCase{.name = "UnschedulableNodeCountsNothing",
                .cluster =
                    [] {
                      ClusterObjects c = CapTwoNodes(2, 4);
                      c.nodes.Mutable(1).unschedulable = true;
                      return c;
                    },
                .claims = {CapClaim({Exact("r", "gpu", 1)})},
                .nodes = {{"node-1", 2}, {"node-2", 0}},
                .total = 2,
                .code = "capacity.node.unschedulable"},
        CapCase{.name = "NoRoomExplained",
                .cluster = [] { return CapTwoNodes(1, 1); },
                .claims = {CapClaim({Exact("r", "gpu", 2)})},
                .nodes = {{"node-1", 0}, {"node-2", 0}},
                .total = 0,
                .code = "alloc.request.insufficient-devices"},
        CapCase{.name = "AdminAccessStopsAtTheCap",
                .cluster = [] { return CapTwoNodes(1, 0); },
                .claims = {[] {
                  k8s::DeviceRequest r = Exact("r", "gpu", 1);
                  r.exactly->admin_access = true;
                  return CapClaim({r});
                }()},
                .nodes = {{"node-1", 5}, {"node-2", 0}},
                .total = 5,
                .exact = false,
                .max_copies = 5}),
    [](const ::testing::TestParamInfo<CapCase>& param) { return param.param.name; });

// The reference allocator's answer for k copies: which nodes fit them ("" is the only node
// of an inventory that names none), or nullopt when too large to enumerate or an error.
std::optional<std::vector<std::string>> CapReferenceNodes(const alloc::testing::RandomCase& rc,
                                                          int64_t k) {
  std::vector<k8s::ResourceClaimSpec> copies;
  for (int64_t i = 0; i < k; ++i) copies.insert(copies.end(), rc.claims.begin(), rc.claims.end());
  FakeEvaluator evaluator;
  alloc::testing::ReferenceResult r =
      alloc::testing::ReferenceCheck(rc.input, copies, evaluator, rc.options, 100'000);
  if (r.verdict == alloc::testing::ReferenceVerdict::kTooLarge) return std::nullopt;
  if (r.verdict == alloc::testing::ReferenceVerdict::kError) {
    if (k == 1) return std::vector<std::string>{};
    return std::nullopt;
  }
  for (std::string& n : r.feasible_nodes) {
    if (n.empty()) n = "(any node)";
  }
  return r.feasible_nodes;
}

// Per-node counts against "enumerate every assignment of k copies" for k = 1, 2, ...
TEST(CapacityReferenceTest, PerNodeCountsMatchBruteForce) {
  constexpr int kCapCases = 150;
  constexpr int64_t kCapMax = 4;
  std::mt19937 rng(20261127);
  auto next = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  int compared = 0, positive = 0;
  for (int i = 0; i < kCapCases; ++i) {
    alloc::testing::RandomCase rc = alloc::testing::MakeRandomCase(next);
    std::map<std::string, int64_t> want;
    bool complete = true;
    for (int64_t k = 1; k <= kCapMax; ++k) {
      std::optional<std::vector<std::string>> fit = CapReferenceNodes(rc, k);
      if (!fit) {
        complete = false;
        break;
      }
      for (const std::string& n : *fit) want[n] = k;
      if (fit->empty()) break;
    }
    if (!complete) continue;
    FakeEvaluator evaluator;
    CapacityResult got = CountCopies(rc.input, rc.claims, evaluator,
                                     CapacityOptions{.allocator = rc.options, .max_copies = kCapMax});
    ++compared;
    int64_t sum = 0, max = 0;
    bool all_exact = true;
    for (const NodeCapacity& n : got.nodes) {
      all_exact = all_exact && n.exact;
      const int64_t expected = want.contains(n.name) ? want[n.name] : 0;
      positive += expected > 0;
      sum += n.count;
      max = std::max(max, n.count);
      if (n.exact) {
        EXPECT_EQ(n.count, expected) << "case " << i << " node " << n.name;
        EXPECT_LT(n.count, kCapMax) << "case " << i;
      } else {
        EXPECT_LE(n.count, expected) << "case " << i << " node " << n.name;
      }
    }
    // The total is a placement: never more than the sum, never less than the best node
    // unless a count is only a lower bound.
    // (Admin access: allocated admin-access claims consume nothing, so separate copies can
    // exceed the copies that fit together; such totals are never exact.)
    if (all_exact && got.total_exact) EXPECT_LE(got.total, sum) << "case " << i;
    if (got.total_exact) EXPECT_GE(got.total, max) << "case " << i;
    if (!got.total_exact && got.upper_bound >= 0) EXPECT_GE(got.upper_bound, got.total);
  }
  EXPECT_GT(compared, kCapCases / 4);
  EXPECT_GT(positive, 10);
  std::printf("%d of %d random cases compared, %d node counts above 0\n", compared, kCapCases,
              positive);
}

}  // namespace
}  // namespace draguard::capacity
