// The CEL adapter: selector outcomes on prepared devices, caching, and a whole check with
// real CEL selectors.
#include "policy/allocator/cel_evaluator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "policy/allocator/allocator.h"
#include "tests/policy/allocator/test_inventory.h"

namespace draguard::alloc::testing {
namespace {

k8s::Device RichGpu(std::string name) {
  k8s::Device d = MakeDevice(std::move(name), {{"model", "h100"}}, {{"memoryGiB", 80}});
  d.attributes["healthy"].bool_value = true;
  d.attributes["driverVersion"].version_value = "1.4.2";
  d.attributes["resource.kubernetes.io/pcieRoot"].string_value = "pci0000:00";
  d.capacity["memory"] = k8s::DeviceCapacity{.value = "80Gi"};
  return d;
}

InventoryInput OneGpu(k8s::Device device) {
  InventoryInput in;
  in.slices = {MakeSlice("gpu.example.com", "node-1", "node-1", {std::move(device)})};
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.example.com\""})};
  return in;
}

struct EvalCase {
  std::string name;
  std::string expression;
  SelectorOutcome want;
  std::string error = "";  // substring of the error text
  bool consumable_capacity = false;
};

class CelEvaluatorTest : public ::testing::TestWithParam<EvalCase> {};

TEST_P(CelEvaluatorTest, Outcome) {
  const EvalCase& c = GetParam();
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  AllocatorOptions options;
  options.gates.SetEnabled(Gate::kDRAConsumableCapacity, c.consumable_capacity);
  CelSelectorEvaluator eval(options);
  SelectorResult r = eval.Evaluate(c.expression, inv.View(0));
  EXPECT_EQ(static_cast<int>(r.outcome), static_cast<int>(c.want)) << r.error;
  if (!c.error.empty()) {
    EXPECT_NE(r.error.find(c.error), std::string::npos) << r.error;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Selectors, CelEvaluatorTest,
    ::testing::Values(
        EvalCase{.name = "Driver", .expression = "device.driver == \"gpu.example.com\"",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "BareAttributeInDriverDomain",
                 .expression = "device.attributes[\"gpu.example.com\"].model == \"h100\"",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "IntAttribute",
                 .expression = "device.attributes[\"gpu.example.com\"].memoryGiB >= 100",
                 .want = SelectorOutcome::kNoMatch},
        EvalCase{.name = "BoolAttribute",
                 .expression = "device.attributes[\"gpu.example.com\"].healthy",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "QualifiedAttribute",
                 .expression =
                     "device.attributes[\"resource.kubernetes.io\"].pcieRoot == \"pci0000:00\"",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "Semver",
                 .expression = "device.attributes[\"gpu.example.com\"].driverVersion"
                               ".isGreaterThan(semver(\"1.2.0\"))",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "Quantity",
                 .expression = "device.capacity[\"gpu.example.com\"].memory"
                               ".compareTo(quantity(\"40Gi\")) >= 0",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "UnknownDomainIsEmptyMap",
                 .expression = "\"x\" in device.attributes[\"other.io\"]",
                 .want = SelectorOutcome::kNoMatch},
        EvalCase{.name = "MissingKeyIsRuntimeError",
                 .expression = "device.attributes[\"gpu.example.com\"].ecc",
                 .want = SelectorOutcome::kError, .error = "no such key"},
        EvalCase{.name = "AndAbsorbsError",
                 .expression = "device.driver == \"nic.example.com\" && "
                               "device.attributes[\"gpu.example.com\"].ecc",
                 .want = SelectorOutcome::kNoMatch},
        EvalCase{.name = "CompileErrorIsError", .expression = "device.drver == \"x\"",
                 .want = SelectorOutcome::kError, .error = "compilation failed"},
        EvalCase{.name = "AllowMultipleAllocationsNeedsGate",
                 .expression = "!device.allowMultipleAllocations",
                 .want = SelectorOutcome::kError},
        EvalCase{.name = "AllowMultipleAllocationsWithGate",
                 .expression = "!device.allowMultipleAllocations",
                 .want = SelectorOutcome::kMatch, .consumable_capacity = true}),
    [](const ::testing::TestParamInfo<EvalCase>& param_info) { return param_info.param.name; });

TEST(CelEvaluatorCacheTest, CompilesEachExpressionOnceAndPreparesEachDeviceOnce) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  in.slices[0].spec.devices.push_back(RichGpu("gpu1"));
  Inventory inv = Inventory::Build(std::move(in));
  CelSelectorEvaluator eval(AllocatorOptions{}, std::make_shared<cel::SelectorCache>());
  for (int round = 0; round < 3; ++round) {
    for (size_t id = 0; id < 2; ++id) {
      EXPECT_EQ(eval.Evaluate("device.driver == \"gpu.example.com\"", inv.View(id)).outcome,
                SelectorOutcome::kMatch);
      EXPECT_EQ(eval.Evaluate("device.attributes[\"gpu.example.com\"].healthy", inv.View(id))
                    .outcome,
                SelectorOutcome::kMatch);
    }
  }
  EXPECT_EQ(eval.compiled_count(), 2u);
  EXPECT_EQ(eval.prepared_count(), 2u);
}

TEST(CelEvaluatorCheckTest, ChecksAClaimWithRealSelectors) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  k8s::Device old = RichGpu("gpu1");
  old.attributes["driverVersion"].version_value = "1.0.0";
  in.slices[0].spec.devices.push_back(old);
  Inventory inv = Inventory::Build(std::move(in));
  AllocatorOptions options;
  CelSelectorEvaluator eval(options);
  k8s::ResourceClaimSpec claim;
  claim.devices.requests = {Exact(
      "gpu", "gpu", 1,
      {"device.attributes[\"gpu.example.com\"].driverVersion.isLessThan(semver(\"1.2.0\"))"})};
  AllocationVerdict v = CheckClaim(inv, claim, eval, options);
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable) << RenderVerdict(v);
  ASSERT_EQ(v.allocations.size(), 1u);
  EXPECT_EQ(v.allocations[0].devices.results.at(0).device, "gpu1");

  claim.devices.requests = {Exact("gpu", "gpu", 1, {"device.attributes[\"gpu.example.com\"].ecc"})};
  CelSelectorEvaluator fresh(options);
  v = CheckClaim(inv, claim, fresh, options);
  EXPECT_EQ(v.kind, VerdictKind::kError) << RenderVerdict(v);
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_EQ(v.reasons[0].code, "alloc.selector.error");
}

}  // namespace
}  // namespace draguard::alloc::testing
