// The jemalloc side of policy/common/heap.cc, against a stand-in for jemalloc's mallctl: this
// test executable defines the symbol heap.cc asks for weakly, as linking jemalloc does. (The
// C library's side is read for real by tests/webhook/server's ProcessMemoryTest; jemalloc
// itself cannot be linked into sanitizer builds, and the soak benchmark reads its figures.)
#include "policy/common/heap.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace {

struct FakeJemalloc {
  std::map<std::string, size_t> stats;  // what reads of "stats.*" return
  std::vector<std::string> calls;       // every name asked for, in order
  bool epoch_advanced = false;          // stats read before an epoch write are stale
};

FakeJemalloc fake;

}  // namespace

extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp,
                       size_t newlen) {
  fake.calls.emplace_back(name);
  const std::string key = name;
  if (key == "epoch") {
    if (newp == nullptr || newlen != sizeof(uint64_t)) return 22;  // EINVAL
    fake.epoch_advanced = true;
    return 0;
  }
  if (key == "arena.4096.purge") return oldp == nullptr && newp == nullptr ? 0 : 22;
  const auto it = fake.stats.find(key);
  if (it == fake.stats.end() || oldp == nullptr || oldlenp == nullptr ||
      *oldlenp != sizeof(size_t)) {
    return 2;  // ENOENT
  }
  const size_t value = fake.epoch_advanced ? it->second : 0;
  std::memcpy(oldp, &value, sizeof value);
  return 0;
}

namespace draguard {
namespace {

class HeapTest : public ::testing::Test {
 protected:
  void SetUp() override { fake = FakeJemalloc{}; }
};

TEST_F(HeapTest, NamesJemallocWhenLinked) { EXPECT_EQ(HeapAllocatorName(), "jemalloc"); }

TEST_F(HeapTest, ReadsFiguresAfterAdvancingTheEpoch) {
  struct Case {
    size_t allocated, resident;
    uint64_t want_in_use, want_free;
  };
  for (const Case& c : std::vector<Case>{{40u << 20, 46u << 20, 40u << 20, 6u << 20},
                                         {8u << 20, 8u << 20, 8u << 20, 0},
                                         // Resident below allocated: pages not yet touched.
                                         {9u << 20, 7u << 20, 9u << 20, 0}}) {
    fake = FakeJemalloc{.stats = {{"stats.allocated", c.allocated},
                                  {"stats.resident", c.resident}}};
    const HeapFigures figures = ReadHeapFigures();
    ASSERT_TRUE(figures.in_use_bytes.has_value());
    ASSERT_TRUE(figures.free_bytes.has_value());
    EXPECT_EQ(*figures.in_use_bytes, c.want_in_use);
    EXPECT_EQ(*figures.free_bytes, c.want_free);
    ASSERT_FALSE(fake.calls.empty());
    EXPECT_EQ(fake.calls.front(), "epoch");
  }
}

TEST_F(HeapTest, NoFiguresWhenAStatisticIsMissing) {
  fake.stats = {{"stats.allocated", 1u << 20}};  // jemalloc built without stats: none
  const HeapFigures figures = ReadHeapFigures();
  EXPECT_FALSE(figures.in_use_bytes.has_value());
  EXPECT_FALSE(figures.free_bytes.has_value());
}

TEST_F(HeapTest, ReleasePurgesEveryArena) {
  ReleaseFreeHeapPages();
  EXPECT_EQ(fake.calls, std::vector<std::string>{"arena.4096.purge"});
}

}  // namespace
}  // namespace draguard
