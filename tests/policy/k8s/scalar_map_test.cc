// Value offsets inside scalars map back to the source character that produced them.
//
// For every byte of the decoded value the mapped source byte must be that same character,
// except where the YAML spec says the character is produced by something else: a folded line
// break (a space or newline produced by a '\n' in the source), an escape (produced at its
// backslash) or a doubled quote in single quotes (produced at the first quote).
#include <gtest/gtest.h>

#include <string>

#include "policy/k8s/document.h"

namespace draguard::k8s {
namespace {

struct MapCase {
  std::string name;
  std::string yaml;  // a document whose key "v" holds the scalar
  ScalarStyle style;
  std::string value;  // the decoded value the YAML spec gives
};

class ScalarMapTest : public testing::TestWithParam<MapCase> {};

bool ProducedBy(char decoded, char source) {
  if (decoded == source) return true;
  if ((decoded == ' ' || decoded == '\n') && source == '\n') return true;  // folding
  return source == '\\' || (source == '\'' && decoded == '\'');
}

TEST_P(ScalarMapTest, EveryByteMapsToItsSourceCharacter) {
  const MapCase& c = GetParam();
  SourceText source("in.yaml", c.yaml);
  ParseResult r = ParseDocuments(source);
  ASSERT_TRUE(r.diagnostics.empty()) << c.yaml;
  const DocNode* v = r.documents.at(0).root.Find("v");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->style, c.style);
  ASSERT_EQ(v->text, c.value);
  size_t previous = 0;
  for (size_t i = 0; i < c.value.size(); ++i) {
    const size_t at = SourceOffsetOfValueByte(source, *v, i);
    ASSERT_LT(at, c.yaml.size()) << "byte " << i;
    EXPECT_TRUE(ProducedBy(c.value[i], c.yaml[at]))
        << "byte " << i << " '" << c.value[i] << "' mapped to '" << c.yaml[at] << "'";
    EXPECT_GE(at, previous) << "offsets must not go backwards, byte " << i;
    previous = at;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Styles, ScalarMapTest,
    testing::Values(
        MapCase{.name = "Plain",
                .yaml = "v: device.driver == 'x'\n",
                .style = ScalarStyle::kPlain,
                .value = "device.driver == 'x'"},
        MapCase{.name = "PlainMultiLine",
                .yaml = "v: device.a &&\n   device.b\n\n   || c\n",
                .style = ScalarStyle::kPlain,
                .value = "device.a && device.b\n|| c"},
        MapCase{.name = "DoubleQuotedEscapes",
                .yaml = "v: \"a\\\"b\\tc\\u00e9d\\\\e\"\n",
                .style = ScalarStyle::kDoubleQuoted,
                .value = "a\"b\tc\xc3\xa9" "d\\e"},
        MapCase{.name = "DoubleQuotedFolded",
                .yaml = "v: \"ab\n  cd \\\n  ef\"\n",
                .style = ScalarStyle::kDoubleQuoted,
                .value = "ab cd ef"},
        MapCase{.name = "SingleQuoted",
                .yaml = "v: 'it''s  x'\n",
                .style = ScalarStyle::kSingleQuoted,
                .value = "it's  x"},
        MapCase{.name = "Literal",
                .yaml = "v: |\n  device.a\n    && b\n\n  c\n",
                .style = ScalarStyle::kLiteral,
                .value = "device.a\n  && b\n\nc\n"},
        MapCase{.name = "LiteralStrip",
                .yaml = "v: |-\n    ab\n    cd\nw: 1\n",
                .style = ScalarStyle::kLiteral,
                .value = "ab\ncd"},
        MapCase{.name = "LiteralDeepIndent",
                .yaml = "v: |\n      x > 1\n      y\n",
                .style = ScalarStyle::kLiteral,
                .value = "x > 1\ny\n"},
        MapCase{.name = "LiteralExplicitIndent",
                .yaml = "v: |2\n    ab\n   c\n",
                .style = ScalarStyle::kLiteral,
                .value = "  ab\n c\n"},
        MapCase{.name = "LiteralKeepWithComment",
                .yaml = "v: |+ # keep\n  a\n\nw: 1\n",
                .style = ScalarStyle::kLiteral,
                .value = "a\n\n"},
        MapCase{.name = "Folded",
                .yaml = "v: >\n  a b\n  c\n\n  d\n    e\n  f\n",
                .style = ScalarStyle::kFolded,
                .value = "a b c\nd\n  e\nf\n"},
        MapCase{.name = "FoldedStrip",
                .yaml = "v: >-\n  device.driver ==\n  \"gpu\"\n",
                .style = ScalarStyle::kFolded,
                .value = "device.driver == \"gpu\""}),
    [](const testing::TestParamInfo<MapCase>& param) { return param.param.name; });

TEST(ScalarMapTest, PositionOfAByteInsideABlockScalar) {
  SourceText source("in.yaml", "v: |\n  abc\n  def\n");
  ParseResult r = ParseDocuments(source);
  const DocNode* v = r.documents.at(0).root.Find("v");
  ASSERT_NE(v, nullptr);
  // "abc\ndef\n": byte 5 is 'e', line 3 column 4.
  EXPECT_EQ(source.PositionOf(SourceOffsetOfValueByte(source, *v, 5)), (SourcePosition{3, 4}));
}

TEST(ScalarMapTest, BlockScalarAsSequenceItem) {
  SourceText source("in.yaml", "v:\n- |\n  x: y\n");
  ParseResult r = ParseDocuments(source);
  const DocNode* v = r.documents.at(0).root.Find("v");
  ASSERT_NE(v, nullptr);
  ASSERT_EQ(v->items.size(), 1u);
  const DocNode& item = v->items[0];
  EXPECT_EQ(item.style, ScalarStyle::kLiteral);
  EXPECT_EQ(item.text, "x: y\n");
  // Byte 3 ('y') is on line 3, column 6.
  EXPECT_EQ(source.PositionOf(SourceOffsetOfValueByte(source, item, 3)), (SourcePosition{3, 6}));
}

// Issue 19: the end of a block scalar at the end of the file (a CEL error "at <EOF>") is the
// end of its last line, not the line after it, which does not exist.
TEST(ScalarMapTest, PastTheEndOfABlockIsTheEndOfItsLastLine) {
  for (const char* text : {"v: |\n  a ==\n", "v: >\n  a ==\n", "v: |\r\n  a ==\r\n"}) {
    SourceText source("in.yaml", text);
    ParseResult r = ParseDocuments(source);
    const DocNode* v = r.documents.at(0).root.Find("v");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(source.PositionOf(SourceOffsetOfValueByte(source, *v, v->text.size())),
              (SourcePosition{2, 7}))
        << text;
  }
}

TEST(ScalarMapTest, OffsetsPastTheEndStayInsideTheInput) {
  SourceText source("in.yaml", "v: \"ab\"");
  ParseResult r = ParseDocuments(source);
  const DocNode* v = r.documents.at(0).root.Find("v");
  ASSERT_NE(v, nullptr);
  EXPECT_LE(SourceOffsetOfValueByte(source, *v, 100), source.text().size());
}

}  // namespace
}  // namespace draguard::k8s
