// Builders for small inventories and claims in allocator tests.
#ifndef DRAGUARD_TESTS_POLICY_ALLOCATOR_TEST_INVENTORY_H_
#define DRAGUARD_TESTS_POLICY_ALLOCATOR_TEST_INVENTORY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"

namespace draguard::alloc::testing {

// A device with string attributes ("a" or "dom/a" -> value) and int attributes.
k8s::Device MakeDevice(std::string name, std::map<std::string, std::string> strings = {},
                       std::map<std::string, int64_t> ints = {});
// A slice local to `node` (empty: allNodes) of pool `pool` (generation 1, one slice).
k8s::ResourceSlice MakeSlice(std::string driver, std::string pool, std::string node,
                             std::vector<k8s::Device> devices);
k8s::DeviceClass MakeClass(std::string name, std::vector<std::string> selectors = {});
k8s::DeviceRequest Exact(std::string name, std::string device_class, int64_t count,
                         std::vector<std::string> selectors = {});
k8s::DeviceRequest AllOf(std::string name, std::string device_class,
                         std::vector<std::string> selectors = {});
k8s::DeviceSubRequest Sub(std::string name, std::string device_class, int64_t count,
                          std::vector<std::string> selectors = {});
k8s::DeviceRequest FirstAvailable(std::string name, std::vector<k8s::DeviceSubRequest> subs);
k8s::DeviceConstraint MatchAttr(std::string attribute, std::vector<std::string> requests = {});
k8s::DeviceConstraint DistinctAttr(std::string attribute, std::vector<std::string> requests = {});
// A 1.35 partitionable GPU on node-1 (driver gpu.x, pool p of two slices): a counter set
// gpu0 of memory 8Gi and partitions half0 and half1 (4Gi each) and full (8Gi), all of model
// a100, with DeviceClass gpu.
inventory::ClusterObjects PartitionableGpu();
// A claim whose status allocates the given "driver/pool/device" keys.
k8s::ResourceClaim AllocatedClaim(std::vector<std::string> devices, bool admin = false);

}  // namespace draguard::alloc::testing

#endif  // DRAGUARD_TESTS_POLICY_ALLOCATOR_TEST_INVENTORY_H_
