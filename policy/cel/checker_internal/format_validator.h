// Private: cel-go's validator of `format()` calls (strings extension, on whenever the
// extension is; cel-go ext/formatting.go). For `"<literal>".format([<list literal>])` it parses the
// format string and checks each clause against the static type of the list element it
// consumes, as cel-go's stringFormatChecker does: dyn passes, %s recurses into list and
// map literals. Issues (code cel.invalid-format) carry cel-go's texts, e.g.
//   error during formatting: decimal clause can only be used on integers, was given string
//   too many arguments supplied to string.format (expected 2, got 3)
// positioned at the offending element, or at the call for parse errors.
#ifndef DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_FORMAT_VALIDATOR_H_
#define DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_FORMAT_VALIDATOR_H_

#include "policy/cel/ast.h"
#include "policy/cel/checked_ast.h"
#include "policy/common/diagnostic.h"

namespace draguard::cel::checker_internal {

// Validates every matching format() call in `root`; `checked` holds its types and overloads.
void ValidateFormatCalls(const Expr& root, const CheckedAst& checked, Diagnostics& issues);

}  // namespace draguard::cel::checker_internal

#endif  // DRAGUARD_POLICY_CEL_CHECKER_INTERNAL_FORMAT_VALIDATOR_H_
