// DeviceClass create and update validation (validation.go `ValidateDeviceClass*`).
#include "policy/validate/device_class.h"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

struct ClassCase {
  std::string name;
  std::function<void(k8s::DeviceClass&)> mutate;
  std::vector<std::string> want;
  std::string gates;
};

void PrintTo(const ClassCase& c, std::ostream* os) { *os << c.name; }

class DeviceClassTest : public ::testing::TestWithParam<ClassCase> {};

TEST_P(DeviceClassTest, Findings) {
  const ClassCase& c = GetParam();
  k8s::DeviceClass dc = Class();
  if (c.mutate) c.mutate(dc);
  Diagnostics d;
  ValidateDeviceClass(dc, Options(KubernetesVersion::k1_35, c.gates), d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
}

k8s::DeviceClassConfiguration ClassConfig() {
  k8s::DeviceClassConfiguration config;
  config.opaque = Opaque().opaque;
  return config;
}

INSTANTIATE_TEST_SUITE_P(
    Class, DeviceClassTest,
    ::testing::Values(
        ClassCase{.name = "Valid", .mutate = nullptr, .want = {}},
        ClassCase{.name = "NamespaceIgnored",
                  .mutate = [](auto& c) { c.metadata.name_space = "ns"; },
                  .want = {"W meta.namespace.ignored @ metadata.namespace"}},
        ClassCase{.name = "Name254",
                  .mutate = [](auto& c) { c.metadata.name = Repeat('a', 254); },
                  .want = {"E meta.name.invalid @ metadata.name"}},
        ClassCase{.name = "ThirtyThreeSelectors",
                  .mutate = [](auto& c) { c.spec.selectors.assign(33, Cel("true")); },
                  .want = {"E selector.too-many @ spec.selectors"}},
        ClassCase{.name = "SelectorTooLong",
                  .mutate = [](auto& c) { c.spec.selectors[0] = Cel(Repeat('y', 10241)); },
                  .want = {"E selector.expression.too-long @ spec.selectors[0].cel.expression"}},
        ClassCase{.name = "ThirtyTwoConfigs",
                  .mutate = [](auto& c) { c.spec.config.assign(32, ClassConfig()); },
                  .want = {}},
        ClassCase{.name = "ThirtyThreeConfigs",
                  .mutate = [](auto& c) { c.spec.config.assign(33, ClassConfig()); },
                  .want = {"E class.config.too-many @ spec.config"}},
        ClassCase{.name = "ConfigParametersMissing",
                  .mutate =
                      [](auto& c) {
                        c.spec.config.push_back(ClassConfig());
                        c.spec.config[0].opaque->parameters_json.reset();
                      },
                  .want = {"E config.parameters.required @ spec.config[0].opaque.parameters"}},
        ClassCase{.name = "ExtendedResourceDroppedWhileGateOff",
                  .mutate = [](auto& c) { c.spec.extended_resource_name = "bad"; },
                  .want = {"W class.extended-resource-name.dropped @ spec.extendedResourceName"}},
        ClassCase{.name = "ExtendedResourceValid",
                  .mutate = [](auto& c) { c.spec.extended_resource_name = "example.com/gpu"; },
                  .want = {},
                  .gates = "DRAExtendedResource=true"},
        ClassCase{.name = "ExtendedResourceNative",
                  .mutate = [](auto& c) { c.spec.extended_resource_name = "kubernetes.io/gpu"; },
                  .want = {"E class.extended-resource-name.invalid @ spec.extendedResourceName"},
                  .gates = "DRAExtendedResource=true"},
        ClassCase{.name = "ExtendedResourceUnprefixed",
                  .mutate = [](auto& c) { c.spec.extended_resource_name = "gpu"; },
                  .want = {"E class.extended-resource-name.invalid @ spec.extendedResourceName"},
                  .gates = "DRAExtendedResource=true"}),
    [](const auto& test_case) { return test_case.param.name; });

TEST(DeviceClassUpdateTest, UnchangedSelectorsCompileAsStored) {
  k8s::DeviceClass old_class = Class();
  k8s::DeviceClass new_class = Class();
  new_class.metadata.labels["a"] = "b";
  std::vector<SelectorKind> kinds;
  ValidationOptions options = Options();
  options.selector_checker = [&](std::string_view, const FieldPath&, SelectorKind kind,
                                 Diagnostics&, cel::CompiledSelectors*) {
    kinds.push_back(kind);
  };
  Diagnostics d;
  ValidateDeviceClassUpdate(old_class, new_class, options, d);
  new_class.spec.selectors[0] = Cel("false");
  ValidateDeviceClassUpdate(old_class, new_class, options, d);
  EXPECT_EQ(kinds, (std::vector<SelectorKind>{SelectorKind::kStoredExpression,
                                              SelectorKind::kNewExpression}));
  EXPECT_TRUE(d.empty());
}

}  // namespace
}  // namespace draguard::validate
