// Table tests for the CEL parser: {expression, dump} pairs in the DebugString format, error
// cases matched on code and byte offset, limits at their bounds, and every `expr:` of the
// cel-spec parse conformance file.
#include "policy/cel/parser.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "policy/cel/cel_issue.h"
#include "policy/cel/debug_string.h"

namespace draguard::cel {
namespace {

struct DumpCase {
  std::string name;
  std::string expr;
  std::string dump;
};

class ParserDumpTest : public testing::TestWithParam<DumpCase> {};

TEST_P(ParserDumpTest, ProducesDump) {
  const DumpCase& c = GetParam();
  ParseResult r = Parse(c.expr);
  ASSERT_TRUE(r.ok()) << c.expr << ": " << (r.issues.empty() ? "" : r.issues.items()[0].message);
  EXPECT_EQ(DebugString(*r.ast), c.dump) << c.expr;
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, ParserDumpTest,
    testing::Values(
        DumpCase{.name = "Add", .expr = "a + 1", .dump = "_+_(\n  a^#1:Ident#,\n  1^#3:int64#\n)^#2:Call#"},
        DumpCase{.name = "OrIsBalanced",
                 .expr = "a || b || c",
                 .dump = "_||_(\n  _||_(\n    a^#1:Ident#,\n    b^#2:Ident#\n  )^#3:Call#,\n"
                         "  c^#4:Ident#\n)^#5:Call#"},
        // One operator is built without the chain's vectors: same ids as a chain would give.
        DumpCase{.name = "OneAnd",
                 .expr = "a && b",
                 .dump = "_&&_(\n  a^#1:Ident#,\n  b^#2:Ident#\n)^#3:Call#"},
        DumpCase{.name = "AndOfThree",
                 .expr = "a && b && c",
                 .dump = "_&&_(\n  _&&_(\n    a^#1:Ident#,\n    b^#2:Ident#\n  )^#3:Call#,\n"
                         "  c^#4:Ident#\n)^#5:Call#"},
        DumpCase{.name = "AndUnderOr",
                 .expr = "a && b || c",
                 .dump = "_||_(\n  _&&_(\n    a^#1:Ident#,\n    b^#2:Ident#\n  )^#3:Call#,\n"
                         "  c^#4:Ident#\n)^#5:Call#"},
        DumpCase{.name = "AndOfFourIsBalanced",
                 .expr = "a && b && c && d",
                 .dump = "_&&_(\n  _&&_(\n    a^#1:Ident#,\n    b^#2:Ident#\n  )^#3:Call#,\n"
                         "  _&&_(\n    c^#4:Ident#,\n    d^#6:Ident#\n  )^#7:Call#\n)^#5:Call#"},
        DumpCase{.name = "MinInt", .expr = "-9223372036854775808", .dump = "-9223372036854775808^#1:int64#"},
        DumpCase{.name = "NegativeDouble", .expr = "-.5", .dump = "-0.5^#1:double#"},
        DumpCase{.name = "NegatedUintIsCall", .expr = "-1u", .dump = "-_(\n  1u^#2:uint64#\n)^#1:Call#"},
        DumpCase{.name = "DoubleNotCancels", .expr = "!!x", .dump = "x^#1:Ident#"},
        DumpCase{.name = "DoubleNegateCancels", .expr = "--x", .dump = "x^#1:Ident#"},
        DumpCase{.name = "Not", .expr = "!x", .dump = "!_(\n  x^#2:Ident#\n)^#1:Call#"},
        DumpCase{.name = "SelectChain", .expr = "a.b.c", .dump = "a^#1:Ident#.b^#2:Select#.c^#3:Select#"},
        DumpCase{.name = "LeadingDot", .expr = ".a.b", .dump = ".a^#1:Ident#.b^#2:Select#"},
        DumpCase{.name = "OptSelect", .expr = "a.?b",
                 .dump = "_?._(\n  a^#1:Ident#,\n  \"b\"^#3:string#\n)^#2:Call#"},
        DumpCase{.name = "OptIndex", .expr = "a[?0]",
                 .dump = "_[?_](\n  a^#1:Ident#,\n  0^#3:int64#\n)^#2:Call#"},
        DumpCase{.name = "Index", .expr = "a['k']",
                 .dump = "_[_](\n  a^#1:Ident#,\n  \"k\"^#3:string#\n)^#2:Call#"},
        DumpCase{.name = "ListTrailingComma", .expr = "[1, ?a,]",
                 .dump = "[\n  1^#2:int64#,\n  ?a^#3:Ident#\n]^#1:List#"},
        DumpCase{.name = "EmptyList", .expr = "[]", .dump = "[]^#1:List#"},
        DumpCase{.name = "Map", .expr = "{'k': v, ?1: 2,}",
                 .dump = "{\n  \"k\"^#3:string#:v^#4:Ident#^#2:Entry#,\n"
                         "  ?1^#6:int64#:2^#7:int64#^#5:Entry#\n}^#1:Map#"},
        DumpCase{.name = "Message", .expr = ".a.b.T{f: 1, ?g: x}",
                 .dump = ".a.b.T{\n  f:1^#3:int64#^#2:Entry#,\n  ?g:x^#5:Ident#^#4:Entry#\n}^#1:Struct#"},
        DumpCase{.name = "TernaryIsRightAssociative", .expr = "a ? b : c ? d : e",
                 .dump = "_?_:_(\n  a^#1:Ident#,\n  b^#3:Ident#,\n  _?_:_(\n    c^#4:Ident#,\n"
                         "    d^#6:Ident#,\n    e^#7:Ident#\n  )^#5:Call#\n)^#2:Call#"},
        DumpCase{.name = "In", .expr = "x in [1]",
                 .dump = "@in(\n  x^#1:Ident#,\n  [\n    1^#4:int64#\n  ]^#3:List#\n)^#2:Call#"},
        DumpCase{.name = "MemberCall", .expr = "a.f(b)",
                 .dump = "a^#1:Ident#.f(\n  b^#3:Ident#\n)^#2:Call#"},
        DumpCase{.name = "ReservedWordAsMethod", .expr = "a.if()", .dump = "a^#1:Ident#.if()^#2:Call#"},
        DumpCase{.name = "GlobalCallNoArgs", .expr = "f()", .dump = "f()^#1:Call#"},
        DumpCase{.name = "MulBindsTighter", .expr = "1 + 2 * 3",
                 .dump = "_+_(\n  1^#1:int64#,\n  _*_(\n    2^#3:int64#,\n    3^#5:int64#\n"
                         "  )^#4:Call#\n)^#2:Call#"},
        DumpCase{.name = "SubIsLeftAssociative", .expr = "1 - 2 - 3",
                 .dump = "_-_(\n  _-_(\n    1^#1:int64#,\n    2^#3:int64#\n  )^#2:Call#,\n"
                         "  3^#5:int64#\n)^#4:Call#"},
        DumpCase{.name = "RelationsAreLeftAssociative", .expr = "a < b == c",
                 .dump = "_==_(\n  _<_(\n    a^#1:Ident#,\n    b^#3:Ident#\n  )^#2:Call#,\n"
                         "  c^#5:Ident#\n)^#4:Call#"},
        DumpCase{.name = "Literals", .expr = "[0x1F, 2u, 0xAu, 1e3, 1.5, true, false, null]",
                 .dump = "[\n  31^#2:int64#,\n  2u^#3:uint64#,\n  10u^#4:uint64#,\n  1000^#5:double#,\n"
                         "  1.5^#6:double#,\n  true^#7:bool#,\n  false^#8:bool#,\n  null^#9:null#\n]^#1:List#"},
        DumpCase{.name = "Comments", .expr = "a // first\n + b // second",
                 .dump = "_+_(\n  a^#1:Ident#,\n  b^#3:Ident#\n)^#2:Call#"},
        DumpCase{.name = "Has", .expr = "has(a.b)", .dump = "a^#2:Ident#.b~test-only~^#4:Select#"},
        DumpCase{.name = "HasWrongArity", .expr = "has(a, b)",
                 .dump = "has(\n  a^#2:Ident#,\n  b^#3:Ident#\n)^#1:Call#"},
        DumpCase{.name = "All", .expr = "l.all(x, x > 0)",
                 .dump = "__comprehension__(\n  // Variable\n  x,\n  // Target\n  l^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  true^#7:bool#,\n"
                         "  // LoopCondition\n  @not_strictly_false(\n    @result^#8:Ident#\n  )^#9:Call#,\n"
                         "  // LoopStep\n  _&&_(\n    @result^#10:Ident#,\n    _>_(\n      x^#4:Ident#,\n"
                         "      0^#6:int64#\n    )^#5:Call#\n  )^#11:Call#,\n"
                         "  // Result\n  @result^#12:Ident#)^#13:Comprehension#"},
        DumpCase{.name = "Exists", .expr = "l.exists(x, p)",
                 .dump = "__comprehension__(\n  // Variable\n  x,\n  // Target\n  l^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  false^#5:bool#,\n"
                         "  // LoopCondition\n  @not_strictly_false(\n    !_(\n      @result^#6:Ident#\n"
                         "    )^#7:Call#\n  )^#8:Call#,\n"
                         "  // LoopStep\n  _||_(\n    @result^#9:Ident#,\n    p^#4:Ident#\n  )^#10:Call#,\n"
                         "  // Result\n  @result^#11:Ident#)^#12:Comprehension#"},
        DumpCase{.name = "ExistsOne", .expr = "l.exists_one(x, p)",
                 .dump = "__comprehension__(\n  // Variable\n  x,\n  // Target\n  l^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  0^#5:int64#,\n"
                         "  // LoopCondition\n  true^#6:bool#,\n"
                         "  // LoopStep\n  _?_:_(\n    p^#4:Ident#,\n    _+_(\n      @result^#7:Ident#,\n"
                         "      1^#8:int64#\n    )^#9:Call#,\n    @result^#10:Ident#\n  )^#11:Call#,\n"
                         "  // Result\n  _==_(\n    @result^#12:Ident#,\n    1^#13:int64#\n  )^#14:Call#)"
                         "^#15:Comprehension#"},
        DumpCase{.name = "MapWithFilter", .expr = "l.map(x, p, t)",
                 .dump = "__comprehension__(\n  // Variable\n  x,\n  // Target\n  l^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  []^#6:List#,\n"
                         "  // LoopCondition\n  true^#7:bool#,\n"
                         "  // LoopStep\n  _?_:_(\n    p^#4:Ident#,\n    _+_(\n      @result^#8:Ident#,\n"
                         "      [\n        t^#5:Ident#\n      ]^#9:List#\n    )^#10:Call#,\n"
                         "    @result^#11:Ident#\n  )^#12:Call#,\n"
                         "  // Result\n  @result^#13:Ident#)^#14:Comprehension#"},
        DumpCase{.name = "Filter", .expr = "l.filter(x, p)",
                 .dump = "__comprehension__(\n  // Variable\n  x,\n  // Target\n  l^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  []^#5:List#,\n"
                         "  // LoopCondition\n  true^#6:bool#,\n"
                         "  // LoopStep\n  _?_:_(\n    p^#4:Ident#,\n    _+_(\n      @result^#7:Ident#,\n"
                         "      [\n        x^#3:Ident#\n      ]^#8:List#\n    )^#9:Call#,\n"
                         "    @result^#10:Ident#\n  )^#11:Call#,\n"
                         "  // Result\n  @result^#12:Ident#)^#13:Comprehension#"},
        DumpCase{.name = "TwoVarAll", .expr = "m.all(k, v, p)",
                 .dump = "__comprehension__(\n  // Variable\n  k,\n  // Variable2\n  v,\n"
                         "  // Target\n  m^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  true^#6:bool#,\n"
                         "  // LoopCondition\n  @not_strictly_false(\n    @result^#7:Ident#\n  )^#8:Call#,\n"
                         "  // LoopStep\n  _&&_(\n    @result^#9:Ident#,\n    p^#5:Ident#\n  )^#10:Call#,\n"
                         "  // Result\n  @result^#11:Ident#)^#12:Comprehension#"},
        DumpCase{.name = "TransformMapEntry", .expr = "m.transformMapEntry(k, v, e)",
                 .dump = "__comprehension__(\n  // Variable\n  k,\n  // Variable2\n  v,\n"
                         "  // Target\n  m^#1:Ident#,\n"
                         "  // Accumulator\n  @result,\n  // Init\n  {}^#6:Map#,\n"
                         "  // LoopCondition\n  true^#7:bool#,\n"
                         "  // LoopStep\n  cel.@mapInsert(\n    @result^#8:Ident#,\n    e^#5:Ident#\n"
                         "  )^#9:Call#,\n  // Result\n  @result^#10:Ident#)^#11:Comprehension#"},
        DumpCase{.name = "Bind", .expr = "cel.bind(v, 1, v)",
                 .dump = "__comprehension__(\n  // Variable\n  #unused,\n  // Target\n  []^#6:List#,\n"
                         "  // Accumulator\n  v,\n  // Init\n  1^#4:int64#,\n"
                         "  // LoopCondition\n  false^#7:bool#,\n  // LoopStep\n  v^#8:Ident#,\n"
                         "  // Result\n  v^#5:Ident#)^#9:Comprehension#"},
        DumpCase{.name = "BindNeedsCelTarget", .expr = "x.bind(v, 1, v)",
                 .dump = "x^#1:Ident#.bind(\n  v^#3:Ident#,\n  1^#4:int64#,\n  v^#5:Ident#\n)^#2:Call#"}),
    [](const testing::TestParamInfo<DumpCase>& param_info) { return param_info.param.name; });

struct ErrorCase {
  std::string name;
  std::string expr;
  std::string code;
  int offset = 0;
  ParserOptions options = {};
};

class ParserErrorTest : public testing::TestWithParam<ErrorCase> {};

TEST_P(ParserErrorTest, ReportsFirstError) {
  const ErrorCase& c = GetParam();
  ParseResult r = Parse(c.expr, c.options);
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(r.issues.empty()) << c.expr;
  const Diagnostic& d = r.issues.items()[0];
  EXPECT_EQ(d.code, c.code) << c.expr << ": " << d.message;
  EXPECT_EQ(d.value_offset, c.offset) << c.expr << ": " << d.message;
  EXPECT_EQ(d.field, "");
  EXPECT_TRUE(d.is_error());
  for (const Diagnostic& item : r.issues) {
    EXPECT_GE(item.value_offset, 0);
    EXPECT_LE(item.value_offset + item.value_length, static_cast<int>(c.expr.size())) << c.expr;
  }
}

ParserOptions NoOptionalSyntax() {
  ParserOptions o;
  o.enable_optional_syntax = false;
  return o;
}

ParserOptions Depth(int depth) {
  ParserOptions o;
  o.max_recursion_depth = depth;
  return o;
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ParserErrorTest,
    testing::Values(
        ErrorCase{.name = "IntOverflow", .expr = "9223372036854775808", .code = "cel.invalid-literal"},
        ErrorCase{.name = "NegIntOverflow", .expr = "-9223372036854775809", .code = "cel.invalid-literal"},
        ErrorCase{.name = "UintOverflow", .expr = "18446744073709551616u", .code = "cel.invalid-literal"},
        ErrorCase{.name = "DoubleOverflow", .expr = "1e400", .code = "cel.invalid-literal"},
        ErrorCase{.name = "TrailingDot", .expr = "1.", .code = "cel.syntax-error", .offset = 2},
        ErrorCase{.name = "ReservedIdent", .expr = "a + if", .code = "cel.reserved-identifier", .offset = 4},
        ErrorCase{.name = "ReservedGlobalCall", .expr = "while(1)", .code = "cel.reserved-identifier"},
        ErrorCase{.name = "KeywordAsIdent", .expr = "in", .code = "cel.syntax-error"},
        ErrorCase{.name = "BadEscape", .expr = "'a\\zb'", .code = "cel.invalid-literal", .offset = 2},
        ErrorCase{.name = "LoneSurrogate", .expr = "'\\ud800'", .code = "cel.invalid-literal", .offset = 1},
        ErrorCase{.name = "CodePointTooLarge", .expr = "'\\U00110000'", .code = "cel.invalid-literal", .offset = 1},
        ErrorCase{.name = "ShortOctal", .expr = "'\\12'", .code = "cel.invalid-literal", .offset = 1},
        // Issue 19 item 24: cel-go's unescape rejects \u and \U in bytes literals.
        ErrorCase{.name = "UnicodeEscapeInBytes", .expr = "b\"\\u00e9\"", .code = "cel.invalid-literal",
                  .offset = 2},
        ErrorCase{.name = "LongUnicodeEscapeInBytes", .expr = "b'\\U000000e9'",
                  .code = "cel.invalid-literal", .offset = 2},
        ErrorCase{.name = "Unterminated", .expr = "'abc", .code = "cel.syntax-error"},
        ErrorCase{.name = "NewlineInString", .expr = "'a\nb'", .code = "cel.syntax-error"},
        ErrorCase{.name = "UnknownChar", .expr = "a # b", .code = "cel.syntax-error", .offset = 2},
        ErrorCase{.name = "SingleEquals", .expr = "a = b", .code = "cel.syntax-error", .offset = 2},
        ErrorCase{.name = "MissingOperand", .expr = "1 + )", .code = "cel.syntax-error", .offset = 4},
        ErrorCase{.name = "Extraneous", .expr = "a b", .code = "cel.syntax-error", .offset = 2},
        ErrorCase{.name = "Empty", .expr = "", .code = "cel.syntax-error"},
        ErrorCase{.name = "UnclosedParen", .expr = "(a", .code = "cel.syntax-error", .offset = 2},
        ErrorCase{.name = "TrailingCommaInArgs", .expr = "f(a,)", .code = "cel.syntax-error", .offset = 4},
        ErrorCase{.name = "NestedTernaryInThen", .expr = "a ? b ? c : d : e", .code = "cel.syntax-error", .offset = 6},
        ErrorCase{.name = "NotMinus", .expr = "!-x", .code = "cel.syntax-error", .offset = 1},
        ErrorCase{.name = "HasOfIdent", .expr = "has(a)", .code = "cel.macro-invalid", .offset = 4},
        ErrorCase{.name = "AllOfLiteralVar", .expr = "l.all(1, true)", .code = "cel.macro-invalid", .offset = 6},
        ErrorCase{.name = "MapOfLiteralVar", .expr = "l.map(1, 2)", .code = "cel.macro-invalid", .offset = 6},
        ErrorCase{.name = "TwoVarDuplicate", .expr = "m.all(k, k, true)", .code = "cel.macro-invalid", .offset = 9},
        ErrorCase{.name = "BindNonIdent", .expr = "cel.bind(a.b, 1, 2)", .code = "cel.macro-invalid", .offset = 10},
        ErrorCase{.name = "OptSelectDisabled", .expr = "a.?b", .code = "cel.unsupported-syntax", .offset = 2,
                  .options = NoOptionalSyntax()},
        ErrorCase{.name = "OptIndexDisabled", .expr = "a[?b]", .code = "cel.unsupported-syntax", .offset = 2,
                  .options = NoOptionalSyntax()},
        ErrorCase{.name = "OptListDisabled", .expr = "[?b]", .code = "cel.unsupported-syntax", .offset = 1,
                  .options = NoOptionalSyntax()},
        ErrorCase{.name = "RecursionParens", .expr = "((((a))))", .code = "cel.recursion-limit", .offset = 3,
                  .options = Depth(3)},
        ErrorCase{.name = "RecursionAtEndOfInput", .expr = "((((", .code = "cel.recursion-limit",
                  .offset = 3, .options = Depth(3)},
        ErrorCase{.name = "UnclosedHas", .expr = "has(", .code = "cel.syntax-error", .offset = 4},
        ErrorCase{.name = "RecursionSelectChain", .expr = "a.b.c.d", .code = "cel.recursion-limit", .offset = 5,
                  .options = Depth(3)}),
    [](const testing::TestParamInfo<ErrorCase>& param_info) { return param_info.param.name; });

TEST(ParserTest, CommonMistakesCarrySuggestions) {
  for (const char* expr : {"a = b", "a & b", "var", "has(a)", "l.all(1, true)", "9223372036854775808"}) {
    ParseResult r = Parse(expr);
    ASSERT_FALSE(r.ok()) << expr;
    EXPECT_FALSE(r.issues.items()[0].suggestion.empty()) << expr;
  }
}

TEST(ParserLimitsTest, RecursionLimitAtDefaultBound) {
  auto nested = [](int n) { return std::string(static_cast<size_t>(n), '[') + std::string(static_cast<size_t>(n), ']'); };
  // Each list level is one expression level, plus the outermost expression.
  EXPECT_TRUE(Parse(nested(249)).ok());
  ParseResult r = Parse(nested(300));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.issues.items()[0].code, "cel.recursion-limit");
  EXPECT_EQ(r.issues.items()[0].message, "expression recursion limit exceeded: 250");
}

TEST(ParserLimitsTest, CodePointLimit) {
  ParserOptions o;
  o.expression_size_code_point_limit = 5;
  // Counted in code points, not bytes: 'ééé' is 5 code points in 8 bytes.
  EXPECT_TRUE(Parse("'\xc3\xa9\xc3\xa9\xc3\xa9'", o).ok());
  EXPECT_FALSE(Parse("'\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9'", o).ok());
  EXPECT_TRUE(Parse("a + b", o).ok());
  ParseResult r = Parse("a + bc", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.issues.items()[0].code, "cel.expression-too-large");
}

TEST(ParserLimitsTest, ErrorLimitStopsReporting) {
  ParserOptions o;
  o.error_recovery_limit = 3;
  ParseResult r = Parse("# # # # # # a", o);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.issues.size(), 4u);  // three recognition errors, then the limit note
  EXPECT_EQ(r.issues.items()[3].code, "cel.too-many-errors");
}

