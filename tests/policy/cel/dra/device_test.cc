// The DRA `device` variable (dynamic-resource-allocation cel/compile.go: `parseQualifiedName`,
// `newStringInterfaceMapWithDefault`) and the scheduler's selector results.
#include "policy/cel/dra/device.h"

#include <gtest/gtest.h>

#include "policy/cel/parser.h"

namespace draguard::cel {
namespace {

DeviceData GpuDevice() {
  DeviceData d;
  d.driver = "gpu.example.com";
  d.attributes["model"].string_value = "A100";
  d.attributes["gpu.example.com/family"].string_value = "ampere";
  d.attributes["numa.example.com/node"].int_value = 1;
  d.attributes["driverVersion"].version_value = "1.2.3";
  d.attributes["ecc-enabled"].bool_value = true;
  d.capacity["memory"] = "80Gi";
  return d;
}

struct SelectorCase {
  const char* expr;
  bool matched = false;
  const char* error = nullptr;  // expected Status message
  bool consumable_capacity = false;
};

void PrintTo(const SelectorCase& c, std::ostream* os) { *os << c.expr; }

class SelectorTest : public testing::TestWithParam<SelectorCase> {};

TEST_P(SelectorTest, EvaluatesLikeTheScheduler) {
  const SelectorCase& c = GetParam();
  StatusOr<PreparedDevice> device =
      PreparedDevice::Prepare(GpuDevice(), {.consumable_capacity = c.consumable_capacity});
  ASSERT_TRUE(device.ok()) << device.status();
  ParseResult parsed = Parse(c.expr);
  ASSERT_TRUE(parsed.ok()) << c.expr;
  StatusOr<Program> program = Plan(*parsed.ast);
  ASSERT_TRUE(program.ok()) << program.status();
  EvalState state;
  StatusOr<bool> result = EvaluateSelector(*program, *device, state);
  if (c.error != nullptr) {
    ASSERT_FALSE(result.ok()) << *result;
    EXPECT_EQ(result.status().message(), c.error);
  } else {
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(*result, c.matched);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SelectorTest,
    testing::Values(
        SelectorCase{.expr = "device.driver == 'gpu.example.com'", .matched = true},
        SelectorCase{.expr = "device.attributes['gpu.example.com'].model == 'A100' && "
                             "device.capacity['gpu.example.com'].memory.compareTo("
                             "quantity('40Gi')) >= 0",
                     .matched = true},
        // Domain rule: unqualified names land in the driver's domain.
        SelectorCase{.expr = "device.attributes['gpu.example.com'].family == 'ampere'",
                     .matched = true},
        SelectorCase{.expr = "device.attributes['numa.example.com'].node == 1", .matched = true},
        SelectorCase{.expr = "device.attributes['gpu.example.com'].ecc",
                     .error = "CEL runtime error: no such key: ecc"},
        SelectorCase{.expr = "device.attributes['gpu.example.com']['ecc']",
                     .error = "CEL runtime error: no such key: ecc"},
        SelectorCase{.expr = "device.attributes['unknown.domain'].x",
                     .error = "CEL runtime error: no such key: x"},
        SelectorCase{.expr = "'ecc' in device.attributes['gpu.example.com']", .matched = false},
        SelectorCase{.expr = "has(device.attributes['gpu.example.com'].ecc)", .matched = false},
        SelectorCase{.expr = "'unknown.domain' in device.attributes", .matched = false},
        SelectorCase{.expr = "'gpu.example.com' in device.attributes", .matched = true},
        SelectorCase{.expr = "device.attributes['unknown.domain'].size() == 0", .matched = true},
        SelectorCase{.expr = "device.attributes[?'unknown.domain'].hasValue()", .matched = true},
        SelectorCase{.expr = "device.attributes['gpu.example.com'].?ecc.orValue(false)",
                     .matched = false},
        SelectorCase{.expr = "device.attributes.gpu.example.com.model == 'A100'",
                     .error = "CEL runtime error: no such key: example"},
        SelectorCase{.expr = "device.attributes['gpu.example.com'].model",
                     .error = "CEL result of type string could not be converted to bool: "
                              "\"A100\""},
        SelectorCase{.expr = "device.attributes['gpu.example.com'].driverVersion.isGreaterThan("
                             "semver('1.0.0'))",
                     .matched = true},
        SelectorCase{.expr = "device.attributes['gpu.example.com']['ecc-enabled']",
                     .matched = true},
        SelectorCase{.expr = "device.attributes['gpu.example.com'].ecc || true", .matched = true},
        SelectorCase{.expr = "device.allowMultipleAllocations",
                     .error = "CEL runtime error: no such key: allowMultipleAllocations"},
        SelectorCase{.expr = "!device.allowMultipleAllocations", .matched = true,
                     .consumable_capacity = true}));

TEST(PreparedDeviceTest, RejectsBadData) {
  DeviceData bad_version = GpuDevice();
  bad_version.attributes["v"].version_value = "v1";
  EXPECT_EQ(PreparedDevice::Prepare(bad_version).status().code(), StatusCode::kInvalidArgument);
  DeviceData bad_capacity = GpuDevice();
  bad_capacity.capacity["mem"] = "1GB";
  EXPECT_EQ(PreparedDevice::Prepare(bad_capacity).status().code(), StatusCode::kInvalidArgument);
  DeviceData empty_attribute = GpuDevice();
  empty_attribute.attributes["none"] = {};
  EXPECT_EQ(PreparedDevice::Prepare(empty_attribute).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draguard::cel
