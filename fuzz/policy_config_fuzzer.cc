// Fuzzes ParsePolicyConfig() and the lint suppression scanner: any bytes must parse without
// crashing, problems must be errors or warnings placed inside the input, and a config that
// loads must be usable (rules applied to a diagnostic of every registered code).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "policy/config/load_config.h"
#include "policy/lint/suppress.h"
#include "policy/diagnostics/codes.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "policy_config invariant failed: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return 0;
  draguard::SourceText source("policy.yaml",
                              std::string(reinterpret_cast<const char*>(data), size));
  draguard::config::LoadedConfig loaded = draguard::config::ParsePolicyConfig(source);
  for (const draguard::Diagnostic& d : loaded.diagnostics) {
    Check(d.severity != draguard::Severity::kInfo, "config problems are errors or warnings");
    Check(d.file == "policy.yaml", "diagnostic without the file");
    Check(d.position.line <= source.line_count() + 1, "line past the end of the input");
  }
  std::vector<draguard::Diagnostic> diags;
  for (const draguard::diagnostics::CodeInfo& info : draguard::diagnostics::AllCodes()) {
    draguard::Diagnostic d;
    d.code = std::string(info.code);
    d.position = {1, 1};
    diags.push_back(std::move(d));
  }
  if (loaded.ok()) draguard::config::ApplyPolicy(loaded.config, diags);
  draguard::lint::Suppressions suppressions = draguard::lint::Suppressions::Scan(source);
  for (const draguard::Diagnostic& d : diags) (void)suppressions.Silences(d.code, d.position.line);
  return 0;
}
