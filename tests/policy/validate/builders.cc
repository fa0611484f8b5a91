#include "tests/policy/validate/builders.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "policy/diagnostics/codes.h"

namespace draguard::validate::testing {

k8s::ResourceClaim Claim() {
  k8s::ResourceClaim claim;
  claim.source_api_version = "resource.k8s.io/v1";
  claim.metadata.name = "c";
  claim.metadata.name_space = "ns";
  claim.spec.devices.requests.push_back(Exact("gpu"));
  return claim;
}

k8s::ResourceClaimTemplate Template() {
  k8s::ResourceClaimTemplate t;
  t.source_api_version = "resource.k8s.io/v1";
  t.metadata.name = "t";
  t.metadata.name_space = "ns";
  t.spec.devices.requests.push_back(Exact("gpu"));
  return t;
}

k8s::DeviceRequest Exact(std::string name, std::string device_class) {
  k8s::DeviceRequest request;
  request.name = std::move(name);
  request.exactly.emplace();
  request.exactly->device_class_name = std::move(device_class);
  return request;
}

k8s::DeviceSubRequest Sub(std::string name, std::string device_class) {
  k8s::DeviceSubRequest sub;
  sub.name = std::move(name);
  sub.device_class_name = std::move(device_class);
  return sub;
}

k8s::DeviceRequest FirstAvailable(std::string name, std::vector<std::string> subrequests) {
  k8s::DeviceRequest request;
  request.name = std::move(name);
  for (std::string& s : subrequests) request.first_available.push_back(Sub(std::move(s)));
  return request;
}

k8s::DeviceSelector Cel(std::string expression) {
  return k8s::DeviceSelector{.cel = k8s::CELDeviceSelector{.expression = std::move(expression)}};
}

k8s::DeviceConstraint Match(std::string attribute, std::vector<std::string> requests) {
  k8s::DeviceConstraint c;
  c.requests = std::move(requests);
  c.match_attribute = std::move(attribute);
  return c;
}

k8s::DeviceClaimConfiguration Opaque(std::string driver, std::vector<std::string> requests) {
  k8s::DeviceClaimConfiguration config;
  config.requests = std::move(requests);
  config.opaque = k8s::OpaqueDeviceConfiguration{.driver = std::move(driver),
                                                 .parameters_json = R"({"a":1})",
                                                 .parameters_raw_size = 7,
                                                 .parameters_is_object = true};
  return config;
}

k8s::DeviceToleration Toleration(std::string key, std::string op, std::string value,
                                 std::string effect) {
  return k8s::DeviceToleration{.key = std::move(key),
                               .op = std::move(op),
                               .value = std::move(value),
                               .effect = std::move(effect),
                               .toleration_seconds = std::nullopt};
}

k8s::DeviceClass Class() {
  k8s::DeviceClass c;
  c.metadata.name = "gpu-class";
  c.spec.selectors.push_back(Cel("device.driver == \"gpu.example.com\""));
  return c;
}

k8s::ResourceSlice Slice() {
  k8s::ResourceSlice s;
  s.metadata.name = "s";
  s.spec.driver = "gpu.example.com";
  s.spec.pool.name = "pool";
  s.spec.pool.resource_slice_count = 1;
  s.spec.node_name = "node-1";
  return s;
}

k8s::Device Device(std::string name) {
  k8s::Device d;
  d.name = std::move(name);
  return d;
}

k8s::DeviceTaintRule TaintRule() {
  k8s::DeviceTaintRule rule;
  rule.metadata.name = "rule";
  rule.spec.taint = k8s::DeviceTaint{
      .key = "example.com/broken", .value = "", .effect = "NoSchedule", .time_added = ""};
  return rule;
}

std::string Repeat(char c, size_t n) { return std::string(n, c); }

ValidationOptions Options(KubernetesVersion version, std::string_view gates) {
  ValidationOptions options = ValidationOptions::ForVersion(version);
  StatusOr<FeatureGates> parsed = FeatureGates::Parse(gates, version);
  if (!parsed.ok()) {
    std::cerr << "bad gates in test: " << parsed.status() << "\n";
    std::abort();
  }
  options.gates = *parsed;
  return options;
}

std::vector<std::string> Findings(const Diagnostics& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kInfo) continue;
    const diagnostics::CodeInfo* info = diagnostics::FindCode(d.code);
    std::string prefix = info == nullptr ? "UNREGISTERED " : "";
    if (info != nullptr && info->severity != d.severity) prefix = "WRONG-SEVERITY ";
    out.push_back(prefix + (d.is_error() ? "E " : "W ") + d.code + " @ " + d.field);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> findings) {
  std::sort(findings.begin(), findings.end());
  return findings;
}

}  // namespace draguard::validate::testing
