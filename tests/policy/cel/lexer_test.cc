// Table tests for the CEL lexer: token kinds and byte ranges for every token form, and
// recognition errors at their offsets.
#include "policy/cel/lexer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace draguard::cel {
namespace {

using K = TokenKind;

struct LexCase {
  std::string name;
  std::string text;
  std::vector<K> kinds;  // without the final kEof
  std::vector<int> offsets = {};  // optional: token offsets
};

class LexerTest : public testing::TestWithParam<LexCase> {};

TEST_P(LexerTest, Tokens) {
  const LexCase& c = GetParam();
  Diagnostics issues;
  std::vector<Token> tokens = Lex(c.text, issues);
  EXPECT_TRUE(issues.empty()) << c.text;
  ASSERT_EQ(tokens.size(), c.kinds.size() + 1) << c.text;
  for (size_t i = 0; i < c.kinds.size(); ++i) {
    EXPECT_EQ(tokens[i].kind, c.kinds[i]) << c.text << " token " << i;
    if (!c.offsets.empty()) {
      EXPECT_EQ(tokens[i].offset, c.offsets[i]) << c.text << " token " << i;
    }
  }
  EXPECT_EQ(tokens.back().kind, K::kEof);
  EXPECT_EQ(tokens.back().offset, static_cast<int32_t>(c.text.size()));
}

INSTANTIATE_TEST_SUITE_P(
    Tokens, LexerTest,
    testing::Values(
        LexCase{.name = "Operators",
                .text = "( ) [ ] { } . , : ? ! - + * / % == != < <= > >= && ||",
                .kinds = {K::kLParen, K::kRParen, K::kLBracket, K::kRBracket, K::kLBrace, K::kRBrace,
                          K::kDot, K::kComma, K::kColon, K::kQuestion, K::kNot, K::kMinus, K::kPlus,
                          K::kStar, K::kSlash, K::kPercent, K::kEq, K::kNe, K::kLt, K::kLe, K::kGt,
                          K::kGe, K::kAnd, K::kOr}},
        LexCase{.name = "Keywords", .text = "true false null in inx _a1",
                .kinds = {K::kTrue, K::kFalse, K::kNull, K::kIn, K::kIdentifier, K::kIdentifier}},
        LexCase{.name = "Ints", .text = "0 123 0x1F 0XaB", .kinds = {K::kIntLit, K::kIntLit, K::kIntLit, K::kIntLit}},
        LexCase{.name = "Uints", .text = "1u 2U 0x1Fu", .kinds = {K::kUintLit, K::kUintLit, K::kUintLit}},
        LexCase{.name = "Doubles", .text = "1.5 .5 1e3 1E-3 2.5e+10",
                .kinds = {K::kDoubleLit, K::kDoubleLit, K::kDoubleLit, K::kDoubleLit, K::kDoubleLit}},
        LexCase{.name = "TrailingDotIsIntThenDot", .text = "1.", .kinds = {K::kIntLit, K::kDot}},
        LexCase{.name = "BareExponentIsIntThenIdent", .text = "1e", .kinds = {K::kIntLit, K::kIdentifier}},
        LexCase{.name = "IntSelect", .text = "1.e3", .kinds = {K::kIntLit, K::kDot, K::kIdentifier}},
        LexCase{.name = "HexWithoutDigits", .text = "0x", .kinds = {K::kIntLit, K::kIdentifier}},
        LexCase{.name = "Strings", .text = "'a' \"b\" '''c''' \"\"\"d\"\"\" r'e' R\"f\"",
                .kinds = {K::kStringLit, K::kStringLit, K::kStringLit, K::kStringLit, K::kStringLit,
                          K::kStringLit},
                .offsets = {0, 4, 8, 16, 24, 29}},
        LexCase{.name = "Bytes", .text = "b'a' B\"b\" br'c' BR'''d'''",
                .kinds = {K::kBytesLit, K::kBytesLit, K::kBytesLit, K::kBytesLit}},
        LexCase{.name = "RbIsIdentThenString", .text = "rb'x'", .kinds = {K::kIdentifier, K::kStringLit}},
        LexCase{.name = "EscapedQuote", .text = "'a\\'b'", .kinds = {K::kStringLit}},
        LexCase{.name = "RawBackslashEndsAtQuote", .text = "r'a\\' 'b'",
                .kinds = {K::kStringLit, K::kStringLit}},
        // The byte-class scans: the other quote and pairs of the same quote stay inside a
        // body; an identifier stops at the first byte outside [A-Za-z0-9_].
        LexCase{.name = "OtherQuoteInside", .text = "\"a'b\" 'c\"d'",
                .kinds = {K::kStringLit, K::kStringLit}, .offsets = {0, 6}},
        LexCase{.name = "QuotesInsideTriple", .text = "'''a''b'c''' x",
                .kinds = {K::kStringLit, K::kIdentifier}, .offsets = {0, 13}},
        LexCase{.name = "IdentifierEdges", .text = "a_Z9.b0+_x",
                .kinds = {K::kIdentifier, K::kDot, K::kIdentifier, K::kPlus, K::kIdentifier},
                .offsets = {0, 4, 5, 7, 8}},
        LexCase{.name = "TripleSpansLines", .text = "'''a\n\nb'''", .kinds = {K::kStringLit}},
        LexCase{.name = "WhitespaceAndComments", .text = " \t\r\n\fa // c\n// d\n b",
                .kinds = {K::kIdentifier, K::kIdentifier}, .offsets = {5, 18}}),
    [](const testing::TestParamInfo<LexCase>& param_info) { return param_info.param.name; });

struct LexErrorCase {
  std::string name;
  std::string text;
  int offset;
  int length = -1;  // optional: the reported byte length
};

class LexerErrorTest : public testing::TestWithParam<LexErrorCase> {};

TEST_P(LexerErrorTest, ReportsRecognitionError) {
  const LexErrorCase& c = GetParam();
  Diagnostics issues;
  std::vector<Token> tokens = Lex(c.text, issues);
  ASSERT_EQ(issues.size(), 1u) << c.text;
  EXPECT_EQ(issues.items()[0].code, "cel.syntax-error");
  EXPECT_EQ(issues.items()[0].value_offset, c.offset);
  if (c.length >= 0) EXPECT_EQ(issues.items()[0].value_length, c.length) << c.text;
  EXPECT_EQ(tokens.back().kind, K::kEof);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, LexerErrorTest,
    testing::Values(LexErrorCase{.name = "Hash", .text = "a # b", .offset = 2},
                    LexErrorCase{.name = "SingleAmp", .text = "a & b", .offset = 2},
                    LexErrorCase{.name = "SinglePipe", .text = "a | b", .offset = 2},
                    LexErrorCase{.name = "SingleEquals", .text = "a = b", .offset = 2},
                    LexErrorCase{.name = "NonAscii", .text = "a \xc3\xa9", .offset = 2},
                    LexErrorCase{.name = "Unterminated", .text = "x 'abc", .offset = 2},
                    LexErrorCase{.name = "UnterminatedTriple", .text = "'''abc''", .offset = 0},
                    LexErrorCase{.name = "UnterminatedBytes", .text = "b\"abc", .offset = 0},
                    LexErrorCase{.name = "NewlineInSingleQuoted", .text = "\"a\nb", .offset = 0},
                    LexErrorCase{.name = "CarriageReturnInSingleQuoted", .text = "x 'a\rb",
                                 .offset = 2, .length = 2},
                    LexErrorCase{.name = "NonAsciiAfterIdentifier", .text = "ab\xc3\xa9",
                                 .offset = 2}),
    [](const testing::TestParamInfo<LexErrorCase>& param_info) { return param_info.param.name; });

TEST(LexerTest, ErrorLimitBoundsIssues) {
  Diagnostics issues;
  Lex(std::string(500, '#'), issues, 7);
  EXPECT_EQ(issues.size(), 7u);
}

TEST(LexerTest, TokenKindNamesMatchCelGo) {
  EXPECT_EQ(TokenKindName(K::kEof), "<EOF>");
  EXPECT_EQ(TokenKindName(K::kRParen), "')'");
  EXPECT_EQ(TokenKindName(K::kIdentifier), "IDENTIFIER");
}

}  // namespace
}  // namespace draguard::cel
