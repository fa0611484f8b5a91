#include "policy/common/field_path.h"

#include <gtest/gtest.h>

#include <string>

namespace draguard {
namespace {

TEST(FieldPathTest, BuildsApiServerStylePaths) {
  FieldPath p = FieldPath("spec").Child("devices").Child("requests").Index(0).Child("exactly");
  EXPECT_EQ(p.Child("count").String(), "spec.devices.requests[0].exactly.count");
  EXPECT_EQ(FieldPath().Child("metadata").String(), "metadata");
  EXPECT_EQ(FieldPath("metadata").Child("labels").Key("a/b").String(), "metadata.labels[a/b]");
}

// Paths longer than the inline buffer move to the heap; both kinds build and compare alike.
TEST(FieldPathTest, LongPathsBuildAndCompareLikeShortOnes) {
  const std::string key(120, 'k');
  FieldPath inline_root("metadata");
  FieldPath long_path = inline_root.Child("labels").Key(key);
  EXPECT_EQ(long_path.String(), "metadata.labels[" + key + "]");
  EXPECT_EQ(long_path.Child("x").Index(3).String(), "metadata.labels[" + key + "].x[3]");
  EXPECT_EQ(FieldPath(long_path.String()), long_path);
  EXPECT_FALSE(long_path == inline_root);
  FieldPath copy = long_path;
  EXPECT_EQ(copy.String(), long_path.String());
  EXPECT_EQ(inline_root.String(), "metadata");  // building children left the parent as it was
}

// Every length around the inline capacity (88 bytes) renders the same text.
TEST(FieldPathTest, GrowsAcrossTheInlineCapacity) {
  FieldPath path("r");
  std::string want = "r";
  for (int i = 0; i < 40; ++i) {
    path = path.Child("ab");
    want += ".ab";
    ASSERT_EQ(path.String(), want) << i;
    ASSERT_FALSE(path.empty());
  }
  EXPECT_TRUE(FieldPath().empty());
  EXPECT_EQ(FieldPath(), FieldPath(""));
}

// Validators name a field two steps down with one Child of the dotted name (one path built
// instead of two): the text must be what the two steps give, inline and on the heap.
TEST(FieldPathTest, ChildOfADottedNameIsTheTwoSteps) {
  const FieldPath short_base = FieldPath("spec.devices.config").Index(0);
  const FieldPath long_base = FieldPath("metadata.labels").Key(std::string(100, 'k'));
  for (const FieldPath& base : {short_base, long_base}) {
    EXPECT_EQ(base.Child("opaque.driver"), base.Child("opaque").Child("driver"));
    EXPECT_EQ(base.Child("cel.expression").String(), base.Child("cel").Child("expression").String());
  }
  EXPECT_EQ(FieldPath().Child("cel.expression"), FieldPath().Child("cel").Child("expression"));
}

struct SplitCase {
  const char* path;
  std::vector<FieldPathSegment> want;
};

class SplitFieldPathTest : public testing::TestWithParam<SplitCase> {};

TEST_P(SplitFieldPathTest, RoundTrips) {
  auto got = SplitFieldPath(GetParam().path);
  const auto& want = GetParam().want;
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].kind, want[i].kind) << i;
    EXPECT_EQ(got[i].name, want[i].name) << i;
    EXPECT_EQ(got[i].index, want[i].index) << i;
  }
}

using K = FieldPathSegment::Kind;
INSTANTIATE_TEST_SUITE_P(
    Paths, SplitFieldPathTest,
    testing::Values(
        SplitCase{"", {}},
        SplitCase{"spec", {{K::kField, "spec", 0}}},
        SplitCase{"spec.devices.requests[12].name",
                  {{K::kField, "spec", 0},
                   {K::kField, "devices", 0},
                   {K::kField, "requests", 0},
                   {K::kIndex, "", 12},
                   {K::kField, "name", 0}}},
        SplitCase{"metadata.labels[resource.kubernetes.io/admin-access]",
                  {{K::kField, "metadata", 0},
                   {K::kField, "labels", 0},
                   {K::kKey, "resource.kubernetes.io/admin-access", 0}}},
        SplitCase{"a[x][1]", {{K::kField, "a", 0}, {K::kKey, "x", 0}, {K::kIndex, "", 1}}}));

}  // namespace
}  // namespace draguard
