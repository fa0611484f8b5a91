// Inline suppressions for `draguard lint`: a YAML comment silences findings where the user
// has decided to live with them, next to the line concerned, reviewed with the manifest.
//
//   count: 0  # draguard:ignore claim.request.count.zero
//   # draguard:ignore refs.*            (on the line above: applies to the next line)
//   # draguard:ignore-file schema.*     (anywhere: the whole file)
//
// Codes are separated by commas or spaces and use the rule patterns of the policy file
// (exact code, `prefix.*`, `*`); a bare `draguard:ignore` silences every finding on the line.
// A code that matches no diagnostic code draguard has is reported
// (`lint.ignore.code.unknown`, a warning with the closest code), as the policy file reports
// its rules (`config.rule.code.unknown`): a typo must not silently disable nothing.
// Only real YAML comments count (policy/k8s/yaml_lines.h): the marker must follow a `#` that
// opens a comment, not one inside a block or quoted scalar, where it is part of the value.
#ifndef DRAGUARD_POLICY_LINT_SUPPRESS_H_
#define DRAGUARD_POLICY_LINT_SUPPRESS_H_

#include <map>
#include <string>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/source.h"

namespace draguard::lint {

class Suppressions {
 public:
  // Scans the comments of `source` once.
  static Suppressions Scan(const SourceText& source);

  // Scans a piece of a file (one document of a streamed input: SourceText::first_line) and
  // adds what it finds: pieces scanned in order find what scanning the whole file finds
  // (a `---` line, where pieces start, is neither blank nor a comment).
  void ScanPiece(const SourceText& piece);

  // Whether a finding with `code` at 1-based `line` is silenced.
  bool Silences(std::string_view code, int line) const;
  bool empty() const { return by_line_.empty() && file_.empty(); }
  // Findings about the comments themselves (unknown codes), located in the source.
  const std::vector<Diagnostic>& findings() const { return findings_; }

 private:
  std::map<int, std::vector<std::string>> by_line_;  // line -> patterns
  std::vector<std::string> file_;
  std::vector<Diagnostic> findings_;
};

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_SUPPRESS_H_
