// Limits and language switches of the CEL parser. Defaults match what Kubernetes configures
// for cel-go v0.26 (DRA device selectors): recursion depth 250, 100,000 code points, 100
// reported errors, optional syntax on, and every macro set of the newest Kubernetes CEL
// environment enabled.
#ifndef DRAGUARD_POLICY_CEL_PARSER_OPTIONS_H_
#define DRAGUARD_POLICY_CEL_PARSER_OPTIONS_H_

#include <cstddef>

namespace draguard::cel {

// The API server rejects a selector expression longer than this many bytes before compiling
// it (resource.k8s.io CELSelectorExpressionMaxLength). The parser does not check it: callers
// do, because the message and field belong to the object validator.
inline constexpr size_t kMaxSelectorExpressionBytes = 10240;

struct ParserOptions {
  // Nesting deeper than this is reported as `expression recursion limit exceeded: <n>`
  // (cel-go's default for Kubernetes). Counts parenthesised, call, list, map, unary, member
  // and same-precedence chains, so every later recursive pass is bounded too.
  int max_recursion_depth = 250;
  // Expressions with more Unicode code points than this are rejected without lexing.
  size_t expression_size_code_point_limit = 100000;
  // After this many errors the parser stops and adds one "more errors" note.
  int error_recovery_limit = 100;

  // `a.?f`, `a[?i]`, `{?k: v}`, `[?e]`, `T{?f: v}` (cel-go OptionalTypes / EnableOptionalSyntax).
  bool enable_optional_syntax = true;
  // has, all, exists, exists_one/existsOne, map, filter (cel-go standard macros).
  bool enable_standard_macros = true;
  // cel.bind(v, init, e) (cel-go ext.Bindings).
  bool enable_bindings_macro = true;
  // e.optMap(v, t), e.optFlatMap(v, t) (cel-go OptionalTypes).
  bool enable_optional_macros = true;
  // Two-variable all/exists/existsOne, transformList/transformMap/transformMapEntry
  // (cel-go ext.TwoVarComprehensions).
  bool enable_two_var_comprehensions = true;
  // e.sortBy(v, key) (cel-go ext.Lists version 3).
  bool enable_lists_macros = true;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_PARSER_OPTIONS_H_
