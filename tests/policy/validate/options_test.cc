#include "policy/validate/options.h"

#include <gtest/gtest.h>

#include <ostream>

namespace draguard::validate {
namespace {

TEST(NamespaceLabelsTest, Parse) {
  NamespaceLabels labels;
  ASSERT_TRUE(ParseNamespaceLabels(
                  "team-a:resource.kubernetes.io/admin-access=true, team-a:x=, team-b:", labels)
                  .ok());
  EXPECT_EQ(labels, (NamespaceLabels{
                        {"team-a", {{"resource.kubernetes.io/admin-access", "true"}, {"x", ""}}},
                        {"team-b", {}}}));
  EXPECT_FALSE(ParseNamespaceLabels("team-a", labels).ok());
  EXPECT_FALSE(ParseNamespaceLabels(":a=b", labels).ok());
  EXPECT_FALSE(ParseNamespaceLabels("ns:key", labels).ok());
  EXPECT_FALSE(ParseNamespaceLabels("ns:=v", labels).ok());
}

TEST(ValidationOptionsTest, DefaultsToLatestVersion) {
  EXPECT_EQ(ValidationOptions().version, KubernetesVersion::k1_36);
}

}  // namespace
}  // namespace draguard::validate
