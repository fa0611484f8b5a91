// The registry of every diagnostic code draguard emits: one stable dotted code per
// rule, its severity, a one-line meaning and optional details. Each code's family (its first
// segment: claim, slice, cel, ...) adds a paragraph on what that stage checks and how to fix
// it. docs/diagnostics.md (a table and one section per code) and the SARIF rules' texts are
// generated from it, and the tests check that every code they see is registered.
#ifndef DRAGUARD_POLICY_DIAGNOSTICS_CODES_H_
#define DRAGUARD_POLICY_DIAGNOSTICS_CODES_H_

#include <span>
#include <string>
#include <string_view>

#include "policy/common/diagnostic.h"

namespace draguard::diagnostics {

struct CodeInfo {
  std::string_view code;
  Severity severity;
  std::string_view summary;
  // More than the summary says (the upstream rule, the usual fix); may be empty.
  std::string_view details = {};
};

// Where the generated docs live, for links from SARIF rules and other tools.
inline constexpr std::string_view kDiagnosticsDocUrl =
    "https://github.com/draguard/draguard/blob/main/docs/diagnostics.md";

// Every registered code, grouped by object kind.
std::span<const CodeInfo> AllCodes();

// The entry for `code`, or nullptr.
const CodeInfo* FindCode(std::string_view code);

// The code's summary as a sentence: capitalised, ending with a period.
std::string ShortDescription(const CodeInfo& info);

// The long description: the summary, what the severity means, the code's details and its
// family's paragraph. Plain text, sentences ending with periods.
std::string FullDescription(const CodeInfo& info);

// The anchor of the code's section in docs/diagnostics.md, as GitHub derives it from the
// heading "### <code>": the code without its dots ("claim.request.count.invalid" ->
// "claimrequestcountinvalid").
std::string DocsAnchor(std::string_view code);

// kDiagnosticsDocUrl + "#" + DocsAnchor(code).
std::string DocsUrl(std::string_view code);

// docs/diagnostics.md: the table of codes, then one section per code.
std::string RenderCodeTable();

}  // namespace draguard::diagnostics

#endif  // DRAGUARD_POLICY_DIAGNOSTICS_CODES_H_
