#include "tests/policy/allocator/test_inventory.h"

#include <utility>

namespace draguard::alloc::testing {
namespace {

std::vector<k8s::DeviceSelector> Selectors(const std::vector<std::string>& exprs) {
  std::vector<k8s::DeviceSelector> out;
  for (const auto& e : exprs) out.push_back(k8s::DeviceSelector{.cel = k8s::CELDeviceSelector{e}});
  return out;
}

}  // namespace

k8s::Device MakeDevice(std::string name, std::map<std::string, std::string> strings,
                       std::map<std::string, int64_t> ints) {
  k8s::Device d;
  d.name = std::move(name);
  for (auto& [k, v] : strings) d.attributes[k].string_value = v;
  for (auto& [k, v] : ints) d.attributes[k].int_value = v;
  return d;
}

k8s::ResourceSlice MakeSlice(std::string driver, std::string pool, std::string node,
                             std::vector<k8s::Device> devices) {
  k8s::ResourceSlice s;
  s.metadata.name = pool + "-slice";
  s.spec.driver = std::move(driver);
  s.spec.pool = k8s::ResourcePool{.name = std::move(pool), .generation = 1,
                                  .resource_slice_count = 1};
  if (node.empty()) {
    s.spec.all_nodes = true;
  } else {
    s.spec.node_name = std::move(node);
  }
  s.spec.devices = std::move(devices);
  return s;
}

k8s::DeviceClass MakeClass(std::string name, std::vector<std::string> selectors) {
  k8s::DeviceClass c;
  c.metadata.name = std::move(name);
  c.spec.selectors = Selectors(selectors);
  return c;
}

static void FillCommon(k8s::DeviceRequestCommon& c, std::string device_class, int64_t count,
                       const std::vector<std::string>& selectors, bool all) {
  c.device_class_name = std::move(device_class);
  c.allocation_mode = all ? k8s::kAllocationModeAll : k8s::kAllocationModeExactCount;
  c.count = all ? 0 : count;
  c.selectors = Selectors(selectors);
}

k8s::DeviceRequest Exact(std::string name, std::string device_class, int64_t count,
                         std::vector<std::string> selectors) {
  k8s::DeviceRequest r;
  r.name = std::move(name);
  r.exactly.emplace();
  FillCommon(*r.exactly, std::move(device_class), count, selectors, false);
  return r;
}

k8s::DeviceRequest AllOf(std::string name, std::string device_class,
                         std::vector<std::string> selectors) {
  k8s::DeviceRequest r;
  r.name = std::move(name);
  r.exactly.emplace();
  FillCommon(*r.exactly, std::move(device_class), 0, selectors, true);
  return r;
}

k8s::DeviceSubRequest Sub(std::string name, std::string device_class, int64_t count,
                          std::vector<std::string> selectors) {
  k8s::DeviceSubRequest s;
  s.name = std::move(name);
  FillCommon(s, std::move(device_class), count, selectors, false);
  return s;
}

k8s::DeviceRequest FirstAvailable(std::string name, std::vector<k8s::DeviceSubRequest> subs) {
  k8s::DeviceRequest r;
  r.name = std::move(name);
  r.first_available = std::move(subs);
  return r;
}

k8s::DeviceConstraint MatchAttr(std::string attribute, std::vector<std::string> requests) {
  return k8s::DeviceConstraint{.requests = std::move(requests),
                               .match_attribute = std::move(attribute)};
}

k8s::DeviceConstraint DistinctAttr(std::string attribute, std::vector<std::string> requests) {
  return k8s::DeviceConstraint{.requests = std::move(requests),
                               .distinct_attribute = std::move(attribute)};
}

k8s::ResourceClaim AllocatedClaim(std::vector<std::string> devices, bool admin) {
  k8s::ResourceClaim claim;
  claim.status.emplace();
  claim.status->allocation.emplace();
  for (const auto& key : devices) {
    size_t a = key.find('/'), b = key.find('/', a + 1);
    k8s::DeviceRequestAllocationResult r;
    r.request = "r";
    r.driver = key.substr(0, a);
    r.pool = key.substr(a + 1, b - a - 1);
    r.device = key.substr(b + 1);
    if (admin) r.admin_access = true;
    claim.status->allocation->devices.results.push_back(r);
  }
  return claim;
}

inventory::ClusterObjects PartitionableGpu() {
  k8s::ResourceSlice counters = MakeSlice("gpu.x", "p", "node-1", {});
  counters.metadata.name = "counters";
  counters.spec.pool.resource_slice_count = 2;
  counters.spec.shared_counters.push_back(
      k8s::CounterSet{.name = "gpu0", .counters = {{"memory", k8s::Counter{"8Gi"}}}});
  std::vector<k8s::Device> parts;
  for (auto [name, mem] : {std::pair{"half0", "4Gi"}, {"half1", "4Gi"}, {"full", "8Gi"}}) {
    k8s::Device d = MakeDevice(name, {{"model", "a100"}});
    d.consumes_counters.push_back(k8s::DeviceCounterConsumption{
        .counter_set = "gpu0", .counters = {{"memory", k8s::Counter{mem}}}});
    parts.push_back(d);
  }
  k8s::ResourceSlice devices = MakeSlice("gpu.x", "p", "node-1", parts);
  devices.metadata.name = "devices";
  devices.spec.pool.resource_slice_count = 2;
  inventory::ClusterObjects c;
  c.slices = {counters, devices};
  c.classes = {MakeClass("gpu")};
  return c;
}

}  // namespace draguard::alloc::testing
