// CheckUnique (policy/validate/list_checks.h): a short list compares keys in place, a long one
// goes through a set; both must report the same items, each later repeat of a key, at the
// release's path. The expectation is computed with a set for every length around the switch.
#include "policy/validate/list_checks.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"

namespace draguard::validate::internal {
namespace {

std::vector<std::string> Fields(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const Diagnostic& x : d.items()) out.push_back(x.code + " @ " + x.field + " " + x.message);
  return out;
}

TEST(CheckUniqueTest, ShortAndLongListsReportEachLaterRepeat) {
  const ValidationOptions options;
  for (size_t n : {size_t{0}, size_t{1}, size_t{3}, kUniqueScanUpTo, kUniqueScanUpTo + 1,
                   3 * kUniqueScanUpTo}) {
    // Keys repeat with period 5 or 7, and "" repeats too.
    std::vector<std::string> items;
    for (size_t i = 0; i < n; ++i) {
      items.push_back(i % 3 == 0 ? "k" + std::to_string(i % 5) : "m" + std::to_string(i % 7));
      if (i == n / 2) items.back().clear();
    }
    Diagnostics want_d;
    Reporter want_r(want_d);
    std::set<std::string> seen;
    for (size_t i = 0; i < n; ++i) {
      if (!seen.insert(items[i]).second) {
        want_r.Duplicate("dup", FieldPath("list").Index(i), FieldValue::String(items[i]));
      }
    }
    Diagnostics got_d;
    Reporter got_r(got_d);
    CheckUnique(got_r, "dup", items, FieldPath("list"), options, "",
                [](const std::string& s) -> std::string_view { return s; });
    EXPECT_EQ(Fields(got_d), Fields(want_d)) << n;
    if (n > 8) {
      EXPECT_FALSE(want_d.empty()) << n;
    }
  }
}

}  // namespace
}  // namespace draguard::validate::internal
