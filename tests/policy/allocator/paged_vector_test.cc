#include "policy/allocator/internal/paged_vector.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace draguard::alloc::internal {
namespace {

// Counts live entries, so that a test sees every entry of every page made destroyed once.
struct Counted {
  static inline int live = 0;
  int value = 0;
  Counted() { ++live; }
  ~Counted() { --live; }
};

struct Case {
  const char* name;
  size_t size;
  std::vector<size_t> touched;  // written in this order
  int pages;                    // pages made (of 4 entries)
};

TEST(PagedVectorTest, MakesTouchedPagesOnlyAndFreesThem) {
  const Case cases[] = {
      {"untouched", 10, {}, 0},
      {"one entry", 10, {3}, 1},
      {"same page twice", 10, {0, 3}, 1},
      {"first and last", 10, {0, 9}, 2},
      {"every page", 9, {8, 4, 0}, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_EQ(Counted::live, 0);
    {
      PagedVector<Counted, 4> v(c.size);
      for (size_t i = 0; i < c.size; ++i) EXPECT_EQ(v.Find(i), nullptr) << i;
      for (size_t i : c.touched) v[i].value = static_cast<int>(i) + 1;
      EXPECT_EQ(Counted::live, 4 * c.pages);
      for (size_t i : c.touched) {
        ASSERT_NE(v.Find(i), nullptr);
        EXPECT_EQ(v.Find(i)->value, static_cast<int>(i) + 1);
        EXPECT_EQ(&v[i], v.Find(i));  // entries never move
      }
      for (size_t i = 0; i < c.size; ++i) {
        const bool made_page = [&] {
          for (size_t t : c.touched) {
            if (t / 4 == i / 4) return true;
          }
          return false;
        }();
        EXPECT_EQ(v.Find(i) != nullptr, made_page) << i;
      }
    }
    EXPECT_EQ(Counted::live, 0);
  }
}

}  // namespace
}  // namespace draguard::alloc::internal
