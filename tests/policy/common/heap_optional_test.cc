#include "policy/common/heap_optional.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace draguard {
namespace {

using Strings = std::vector<std::string>;

TEST(HeapOptionalTest, BehavesAsOptional) {
  HeapOptional<Strings> a;
  EXPECT_FALSE(a.has_value());
  EXPECT_FALSE(static_cast<bool>(a));
  a = Strings{"x"};
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->size(), 1u);
  EXPECT_TRUE(a == Strings{"x"});
  a.emplace().push_back("y");
  EXPECT_TRUE(a == Strings{"y"});
  a = std::nullopt;
  EXPECT_FALSE(a.has_value());
  EXPECT_FALSE(a == Strings{});
}

TEST(HeapOptionalTest, CopiesAreDeepAndComparedByValue) {
  HeapOptional<Strings> a = Strings{"x", "y"};
  HeapOptional<Strings> b = a;
  b->push_back("z");
  EXPECT_EQ(a->size(), 2u);
  EXPECT_FALSE(a == b);
  b = a;
  EXPECT_TRUE(a == b);
  HeapOptional<Strings> moved = std::move(b);
  EXPECT_TRUE(moved == a);
  EXPECT_TRUE(HeapOptional<Strings>() == HeapOptional<Strings>());
  EXPECT_FALSE(HeapOptional<Strings>() == a);
  // The point of it: one pointer, where std::optional<std::vector<...>> holds the vector.
  EXPECT_EQ(sizeof(HeapOptional<Strings>), sizeof(void*));
}

}  // namespace
}  // namespace draguard
