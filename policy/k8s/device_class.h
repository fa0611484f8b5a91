// DeviceClass (resource.k8s.io/v1 shape).
#ifndef DRAGUARD_POLICY_K8S_DEVICE_CLASS_H_
#define DRAGUARD_POLICY_K8S_DEVICE_CLASS_H_

#include <optional>
#include <string>
#include <vector>

#include "policy/k8s/meta.h"
#include "policy/k8s/resource_claim.h"

namespace draguard::k8s {

struct DeviceClassConfiguration : DeviceConfiguration {};

struct DeviceClassSpec {
  std::vector<DeviceSelector> selectors;
  std::vector<DeviceClassConfiguration> config;
  std::optional<std::string> extended_resource_name;
};

struct DeviceClass {
  std::string source_api_version;
  ObjectMeta metadata;
  DeviceClassSpec spec;
};

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_DEVICE_CLASS_H_
