// `<string>.format(<list>)` as Kubernetes runs it (strings extension version 2, cel-go's
// legacy formatter, en_US). Expected texts are those of cel-go v0.26's ext/formatting_test.go
// for the legacy formatter, plus Go's fmt/strconv/x/text behaviour for the edge cases.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "tests/policy/cel/eval_testing.h"

namespace draguard::cel {
namespace {

struct FormatCase {
  const char* expr;
  const char* want = nullptr;   // the formatted string, when no error
  const char* error = nullptr;  // the error text
};

void PrintTo(const FormatCase& c, std::ostream* os) { *os << c.expr; }

class StringFormatTest : public testing::TestWithParam<FormatCase> {};

TEST_P(StringFormatTest, Evaluates) {
  const FormatCase& c = GetParam();
  EvaluateThen(c.expr, [&](const Value& v) {
    if (c.error != nullptr) {
      ASSERT_TRUE(v.is_error()) << v.DebugString();
      EXPECT_EQ(v.text(), c.error);
      return;
    }
    ASSERT_EQ(v.kind(), Kind::kString) << v.DebugString();
    EXPECT_EQ(v.text(), c.want);
  });
}

INSTANTIATE_TEST_SUITE_P(
    Clauses, StringFormatTest,
    testing::Values(
        FormatCase{.expr = "'no substitution'.format([])", .want = "no substitution"},
        FormatCase{.expr = "'%% and also %%'.format([])", .want = "% and also %"},
        FormatCase{.expr = "'%%%s%%'.format(['text'])", .want = "%text%"},
        FormatCase{.expr = "'%d %d %d, %s %s %s'.format([1, 2, 3, 'A', 'B', 'C'])",
                   .want = "1 2 3, A B C"},
        FormatCase{.expr = "'%b'.format([5])", .want = "101"},
        FormatCase{.expr = "'%b'.format([-5])", .want = "-101"},
        FormatCase{.expr = "'%b'.format([uint(64)])", .want = "1000000"},
        FormatCase{.expr = "'%b %b'.format([true, false])", .want = "1 0"},
        FormatCase{.expr = "'%o'.format([11])", .want = "13"},
        FormatCase{.expr = "'%o'.format([-11])", .want = "-13"},
        FormatCase{.expr = "'%o'.format([uint(65535)])", .want = "177777"},
        FormatCase{.expr = "'%x'.format([30])", .want = "1e"},
        FormatCase{.expr = "'%X'.format([30])", .want = "1E"},
        FormatCase{.expr = "'%x'.format([-30])", .want = "-1e"},
        FormatCase{.expr = "'%X'.format([uint(6000)])", .want = "1770"},
        FormatCase{.expr = "'%x'.format([-9223372036854775808])", .want = "-8000000000000000"},
        FormatCase{.expr = "'%x'.format(['Hello world!'])", .want = "48656c6c6f20776f726c6421"},
        FormatCase{.expr = "'%X'.format(['Hello world!'])", .want = "48656C6C6F20776F726C6421"},
        FormatCase{.expr = "'%x'.format([b'\\x00\\x00byte string\\x00'])",
                   .want = "00006279746520737472696e6700"},
        FormatCase{.expr = "'%d'.format([uint(64)])", .want = "64"},
        FormatCase{.expr = "'%d'.format([-9223372036854775808])", .want = "-9223372036854775808"},
        // %f and %e go through x/text's en_US number formatting.
        FormatCase{.expr = "'%.3f'.format([1.2345])", .want = "1.234"},
        FormatCase{.expr = "'%f'.format([2.71828])", .want = "2.718280"},
        FormatCase{.expr = "'%.0f'.format([2.5])", .want = "2"},
        FormatCase{.expr = "'%.3f'.format([-123.4999])", .want = "-123.500"},
        FormatCase{.expr = "'%f'.format([1234567.891])", .want = "1,234,567.891000"},
        FormatCase{.expr = "'%.2f'.format([-1234.5])", .want = "-1,234.50"},
        FormatCase{.expr = "'%f'.format(['NaN'])", .want = "NaN"},
        FormatCase{.expr = "'%f'.format(['Infinity'])", .want = "\u221E"},
        FormatCase{.expr = "'%f'.format(['-Infinity'])", .want = "-\u221E"},
        FormatCase{.expr = "'%.6e'.format([1052.032911275])",
                   .want = "1.052033\u202F\u00D7\u202F10\u2070\u00B3"},
        FormatCase{.expr = "'%e'.format([2.71828])", .want = "2.718280\u202F\u00D7\u202F10\u2070\u2070"},
        FormatCase{.expr = "'%e'.format([0.00123])",
                   .want = "1.230000\u202F\u00D7\u202F10\u207B\u2070\u00B3"},
        FormatCase{.expr = "'%e'.format([-1e100])",
                   .want = "-1.000000\u202F\u00D7\u202F10\u00B9\u2070\u2070"},
        // cel-go passes the precision of %e as a width: six digits, padded to 20 runes.
        FormatCase{.expr = "'%.20e'.format([1.0])",
                   .want = "     1.000000\u202F\u00D7\u202F10\u2070\u2070"},
        FormatCase{.expr = "'%.0e'.format([5.0])", .want = "5.000000\u202F\u00D7\u202F10\u2070\u2070"},
        FormatCase{.expr = "'%e'.format([double('NaN')])", .want = "   NaN"},
        FormatCase{.expr = "'%e'.format([double('-Infinity')])", .want = "    -\u221E"}));

INSTANTIATE_TEST_SUITE_P(
    StringClause, StringFormatTest,
    testing::Values(
        FormatCase{.expr = "'%s'.format([2.71])", .want = "2.71"},
        FormatCase{.expr = "'%s'.format([0.000000002])", .want = "2e-09"},
        FormatCase{.expr = "'%s'.format([1e20])", .want = "1e+20"},
        FormatCase{.expr = "'%s'.format([123456.0])", .want = "123456"},
        FormatCase{.expr = "'%s'.format([1234567.0])", .want = "1.234567e+06"},
        FormatCase{.expr = "'%s'.format([-0.0])", .want = "-0"},
        FormatCase{.expr = "'%s %s %s'.format([double('NaN'), double('Inf'), double('-Inf')])",
                   .want = "NaN +Inf -Inf"},
        FormatCase{.expr = "'null: %s'.format([null])", .want = "null: null"},
        FormatCase{.expr = "'%s'.format([999999999999])", .want = "999999999999"},
        FormatCase{.expr = "'%s'.format([b'xyz'])", .want = "xyz"},
        FormatCase{.expr = "'%s'.format([type('test string')])", .want = "string"},
        FormatCase{.expr = "'%s, %s'.format([true, false])", .want = "true, false"},
        FormatCase{.expr = "'%s'.format([[2.71]])", .want = "[2.710000]"},
        FormatCase{.expr = "'%s'.format([[0.000000002]])", .want = "[0.000000]"},
        FormatCase{.expr = "'%s'.format([['abc', 3.14, null, [9, 8, 7, 6]]])",
                   .want = "[\"abc\", 3.140000, null, [9, 8, 7, 6]]"},
        FormatCase{.expr = "'%s'.format([[double('NaN'), double('+Inf'), double('-Inf')]])",
                   .want = "[\"NaN\", \"+Inf\", \"-Inf\"]"},
        FormatCase{.expr = "'%s'.format([['a\"b', 'é\\n', b'c']])",
                   .want = "[\"a\\\"b\", \"é\\n\", b\"c\"]"},
        FormatCase{.expr = "'%s'.format([{1: 'value1', uint(2): 'value2', true: double('NaN')}])",
                   .want = "{1:\"value1\", 2:\"value2\", true:\"NaN\"}"},
        FormatCase{.expr = "'%s'.format([{'strKey': 'x', 6: [1], true: 42}])",
                   .want = "{\"strKey\":\"x\", 6:[1], true:42}"},
        FormatCase{.expr = "'%s'.format([{'b': 1, 'a': 2}])", .want = "{\"a\":2, \"b\":1}"}));

INSTANTIATE_TEST_SUITE_P(
    Errors, StringFormatTest,
    testing::Values(
        FormatCase{.expr = "'%a'.format([1])",
                   .error = "could not parse formatting clause: unrecognized formatting clause \"a\""},
        FormatCase{.expr = "'%E'.format([0.5])",
                   .error = "could not parse formatting clause: unrecognized formatting clause \"E\""},
        FormatCase{.expr = "'%d %d %d'.format([0, 1])", .error = "index 2 out of range"},
        FormatCase{.expr = "'filler %'.format([])", .error = "index 0 out of range"},
        FormatCase{.expr = "'filler %'.format([1])", .error = "unexpected end of string"},
        FormatCase{.expr = "'%.34'.format([5.0])",
                   .error = "could not parse formatting clause: error while parsing precision: "
                            "could not find end of precision specifier"},
        FormatCase{.expr = "'%.f'.format([5.0])",
                   .error = "could not parse formatting clause: error while parsing precision: error "
                            "while converting precision to integer: strconv.Atoi: parsing \"\": "
                            "invalid syntax"},
        FormatCase{.expr = "'%.1001f'.format([5.0])",
                   .error = "could not parse formatting clause: error while parsing precision: "
                            "precision 1001 exceeds maximum allowed precision 1000"},
        FormatCase{.expr = "'%b'.format(['abc'])",
                   .error = "error during formatting: only integers and bools can be formatted as "
                            "binary, was given string"},
        FormatCase{.expr = "'%o'.format(['a string'])",
                   .error = "error during formatting: octal clause can only be used on integers, "
                            "was given string"},
        FormatCase{.expr = "'%x'.format([0.5])",
                   .error = "error during formatting: only integers, byte buffers, and strings can "
                            "be formatted as hex, was given double"},
        FormatCase{.expr = "'%d'.format([null])",
                   .error = "error during formatting: decimal clause can only be used on integers, "
                            "was given null_type"},
        FormatCase{.expr = "'%d'.format([1.5])",
                   .error = "error during formatting: decimal clause can only be used on integers, "
                            "was given double"},
        FormatCase{.expr = "'%f'.format([2])",
                   .error = "error during formatting: fixed-point clause can only be used on "
                            "doubles, was given int"},
        FormatCase{.expr = "'%e'.format(['abc'])",
                   .error = "error during formatting: scientific clause can only be used on "
                            "doubles, was given string"},
        FormatCase{.expr = "'%s'.format([quantity('1')])",
                   .error = "error during formatting: string clause can only be used on strings, "
                            "bools, bytes, ints, doubles, maps, lists, types, durations, and "
                            "timestamps, was given kubernetes.Quantity"},
        FormatCase{.expr = "'%s'.format([[quantity('1')]])",
                   .error = "error during formatting: no formatting function for kubernetes.Quantity"},
        FormatCase{.expr = "'%s'.format([{[1]: 1}])", .error = "unsupported key type: list"},
        FormatCase{.expr = "'%s'.format([b'\\xff'])",
                   .error = "error during formatting: could not convert argument \"invalid UTF-8 in "
                            "bytes, cannot convert to string\" to string"}));

}  // namespace
}  // namespace draguard::cel
