#include "tests/policy/allocator/random_inventory.h"

#include <cstddef>
#include <string>

#include "tests/policy/allocator/test_inventory.h"

namespace draguard::alloc::testing {
namespace {

const char* const kRoots[] = {"r0", "r1", "r2"};
const char* const kModels[] = {"x", "y"};
const char* const kSelectors[] = {"device.driver == \"a\"", "device.attributes[\"a\"].model == \"x\"",
                                  "device.attributes[\"a\"].model == \"y\"", "true"};

k8s::DeviceRequestCommon& Common(k8s::DeviceRequest& r) { return *r.exactly; }

void MaybeTolerate(const std::function<uint32_t(uint32_t)>& next, k8s::DeviceRequestCommon& c) {
  if (next(3) == 0) c.tolerations.push_back(k8s::DeviceToleration{.key = "k", .op = "Exists"});
}

// With the consumable-capacity gate: sometimes request 1-3 units of capacity "mem".
void MaybeRequestCapacity(const std::function<uint32_t(uint32_t)>& next, bool gate,
                          k8s::DeviceRequestCommon& c) {
  // Rarely without the gate too (stored while it was on): the channel decides whether the
  // scheduler ignores it or fails the claim.
  if ((gate || next(10) == 0) && next(2)) c.capacity = k8s::CapacityRequirements{{{"mem", std::to_string(1 + next(3))}}};
}

k8s::DeviceRequest RandomRequest(const std::function<uint32_t(uint32_t)>& next, int index,
                                 int& slots, bool& has_all, bool capacity) {
  std::string name = "r" + std::to_string(index);
  std::vector<std::string> sels;
  if (next(2)) sels.push_back(kSelectors[next(4)]);
  uint32_t kind = next(6);
  if (kind == 0 && slots >= 1) {
    has_all = true;
    k8s::DeviceRequest r = AllOf(name, next(2) ? "any" : "drv-a", sels);
    MaybeTolerate(next, Common(r));
    MaybeRequestCapacity(next, capacity, Common(r));
    return r;
  }
  if (kind == 1) {
    std::vector<k8s::DeviceSubRequest> subs;
    int64_t max_count = 0;
    for (uint32_t i = 0, n = 1 + next(2); i < n; ++i) {
      int64_t count = 1 + next(2);
      max_count = std::max(max_count, count);
      subs.push_back(Sub("s" + std::to_string(i), next(2) ? "any" : "model-x", count,
                         next(2) ? std::vector<std::string>{kSelectors[next(4)]}
                                 : std::vector<std::string>{}));
      MaybeTolerate(next, subs.back());
      MaybeRequestCapacity(next, capacity, subs.back());
    }
    slots -= static_cast<int>(max_count);
    return FirstAvailable(name, subs);
  }
  int64_t count = 1 + next(static_cast<uint32_t>(std::max(1, std::min(slots, 3))));
  slots -= static_cast<int>(count);
  k8s::DeviceRequest r = Exact(name, next(3) ? "any" : "drv-a", count, sels);
  if (next(8) == 0) r.exactly->admin_access = true;
  MaybeTolerate(next, Common(r));
  MaybeRequestCapacity(next, capacity, Common(r));
  return r;
}

k8s::ResourceClaimSpec RandomClaim(const std::function<uint32_t(uint32_t)>& next,
                                   const AllocatorOptions& o) {
  k8s::ResourceClaimSpec spec;
  int slots = 4;
  bool has_all = false;
  for (int i = 0, n = 1 + static_cast<int>(next(2)); i < n && slots > 0; ++i) {
    spec.devices.requests.push_back(
        RandomRequest(next, i, slots, has_all, o.gates.Enabled(Gate::kDRAConsumableCapacity)));
  }
  // A constraint over an All request may make the scheduler fail outright (issue #19 item
  // 23): rarer, so that most cases still exercise the search.
  if (has_all ? next(4) == 0 : next(2) != 0) {
    // distinctAttribute without DRAConsumableCapacity too: whether the scheduler honours it
    // depends on the allocator channel the gates select.
    bool distinct = (o.gates.Enabled(Gate::kDRAConsumableCapacity) || next(3) == 0) && next(2);
    std::vector<std::string> reqs;
    if (next(2)) reqs.push_back("r0");
    spec.devices.constraints.push_back(distinct ? DistinctAttr("a/root", reqs)
                                                : MatchAttr("a/root", reqs));
  }
  return spec;
}

// Capacity "mem" of 1-4 units, sometimes with a policy (default 1, range 1..4 step 2).
void MaybeCapacity(const std::function<uint32_t(uint32_t)>& next, k8s::Device& d) {
  d.allow_multiple_allocations = next(2) == 0;
  if (next(3) == 0) return;
  k8s::DeviceCapacity cap{.value = std::to_string(1 + next(4))};
  if (d.allow_multiple_allocations.value_or(false) && next(3) == 0) {
    cap.request_policy = k8s::CapacityRequestPolicy{
        .default_value = "1",
        .valid_range = k8s::CapacityRequestPolicyRange{.min = "1", .max = "4", .step = "2"}};
  }
  d.capacity["mem"] = std::move(cap);
}

// What 1.36 adds to the random cases: list-typed attributes and taint effect None.
struct Extras {
  bool lists = false;        // some `root` attributes are string lists
  bool effect_none = false;  // some taints have effect None
};

// Some devices have binding conditions (pools holding one are searched last by the channels
// that know them; without DRADeviceBindingConditions and DRAResourceClaimDeviceStatus they
// are not allocatable).
void MaybeBindingConditions(const std::function<uint32_t(uint32_t)>& next, k8s::Device& d) {
  if (next(6) != 0) return;
  d.binding_conditions = {"ready"};
  d.binding_failure_conditions = {"failed"};
}

k8s::Device RandomDevice(const std::function<uint32_t(uint32_t)>& next, int id, bool counters,
                         bool taints, bool capacity, const Extras& extras) {
  std::map<std::string, std::string> strings{{"model", kModels[next(2)]}};
  if (next(6) != 0) strings["resource.kubernetes.io/pcieRoot"] = kRoots[next(3)];
  k8s::Device d = MakeDevice("d" + std::to_string(id), strings);
  // A value no other device has (no random draw: the cases stay those of the seed), so that
  // the allocator's shape classes (devices alike but for identifying attributes) differ from
  // its exact ones.
  d.attributes["uuid"].string_value = "uuid-" + std::to_string(id);
  if (extras.lists && next(3) == 0) {
    // One or two roots; a constraint then compares sets.
    std::vector<std::string> roots{kRoots[next(3)]};
    if (next(2)) roots.push_back(kRoots[next(3)]);
    d.attributes["root"].string_values = std::move(roots);
  } else if (next(5) != 0) {
    d.attributes["root"].string_value = kRoots[next(3)];
  }
  if (counters && next(2)) {
    d.consumes_counters.push_back(k8s::DeviceCounterConsumption{
        .counter_set = "s", .counters = {{"c", k8s::Counter{std::to_string(1 + next(2))}}}});
  }
  if (taints && next(4) == 0) {
    const char* effect = extras.effect_none && next(2) ? "None" : "NoSchedule";
    d.taints.push_back(k8s::DeviceTaint{.key = "k", .value = "v", .effect = effect});
  }
  if (capacity) MaybeCapacity(next, d);
  MaybeBindingConditions(next, d);
  return d;
}

}  // namespace

RandomCase MakeRandomCase(const std::function<uint32_t(uint32_t)>& next) {
  RandomCase rc;
  AllocatorOptions& o = rc.options;
  const uint32_t release = next(3);
  o.version = release == 0   ? KubernetesVersion::k1_34
              : release == 1 ? KubernetesVersion::k1_35
                             : KubernetesVersion::k1_36;
  o.gates = FeatureGates(o.version);
  o.gates.SetEnabled(Gate::kDRADeviceTaints, next(2));
  o.gates.SetEnabled(Gate::kDRAConsumableCapacity, next(3) == 0);
  // The allocator channel axis: binding conditions (on by default only in 1.36) flipped in a
  // third of the cases, so that every release runs its stable/incubating/experimental choice.
  if (next(3) == 0) {
    o.gates.SetEnabled(Gate::kDRADeviceBindingConditions,
                       !o.gates.Enabled(Gate::kDRADeviceBindingConditions));
  }
  bool counters = o.version == KubernetesVersion::k1_34 && next(2);
  o.gates.SetEnabled(Gate::kDRAPartitionableDevices, counters || next(4) == 0);
  Extras extras;
  if (o.version == KubernetesVersion::k1_36) {
    // Lists are generated with the gate off too (stored while it was on): scalar comparison.
    o.gates.SetEnabled(Gate::kDRAListTypeAttributes, next(2));
    extras.lists = next(2);
    extras.effect_none = true;
  }
  // A small claim limit makes Allocate's limit error reachable with a few devices.
  if (next(6) == 0) o.max_results_per_claim = 2 + static_cast<int>(next(2));
  o.time_budget = std::chrono::milliseconds(10000);
  int nodes = 1 + static_cast<int>(next(3));
  int device_id = 0;
  for (int p = 0, pools = 1 + static_cast<int>(next(3)); p < pools && device_id < 8; ++p) {
    std::vector<k8s::Device> devices;
    for (int i = 0, n = static_cast<int>(next(4)); i < n && device_id < 8; ++i) {
      devices.push_back(RandomDevice(next, device_id++, counters,
                                     o.gates.Enabled(Gate::kDRADeviceTaints),
                                     o.gates.Enabled(Gate::kDRAConsumableCapacity), extras));
    }
    std::string node = next(5) == 0 ? "" : "n" + std::to_string(next(static_cast<uint32_t>(nodes)));
    k8s::ResourceSlice slice = MakeSlice(next(4) == 0 ? "b" : "a", "p" + std::to_string(p), node,
                                         std::move(devices));
    if (!counters && slice.spec.devices.size() >= 2 && next(3) == 0) {
      // Two slices listed against name order ("-z" before "-a"): 1.36 incubating and
      // experimental search the "-a" devices first (sortSlicesByName), the others in order.
      k8s::ResourceSlice second = slice;
      const auto half = static_cast<std::ptrdiff_t>(slice.spec.devices.size() / 2);
      slice.spec.devices.erase(slice.spec.devices.begin() + half, slice.spec.devices.end());
      second.spec.devices.erase(second.spec.devices.begin(), second.spec.devices.begin() + half);
      slice.metadata.name = slice.spec.pool.name + "-z";
      second.metadata.name = slice.spec.pool.name + "-a";
      slice.spec.pool.resource_slice_count = second.spec.pool.resource_slice_count = 2;
      rc.input.slices.push_back(std::move(slice));
      rc.input.slices.push_back(std::move(second));
      continue;
    }
    if (counters) {
      slice.spec.shared_counters.push_back(
          k8s::CounterSet{.name = "s", .counters = {{"c", k8s::Counter{std::to_string(1 + next(4))}}}});
    }
    rc.input.slices.push_back(std::move(slice));
  }
  rc.input.classes = {MakeClass("any"), MakeClass("drv-a", {"device.driver == \"a\""}),
                      MakeClass("model-x", {"device.attributes[\"a\"].model == \"x\""})};
  std::vector<std::string> used;
  for (const auto& s : rc.input.slices) {
    for (const auto& d : s.spec.devices) {
      if (next(5) == 0) used.push_back(s.spec.driver + "/" + s.spec.pool.name + "/" + d.name);
    }
  }
  if (!used.empty()) rc.input.claims.push_back(AllocatedClaim(used));
  // Committed shares of multi-allocatable devices (consumable capacity).
  std::vector<std::pair<std::string, std::string>> shares;
  for (const auto& s : rc.input.slices) {
    for (const auto& d : s.spec.devices) {
      if (!d.allow_multiple_allocations.value_or(false) || next(3) != 0) continue;
      shares.emplace_back(s.spec.driver + "/" + s.spec.pool.name + "/" + d.name,
                          std::to_string(1 + next(2)));
    }
  }
  if (!shares.empty()) {
    std::vector<std::string> keys;
    for (const auto& [key, amount] : shares) keys.push_back(key);
    k8s::ResourceClaim claim = AllocatedClaim(keys);
    auto& results = claim.status->allocation->devices.results;
    for (size_t i = 0; i < results.size(); ++i) {
      results[i].share_id = "00000000-0000-4000-8000-00000000000" + std::to_string(i % 10);
      results[i].consumed_capacity["mem"] = shares[i].second;
    }
    rc.input.claims.push_back(std::move(claim));
  }
  for (int c = 0, n = 1 + static_cast<int>(next(2)); c < n; ++c) {
    rc.claims.push_back(RandomClaim(next, o));
  }
  return rc;
}

}  // namespace draguard::alloc::testing
