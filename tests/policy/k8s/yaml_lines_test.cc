#include "policy/k8s/yaml_lines.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace draguard::k8s {
namespace {

struct Case {
  std::string name;
  std::string text;
  // One word per line: "-" nothing, "b" block scalar content, "#N" a comment at byte N.
  std::vector<std::string> want;
};

std::vector<std::string> Describe(const std::vector<YamlLine>& lines) {
  std::vector<std::string> out;
  for (const YamlLine& line : lines) {
    if (line.block_content) out.push_back("b");
    else if (line.comment == std::string_view::npos) out.push_back("-");
    else out.push_back("#" + std::to_string(line.comment));
  }
  return out;
}

class YamlLinesTest : public ::testing::TestWithParam<Case> {};

TEST_P(YamlLinesTest, FindsRealComments) {
  EXPECT_EQ(Describe(ScanYamlLines(SourceText("f.yaml", GetParam().text))), GetParam().want);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, YamlLinesTest,
    ::testing::Values(
        Case{"WholeLineAndTrailing", "# a\nk: v # b\nk: v#c\n", {"#0", "#5", "-", "-"}},
        Case{"Literal", "k: |\n  x # y\n\n  z\nn: 1 # c\n", {"-", "b", "b", "b", "#5", "-"}},
        Case{"FoldedWithIndicatorsAndHeaderComment", "k: >-2 # h\n    x # y\nn: 1\n",
             {"#7", "b", "-", "-"}},
        Case{"ContentEndsAtLessIndentedComment", "k: |\n  x\n# c\n", {"-", "b", "#0", "-"}},
        Case{"SequenceEntry", "- |\n  # x\n- y # c\n", {"-", "b", "#4", "-"}},
        Case{"CompactMappingInSequence", "- k: |\n    x # y\n  n: 1 # c\n",
             {"-", "b", "#7", "-"}},
        Case{"HeaderOnItsOwnLine", "k:\n  |\n  x # y\n", {"-", "-", "b", "b"}},
        Case{"TagAndAnchorBeforeHeader", "k: !!str &a |\n  x # y\n", {"-", "b", "b"}},
        Case{"DocumentMarkerEndsTopLevelBlock", "--- |\nx # y\n--- # c\n",
             {"-", "b", "#4", "-"}},
        Case{"DoubleQuotedAcrossLines", "k: \"a\n  # x \\\" # y\"  # c\n",
             {"-", "#15", "-"}},
        Case{"SingleQuotedWithEscapedQuote", "k: 'it''s # x\n  # y' # c\n", {"-", "#7", "-"}},
        Case{"QuoteInsidePlainScalarOpensNothing", "k: it's # c\nn: a\"b # d\n",
             {"#8", "#7", "-"}},
        Case{"JsonFlow", "{\"k\":\"a # b\", \"n\": [1, \"#\"]} # c\n", {"#29", "-"}},
        Case{"PipeInsideFlowIsNoHeader", "k: [a, |]\nn: 1 # c\n", {"-", "#5", "-"}},
        Case{"UrlColonIsNoKey", "k: http://x # c\n", {"#12", "-"}},
        Case{"Crlf", "k: |\r\n  x # y\r\nn: 1 # c\r\n", {"-", "b", "#5", "-"}}),
    [](const auto& test_info) { return test_info.param.name; });

}  // namespace
}  // namespace draguard::k8s