TEST(ParserLimitsTest, ChainedOptMapStaysBounded) {
  std::string expr = "a";
  for (int i = 0; i < 60; ++i) expr += ".optMap(x, x)";
  ParseResult r = Parse(expr);
  EXPECT_FALSE(r.ok());
  ASSERT_FALSE(r.issues.empty());
  EXPECT_EQ(r.issues.items()[0].code, "cel.expression-too-large");
}

TEST(ParserTest, IdsAreUniqueAndBounded) {
  ParseResult r = Parse("l.map(x, x.y).filter(z, has(z.w)).exists(q, q in {'a': [1, 2]})");
  ASSERT_TRUE(r.ok());
  EXPECT_GT(r.ast->max_id(), 0);
  std::string dump = DebugString(*r.ast);
  std::vector<bool> seen(static_cast<size_t>(r.ast->max_id()) + 1, false);
  for (size_t at = dump.find("^#"); at != std::string::npos; at = dump.find("^#", at + 2)) {
    int64_t id = std::stoll(dump.substr(at + 2));
    ASSERT_GE(id, 1);
    ASSERT_LE(id, r.ast->max_id());
    EXPECT_FALSE(seen[static_cast<size_t>(id)]) << "duplicate id " << id;
    seen[static_cast<size_t>(id)] = true;
  }
}

