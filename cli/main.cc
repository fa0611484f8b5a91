// The draguard executable: a thin shell over cli/commands.cc.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const char* no_color = std::getenv("NO_COLOR");
  draguard::cli::CommandContext context{
      .in = std::cin,
      .out = std::cout,
      .err = std::cerr,
      .out_is_tty = isatty(STDOUT_FILENO) == 1,
      .no_color = no_color != nullptr && no_color[0] != '\0',
      .err_is_tty = isatty(STDERR_FILENO) == 1,
  };
  int code = draguard::cli::RunMain(std::vector<std::string>(argv, argv + argc), context);
  std::cout.flush();
  return code;
}
