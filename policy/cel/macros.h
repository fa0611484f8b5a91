// CEL macros: calls the parser rewrites into comprehensions (or, for `has`, a presence test)
// with the same shapes as cel-go v0.26 (parser/macro.go, ext/comprehensions.go,
// ext/bindings.go, ext/lists.go, cel/optional macros). A call whose name and argument count do
// not match a macro is an ordinary call.
#ifndef DRAGUARD_POLICY_CEL_MACROS_H_
#define DRAGUARD_POLICY_CEL_MACROS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/ast.h"
#include "policy/cel/parser_options.h"

namespace draguard::cel {

namespace internal {
class ExprFactory;
}  // namespace internal

// True when `function` called with `arg_count` arguments (on `target`, or globally when
// target is null) is a macro enabled by `options`. `cel.bind` needs target to be the
// identifier `cel`.
bool IsMacroCall(std::string_view function, const Expr* target, size_t arg_count,
                 const ParserOptions& options);

// Why an expansion failed: the message is cel-go's, offset/length the offending argument.
struct MacroError {
  int32_t offset = 0;
  int32_t length = 0;
  std::string message;
};

// Expands a call for which IsMacroCall returned true. New nodes get fresh ids from `factory`
// and `offset` (the call's offset). On a user error (e.g. `has(a)`, `x.all(1, p)`) returns
// null and fills `error`. Consumes target and args.
ExprPtr ExpandMacro(internal::ExprFactory& factory, int32_t offset, std::string_view function,
                    ExprPtr target, std::vector<ExprPtr> args, MacroError& error);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_MACROS_H_
