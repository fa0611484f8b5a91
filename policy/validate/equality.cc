#include "policy/validate/equality.h"

#include <tuple>

namespace draguard::validate::internal {
namespace {

bool Eq(const k8s::CELDeviceSelector& a, const k8s::CELDeviceSelector& b);
bool Eq(const k8s::DeviceSelector& a, const k8s::DeviceSelector& b);
bool Eq(const k8s::DeviceToleration& a, const k8s::DeviceToleration& b);
bool Eq(const k8s::CapacityRequirements& a, const k8s::CapacityRequirements& b);
bool Eq(const k8s::ExactDeviceRequest& a, const k8s::ExactDeviceRequest& b);
bool Eq(const k8s::DeviceSubRequest& a, const k8s::DeviceSubRequest& b);
bool Eq(const k8s::DeviceRequest& a, const k8s::DeviceRequest& b);
bool Eq(const k8s::DeviceConstraint& a, const k8s::DeviceConstraint& b);
bool Eq(const k8s::OpaqueDeviceConfiguration& a, const k8s::OpaqueDeviceConfiguration& b);
bool Eq(const k8s::DeviceClaimConfiguration& a, const k8s::DeviceClaimConfiguration& b);
bool Eq(const k8s::DeviceAllocationConfiguration& a, const k8s::DeviceAllocationConfiguration& b);
bool Eq(const k8s::DeviceRequestAllocationResult& a, const k8s::DeviceRequestAllocationResult& b);
bool Eq(const k8s::NodeSelectorRequirement& a, const k8s::NodeSelectorRequirement& b);
bool Eq(const k8s::NodeSelectorTerm& a, const k8s::NodeSelectorTerm& b);
bool Eq(const k8s::NodeSelector& a, const k8s::NodeSelector& b);

template <typename T>
bool EqualVec(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!Eq(a[i], b[i])) return false;
  }
  return true;
}

template <typename T>
bool EqualOpt(const std::optional<T>& a, const std::optional<T>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a.has_value() || Eq(*a, *b);
}

bool Eq(const k8s::CELDeviceSelector& a, const k8s::CELDeviceSelector& b) {
  return a.expression == b.expression;
}
bool Eq(const k8s::DeviceSelector& a, const k8s::DeviceSelector& b) {
  return EqualOpt(a.cel, b.cel);
}
bool Eq(const k8s::DeviceToleration& a, const k8s::DeviceToleration& b) {
  return std::tie(a.key, a.op, a.value, a.effect, a.toleration_seconds) ==
         std::tie(b.key, b.op, b.value, b.effect, b.toleration_seconds);
}
bool Eq(const k8s::CapacityRequirements& a, const k8s::CapacityRequirements& b) {
  return a.requests == b.requests;
}
bool EqCommon(const k8s::DeviceRequestCommon& a, const k8s::DeviceRequestCommon& b) {
  return a.device_class_name == b.device_class_name && EqualVec(a.selectors, b.selectors) &&
         a.allocation_mode == b.allocation_mode && a.count == b.count &&
         EqualVec(a.tolerations, b.tolerations) && EqualOpt(a.capacity, b.capacity);
}
bool Eq(const k8s::ExactDeviceRequest& a, const k8s::ExactDeviceRequest& b) {
  return EqCommon(a, b) && a.admin_access == b.admin_access;
}
bool Eq(const k8s::DeviceSubRequest& a, const k8s::DeviceSubRequest& b) {
  return EqCommon(a, b) && a.name == b.name;
}
bool Eq(const k8s::DeviceRequest& a, const k8s::DeviceRequest& b) {
  return a.name == b.name && EqualOpt(a.exactly, b.exactly) &&
         EqualVec(a.first_available, b.first_available);
}
bool Eq(const k8s::DeviceConstraint& a, const k8s::DeviceConstraint& b) {
  return a.requests == b.requests && a.match_attribute == b.match_attribute &&
         a.distinct_attribute == b.distinct_attribute;
}
bool Eq(const k8s::OpaqueDeviceConfiguration& a, const k8s::OpaqueDeviceConfiguration& b) {
  return a.driver == b.driver && a.parameters_json == b.parameters_json;
}
bool EqConfig(const k8s::DeviceConfiguration& a, const k8s::DeviceConfiguration& b) {
  return EqualOpt(a.opaque, b.opaque);
}
bool Eq(const k8s::DeviceClaimConfiguration& a, const k8s::DeviceClaimConfiguration& b) {
  return EqConfig(a, b) && a.requests == b.requests;
}
bool Eq(const k8s::DeviceAllocationConfiguration& a, const k8s::DeviceAllocationConfiguration& b) {
  return EqConfig(a, b) && a.source == b.source && a.requests == b.requests;
}
bool Eq(const k8s::DeviceRequestAllocationResult& a, const k8s::DeviceRequestAllocationResult& b) {
  return std::tie(a.request, a.driver, a.pool, a.device, a.admin_access, a.binding_conditions,
                  a.binding_failure_conditions, a.share_id, a.consumed_capacity) ==
             std::tie(b.request, b.driver, b.pool, b.device, b.admin_access, b.binding_conditions,
                      b.binding_failure_conditions, b.share_id, b.consumed_capacity) &&
         EqualVec(a.tolerations, b.tolerations);
}
bool Eq(const k8s::NodeSelectorRequirement& a, const k8s::NodeSelectorRequirement& b) {
  return std::tie(a.key, a.op, a.values) == std::tie(b.key, b.op, b.values);
}
bool Eq(const k8s::NodeSelectorTerm& a, const k8s::NodeSelectorTerm& b) {
  return EqualVec(a.match_expressions, b.match_expressions) &&
         EqualVec(a.match_fields, b.match_fields);
}
bool Eq(const k8s::NodeSelector& a, const k8s::NodeSelector& b) {
  return EqualVec(a.node_selector_terms, b.node_selector_terms);
}

}  // namespace

bool Equal(const k8s::DeviceClaim& a, const k8s::DeviceClaim& b) {
  return EqualVec(a.requests, b.requests) && EqualVec(a.constraints, b.constraints) &&
         EqualVec(a.config, b.config);
}

bool Equal(const k8s::ObjectMeta& a, const k8s::ObjectMeta& b) {
  return std::tie(a.name, a.generate_name, a.name_space, a.labels, a.annotations, a.uid,
                  a.resource_version, a.generation, a.finalizers, a.has_deletion_timestamp) ==
         std::tie(b.name, b.generate_name, b.name_space, b.labels, b.annotations, b.uid,
                  b.resource_version, b.generation, b.finalizers, b.has_deletion_timestamp);
}

bool Equal(const k8s::AllocationResult& a, const k8s::AllocationResult& b) {
  return EqualVec(a.devices.results, b.devices.results) &&
         EqualVec(a.devices.config, b.devices.config) &&
         EqualOpt(a.node_selector, b.node_selector) &&
         a.allocation_timestamp == b.allocation_timestamp;
}

bool Equal(const k8s::NodeSelector& a, const k8s::NodeSelector& b) { return Eq(a, b); }

}  // namespace draguard::validate::internal
