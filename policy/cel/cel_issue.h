// Renders CEL diagnostics exactly as cel-go's Errors.ToDisplayString does, which is the text
// the API server appends after `compilation failed: `:
//   ERROR: <input>:1:5: Syntax error: mismatched input ')' expecting ...
//    | a + )
//    | ....^
// One block per issue, joined by "\n", sorted by position (stable). Columns count Unicode
// code points; the header column is 1-based; the caret line pads with one '.' per code
// point before the issue (tabs in the snippet are shown as spaces).
#ifndef DRAGUARD_POLICY_CEL_CEL_ISSUE_H_
#define DRAGUARD_POLICY_CEL_CEL_ISSUE_H_

#include <string>

#include "policy/common/diagnostic.h"
#include "policy/common/source.h"

namespace draguard::cel {

// `expr` is the expression (its name is the description; an empty name prints "<input>").
// Issues without a value_offset (-1) print as cel-go prints unlocated errors,
// `ERROR: <input>:-1:0: message`, without a snippet.
// Only error-severity issues are printed. Never throws (beyond std::bad_alloc).
std::string FormatCelIssues(const SourceText& expr, const Diagnostics& issues);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_CEL_ISSUE_H_
