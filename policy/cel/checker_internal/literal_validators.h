// Private: Kubernetes' compile-time validators (apiserver pkg/cel/environment/base.go,
// `baseOpts` 1.29: cel.ValidateDurationLiterals etc.): constant
// arguments of matches(), duration() and timestamp() must be valid; constant find() and
// findAll() patterns too (Kubernetes precompiles them, apiserver pkg/cel/library/regex.go).
#ifndef DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_LITERAL_VALIDATORS_H_
#define DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_LITERAL_VALIDATORS_H_

#include <cstdint>
#include <string_view>

#include "policy/cel/ast.h"
#include "policy/common/diagnostic.h"

namespace draguard::cel::checker_internal {

// Whether RE2 accepts `pattern` (as cel-go's matches does, with RE2 syntax).
bool IsValidRegex(std::string_view pattern);
// Go's time.ParseDuration grammar with its int64-nanosecond range.
bool IsValidGoDuration(std::string_view text);
// RFC 3339 as Go's time.Parse(time.RFC3339) reads it, within CEL's years 1..9999.
bool IsValidRfc3339(std::string_view text);

// Adds `cel.invalid-literal` issues for every call in `root` whose first argument is a
// constant that cel-go's formatValidator rejects ("invalid matches argument", ...).
// Mirrors cel-go: the checked argument is args[0] (the pattern in receiver style). A
// constant find/findAll pattern RE2 rejects gets `cel.program-instantiation`
// ("program instantiation failed: error parsing regexp: ...").
void ValidateLiterals(const Expr& root, Diagnostics& issues);

// Whether ValidateLiterals looks at `call` (a function it validates, with a constant string
// first argument): the checker runs the walk only when some call of the tree is one.
bool IsLiteralValidatedCall(const CallExpr& call);

}  // namespace draguard::cel::checker_internal

#endif  // DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_LITERAL_VALIDATORS_H_
