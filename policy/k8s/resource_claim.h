// ResourceClaim and ResourceClaimTemplate (resource.k8s.io/v1 shape).
#ifndef DRAGUARD_POLICY_K8S_RESOURCE_CLAIM_H_
#define DRAGUARD_POLICY_K8S_RESOURCE_CLAIM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/k8s/meta.h"

namespace draguard::k8s {

inline constexpr char kAllocationModeExactCount[] = "ExactCount";
inline constexpr char kAllocationModeAll[] = "All";

struct CELDeviceSelector {
  std::string expression;
};

struct DeviceSelector {
  std::optional<CELDeviceSelector> cel;  // required by validation
};

struct DeviceToleration {
  std::string key;
  std::string op;  // "operator" in the API; defaulted to "Equal"
  std::string value;
  std::string effect;
  std::optional<int64_t> toleration_seconds;
};

struct CapacityRequirements {
  std::map<std::string, std::string> requests;  // QualifiedName -> Quantity (as written)
};

// Fields shared by ExactDeviceRequest and DeviceSubRequest.
struct DeviceRequestCommon {
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  std::string allocation_mode;  // after defaulting: "ExactCount" unless set
  int64_t count = 0;            // after defaulting: 1 for ExactCount when unset or 0
  bool count_set = false;       // the document wrote `count` (even `count: 0`)
  std::vector<DeviceToleration> tolerations;
  std::optional<CapacityRequirements> capacity;
};

struct ExactDeviceRequest : DeviceRequestCommon {
  std::optional<bool> admin_access;
};

struct DeviceSubRequest : DeviceRequestCommon {
  std::string name;
};

struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  std::vector<DeviceSubRequest> first_available;
};

struct DeviceConstraint {
  std::vector<std::string> requests;
  std::optional<std::string> match_attribute;
  std::optional<std::string> distinct_attribute;
};

// Opaque driver configuration. `parameters_json` is the raw JSON of `parameters`, serialized
// compactly (YAML input is converted); `parameters_raw_size` is the size the API server
// measures (bytes of the JSON it received).
struct OpaqueDeviceConfiguration {
  std::string driver;
  std::optional<std::string> parameters_json;
  size_t parameters_raw_size = 0;
  bool parameters_is_object = false;
};

struct DeviceConfiguration {
  std::optional<OpaqueDeviceConfiguration> opaque;
};

struct DeviceClaimConfiguration : DeviceConfiguration {
  std::vector<std::string> requests;
};

struct DeviceClaim {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
  std::vector<DeviceClaimConfiguration> config;
};

struct ResourceClaimSpec {
  DeviceClaim devices;
};

// --- status ---

struct DeviceRequestAllocationResult {
  std::string request;  // "req" or "req/subreq"
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<bool> admin_access;
  std::vector<DeviceToleration> tolerations;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  std::string share_id;
  std::map<std::string, std::string> consumed_capacity;
};

struct DeviceAllocationConfiguration : DeviceConfiguration {
  std::string source;  // FromClass or FromClaim
  std::vector<std::string> requests;
};

struct DeviceAllocationResult {
  std::vector<DeviceRequestAllocationResult> results;
  std::vector<DeviceAllocationConfiguration> config;
};

struct AllocationResult {
  DeviceAllocationResult devices;
  std::optional<NodeSelector> node_selector;
  std::string allocation_timestamp;
};

struct ResourceClaimConsumerReference {
  std::string api_group;
  std::string resource;
  std::string name;
  std::string uid;
};

struct AllocatedDeviceStatus {
  std::string driver;
  std::string pool;
  std::string device;
  std::string share_id;
  size_t condition_count = 0;
  std::optional<std::string> data_json;
  size_t data_raw_size = 0;
  bool data_is_object = false;
  std::optional<std::string> network_interface_name;
  std::optional<std::string> network_hardware_address;
  std::vector<std::string> network_ips;
};

struct ResourceClaimStatus {
  std::optional<AllocationResult> allocation;
  std::vector<ResourceClaimConsumerReference> reserved_for;
  std::vector<AllocatedDeviceStatus> devices;
};

struct ResourceClaim {
  std::string source_api_version;  // e.g. "resource.k8s.io/v1beta1"
  ObjectMeta metadata;
  ResourceClaimSpec spec;
  std::optional<ResourceClaimStatus> status;
};

struct ResourceClaimTemplate {
  std::string source_api_version;
  ObjectMeta metadata;
  ObjectMeta template_metadata;  // spec.metadata
  ResourceClaimSpec spec;        // spec.spec
};

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_RESOURCE_CLAIM_H_
