// Fuzzes the CEL parser: parse, dump the Ast, render the issues. Invariants: no crash, ast
// present iff no error, every issue's byte range lies inside the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "policy/cel/cel_issue.h"
#include "policy/cel/debug_string.h"
#include "policy/cel/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string_view expr(reinterpret_cast<const char*>(data), size);
  draguard::cel::ParseResult result = draguard::cel::Parse(expr);
  if (result.ok() == result.issues.has_errors()) std::abort();
  for (const draguard::Diagnostic& d : result.issues) {
    if (d.value_offset < 0 || d.value_length < 0 ||
        static_cast<size_t>(d.value_offset) + static_cast<size_t>(d.value_length) > size) {
      std::abort();
    }
  }
  if (result.ok()) {
    std::string dump = draguard::cel::DebugString(*result.ast);
    if (dump.empty()) std::abort();
  }
  std::string rendered =
      draguard::cel::FormatCelIssues(draguard::SourceText("<input>", std::string(expr)), result.issues);
  if (result.issues.has_errors() && rendered.empty()) std::abort();
  return 0;
}
