// The flags of `draguard lint` and their translation into LintOptions. Separate from the
// command so that explain (same inputs and validation flags) can reuse it.
#ifndef DRAGUARD_CLI_LINT_FLAGS_H_
#define DRAGUARD_CLI_LINT_FLAGS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ostream>

#include "cli/cluster_flags.h"
#include "cli/flags.h"
#include "policy/common/status_or.h"
#include "policy/lint/linter.h"
#include "policy/lint/render.h"
#include "policy/validate/options.h"

namespace draguard::cli {

// The raw flag values, as typed.
struct LintFlags {
  std::string output = "text";
  ClusterFlags cluster;                       // --kubernetes-version, --feature-gates, --config
  std::vector<std::string> namespace_labels;  // each "NS:KEY=VALUE,..."
  std::optional<bool> warnings_as_errors;  // unset: the policy file's warningsAsErrors
  std::string jobs = "0";
  std::string read_twice = "auto";  // --read-twice auto|always|never
  bool quiet = false;
  bool verbose = false;  // name each directory entry the walk passed over
  bool timings = false;  // --timings: phase times on stderr
  bool help = false;
  std::vector<std::string> inventory;       // --inventory PATH, repeatable
  std::string unsatisfiable = "warning";    // severity of alloc.unsatisfiable
  std::vector<std::string> schema;          // --schema FILE, repeatable
  bool no_builtin_schema = false;           // --no-builtin-schema
  bool strict_schema = false;               // --strict-schema
  std::string upgrade_to;                   // --upgrade-to RELEASE: the upgrade check
  std::vector<std::string> upgrade_feature_gates;  // the target's gates; default: --feature-gates

  // Registers every flag above on `flags`.
  void Register(FlagSet& flags);
};

struct LintSettings {
  lint::LintOptions options;
  // --upgrade-to: the same lint for the target release (its version, gates and allocator
  // view); unset for a plain lint.
  std::optional<lint::LintOptions> upgrade_to;
  lint::OutputFormat format = lint::OutputFormat::kText;
  bool quiet = false;
  bool verbose = false;
};

// Validates and converts the flags: version, gates and policy file (cluster_flags.h; the
// policy file's findings are printed to `err`), namespace labels, jobs, --unsatisfiable; reads the --inventory files
// (inventory_flag.h: problems in them are printed to `err`; non-OK status, exit 2, for I/O
// problems and files that could not be read to their end) and the
// --schema files (unreadable: non-OK status; problems inside them are schema.file.*
// diagnostics of the report).
// InvalidArgument with a message for the user.
StatusOr<LintSettings> ToLintSettings(const LintFlags& flags, std::ostream& err);

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_LINT_FLAGS_H_
