// The CEL parser: expression text to Ast, with macros expanded, as cel-go v0.26 parses it.
//
//   ParseResult r = Parse("device.driver == 'gpu.example.com'");
//   if (!r.ok()) Render(FormatCelIssues(SourceText("<input>", expr), r.issues));
//
// Node positions follow cel-go so that later stages print the API server's columns: literals,
// identifiers, lists and maps start at their first character; operators are placed at their
// operator token (`a + b` at '+', `c ? a : b` at '?', `!x` at '!'), selects at the '.', index
// expressions at '[', calls at their '(' and message literals at their '{'. Nodes produced by
// a macro take the macro call's position.
#ifndef DRAGUARD_POLICY_CEL_PARSER_H_
#define DRAGUARD_POLICY_CEL_PARSER_H_

#include <memory>
#include <string_view>

#include "policy/cel/ast.h"
#include "policy/cel/parser_options.h"
#include "policy/common/diagnostic.h"

namespace draguard::cel {

struct ParseResult {
  // Null iff `issues` holds an error.
  std::unique_ptr<Ast> ast;
  // Syntax, literal, reserved-word, macro and limit errors, in source order of discovery.
  // Codes: cel.syntax-error, cel.reserved-identifier, cel.invalid-literal, cel.macro-invalid,
  // cel.unsupported-syntax, cel.recursion-limit, cel.expression-too-large, cel.too-many-errors.
  // Each has value_offset/value_length (byte range in the expression); `field` is empty.
  Diagnostics issues;

  bool ok() const { return ast != nullptr; }
};

// Parses `expression`. Never throws; time and memory are linear in the input size, and
// nesting is bounded by options.max_recursion_depth. The Ast's source is named "<input>".
// Thread safe (no shared state).
ParseResult Parse(std::string_view expression, const ParserOptions& options = {});

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_PARSER_H_
