// Library functions (cel-go ext/, apiserver pkg/cel/library/): strings extension v2, regex
// (find/findAll), the Kubernetes list library, lists extension v3 and the sets extension. Expected
// values follow the cel-go / Kubernetes documentation of each function.
#include <gtest/gtest.h>

#include "tests/policy/cel/eval_testing.h"

namespace draguard::cel {
namespace {

struct FnCase {
  const char* expr;
  const char* want;            // DebugString of the result (when error is null)
  const char* error = nullptr;  // expected error text
};

void PrintTo(const FnCase& c, std::ostream* os) { *os << c.expr; }

class FunctionsTest : public testing::TestWithParam<FnCase> {};

TEST_P(FunctionsTest, Evaluates) {
  const FnCase& c = GetParam();
  EvaluateThen(c.expr, [&](const Value& v) {
    if (c.error != nullptr) {
      ASSERT_TRUE(v.is_error()) << v.DebugString();
      EXPECT_EQ(v.text(), c.error);
    } else {
      ASSERT_FALSE(v.is_error()) << v.text();
      EXPECT_EQ(v.DebugString(), c.want);
    }
  });
}

INSTANTIATE_TEST_SUITE_P(
    StringsExt, FunctionsTest,
    testing::Values(FnCase{.expr = "'tacocat'.charAt(3)", .want = "\"o\""},
                    FnCase{.expr = "'tacocat'.charAt(7)", .want = "\"\""},
                    FnCase{.expr = "'héllo'.charAt(1)", .want = "\"é\""},
                    FnCase{.expr = "'tacocat'.charAt(8)", .error = "index out of range: 8"},
                    FnCase{.expr = "'tacocat'.indexOf('a')", .want = "1"},
                    FnCase{.expr = "'tacocat'.indexOf('a', 3)", .want = "5"},
                    FnCase{.expr = "'héllo'.indexOf('l')", .want = "2"},
                    FnCase{.expr = "'tacocat'.indexOf('x')", .want = "-1"},
                    FnCase{.expr = "'tacocat'.lastIndexOf('a')", .want = "5"},
                    FnCase{.expr = "'tacocat'.lastIndexOf('a', 4)", .want = "1"},
                    FnCase{.expr = "'TacoCat'.lowerAscii()", .want = "\"tacocat\""},
                    FnCase{.expr = "'TacoCat'.upperAscii()", .want = "\"TACOCAT\""},
                    FnCase{.expr = "'hello hello'.replace('he', 'we')", .want = "\"wello wello\""},
                    FnCase{.expr = "'hello hello'.replace('he', 'we', 1)", .want = "\"wello hello\""},
                    FnCase{.expr = "'ab'.replace('', 'x')", .want = "\"xaxbx\""},
                    FnCase{.expr = "'a,b,c'.split(',')", .want = "[\"a\", \"b\", \"c\"]"},
                    FnCase{.expr = "'a,b,c'.split(',', 2)", .want = "[\"a\", \"b,c\"]"},
                    FnCase{.expr = "'a,b,c'.split(',', 0)", .want = "[]"},
                    FnCase{.expr = "'tacocat'.substring(4)", .want = "\"cat\""},
                    FnCase{.expr = "'tacocat'.substring(0, 4)", .want = "\"taco\""},
                    FnCase{.expr = "'tacocat'.substring(4, 2)",
                           .error = "invalid substring range. start: 4, end: 2"},
                    FnCase{.expr = "'  \\ttrim\\n '.trim()", .want = "\"trim\""},
                    FnCase{.expr = "['a', 'b'].join()", .want = "\"ab\""},
                    FnCase{.expr = "['a', 'b'].join('-')", .want = "\"a-b\""},
                    FnCase{.expr = "strings.quote('a\"b')", .want = "\"\\\"a\\\\\\\"b\\\"\""}));

INSTANTIATE_TEST_SUITE_P(
    Regex, FunctionsTest,
    testing::Values(FnCase{.expr = "'abc 123'.find('[0-9]+')", .want = "\"123\""},
                    FnCase{.expr = "'abc'.find('[0-9]+')", .want = "\"\""},
                    FnCase{.expr = "'123 abc 456'.findAll('[0-9]+')", .want = "[\"123\", \"456\"]"},
                    FnCase{.expr = "'1 2 3'.findAll('[0-9]', 2)", .want = "[\"1\", \"2\"]"},
                    FnCase{.expr = "'abc'.matches('^a.c$')", .want = "true"},
                    FnCase{.expr = "matches('abc', 'x')", .want = "false"},
                    FnCase{.expr = "'abc'.matches(dyn('b'))", .want = "true"},
                    FnCase{.expr = "'a'.matches(dyn('('))",
                           .error = "error parsing regexp: missing closing ): `(`"},
                    FnCase{.expr = "'a'.matches(dyn('a)'))",
                           .error = "error parsing regexp: unexpected ): `a)`"},
                    FnCase{.expr = "'a'.find(dyn('[a'))",
                           .error = "Illegal regex: error parsing regexp: missing closing ]: `[a`"},
                    FnCase{.expr = "'a'.findAll(dyn('a**'), 1)",
                           .error = "Illegal regex: error parsing regexp: invalid nested repetition "
                                    "operator: `**`"},
                    FnCase{.expr = "dyn(1).find('a')", .error = "no such overload"}));

INSTANTIATE_TEST_SUITE_P(
    Lists, FunctionsTest,
    testing::Values(FnCase{.expr = "[1, 2, 3].isSorted()", .want = "true"},
                    FnCase{.expr = "[1, 3, 2].isSorted()", .want = "false"},
                    FnCase{.expr = "[1, 2, 3].sum()", .want = "6"},
                    FnCase{.expr = "[].sum()", .want = "0"},
                    FnCase{.expr = "[1.5, 2.5].sum()", .want = "4"},
                    FnCase{.expr = "[3, 1, 2].min()", .want = "1"},
                    FnCase{.expr = "[3, 1, 2].max()", .want = "3"},
                    FnCase{.expr = "[1, 2, 1].indexOf(1)", .want = "0"},
                    FnCase{.expr = "[1, 2, 1].lastIndexOf(1)", .want = "2"},
                    FnCase{.expr = "[1, 2, 3, 4].slice(1, 3)", .want = "[2, 3]"},
                    FnCase{.expr = "[1, [2, [3]]].flatten()", .want = "[1, 2, [3]]"},
                    FnCase{.expr = "[1, [2, [3]]].flatten(2)", .want = "[1, 2, 3]"},
                    FnCase{.expr = "[1, 2, 1, 3].distinct()", .want = "[1, 2, 3]"},
                    FnCase{.expr = "[1, 2, 3].reverse()", .want = "[3, 2, 1]"},
                    FnCase{.expr = "[3, 1, 2].sort()", .want = "[1, 2, 3]"},
                    FnCase{.expr = "lists.range(3)", .want = "[0, 1, 2]"},
                    FnCase{.expr = "[1, 2].first()", .want = "optional.of(1)"},
                    FnCase{.expr = "[].last()", .want = "optional.none()"}));

INSTANTIATE_TEST_SUITE_P(
    Sets, FunctionsTest,
    testing::Values(FnCase{.expr = "sets.contains([1, 2, 3], [3, 1])", .want = "true"},
                    FnCase{.expr = "sets.contains([1, 2], [1.0, 2u])", .want = "true"},
                    FnCase{.expr = "sets.contains([1], [2])", .want = "false"},
                    FnCase{.expr = "sets.equivalent([1, 2, 2], [2, 1])", .want = "true"},
                    FnCase{.expr = "sets.intersects([1, 2], [3, 2])", .want = "true"},
                    FnCase{.expr = "sets.intersects([1], [])", .want = "false"}));

// Issue 19 item 24: cel-go converts a string to double only when Go's ParseFloat succeeds;
// "1e400" is out of range there (an underflow to zero is not an error).
TEST(ConversionTest, DoubleOutOfRangeIsAnError) {
  ParseResult parsed = Parse("double('1e400')");
  ASSERT_TRUE(parsed.ok());
  // A constant argument is converted when the program is built, and that fails.
  EXPECT_FALSE(Plan(*parsed.ast).ok());
  ExpectEvaluatesTo("double(['1e400'][0])", "cannot convert string '1e400' to double");
  ExpectEvaluatesTo("double(['-1e400'][0])", "cannot convert string '-1e400' to double");
  ExpectEvaluatesTo("double(['1e-400'][0])", "0");
  ExpectEvaluatesTo("double(['2.5'][0])", "2.5");
}

}  // namespace
}  // namespace draguard::cel
