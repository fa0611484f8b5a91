// Test helper: evaluate an unchecked expression and inspect the result.
#ifndef DRAGUARD_TESTS_POLICY_CEL_EVAL_TESTING_H_
#define DRAGUARD_TESTS_POLICY_CEL_EVAL_TESTING_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "policy/cel/parser.h"
#include "policy/cel/program.h"

namespace draguard::cel {

// Parses and plans `expr`, evaluates it against an empty activation and calls
// `inspect(const Value&)` while the Program lives (results may borrow from it). Parse and
// plan errors are test failures.
template <typename Inspect>
void EvaluateThen(std::string_view expr, Inspect&& inspect) {
  ParseResult parsed = Parse(expr);
  ASSERT_TRUE(parsed.ok()) << expr;
  StatusOr<Program> program = Plan(*parsed.ast);
  ASSERT_TRUE(program.ok()) << expr << ": " << program.status();
  Activation activation;
  EvalState state;
  inspect(program->Evaluate(activation, state));
}

// Evaluates `expr` and expects its DebugString, or for an error value its message, to be
// `want`.
inline void ExpectEvaluatesTo(std::string_view expr, std::string_view want) {
  EvaluateThen(expr, [&](const Value& v) {
    const std::string got = v.is_error() ? std::string(v.text()) : v.DebugString();
    EXPECT_EQ(got, want) << expr;
  });
}

}  // namespace draguard::cel

#endif  // DRAGUARD_TESTS_POLICY_CEL_EVAL_TESTING_H_
