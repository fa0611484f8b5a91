#include "policy/common/shared_list.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace draguard {
namespace {

using SharedStrings = SharedList<std::string>;

std::vector<std::string> ValuesOf(const SharedStrings& list) {
  return std::vector<std::string>(list.begin(), list.end());
}

TEST(SharedListTest, ReadsLikeAConstVector) {
  SharedStrings list{"a", "b", "c"};
  EXPECT_EQ(list.size(), 3u);
  EXPECT_EQ(list.front(), "a");
  EXPECT_EQ(list.back(), "c");
  EXPECT_EQ(list.end() - list.begin(), 3);
  EXPECT_EQ(list.begin()[1], "b");
  EXPECT_EQ(ValuesOf(list), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SharedListTest, CopiesShareObjectsAndMutableCopiesOnWrite) {
  SharedStrings a{"x", "y"};
  SharedStrings b = a;
  EXPECT_EQ(a.ptr(0), b.ptr(0));
  b.Mutable(0) = "changed";
  EXPECT_EQ(a[0], "x");
  EXPECT_EQ(b[0], "changed");
  EXPECT_NE(a.ptr(0), b.ptr(0));
  EXPECT_EQ(a.ptr(1), b.ptr(1));  // the unchanged object stays shared
}

TEST(SharedListTest, SoleHolderOfItsOwnObjectWritesInPlace) {
  SharedStrings list;
  list.emplace_back("x");
  const std::string* before = &list[0];
  list.Mutable(0) += "y";
  EXPECT_EQ(&list[0], before);
  EXPECT_EQ(list[0], "xy");
}

// An object handed in as a Ptr may be a const object: writing it in place would be undefined,
// so Mutable copies it even when the list is its only holder, and only once.
TEST(SharedListTest, ObjectHandedInAsPtrIsCopiedBeforeWriting) {
  for (bool through_set : {false, true}) {
    SCOPED_TRACE(through_set ? "Set(i, Ptr)" : "push_back(Ptr)");
    SharedStrings list;
    if (through_set) {
      list.push_back(std::string("placeholder"));
      list.Set(0, std::make_shared<const std::string>("x"));
    } else {
      list.push_back(std::make_shared<const std::string>("x"));
    }
    const std::string* handed_in = &list[0];
    ASSERT_EQ(list.ptr(0).use_count(), 1);
    list.Mutable(0) += "y";
    EXPECT_NE(&list[0], handed_in);
    const std::string* copy = &list[0];
    list.Mutable(0) += "z";
    EXPECT_EQ(&list[0], copy);
    EXPECT_EQ(list[0], "xyz");
  }
}

TEST(SharedListTest, AppendAndEraseKeepWhichObjectsMayBeWritten) {
  SharedStrings source;
  source.push_back(std::make_shared<const std::string>("given"));
  source.emplace_back("made");
  SharedStrings list;
  list.emplace_back("drop");
  list.Append(source);
  source.clear();  // the list is now the only holder of both
  EXPECT_EQ(list.EraseIf([](const std::string& s) { return s == "drop"; }), 1u);
  ASSERT_EQ(ValuesOf(list), (std::vector<std::string>{"given", "made"}));
  const std::string* given = &list[0];
  const std::string* made = &list[1];
  list.Mutable(0) += "!";
  list.Mutable(1) += "!";
  EXPECT_NE(&list[0], given);  // handed in as a Ptr: copied
  EXPECT_EQ(&list[1], made);   // made by a SharedList: written in place
  list.pop_back();
  EXPECT_EQ(ValuesOf(list), (std::vector<std::string>{"given!"}));
}

}  // namespace
}  // namespace draguard
