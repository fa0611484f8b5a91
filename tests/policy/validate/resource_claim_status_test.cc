// ResourceClaim status updates (validation.go `validateResourceClaimStatusUpdate`).
#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "policy/validate/resource_claim.h"
#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

k8s::DeviceRequestAllocationResult Result(std::string request = "gpu") {
  k8s::DeviceRequestAllocationResult r;
  r.request = std::move(request);
  r.driver = "gpu.example.com";
  r.pool = "node-1";
  r.device = "gpu-0";
  return r;
}

k8s::ResourceClaim Allocated() {
  k8s::ResourceClaim c = Claim();
  c.status.emplace();
  c.status->allocation.emplace();
  c.status->allocation->devices.results.push_back(Result());
  return c;
}

struct StatusCase {
  std::string name;
  std::function<void(k8s::ResourceClaim&)> mutate;
  std::vector<std::string> want;
  bool old_allocated = false;
};

void PrintTo(const StatusCase& c, std::ostream* os) { *os << c.name; }

class StatusTest : public ::testing::TestWithParam<StatusCase> {};

TEST(StatusGateTest, DeviceStatusDroppedWhileGateOff) {
  k8s::ResourceClaim claim = Allocated();
  claim.status->devices.push_back(k8s::AllocatedDeviceStatus{});
  Diagnostics d;
  ValidateResourceClaimStatusUpdate(
      Claim(), claim, Options(KubernetesVersion::k1_35, "DRAResourceClaimDeviceStatus=false"), d);
  EXPECT_EQ(Findings(d),
            std::vector<std::string>{"W claim.status.devices.dropped @ status.devices"});
}

TEST_P(StatusTest, Findings) {
  const StatusCase& c = GetParam();
  k8s::ResourceClaim old_claim = c.old_allocated ? Allocated() : Claim();
  k8s::ResourceClaim new_claim = Allocated();
  c.mutate(new_claim);
  ValidationOptions options = Options();
  options.namespace_labels = {{"ns", {}}};
  Diagnostics d;
  ValidateResourceClaimStatusUpdate(old_claim, new_claim, options, d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
}

constexpr char kRes0[] = "status.allocation.devices.results[0]";

INSTANTIATE_TEST_SUITE_P(
    Status, StatusTest,
    ::testing::Values(
        StatusCase{.name = "ValidAllocation", .mutate = [](auto&) {}, .want = {}},
        StatusCase{
            .name = "UnknownRequest",
            .mutate = [](auto& c) { c.status->allocation->devices.results[0].request = "x"; },
            .want = {At("E claim.status.allocation.request.invalid @ ", kRes0) + ".request"}},
        StatusCase{
            .name = "BadDevice",
            .mutate = [](auto& c) { c.status->allocation->devices.results[0].device = "GPU_0"; },
            .want = {At("E claim.status.allocation.device.invalid @ ", kRes0) + ".device"}},
        StatusCase{
            .name = "ThirtyThreeResults",
            .mutate = [](auto& c) { c.status->allocation->devices.results.assign(33, Result()); },
            .want = {"E claim.status.allocation.results.too-many @ "
                     "status.allocation.devices.results"}},
        StatusCase{
            .name = "AllocationImmutable",
            .mutate = [](auto& c) { c.status->allocation->devices.results[0].device = "gpu-1"; },
            .want = {"E claim.status.allocation.immutable @ status.allocation"},
            .old_allocated = true},
        StatusCase{.name = "ReservedForWithoutAllocation",
                   .mutate =
                       [](auto& c) {
                         c.status->allocation.reset();
                         c.status->reserved_for.push_back({"", "pods", "p", "uid-1"});
                       },
                   .want = {"E claim.status.reserved-for.forbidden @ status.reservedFor"}},
        StatusCase{.name = "ReservedForMissingUid",
                   .mutate =
                       [](auto& c) {
                         c.status->reserved_for.push_back({"", "pods", "p", ""});
                       },
                   .want = {"E claim.status.reserved-for.required @ status.reservedFor[0].uid"}},
        StatusCase{.name = "ReservedFor256",
                   .mutate =
                       [](auto& c) {
                         for (int i = 0; i < 256; ++i) {
                           c.status->reserved_for.push_back({"", "pods", "p", std::to_string(i)});
                         }
                       },
                   .want = {}},
        StatusCase{.name = "ReservedFor257",
                   .mutate =
                       [](auto& c) {
                         for (int i = 0; i < 257; ++i) {
                           c.status->reserved_for.push_back({"", "pods", "p", std::to_string(i)});
                         }
                       },
                   .want = {"E claim.status.reserved-for.too-many @ status.reservedFor"}},
        StatusCase{
            .name = "AdminAllocationNeedsLabel",
            .mutate = [](auto& c) { c.status->allocation->devices.results[0].admin_access = true; },
            .want = {At("E claim.admin-access.forbidden @ ", kRes0) + ".adminAccess"}},
        StatusCase{.name = "DeviceStatusNotAllocated",
                   .mutate =
                       [](auto& c) {
                         k8s::AllocatedDeviceStatus s;
                         s.driver = "gpu.example.com";
                         s.pool = "node-1";
                         s.device = "gpu-9";
                         c.status->devices.push_back(s);
                       },
                   .want = {"E claim.status.device.not-allocated @ status.devices[0]"}}),
    [](const auto& test_case) { return test_case.param.name; });

}  // namespace
}  // namespace draguard::validate
