// IsDefaulted against DefaultDeviceClaim, the rules it mirrors: a claim it calls defaulted is
// left unchanged by DefaultDeviceClaim, and every claim is defaulted after it. DropsNothing
// against DropDisabledDeviceClaimFields likewise, under gates on and off and with an old
// claim that uses the fields (the validators use a claim in place when both say so).
#include "policy/validate/defaults.h"

#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "policy/validate/equality.h"

namespace draguard::validate {
namespace {

// The fields DefaultDeviceClaim may change, of every request and subrequest, as text.
std::string DefaultedFields(const k8s::DeviceClaim& claim) {
  std::string out;
  auto common = [&](const k8s::DeviceRequestCommon& c) {
    out += c.allocation_mode + "/" + std::to_string(c.count);
    for (const k8s::DeviceToleration& t : c.tolerations) out += "/" + t.op;
    out += ";";
  };
  for (const k8s::DeviceRequest& r : claim.requests) {
    if (r.exactly) common(*r.exactly);
    for (const k8s::DeviceSubRequest& s : r.first_available) common(s);
  }
  return out;
}

k8s::ExactDeviceRequest Exact(std::string mode, int64_t count, std::vector<std::string> ops = {}) {
  k8s::ExactDeviceRequest r;
  r.device_class_name = "gpu";
  r.allocation_mode = std::move(mode);
  r.count = count;
  for (std::string& op : ops) r.tolerations.push_back({.key = "k", .op = std::move(op)});
  return r;
}

TEST(IsDefaultedTest, AgreesWithDefaultDeviceClaim) {
  struct Case {
    std::string name;
    k8s::DeviceClaim claim;
    bool defaulted;  // by the rules: mode set, ExactCount with a count, every operator set
  };
  auto one = [](k8s::ExactDeviceRequest r) {
    return k8s::DeviceClaim{.requests = {{.name = "r", .exactly = std::move(r)}}};
  };
  auto sub = [](std::string mode, int64_t count) {
    k8s::DeviceSubRequest s;
    s.name = "s";
    s.allocation_mode = std::move(mode);
    s.count = count;
    return k8s::DeviceClaim{.requests = {{.name = "r", .first_available = {s}}}};
  };
  const std::vector<Case> cases = {
      {"empty claim", {}, true},
      {"exact count set", one(Exact("ExactCount", 2)), true},
      {"all", one(Exact("All", 0)), true},
      {"mode unset", one(Exact("", 2)), false},
      {"count zero", one(Exact("ExactCount", 0)), false},
      {"operators set", one(Exact("ExactCount", 1, {"Equal", "Exists"})), true},
      {"an operator unset", one(Exact("ExactCount", 1, {"Exists", ""})), false},
      {"subrequest defaulted", sub("ExactCount", 1), true},
      {"subrequest mode unset", sub("", 1), false},
      {"subrequest count zero", sub("ExactCount", 0), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(IsDefaulted(c.claim), c.defaulted) << c.name;
    k8s::DeviceClaim copy = c.claim;
    DefaultDeviceClaim(copy);
    EXPECT_TRUE(IsDefaulted(copy)) << c.name;
    EXPECT_EQ(DefaultedFields(copy) == DefaultedFields(c.claim), c.defaulted) << c.name;
  }
}


TEST(DropsNothingTest, AgreesWithDropDisabledDeviceClaimFields) {
  auto one = [](k8s::ExactDeviceRequest r) {
    return k8s::DeviceClaim{.requests = {{.name = "r", .exactly = std::move(r)}}};
  };
  k8s::ExactDeviceRequest tolerations = Exact("ExactCount", 1, {"Exists"});
  k8s::ExactDeviceRequest capacity = Exact("ExactCount", 1);
  capacity.capacity.emplace().requests["memory"] = "1Gi";
  k8s::ExactDeviceRequest admin = Exact("ExactCount", 1);
  admin.admin_access = true;
  k8s::DeviceSubRequest sub;
  sub.name = "s";
  sub.allocation_mode = "ExactCount";
  sub.count = 1;
  k8s::DeviceSubRequest sub_tolerations = sub;
  sub_tolerations.tolerations.push_back({.key = "k", .op = "Exists"});
  auto first = [](k8s::DeviceSubRequest s) {
    return k8s::DeviceClaim{.requests = {{.name = "r", .first_available = {std::move(s)}}}};
  };
  k8s::DeviceClaim distinct = one(Exact("ExactCount", 1));
  distinct.constraints.push_back({.requests = {"r"}, .distinct_attribute = "a.b/c"});
  const std::vector<std::pair<std::string, k8s::DeviceClaim>> claims = {
      {"empty", {}},
      {"plain", one(Exact("ExactCount", 2))},
      {"tolerations", one(tolerations)},
      {"capacity", one(capacity)},
      {"admin access", one(admin)},
      {"first available", first(sub)},
      {"subrequest tolerations", first(sub_tolerations)},
      {"distinct attribute", distinct},
  };
  // Each gate off, then on, as far as the default release lets it be set (a gate locked on
  // keeps its value: Set fails and is ignored).
  for (const bool enabled : {false, true}) {
    ValidationOptions options;
    for (std::string_view gate : {"DRADeviceTaints", "DRAConsumableCapacity", "DRAAdminAccess",
                                  "DRAPrioritizedList"}) {
      (void)options.gates.Set(gate, enabled);
    }
    const std::string gates = enabled ? "gates on" : "gates off";
    bool some_dropped = false;  // so that the comparison is made both ways
    for (const auto& [name, claim] : claims) {
      for (const k8s::DeviceClaim* old : {static_cast<const k8s::DeviceClaim*>(nullptr), &claim}) {
        k8s::DeviceClaim copy = claim;
        Diagnostics d;
        DropDisabledDeviceClaimFields(copy, old, options, FieldPath("spec.devices"), d);
        EXPECT_EQ(DropsNothing(claim, old, options), internal::Equal(copy, claim))
            << name << " " << gates << (old ? " with old" : "");
        some_dropped = some_dropped || !internal::Equal(copy, claim);
      }
    }
    if (!enabled) {
      EXPECT_TRUE(some_dropped);
    }
  }
}

}  // namespace
}  // namespace draguard::validate