TEST(ParserTest, StringAndBytesEscapes) {
  struct Case {
    std::string expr;
    std::string value;
    bool bytes;
  };
  const Case cases[] = {
      {"'\\a\\b\\f\\n\\r\\t\\v\\\\\\?\\\"\\'\\`'", "\a\b\f\n\r\t\v\\?\"'`", false},
      {"\"\\x41\\X42\\101\\u00e9\\U0001F600\"", "AB\x41\xc3\xa9\xf0\x9f\x98\x80", false},
      {"'\\xff'", "\xc3\xbf", false},
      {"b'\\xff\\377'", "\xff\xff", true},
      {"b'\xc3\xa9'", "\xc3\xa9", true},
      {"r'\\n'", "\\n", false},
      {"R\"\\x\"", "\\x", false},
      {"'''a\n'b'''", "a\n'b", false},
      {"\"\"\"x\"y\"\"\"", "x\"y", false},
      {"br'\\0'", "\\0", true},
  };
  for (const Case& c : cases) {
    ParseResult r = Parse(c.expr);
    ASSERT_TRUE(r.ok()) << c.expr << ": " << r.issues.items()[0].message;
    const ConstExpr* k = r.ast->root().as_const();
    ASSERT_NE(k, nullptr) << c.expr;
    if (c.bytes) {
      EXPECT_EQ(std::get<BytesConstant>(k->value).value, c.value) << c.expr;
    } else {
      EXPECT_EQ(std::get<std::string>(k->value), c.value) << c.expr;
    }
  }
}

