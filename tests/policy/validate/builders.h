// Small builders of valid model objects for validation tests, and a matcher-friendly view of
// diagnostics: the sorted list of "severity code @ field" strings.
#ifndef DRAGUARD_TESTS_POLICY_VALIDATE_BUILDERS_H_
#define DRAGUARD_TESTS_POLICY_VALIDATE_BUILDERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/k8s/device_class.h"
#include "policy/k8s/resource_claim.h"
#include "policy/k8s/resource_slice.h"
#include "policy/validate/options.h"

namespace draguard::validate::testing {

// A valid claim "c" in namespace "ns" with one request "gpu" (exactly, class "gpu-class").
k8s::ResourceClaim Claim();
k8s::ResourceClaimTemplate Template();
k8s::DeviceRequest Exact(std::string name, std::string device_class = "gpu-class");
k8s::DeviceRequest FirstAvailable(std::string name, std::vector<std::string> subrequests);
k8s::DeviceSubRequest Sub(std::string name, std::string device_class = "gpu-class");
k8s::DeviceSelector Cel(std::string expression);
k8s::DeviceConstraint Match(std::string attribute, std::vector<std::string> requests = {});
k8s::DeviceClaimConfiguration Opaque(std::string driver = "gpu.example.com",
                                     std::vector<std::string> requests = {});
k8s::DeviceToleration Toleration(std::string key, std::string op, std::string value = "",
                                 std::string effect = "");
k8s::DeviceClass Class();
// A valid slice "s" of driver gpu.example.com, pool "pool", nodeName "node-1", no devices.
k8s::ResourceSlice Slice();
k8s::Device Device(std::string name);
k8s::DeviceTaintRule TaintRule();
std::string Repeat(char c, size_t n);

// An expected finding's text with a field path built from a shared prefix:
// At("E code @ ", kPrefix) + ".field".
inline std::string At(std::string_view head, std::string_view tail) {
  return std::string(head) + std::string(tail);
}

// Options for a version with gates parsed from kube syntax (aborts the test on bad gates).
ValidationOptions Options(KubernetesVersion version = KubernetesVersion::k1_35,
                          std::string_view gates = "");

// "E code @ field" / "W code @ field" for every error and warning, sorted. Infos skipped.
std::vector<std::string> Findings(const Diagnostics& diagnostics);

// Expected findings, sorted the same way.
std::vector<std::string> Sorted(std::vector<std::string> findings);

}  // namespace draguard::validate::testing

#endif  // DRAGUARD_TESTS_POLICY_VALIDATE_BUILDERS_H_
