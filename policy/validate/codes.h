// The registry of diagnostic codes that policy/validate emits: one stable dotted code per
// rule, its severity and a one-line meaning. docs/diagnostics.md is generated from it, and
// the tests check that every code they see is registered.
#ifndef DRAGUARD_POLICY_VALIDATE_CODES_H_
#define DRAGUARD_POLICY_VALIDATE_CODES_H_

#include <span>
#include <string>
#include <string_view>

#include "policy/common/diagnostic.h"

namespace draguard::validate {

struct CodeInfo {
  std::string_view code;
  Severity severity;
  std::string_view summary;
};

// Every registered code, grouped by object kind.
std::span<const CodeInfo> AllCodes();

// The entry for `code`, or nullptr.
const CodeInfo* FindCode(std::string_view code);

// The Markdown table of docs/diagnostics.md.
std::string RenderCodeTable();

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_CODES_H_
