// The CEL type checker: resolves identifiers, selects and calls against an Environment and
// computes the type of every node, with cel-go's gradual typing (dyn/any defer to run time)
// and cel-go's messages (cel-go checker/errors.go).
//
// Diagnostics (user mistakes) carry a stable code, the message cel-go prints, and
// value_offset = the offending node's byte offset in the expression; `field` is left empty
// for the caller to fill. Codes:
//   cel.undeclared-reference   undeclared reference to 'x' (in container '')
//   cel.undefined-field        undefined field 'name'
//   cel.no-matching-overload   found no matching overload for 'f' applied to '(int)'
//   cel.type-mismatch          expected type 'int' but found 'string'
//   cel.field-selection        type 'int' does not support field selection
//   cel.comprehension-range    expression of type 'T' cannot be the range of a comprehension
//   cel.invalid-literal        invalid matches|duration|timestamp argument (Kubernetes
//                              compile-time literal validators, when the environment has them)
//   cel.program-instantiation  program instantiation failed: error parsing regexp: ... (a
//                              constant find/findAll pattern; literal validators on)
//   cel.invalid-format         a literal format() string that cel-go's strings-extension
//                              validator rejects (bad clause, argument type or count)
//   cel.too-many-nodes         the expression exceeds CheckerOptions::max_expression_node_count
#ifndef DRAGUARD_POLICY_CEL_CHECKER_H_
#define DRAGUARD_POLICY_CEL_CHECKER_H_

#include "policy/cel/ast.h"
#include "policy/cel/checked_ast.h"
#include "policy/cel/env.h"
#include "policy/common/diagnostic.h"

namespace draguard::cel {

struct CheckerOptions {
  // Expressions with more nodes are rejected without checking (cel-cpp's default).
  int max_expression_node_count = 100000;
  // Checking stops reporting after this many errors.
  int max_error_issues = 20;
  // Overload candidates whose arguments hold no type variable are fitted without renaming
  // their type parameters (same result, fewer allocations). False sends every candidate
  // through the general path: for tests that compare the two.
  bool fit_concrete_overloads = true;
};

struct CheckResult {
  CheckedAst checked;
  Diagnostics issues;

  bool ok() const { return !issues.has_errors(); }
};

// Type-checks `ast` in `env`. Never fails as a whole: problems are issues, and `checked`
// is filled as far as possible (error-typed nodes have TypeKind::kError). Does not modify
// or retain `ast` or `env`. Thread safe for distinct results.
CheckResult Check(const Ast& ast, const Environment& env, const CheckerOptions& options = {});

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_CHECKER_H_
