#include "policy/lint/suppress.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace draguard::lint {
namespace {

struct Case {
  std::string name;
  std::string text;
  std::string code;
  int line;
  bool silenced;
};

class SuppressionsTest : public ::testing::TestWithParam<Case> {};

TEST_P(SuppressionsTest, Silences) {
  Suppressions s = Suppressions::Scan(SourceText("f.yaml", GetParam().text));
  EXPECT_EQ(s.Silences(GetParam().code, GetParam().line), GetParam().silenced);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SuppressionsTest,
    ::testing::Values(
        Case{"NoComment", "count: 0\n", "claim.x", 1, false},
        Case{"SameLineExact", "count: 0  # draguard:ignore claim.x\n", "claim.x", 1, true},
        Case{"SameLineOtherCode", "count: 0  # draguard:ignore claim.y\n", "claim.x", 1, false},
        Case{"SameLineBareSilencesAll", "count: 0  # draguard:ignore\n", "claim.x", 1, true},
        Case{"SameLineList", "count: 0 # draguard:ignore a.b, claim.x\n", "claim.x", 1, true},
        Case{"Prefix", "count: 0 # draguard:ignore claim.*\n", "claim.x", 1, true},
        Case{"LineAboveAppliesToNext", "# draguard:ignore claim.x\ncount: 0\n", "claim.x", 2,
             true},
        Case{"LineAboveSkipsBlankAndComments",
             "  # draguard:ignore claim.x\n\n  # why: legacy\n  count: 0\n", "claim.x", 4, true},
        Case{"LineAboveNotTwoLinesDown", "# draguard:ignore claim.x\na: 1\ncount: 0\n",
             "claim.x", 3, false},
        Case{"FileWide", "a: 1\n# draguard:ignore-file schema.*\nb: 2\n", "schema.attr", 1,
             true},
        Case{"HashInsideValueIsNotAComment", "expression: \"a#draguard:ignore\"\n", "cel.x", 1,
             false},
        Case{"OtherWordIsNotTheMarker", "count: 0  # draguard:ignored claim.x\n", "claim.x",
             1, false},
        // Text inside block and quoted scalars is part of the value, not a comment.
        Case{"InsideLiteralBlock", "expression: |\n  device.driver == \"g\" # draguard:ignore\n",
             "cel.syntax-error", 2, false},
        Case{"InsideFoldedBlockLineAbove",
             "- expression: >-\n    # draguard:ignore\n    device.driver ==\n", "cel.x", 3,
             false},
        Case{"InsideMultiLineQuoted",
             "expression: \"device.driver\n  == 'g' # draguard:ignore\n  && x\"\n", "cel.x", 2,
             false},
        Case{"InsideMultiLineSingleQuoted",
             "expression: 'it''s\n  # draguard:ignore\n  x'\nb: 1\n", "cel.x", 3, false},
        Case{"AfterBlockEnds", "a: |\n  x\nb: 1  # draguard:ignore\n", "cel.x", 3, true},
        Case{"SiblingKeyOfCompactEntryAfterBlock",
             "- a: |\n    x\n  b: 1  # draguard:ignore\n", "cel.x", 3, true},
        Case{"LineAboveSkipsNoBlockContent",
             "# draguard:ignore cel.x\nexpression: |\n  # text\n  bad\n", "cel.x", 2, true},
        Case{"BlockHeaderComment", "expression: | # draguard:ignore cel.x\n  bad\n", "cel.x",
             1, true}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(SuppressionsTest, ReportsUnknownCodesWhereTheyAre) {
  Suppressions s = Suppressions::Scan(
      SourceText("f.yaml", "a: 1  # draguard:ignore refs.*, claim.request.count.invlid\n"
                           "# draguard:ignore-file nosuch.*\n"));
  ASSERT_EQ(s.findings().size(), 2u);
  EXPECT_EQ(s.findings()[0].code, "lint.ignore.code.unknown");
  EXPECT_EQ(s.findings()[0].file, "f.yaml");
  EXPECT_EQ(s.findings()[0].position, (SourcePosition{1, 33}));
  EXPECT_EQ(s.findings()[0].suggestion, "claim.request.count.invalid");
  EXPECT_EQ(s.findings()[1].position, (SourcePosition{2, 24}));
}

}  // namespace
}  // namespace draguard::lint
