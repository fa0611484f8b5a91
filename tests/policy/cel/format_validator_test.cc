// The checker's validation of literal format() calls (cel-go's stringFormatValidator) and
// the homogeneous-literal exemption under `format`. Messages are those of cel-go v0.26's
// ext/formatting_test.go compile-time cases.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "policy/cel/checker.h"
#include "policy/cel/env.h"
#include "policy/cel/parser.h"

namespace draguard::cel {
namespace {

struct FormatCheckCase {
  std::string expr;
  std::string message;  // empty: the expression checks
  std::string code = "cel.invalid-format";
  std::string at;  // the issue's position: the first occurrence of this text (empty: 0)
};

void PrintTo(const FormatCheckCase& c, std::ostream* os) { *os << c.expr; }

class FormatValidatorTest : public testing::TestWithParam<FormatCheckCase> {};

TEST_P(FormatValidatorTest, Checks) {
  const FormatCheckCase& c = GetParam();
  ParseResult parsed = Parse(c.expr);
  ASSERT_TRUE(parsed.ok()) << c.expr;
  CheckResult r = Check(*parsed.ast, *Environment::ForDraSelector(EnvOptions{}));
  if (c.message.empty()) {
    EXPECT_TRUE(r.ok()) << r.issues.items().front().message;
    return;
  }
  ASSERT_FALSE(r.ok());
  const Diagnostic& d = r.issues.items().front();
  EXPECT_EQ(d.code, c.code);
  EXPECT_EQ(d.message, c.message);
  EXPECT_EQ(d.value_offset, c.at.empty() ? 0 : static_cast<int>(c.expr.find(c.at)));
}

INSTANTIATE_TEST_SUITE_P(
    Literals, FormatValidatorTest,
    testing::Values(
        FormatCheckCase{.expr = "'%s %d %f %b %x %o'.format(['a', 1, 2.5, true, b'c', 7u]) != ''"},
        FormatCheckCase{.expr = "'%d'.format([dyn(1.5)]) != ''"},
        FormatCheckCase{.expr = "'%f %e'.format(['NaN', 'Infinity']) != ''"},
        FormatCheckCase{.expr = "'%.5000f'.format([1.0]) != ''"},
        FormatCheckCase{.expr = "'%s'.format([{'a': 1, 2: [b'x', null]}]) != ''"},
        FormatCheckCase{.expr = "device.driver.format([1.5]) != ''"},
        FormatCheckCase{.expr = "'%d'.format(['a'].map(x, x)) != ''"},
        FormatCheckCase{.expr = "'%s %s'.format(['abc']) != ''",
                        .message = "index 1 out of range",
                        .at = "("},
        FormatCheckCase{.expr = "'%s %s'.format(['abc', 'def', 'ghi']) != ''",
                        .message = "too many arguments supplied to string.format (expected 2, got 3)",
                        .at = "("},
        FormatCheckCase{.expr = "'filler %'.format([]) != ''",
                        .message = "unexpected end of string",
                        .at = "("},
        FormatCheckCase{.expr = "'%j'.format([123]) != ''",
                        .message = "could not parse formatting clause: unrecognized formatting "
                                   "clause \"j\"",
                        .at = "("},
        FormatCheckCase{.expr = "'double is %.34'.format([5.0]) != ''",
                        .message = "could not parse formatting clause: error while parsing "
                                   "precision: could not find end of precision specifier",
                        .at = "("},
        FormatCheckCase{.expr = "'int is %d'.format([5.2]) != ''",
                        .message = "error during formatting: decimal clause can only be used on "
                                   "integers, was given double",
                        .at = "5.2"},
        FormatCheckCase{.expr = "'double is %f'.format([true]) != ''",
                        .message = "error during formatting: fixed-point clause can only be used "
                                   "on doubles, was given bool",
                        .at = "true"},
        FormatCheckCase{.expr = "'double is %e'.format([1]) != ''",
                        .message = "error during formatting: scientific clause can only be used "
                                   "on doubles, was given int",
                        .at = "1]"},
        FormatCheckCase{.expr = "'string is %b'.format(['a string']) != ''",
                        .message = "error during formatting: only integers and bools can be "
                                   "formatted as binary, was given string",
                        .at = "'a string'"},
        FormatCheckCase{.expr = "'%X is a double'.format([2.5]) != ''",
                        .message = "error during formatting: only integers, byte buffers, and "
                                   "strings can be formatted as hex, was given double",
                        .at = "2.5"},
        FormatCheckCase{.expr = "'an octal: %o'.format([[3]]) != ''",
                        .message = "error during formatting: octal clause can only be used on "
                                   "integers, was given list",
                        .at = "[3]"},
        FormatCheckCase{.expr = "'list is %s'.format([[1, quantity('1')]]) != ''",
                        .message = "error during formatting: string clause can only be used on "
                                   "strings, bools, bytes, ints, doubles, maps, lists, types, "
                                   "durations, and timestamps, was given kubernetes.Quantity",
                        .at = "('1')"},
        FormatCheckCase{.expr = "'%s'.format([optional.none()]) != ''",
                        .message = "error during formatting: string clause can only be used on "
                                   "strings, bools, bytes, ints, doubles, maps, lists, types, "
                                   "durations, and timestamps, was given optional_type",
                        .at = "()]"}));

INSTANTIATE_TEST_SUITE_P(
    HomogeneousLiterals, FormatValidatorTest,
    testing::Values(
        FormatCheckCase{.expr = "'%s %d'.format(['a', 1]) != ''"},
        FormatCheckCase{.expr = "'%s'.format([[1, 'a'].map(x, [x, 2.0])]) != ''"},
        FormatCheckCase{.expr = "size(['a', 1]) == 2",
                        .message = "expected type 'string' but found 'int'",
                        .code = "cel.type-mismatch",
                        .at = "1]"}));

}  // namespace
}  // namespace draguard::cel
