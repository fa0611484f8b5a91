// The selector hot path allocates nothing per evaluation (issue 3, item 3): attribute and
// capacity lookups, comparisons and boolean logic over a prepared device. Counts calls of
// the global operator new, replaced in this binary only.
#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "policy/cel/compiler.h"
#include "policy/cel/dra/device.h"
#include "policy/cel/program.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

#if !defined(__SANITIZE_ADDRESS__)
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace draguard::cel {
namespace {

k8s::DeviceAttribute Str(std::string s) {
  k8s::DeviceAttribute a;
  a.string_value = std::move(s);
  return a;
}

class AllocationTest : public testing::TestWithParam<const char*> {};

TEST_P(AllocationTest, EvaluationDoesNotAllocate) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "operator new is not replaced under AddressSanitizer";
#endif
  SelectorCompileResult compiled = CompileSelector(GetParam(), EnvOptions{});
  ASSERT_TRUE(compiled.ok()) << GetParam();
  StatusOr<Program> program = Plan(*compiled.ast);
  ASSERT_TRUE(program.ok()) << program.status();
  DeviceData data;
  data.driver = "gpu.example.com";
  data.attributes["gpu.example.com/model"] = Str("A100");
  data.attributes["gpu.example.com/count"].int_value = 4;
  data.attributes["gpu.example.com/ecc"].bool_value = true;
  data.capacity["gpu.example.com/memory"] = "80Gi";
  StatusOr<PreparedDevice> device = PreparedDevice::Prepare(data);
  ASSERT_TRUE(device.ok()) << device.status();
  EvalState state;
  ASSERT_TRUE(EvaluateSelector(*program, *device, state).ok());  // warm-up

  const long before = g_allocations.load();
  StatusOr<bool> selected = EvaluateSelector(*program, *device, state);
  const long allocations = g_allocations.load() - before;
  ASSERT_TRUE(selected.ok()) << selected.status();
  EXPECT_TRUE(*selected);
  EXPECT_EQ(allocations, 0) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(
    HotPath, AllocationTest,
    testing::Values(
        R"(device.attributes["gpu.example.com"].model == "A100" && device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0)",
        R"(device.driver == "gpu.example.com")",
        R"(device.attributes["gpu.example.com"].count >= 2 || device.attributes["gpu.example.com"].ecc)",
        R"(has(device.attributes["gpu.example.com"].model) && !(device.attributes["gpu.example.com"].model in ["H100", "B200"]))"));

}  // namespace
}  // namespace draguard::cel
