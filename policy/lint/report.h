// LintReport: everything a renderer needs to print the outcome of `draguard lint`: the
// sources that were read (so that diagnostics can show their line and a caret), the objects
// found in them (JUnit reports one test case per object) and the sorted diagnostics.
//
// Renderers only read a report; the linter (linter.h) builds it. Keeping the report a plain
// value lets the golden tests build reports by hand.
#ifndef DRAGUARD_POLICY_LINT_REPORT_H_
#define DRAGUARD_POLICY_LINT_REPORT_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/source.h"
#include "policy/common/status.h"
#include "policy/inventory/inputs.h"

namespace draguard::lint {

// A Kubernetes object found in an input (DRA objects, Namespaces and workloads that reference
// claims), with where its document starts.
struct LintedObject {
  std::string file;
  ObjectRef ref;
  SourcePosition position;
};

struct LintSummary {
  size_t files = 0;
  size_t objects = 0;
  size_t errors = 0;
  size_t warnings = 0;

  friend bool operator==(const LintSummary&, const LintSummary&) = default;
};

struct LintReport {
  // Every input in the order it was linted (sorted paths), named as diagnostics print them.
  std::vector<std::string> files;
  // File name -> its text, for snippets. A diagnostic whose file is absent is printed
  // without a snippet.
  std::map<std::string, SourceText> sources;
  // For inputs read as streams (Lint), whose text is not kept: file -> line -> that line (a
  // SourceText of the one line, with its file line number), for the lines diagnostics point at.
  std::map<std::string, std::map<int, SourceText>> lines;
  std::vector<LintedObject> objects;
  // Sorted with SortDiagnostics.
  std::vector<Diagnostic> diagnostics;
  // Set by Lint (inputs.h): directory entries passed over, and inputs that could not be read
  // (the others were linted). Renderers ignore both; the CLI reports them on stderr.
  std::vector<inventory::SkippedInput> skipped_inputs;
  std::vector<Status> unreadable_inputs;

  // Counts files, objects, errors and warnings (infos are counted in neither).
  LintSummary Summary() const;
  // The source of `file`, or nullptr.
  const SourceText* FindSource(const std::string& file) const;
  // What holds `line` of `file` (sources, then lines), or nullptr.
  const SourceText* FindSource(const std::string& file, int line) const;
};

// Stable report order: by the position of the file in `files` (unknown files last, by name),
// then line, column, severity (errors first), code, field and message. Diagnostics that
// compare equal keep their relative order.
void SortDiagnostics(const std::vector<std::string>& files, std::vector<Diagnostic>& diagnostics);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_REPORT_H_