TEST(ParserTest, OffsetsFollowCelGo) {
  ParseResult r = Parse("ab + f(c)");
  ASSERT_TRUE(r.ok());
  const Expr& root = r.ast->root();
  EXPECT_EQ(root.offset, 3);                           // '+'
  EXPECT_EQ(root.as_call()->args[0]->offset, 0);       // ab
  EXPECT_EQ(root.as_call()->args[1]->offset, 6);       // '(' of f(c)
  EXPECT_EQ(root.as_call()->args[1]->as_call()->args[0]->offset, 7);
}

// tests/testdata/cel/parser/macros.golden: "### <expression>" lines, each followed by its dump.
// DRAGUARD_UPDATE_GOLDEN=1 rewrites the file from the parser's output (review the diff!).
TEST(ParserGoldenTest, MacroExpansions) {
  const std::string path =
      std::string(DRAGUARD_SOURCE_DIR) + "/tests/testdata/cel/parser/macros.golden";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::vector<std::pair<std::string, std::string>> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) {
      cases.emplace_back(line.substr(4), "");
    } else if (!cases.empty()) {
      std::string& dump = cases.back().second;
      if (!dump.empty()) dump += '\n';
      dump += line;
    }
  }
  ASSERT_GE(cases.size(), 6u);
  const char* update = std::getenv("DRAGUARD_UPDATE_GOLDEN");
  std::string rewritten;
  for (const auto& [expr, dump] : cases) {
    ParseResult r = Parse(expr);
    ASSERT_TRUE(r.ok()) << expr;
    std::string actual = DebugString(*r.ast);
    rewritten += "### " + expr + "\n" + actual + "\n";
    if (update == nullptr) {
      EXPECT_EQ(actual, dump) << expr;
    }
  }
  if (update != nullptr && std::string(update) == "1") std::ofstream(path) << rewritten;
}

