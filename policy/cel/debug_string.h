// A canonical text dump of a CEL Ast for golden tests, in the style of cel-go's debug
// printer: every node is followed by `^#<id>:<Kind>#`, calls and literals list their children
// one per line, indented by two spaces per level. Examples:
//   a + 1          _+_(
//                    a^#1:Ident#,
//                    1^#3:int64#
//                  )^#2:Call#
//   a.b.c(x)       a^#1:Ident#.b^#2:Select#.c(
//                    x^#4:Ident#
//                  )^#3:Call#
// Constants: 1^#:int64#, 1u^#:uint64#, 1.5^#:double#, "s"^#:string#, b"\x00"^#:bytes#,
// true^#:bool#, null^#:null#. Presence tests print `.f~test-only~`. Lists print `?` before
// optional elements; map and message entries print `[?]key:value^#<id>:Entry#`.
// Comprehensions print their parts with `// Variable`, `// Target`, ... comments as cel-go.
// A node left empty by an error prints as `<error>^#<id>:Error#`.
#ifndef DRAGUARD_POLICY_CEL_DEBUG_STRING_H_
#define DRAGUARD_POLICY_CEL_DEBUG_STRING_H_

#include <string>

#include "policy/cel/ast.h"

namespace draguard::cel {

// Renders `expr` (recursively) as described above. Never throws on a well-formed tree;
// recursion depth equals the tree depth, which the parser bounds.
std::string DebugString(const Expr& expr);

// Shorthand for DebugString(ast.root()).
std::string DebugString(const Ast& ast);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_DEBUG_STRING_H_
