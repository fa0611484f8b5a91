// The real allocator against the brute-force reference on thousands of random inventories.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <memory>
#include <string>
#include <tuple>

#include "policy/allocator/allocator.h"
#include "policy/allocator/internal/device_keys.h"
#include "tests/policy/allocator/fake_evaluator.h"
#include "tests/policy/allocator/random_inventory.h"
#include "tests/policy/allocator/reference_allocator.h"

namespace draguard::alloc::testing {
namespace {

constexpr int kCases = 1500;

// A compact dump of a random case for failure messages.
std::string Describe(const RandomCase& rc) {
  std::string out =
      std::string("version ") + std::string(KubernetesVersionName(rc.options.version)) +
      " lists=" + std::to_string(rc.options.gates.Enabled(Gate::kDRAListTypeAttributes)) +
      " max-results=" + std::to_string(rc.options.max_results_per_claim) +
      " taints=" + std::to_string(rc.options.gates.Enabled(Gate::kDRADeviceTaints)) +
      " partitionable=" + std::to_string(rc.options.gates.Enabled(Gate::kDRAPartitionableDevices)) +
      " consumable=" + std::to_string(rc.options.gates.Enabled(Gate::kDRAConsumableCapacity)) +
      " binding=" + std::to_string(rc.options.gates.Enabled(Gate::kDRADeviceBindingConditions)) +
      " channel=" + std::string(rc.options.channel().name) +
      "\n";
  for (const auto& s : rc.input.slices) {
    out += "slice " + s.metadata.name + " " + s.spec.driver + "/" + s.spec.pool.name + " node=" +
           s.spec.node_name.value_or("*") + "\n";
    for (const auto& cs : s.spec.shared_counters) {
      for (const auto& [n, c] : cs.counters) out += "  counter " + cs.name + "/" + n + "=" + c.value + "\n";
    }
    for (const auto& d : s.spec.devices) {
      out += "  " + d.name;
      for (const auto& [k, a] : d.attributes) {
        out += " " + k + "=" + a.string_value.value_or("?");
        if (a.string_values) {
          out += "[";
          for (const auto& v : *a.string_values) out += v + ",";
          out += "]";
        }
      }
      for (const auto& cc : d.consumes_counters) {
        for (const auto& [n, c] : cc.counters) out += " uses " + n + "=" + c.value;
      }
      for (const auto& t : d.taints) out += " taint " + t.key + ":" + t.effect;
      if (!d.binding_conditions.empty()) out += " binding";
      out += "\n";
    }
  }
  for (const auto& c : rc.input.claims) {
    for (const auto& r : c.status->allocation->devices.results) out += "in use " + r.pool + "/" + r.device + "\n";
  }
  for (const auto& claim : rc.claims) {
    out += "claim\n";
    for (const auto& r : claim.devices.requests) {
      auto common = [&](const k8s::DeviceRequestCommon& c) {
        std::string t = " class=" + c.device_class_name + " mode=" + c.allocation_mode +
                        " count=" + std::to_string(c.count);
        for (const auto& sel : c.selectors) t += " sel=" + sel.cel->expression;
        for (const auto& tol : c.tolerations) t += " tol=" + tol.key;
        return t;
      };
      if (r.exactly) {
        out += "  " + r.name + common(*r.exactly) +
               (r.exactly->admin_access.value_or(false) ? " admin" : "") + "\n";
      }
      for (const auto& sub : r.first_available) out += "  " + r.name + "/" + sub.name + common(sub) + "\n";
    }
    for (const auto& c : claim.devices.constraints) {
      out += "  constraint " + c.match_attribute.value_or("distinct " + c.distinct_attribute.value_or("")) +
             " on " + std::to_string(c.requests.size()) + " requests\n";
    }
  }
  return out;
}

// Whether some device publishes a list-typed attribute.
bool HasList(const RandomCase& rc) {
  for (const auto& s : rc.input.slices) {
    for (const auto& d : s.spec.devices) {
      for (const auto& [name, a] : d.attributes) {
        if (a.has_list()) return true;
      }
    }
  }
  return false;
}

// The cases are split into shards that CTest runs in parallel (the reference search is slow
// under the sanitizers); every shard draws the whole sequence from the same seed and checks
// only its own cases, so the set of cases does not depend on the number of shards.
constexpr int kShards = 10;

// The reference enumerates every assignment; a few random cases have tens of millions (8
// devices, 2 claims of 4 slots: 8^8). Those are skipped, so that no shard takes minutes under
// the sanitizers; the test counts them and insists that they stay rare (4 of the 1,500).
constexpr int64_t kMaxAssignments = 2'000'000;
constexpr int kMaxSkippedPercent = 2;

class DifferentialTest : public ::testing::TestWithParam<int> {};

// A parsed capacity list as a value: "null" or its numbers (the lists are shared pointers).
std::string DifferentialValues(const std::shared_ptr<const std::vector<int64_t>>& values) {
  if (values == nullptr) return "null";
  std::string out = "[";
  for (int64_t v : *values) out += std::to_string(v) + ",";
  return out + "]";
}

// The parts of two verdicts the fast paths must keep: kind, witness node, feasible nodes
// and reasons (code and message).
// The funnel message of `f` as it was first written (one temporary per part), which the
// allocator's message must still equal byte for byte: `needed` is "at least one" for All.
std::string FunnelText(const RequestFunnel& f, const std::string& needed) {
  std::string m = "request " + f.request + ": " + std::to_string(f.cluster_match) +
                  " devices match the selectors in the cluster, at most " +
                  std::to_string(f.usable) + " usable on one node (" + f.node + "), " + needed +
                  " needed";
  m += " [on " + f.node + ": " + std::to_string(f.visible) + " visible, " +
       std::to_string(f.class_match) + " pass the class selectors, " +
       std::to_string(f.selector_match) + " the request selectors, " +
       std::to_string(f.available) + " not allocated, " + std::to_string(f.tolerated) +
       " tolerated, " + std::to_string(f.usable) + " within counters and capacity]";
  return m;
}

// Every alloc.request.insufficient-devices reason of `v` carries the text of its funnel
// (reasons and funnels are added in step).
void ExpectFunnelTexts(const AllocationVerdict& v, int i) {
  size_t f = 0;
  for (const Reason& r : v.reasons) {
    if (r.code != "alloc.request.insufficient-devices") continue;
    ASSERT_LT(f, v.funnels.size()) << "case " << i;
    const RequestFunnel& funnel = v.funnels[f++];
    EXPECT_TRUE(r.message == FunnelText(funnel, std::to_string(funnel.needed)) ||
                r.message == FunnelText(funnel, "at least one"))
        << "case " << i << "\n" << r.message;
  }
}

void ExpectSameVerdict(const AllocationVerdict& want, const AllocationVerdict& got, int i) {
  EXPECT_EQ(got.kind, want.kind) << "case " << i;
  EXPECT_EQ(got.node, want.node) << "case " << i;
  EXPECT_EQ(got.feasible_nodes, want.feasible_nodes) << "case " << i;
  ASSERT_EQ(got.reasons.size(), want.reasons.size()) << "case " << i;
  for (size_t r = 0; r < want.reasons.size(); ++r) {
    EXPECT_EQ(got.reasons[r].code, want.reasons[r].code) << "case " << i;
    EXPECT_EQ(got.reasons[r].message, want.reasons[r].message) << "case " << i;
  }
}

// Everything an incremental Inventory::Build carries or derives, compared with a Build from
// scratch of the same objects: per device, per pool, the classes, the identifying attributes
// and the node groups.
void ExpectSameInventoryAsScratch(const Inventory& want, const Inventory& got,
                                  const AllocatorOptions& options, int i) {
  ASSERT_EQ(got.devices().size(), want.devices().size()) << "case " << i;
  for (size_t id = 0; id < want.devices().size(); ++id) {
    const InventoryDevice& w = want.devices()[id];
    const InventoryDevice& g = got.devices()[id];
    EXPECT_EQ(g.device, w.device) << "case " << i << " device " << id;
    EXPECT_EQ(std::tie(g.slice, g.pool, g.in_use, g.consumes_counters, g.binding_conditions),
              std::tie(w.slice, w.pool, w.in_use, w.consumes_counters, w.binding_conditions))
        << "case " << i << " device " << id;
    EXPECT_EQ(std::tie(g.selector_class, g.fact_class, g.shape_selector_class,
                       g.shape_fact_class),
              std::tie(w.selector_class, w.fact_class, w.shape_selector_class,
                       w.shape_fact_class))
        << "case " << i << " device " << id;
    EXPECT_EQ(DifferentialValues(g.capacity_values), DifferentialValues(w.capacity_values))
        << "case " << i << " device " << id;
    EXPECT_EQ(g.committed_capacity, w.committed_capacity) << "case " << i << " device " << id;
    EXPECT_EQ(DifferentialValues(g.unrequested_demand), DifferentialValues(w.unrequested_demand))
        << "case " << i << " device " << id;
    const DeviceView view = want.View(id);
    EXPECT_EQ(got.FindDevice(view.driver, view.pool, view.name),
              want.FindDevice(view.driver, view.pool, view.name))
        << "case " << i << " device " << id;
    EXPECT_FALSE(got.FindDevice(view.driver, view.pool, std::string(view.name) + "-absent").has_value())
        << "case " << i;
    EXPECT_EQ(g.shares, w.shares) << "case " << i << " device " << id;
    EXPECT_EQ(g.rule_taints.size(), w.rule_taints.size()) << "case " << i << " device " << id;
    for (size_t layout : {kLayoutPool, kLayoutSlice}) {
      EXPECT_EQ(g.counter_scope[layout], w.counter_scope[layout]) << "case " << i;
      ASSERT_EQ(g.draws[layout].has_value(), w.draws[layout].has_value()) << "case " << i;
      if (!w.draws[layout]) continue;
      ASSERT_EQ(g.draws[layout]->size(), w.draws[layout]->size()) << "case " << i;
      for (size_t d = 0; d < w.draws[layout]->size(); ++d) {
        EXPECT_EQ((*g.draws[layout])[d].ordinal, (*w.draws[layout])[d].ordinal) << "case " << i;
        EXPECT_EQ((*g.draws[layout])[d].milli, (*w.draws[layout])[d].milli) << "case " << i;
      }
    }
  }
  ASSERT_EQ(got.pools().size(), want.pools().size()) << "case " << i;
  for (size_t p = 0; p < want.pools().size(); ++p) {
    EXPECT_EQ(got.pools()[p].problems, want.pools()[p].problems) << "case " << i;
    EXPECT_EQ(got.pools()[p].slices, want.pools()[p].slices) << "case " << i;
  }
  EXPECT_EQ(std::make_tuple(got.selector_classes(), got.fact_classes(),
                            got.shape_selector_classes(), got.shape_fact_classes()),
            std::make_tuple(want.selector_classes(), want.fact_classes(),
                            want.shape_selector_classes(), want.shape_fact_classes()))
      << "case " << i;
  for (bool shape : {false, true}) {
    EXPECT_EQ(got.SelectorClassMembers(shape), want.SelectorClassMembers(shape)) << "case " << i;
    EXPECT_EQ(got.Groups(options, shape).group_of, want.Groups(options, shape).group_of)
        << "case " << i;
  }
  EXPECT_EQ(got.IdentifyingAttributes(), want.IdentifyingAttributes()) << "case " << i;
}

// The snapshot before `input` in a webhook under churn: `input` with slice `changed` (by
// index, modulo) edited and its last slice absent; every other slice the same object.
InventoryInput PreviousSnapshot(const InventoryInput& input, size_t changed) {
  InventoryInput before = input;  // shares every object
  if (before.slices.empty()) return before;
  k8s::ResourceSlice& edited = before.slices.Mutable(changed % before.slices.size());
  ++edited.spec.pool.generation;
  if (!edited.spec.devices.empty()) {
    edited.spec.devices[0].attributes["churn"].string_value = "before";
  }
  if (before.slices.size() > 1) before.slices.pop_back();
  return before;
}

TEST_P(DifferentialTest, AgreesWithReferenceOnRandomInventories) {
  const int shard = GetParam();
  std::mt19937 rng(20261122);
  auto next = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  int satisfiable = 0, checked = 0, skipped = 0, errors = 0, list_cases = 0, shape_cases = 0;
  int cluster_wide = 0;
  CheckScratch scratch;  // lent to every case's second check: it must hold no answer
  for (int i = 0; i < kCases; ++i) {
    RandomCase rc = MakeRandomCase(next);
    if (i % kShards != shard) continue;
    FakeEvaluator ref_eval, real_eval, incremental_eval, scratch_eval;
    ReferenceResult want = ReferenceCheck(rc.input, rc.claims, ref_eval, rc.options, kMaxAssignments);
    if (want.verdict == ReferenceVerdict::kTooLarge) {
      ++skipped;
      continue;
    }
    ++checked;
    Inventory inv = Inventory::Build(rc.input);
    std::vector<const k8s::ResourceClaimSpec*> ptrs;
    for (const auto& c : rc.claims) ptrs.push_back(&c);
    AllocationVerdict got = CheckPod(inv, ptrs, real_eval, rc.options);
    ExpectSameVerdict(got, CheckPod(inv, ptrs, scratch_eval, rc.options, &scratch), i);
    VerdictKind expected = want.verdict == ReferenceVerdict::kSatisfiable ? VerdictKind::kSatisfiable
                           : want.verdict == ReferenceVerdict::kError   ? VerdictKind::kError
                                                                         : VerdictKind::kUnsatisfiable;
    satisfiable += want.verdict == ReferenceVerdict::kSatisfiable;
    errors += want.verdict == ReferenceVerdict::kError;
    list_cases += rc.options.gates.Enabled(Gate::kDRAListTypeAttributes) && HasList(rc);
    ASSERT_EQ(got.kind, expected) << "case " << i << "\n" << Describe(rc) << RenderVerdict(got);
    // Every feasible node, not only the first: node grouping must not merge nodes that differ.
    if (inv.node_names().empty()) {
      EXPECT_EQ(got.feasible_nodes.size(), want.feasible_nodes.size()) << "case " << i;
    } else {
      EXPECT_EQ(got.feasible_nodes, want.feasible_nodes) << "case " << i << "\n" << Describe(rc);
    }
    // An incremental Build from the snapshot before (one slice edited, one absent): the same
    // Inventory and answers as from scratch, the shared slices' devices not prepared again.
    {
      Inventory before = Inventory::Build(PreviousSnapshot(rc.input, static_cast<size_t>(i)));
      Inventory incremental =
          Inventory::Build(std::make_shared<const InventoryInput>(rc.input), before);
      ExpectSameInventoryAsScratch(inv, incremental, rc.options, i);
      size_t fresh = 0;  // devices of the slices `before` does not share
      for (size_t s = 0; s < rc.input.slices.size(); ++s) {
        bool shared = false;
        for (const auto& ptr : before.slices().ptrs()) {
          shared = shared || ptr == rc.input.slices.ptr(s);
        }
        if (!shared) fresh += rc.input.slices[s].spec.devices.size();
      }
      EXPECT_EQ(incremental.devices_prepared(), fresh) << "case " << i;
      // The shared slices' devices keep `before`'s parsed capacities: the same lists, not
      // equal copies.
      for (size_t s = 0; s < before.slices().size(); ++s) {
        const auto& ptr = before.slices().ptr(s);
        for (size_t t = 0; t < rc.input.slices.size(); ++t) {
          if (rc.input.slices.ptr(t) != ptr) continue;
          const size_t from = before.SliceDevices(s).first;
          const auto [begin, end] = incremental.SliceDevices(t);
          for (size_t id = begin; id < end; ++id) {
            const InventoryDevice& old_dev = before.devices()[from + (id - begin)];
            EXPECT_EQ(incremental.devices()[id].capacity_values, old_dev.capacity_values)
                << "case " << i << " device " << id;
            EXPECT_EQ(incremental.devices()[id].unrequested_demand, old_dev.unrequested_demand)
                << "case " << i << " device " << id;
          }
        }
      }
      EXPECT_EQ(inv.devices_prepared(), inv.devices().size()) << "case " << i;
      ExpectSameVerdict(got, CheckPod(incremental, ptrs, incremental_eval, rc.options), i);
    }
    // SameSelectorContent against the selector keys it stands for, on every pair of devices.
    {
      // The devices, and copies of the first slice's (equal, other objects).
      std::vector<std::pair<std::string_view, const k8s::Device*>> all;
      for (const auto& slice : rc.input.slices) {
        for (const auto& d : slice.spec.devices) all.emplace_back(slice.spec.driver, &d);
      }
      const std::vector<k8s::Device> copies =
          rc.input.slices.empty() ? std::vector<k8s::Device>() : rc.input.slices[0].spec.devices;
      for (const auto& d : copies) all.emplace_back(rc.input.slices[0].spec.driver, &d);
      std::string a, b;
      for (const auto& [driver, device] : all) {
        for (const auto& [other_driver, other] : all) {
          a.clear();
          b.clear();
          internal::AppendSelectorKey(driver, *device, a);
          internal::AppendSelectorKey(other_driver, *other, b);
          EXPECT_EQ(internal::SameSelectorContent(driver, *device, other_driver, *other), a == b)
              << "case " << i << " " << device->name << " " << other->name;
        }
      }
    }
    // The previous snapshot with one slice republished (a new object, a new generation), its
    // devices' attributes as they are or all made the first device's: the identifying
    // attributes are carried from `before` only when the replaced devices' attributes are the
    // same, and must equal a Build's from scratch either way.
    for (bool same_attributes : {true, false}) {
      if (rc.input.slices.empty()) break;
      InventoryInput republished = rc.input;
      k8s::ResourceSlice& slice =
          republished.slices.Mutable(static_cast<size_t>(i) % rc.input.slices.size());
      ++slice.spec.pool.generation;
      if (!same_attributes) {
        for (auto& d : slice.spec.devices) d.attributes = slice.spec.devices[0].attributes;
      }
      Inventory before = Inventory::Build(std::move(republished));
      auto objects = std::make_shared<const InventoryInput>(rc.input);
      ExpectSameInventoryAsScratch(inv, Inventory::Build(objects, before), rc.options, i);
    }
    // A new slice whose devices equal carried ones (a copy of the first slice, a new object),
    // last or first: the selector classes carried by their hash (Interner::Lazy) meet the
    // equal keys of new devices, or new devices' classes the carried devices' hashes, and
    // must be found, not numbered anew.
    for (bool first : {false, true}) {
      if (rc.input.slices.empty()) break;
      InventoryInput grown = rc.input;  // shares every object with `inv`'s
      grown.slices = {};
      if (first) grown.slices.push_back(k8s::ResourceSlice(rc.input.slices[0]));
      for (size_t s = 0; s < rc.input.slices.size(); ++s) {
        grown.slices.push_back(rc.input.slices.ptr(s));
      }
      if (!first) grown.slices.push_back(k8s::ResourceSlice(rc.input.slices[0]));
      auto objects = std::make_shared<const InventoryInput>(std::move(grown));
      ExpectSameInventoryAsScratch(Inventory::Build(objects), Inventory::Build(objects, inv),
                                   rc.options, i);
    }
    // The cluster-wide decision (no device matches any request) against the per-node search:
    // the same verdict, reasons and funnels.
    AllocatorOptions per_node = rc.options;
    per_node.cluster_wide_decisions = false;
    FakeEvaluator per_node_eval;
    AllocationVerdict searched = CheckPod(inv, ptrs, per_node_eval, per_node);
    cluster_wide += got.nodes_searched == 0 && searched.nodes_searched > 0;
    EXPECT_EQ(RenderVerdict(got), RenderVerdict(searched)) << "case " << i << "\n" << Describe(rc);
    ASSERT_EQ(got.funnels.size(), searched.funnels.size()) << "case " << i;
    for (size_t f = 0; f < got.funnels.size(); ++f) {
      EXPECT_EQ(got.funnels[f].node, searched.funnels[f].node) << "case " << i;
      EXPECT_EQ(got.funnels[f].visible, searched.funnels[f].visible) << "case " << i;
      EXPECT_EQ(got.funnels[f].class_match, searched.funnels[f].class_match) << "case " << i;
    }
    ExpectFunnelTexts(got, i);
    ExpectFunnelTexts(searched, i);
    // Without the witness (the webhook's checks): the same verdict, node, feasible nodes,
    // reasons and funnels, and no allocations.
    AllocatorOptions no_witness = rc.options;
    no_witness.witness = false;
    FakeEvaluator no_witness_eval;
    AllocationVerdict bare = CheckPod(inv, ptrs, no_witness_eval, no_witness);
    EXPECT_TRUE(bare.allocations.empty()) << "case " << i;
    EXPECT_EQ(bare.node, got.node) << "case " << i;
    bare.allocations = got.allocations;
    EXPECT_EQ(RenderVerdict(bare), RenderVerdict(got)) << "case " << i << "\n" << Describe(rc);
    // The fast path (devices alike but for their uuids decided once: the evaluator says what
    // the selectors read) against the general one (it does not): the same verdict, witness
    // node, feasible nodes and reasons.
    FakeEvaluator general_eval(/*report_reads=*/false);
    shape_cases += !inv.IdentifyingAttributes().empty();
    ExpectSameVerdict(CheckPod(inv, ptrs, general_eval, rc.options), got, i);
  }
  // The generator must exercise both answers (about one case in ten is satisfiable).
  EXPECT_GT(satisfiable, 0);
  EXPECT_LT(satisfiable, checked);
  EXPECT_LE(skipped * 100, (checked + skipped) * kMaxSkippedPercent) << skipped << " skipped";
  // The 1.36 axis: scheduler errors and set semantics of list attributes occur in every shard.
  EXPECT_GT(errors, 0);
  EXPECT_GT(list_cases, 0);
  // Some cases have no device matching any request (about one in ten).
  EXPECT_GT(cluster_wide, 0);
  // Every device has a uuid: the fast path runs in (nearly) every case.
  EXPECT_GT(shape_cases * 2, checked);
  std::printf("shard %d: %d cases checked (%d satisfiable, %d errors, %d with list semantics, "
              "%d decided cluster-wide), %d skipped as too large\n",
              shard, checked, satisfiable, errors, list_cases, cluster_wide, skipped);
}

INSTANTIATE_TEST_SUITE_P(Shards, DifferentialTest, ::testing::Range(0, kShards));

}  // namespace
}  // namespace draguard::alloc::testing