struct MessageCase {
  std::string name;
  std::string expr;
  std::string rendered;  // FormatCelIssues output, as cel-go prints it
};

class ParserMessageTest : public testing::TestWithParam<MessageCase> {};

TEST_P(ParserMessageTest, RendersLikeCelGo) {
  const MessageCase& c = GetParam();
  ParseResult r = Parse(c.expr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(FormatCelIssues(SourceText("<input>", c.expr), r.issues), c.rendered);
}

INSTANTIATE_TEST_SUITE_P(
    CelGoTexts, ParserMessageTest,
    testing::Values(
        MessageCase{.name = "Reserved", .expr = "if",
                    .rendered = "ERROR: <input>:1:1: reserved identifier: if\n | if\n | ^"},
        MessageCase{.name = "IntOverflow", .expr = "x == 9223372036854775808",
                    .rendered = "ERROR: <input>:1:6: invalid int literal\n"
                                " | x == 9223372036854775808\n | .....^"},
        MessageCase{.name = "Recursion",
                    .expr = std::string(260, '[') + std::string(260, ']'),
                    .rendered = "ERROR: <input>:1:251: expression recursion limit exceeded: 250\n | " +
                                std::string(260, '[') + std::string(260, ']') + "\n | " +
                                std::string(250, '.') + "^"},
        MessageCase{.name = "MissingOperand", .expr = "1 + +",
                    .rendered = "ERROR: <input>:1:5: Syntax error: mismatched input '+' expecting "
                                "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, "
                                "NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 + +\n | ....^"},
        MessageCase{.name = "SingleEquals", .expr = "a = b",
                    .rendered = "ERROR: <input>:1:3: Syntax error: token recognition error at: '= '\n"
                                " | a = b\n | ..^\n"
                                "ERROR: <input>:1:5: Syntax error: extraneous input 'b' expecting <EOF>\n"
                                " | a = b\n | ....^"},
        MessageCase{.name = "HasArgument", .expr = "has(a)",
                    .rendered = "ERROR: <input>:1:5: invalid argument to has() macro\n | has(a)\n | ....^"}),
    [](const testing::TestParamInfo<MessageCase>& param_info) { return param_info.param.name; });

// Unescapes a textproto string body (C-style escapes, octal and hex) into bytes.
std::string UnescapeTextproto(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case 'x': {
        int v = 0, n = 0;
        while (n < 2 && i + 1 < s.size() && isxdigit(static_cast<unsigned char>(s[i + 1]))) {
          char h = s[++i];
          v = v * 16 + (isdigit(static_cast<unsigned char>(h)) ? h - '0' : (tolower(h) - 'a' + 10));
          ++n;
        }
        out += static_cast<char>(v);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0', n = 1;
          while (n < 3 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7') {
            v = v * 8 + (s[++i] - '0');
            ++n;
          }
          out += static_cast<char>(v);
        } else {
          out += c;
        }
    }
  }
  return out;
}

TEST(ParserConformanceTest, ParseTextprotoExpressionsParse) {
  std::ifstream in(std::string(DRAGUARD_SHARED_DIR) + "/conformance/cel-spec/parse.textproto");
  if (!in) GTEST_SKIP() << "cel-spec conformance files not found under DRAGUARD_SHARED_DIR";
  std::string line;
  int total = 0, parsed = 0;
  while (std::getline(in, line)) {
    size_t at = line.find("expr: ");
    if (at == std::string::npos || line.find_first_not_of(' ') != at) continue;
    size_t open = at + 6;
    if (open >= line.size()) continue;
    char q = line[open];
    size_t close = line.rfind(q);
    if (close <= open) continue;
    std::string expr = UnescapeTextproto(std::string_view(line).substr(open + 1, close - open - 1));
    ++total;
    ParseResult r = Parse(expr);
    if (r.ok()) {
      ++parsed;
    } else {
      ADD_FAILURE() << expr << "\n" << r.issues.items()[0].message;
    }
  }
  RecordProperty("parsed", parsed);
  std::printf("parse.textproto: %d of %d expressions parsed\n", parsed, total);
  EXPECT_GT(total, 100);
}

}  // namespace
}  // namespace draguard::cel
