// Runs `draguard` in-process, as main() would, with the given arguments and standard input,
// and captures what it writes. The one helper every CLI test uses to call a command.
#ifndef DRAGUARD_TESTS_CLI_RUN_COMMAND_H_
#define DRAGUARD_TESTS_CLI_RUN_COMMAND_H_

#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace draguard::cli::testing {

struct CommandRun {
  int code = 0;
  std::string out;
  std::string err;
};

// `args` excludes the program name ("draguard" is prepended).
inline CommandRun RunDraguard(std::vector<std::string> args, const std::string& stdin_text = "") {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  CommandContext context{.in = in, .out = out, .err = err};
  args.insert(args.begin(), "draguard");
  const int code = RunMain(args, context);
  return {code, out.str(), err.str()};
}

}  // namespace draguard::cli::testing

#endif  // DRAGUARD_TESTS_CLI_RUN_COMMAND_H_
