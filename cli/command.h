// The subcommands of the `draguard` executable and what they share.
//
// Each subcommand lives in its own file (lint_command.cc, version_command.cc, later
// serve/explain/cel) and exposes one `int Run<Name>(args, context)` function; commands.cc
// lists them in one table, and RunMain() dispatches on argv[1]. A command writes only to the
// streams of its context and returns an exit code, so tests call it directly.
#ifndef DRAGUARD_CLI_COMMAND_H_
#define DRAGUARD_CLI_COMMAND_H_

#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace draguard::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;        // done, nothing wrong found
inline constexpr int kExitFindings = 1;  // done, the inputs have errors
inline constexpr int kExitUsage = 2;     // bad usage or I/O problem: could not do the job

// The process environment a command runs in. Not owned.
struct CommandContext {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  // Standard output is a terminal (colour allowed unless no_color).
  bool out_is_tty = false;
  // NO_COLOR is set to a non-empty value (https://no-color.org).
  bool no_color = false;
  // Standard error is a terminal: a progress line may be drawn there (live-cluster listing).
  bool err_is_tty = false;
  // How the user calls draguard, for usage text: "draguard", or "kubectl draguard" when the
  // executable runs as the kubectl plugin kubectl-draguard (RunMain sets it from argv[0]).
  std::string_view program = "draguard";
};

// "<program> <rest>", e.g. "kubectl draguard explain --help".
std::string UsageLine(const CommandContext& context, std::string_view rest);

// The program name for an argv[0]: "kubectl draguard" when its file name starts with
// "kubectl-draguard" (kubectl runs plugins by that name), else "draguard".
std::string_view ProgramName(std::string_view argv0);

// `args` excludes the program and subcommand names.
using CommandFn = int (*)(const std::vector<std::string>& args, CommandContext& context);

struct Command {
  std::string_view name;
  std::string_view summary;  // one line for `draguard --help`
  CommandFn run;
  // Takes positional arguments (files); completion offers file names after it.
  bool takes_files = false;
};

// Every subcommand, in help order.
std::span<const Command> Commands();

// Dispatches `argv` (argv[0] is the program name). No subcommand, `help`, `-h` or `--help`
// prints the overview (exit 0 for an explicit request, 2 when nothing was given); an unknown
// subcommand is a usage error with a did-you-mean.
int RunMain(const std::vector<std::string>& argv, CommandContext& context);

// The subcommands (one file each).
int RunLint(const std::vector<std::string>& args, CommandContext& context);
int RunServe(const std::vector<std::string>& args, CommandContext& context);
int RunCel(const std::vector<std::string>& args, CommandContext& context);
int RunExplain(const std::vector<std::string>& args, CommandContext& context);
int RunCapacity(const std::vector<std::string>& args, CommandContext& context);
int RunCompletion(const std::vector<std::string>& args, CommandContext& context);
// kubectl's plugin completion protocol: `words` are those after `kubectl draguard`, the last
// one being completed; prints one candidate a line, then ":DIRECTIVE" (cobra's). What the
// executable does when called as kubectl_complete-draguard, or as `draguard __complete`.
int RunPluginCompletion(const std::vector<std::string>& words, CommandContext& context);
int RunVersion(const std::vector<std::string>& args, CommandContext& context);

// draguard's version, e.g. "0.1.0".
std::string_view Version();

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_COMMAND_H_
