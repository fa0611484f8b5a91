#include "policy/common/diagnostic.h"

#include <gtest/gtest.h>

namespace draguard {
namespace {

TEST(DiagnosticsTest, CountsBySeverity) {
  Diagnostics d;
  FieldPath f("spec");
  d.Error("a.b", f.Child("x"), "bad");
  d.Warning("a.c", f, "risky", "do this");
  d.Info("a.d", f, "fyi");
  EXPECT_EQ(d.size(), 3u);
  EXPECT_EQ(d.error_count(), 1u);
  EXPECT_EQ(d.warning_count(), 1u);
  EXPECT_TRUE(d.has_errors());
  EXPECT_EQ(d.items()[0].field, "spec.x");
  EXPECT_EQ(d.items()[1].suggestion, "do this");
  EXPECT_EQ(SeverityName(d.items()[2].severity), "info");

  Diagnostics more;
  more.Error("z", f, "other");
  d.Append(std::move(more));
  EXPECT_EQ(d.error_count(), 2u);
}

}  // namespace
}  // namespace draguard
