// A small command-line flag parser for draguard's subcommands.
//
// Accepted forms: `--flag value`, `--flag=value`, and for booleans `--flag` or
// `--flag=true|false`. `-h` is `--help`; AddShort adds other one-letter forms. `--` ends the flags; a lone `-` is a positional
// argument (stdin). Everything that does not start with `-` is positional, wherever it appears.
// Unknown flags are usage errors with a did-you-mean suggestion (policy/common/suggest.h).
#ifndef DRAGUARD_CLI_FLAGS_H_
#define DRAGUARD_CLI_FLAGS_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/status.h"
#include "policy/common/status_or.h"

namespace draguard::cli {

class FlagSet {
 public:
  // `usage` is the synopsis line printed by Help(), e.g. "draguard lint [PATH|-]... [flags]".
  explicit FlagSet(std::string usage) : usage_(std::move(usage)) {}

  // Registers flags. Names are given without dashes. Targets must outlive Parse(); their
  // current values are the defaults shown in the help text.
  void AddBool(std::string name, bool* target, std::string help);
  // A boolean that may also be left unset (std::nullopt until the command line names it), for
  // flags that must win over the policy file only when given: `--flag=false` then overrides
  // the file's `true`.
  void AddOptionalBool(std::string name, std::optional<bool>* target, std::string help);
  void AddString(std::string name, std::string* target, std::string value_name,
                 std::string help);
  // A flag that may be repeated; every value is appended.
  void AddList(std::string name, std::vector<std::string>* target, std::string value_name,
               std::string help);

  // A one-letter form of a registered flag, as kubectl has (`-n NS` for --namespace, `-A`
  // for --all-namespaces): `-x`, `-x value` and `-x=value`.
  void AddShort(char letter, std::string name);

  // Parses `args` (without the program and subcommand names), writing flag values into their
  // targets and positional arguments into `positional`. Returns InvalidArgument with a
  // message fit for the user (unknown flag with a suggestion, missing value, bad boolean).
  Status Parse(const std::vector<std::string>& args, std::vector<std::string>* positional);

  // The usage line and one line per flag with its help, for `--help`. A usage line that starts
  // with "draguard" names `program` instead ("kubectl draguard" for the kubectl plugin).
  std::string Help(std::string_view program = "draguard") const;

  // One flag as Help() lists it: what completion reads back from a command's help.
  struct Listed {
    std::string name;        // without dashes
    std::string value_name;  // empty: a boolean
    std::string help;
    char short_name = 0;     // `-o, --output`: 'o'; 0: none
  };
  // The flags of a Help() text, in order (the inverse of Help's flag lines).
  static std::vector<Listed> ListedFlags(std::string_view help);

 private:
  enum class Kind { kBool, kOptionalBool, kString, kList };
  struct Flag {
    std::string name;
    Kind kind;
    void* target;
    std::string value_name;
    std::string help;
  };

  const Flag* Find(std::string_view name) const;
  Status UnknownFlag(std::string_view name) const;
  static Status Assign(const Flag& flag, std::string_view value);

  std::string usage_;
  std::vector<Flag> flags_;
  std::vector<std::pair<char, std::string>> shorts_;
};

// Parses a flag's positive duration: a whole number with ms, s, m or h ("500ms", "2s", "5m",
// "1h"). InvalidArgument naming --`flag` otherwise.
StatusOr<std::chrono::milliseconds> ParseDuration(const std::string& flag,
                                                  const std::string& text);

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_FLAGS_H_
