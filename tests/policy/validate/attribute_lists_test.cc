// List-typed device attributes (DRAListTypeAttributes, alpha in 1.36; issue #14 item 3):
// unknown fields before 1.36, dropped with a warning when the gate is off in 1.36, validated
// with it on. Each case states its verdict on 1.34, 1.35, 1.36 (default gates) and 1.36 with
// the gate on.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "policy/validate/resource_slice.h"
#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

struct ListCase {
  std::string name;
  std::function<void(k8s::ResourceSlice&)> mutate;
  std::vector<std::string> want134;  // also 1.35: the fields are unknown there
  std::vector<std::string> want136;  // default gates: DRAListTypeAttributes off
  std::vector<std::string> want136_on;
};

void PrintTo(const ListCase& c, std::ostream* os) { *os << c.name; }

k8s::Device& D0(k8s::ResourceSlice& s) {
  if (s.spec.devices.empty()) s.spec.devices.push_back(Device("gpu-0"));
  return s.spec.devices[0];
}

k8s::DeviceAttribute Ints(std::vector<int64_t> v) {
  k8s::DeviceAttribute a;
  a.int_values = std::move(v);
  return a;
}

k8s::DeviceAttribute Strings(std::vector<std::string> v) {
  k8s::DeviceAttribute a;
  a.string_values = std::move(v);
  return a;
}

class AttributeListTest : public ::testing::TestWithParam<ListCase> {
 protected:
  std::vector<std::string> FindingsOn(KubernetesVersion version, const std::string& gates) {
    k8s::ResourceSlice slice = Slice();
    GetParam().mutate(slice);
    Diagnostics d;
    ValidateResourceSlice(slice, Options(version, gates), d);
    return Findings(d);
  }
};

TEST_P(AttributeListTest, VerdictPerRelease) {
  const ListCase& c = GetParam();
  EXPECT_EQ(FindingsOn(KubernetesVersion::k1_34, ""), Sorted(c.want134)) << "1.34";
  EXPECT_EQ(FindingsOn(KubernetesVersion::k1_35, ""), Sorted(c.want134)) << "1.35";
  EXPECT_EQ(FindingsOn(KubernetesVersion::k1_36, ""), Sorted(c.want136)) << "1.36";
  EXPECT_EQ(FindingsOn(KubernetesVersion::k1_36, "DRAListTypeAttributes=true"),
            Sorted(c.want136_on))
      << "1.36 with DRAListTypeAttributes";
}

constexpr char kAttr[] = "spec.devices[0].attributes[cores]";
std::string At(std::string_view tail) { return std::string(kAttr) + std::string(tail); }

INSTANTIATE_TEST_SUITE_P(
    Lists, AttributeListTest,
    ::testing::Values(
        // docs/k8s-releases.md C.9 D6: the API server drops only the list member, so the
        // attribute is left without a value.
        ListCase{.name = "OnlyList",
                 .mutate = [](auto& s) { D0(s).attributes["cores"] = Ints({1, 2}); },
                 .want134 = {"E decode.unknown-field @ " + At(".ints"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".ints"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136_on = {}},
        ListCase{.name = "ListBesideScalar",
                 .mutate =
                     [](auto& s) {
                       k8s::DeviceAttribute a = Strings({"a"});
                       a.string_value = "a";
                       D0(s).attributes["cores"] = a;
                     },
                 .want134 = {"E decode.unknown-field @ " + At(".strings")},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".strings")},
                 .want136_on = {"E slice.device.attribute.value.invalid @ " + At("")}},
        ListCase{.name = "EmptyList",  // C.9 V13
                 .mutate = [](auto& s) { D0(s).attributes["cores"] = Ints({}); },
                 .want134 = {"E decode.unknown-field @ " + At(".ints"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".ints"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136_on = {"E slice.device.attribute.list.empty @ " + At(".ints")}},
        ListCase{.name = "StringTooLongAndBadVersion",
                 .mutate =
                     [](auto& s) {
                       D0(s).attributes["cores"] = Strings({"ok", Repeat('x', 65)});
                       k8s::DeviceAttribute v;
                       v.version_values = std::vector<std::string>{"1.0.0", "v1"};
                       D0(s).attributes["vers"] = v;
                     },
                 .want134 = {"E decode.unknown-field @ " + At(".strings"),
                             "E slice.device.attribute.value.invalid @ " + At(""),
                             "E decode.unknown-field @ spec.devices[0].attributes[vers].versions",
                             "E slice.device.attribute.value.invalid @ "
                             "spec.devices[0].attributes[vers]"},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".strings"),
                             "E slice.device.attribute.value.invalid @ " + At(""),
                             "W slice.device.list-attribute.dropped @ "
                             "spec.devices[0].attributes[vers].versions",
                             "E slice.device.attribute.value.invalid @ "
                             "spec.devices[0].attributes[vers]"},
                 .want136_on = {"E slice.device.attribute.string.too-long @ " + At(".strings[1]"),
                                "E slice.device.attribute.version.invalid @ "
                                "spec.devices[0].attributes[vers].versions[1]"}},
        // C.9 V12: 48 values per device, a list counting its length.
        ListCase{.name = "FortyNineValues",
                 .mutate =
                     [](auto& s) {
                       D0(s).attributes["cores"] = Strings(std::vector<std::string>(48, "c"));
                       D0(s).attributes["model"].string_value = "x";
                     },
                 .want134 = {"E decode.unknown-field @ " + At(".strings"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".strings"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136_on = {"E slice.device.attribute.values.too-many @ spec.devices[0]"}},
        ListCase{.name = "FortyEightValues",
                 .mutate =
                     [](auto& s) {
                       D0(s).attributes["cores"] = Strings(std::vector<std::string>(47, "c"));
                       D0(s).attributes["model"].string_value = "x";
                     },
                 .want134 = {"E decode.unknown-field @ " + At(".strings"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".strings"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136_on = {}},
        // C.9 V11: a list attribute lowers the device limit to 64
        // (ResourceSliceMaxDevicesWithAdvancedFeatures).
        ListCase{.name = "SixtyFiveDevicesOneWithList",
                 .mutate =
                     [](auto& s) {
                       for (int i = 0; i < 65; ++i) {
                         s.spec.devices.push_back(Device("d" + std::to_string(i)));
                       }
                       k8s::DeviceAttribute a = Ints({1});
                       s.spec.devices[0].attributes["cores"] = a;
                       s.spec.devices[0].attributes["model"].string_value = "x";
                     },
                 .want134 = {"E decode.unknown-field @ " + At(".ints"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136 = {"W slice.device.list-attribute.dropped @ " + At(".ints"),
                             "E slice.device.attribute.value.invalid @ " + At("")},
                 .want136_on = {"E slice.devices.too-many @ spec.devices"}}),
    [](const auto& test_case) { return test_case.param.name; });

}  // namespace
}  // namespace draguard::validate
