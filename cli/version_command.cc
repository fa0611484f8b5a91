#include "cli/command.h"
#include "cli/flags.h"

#ifndef DRAGUARD_VERSION
#define DRAGUARD_VERSION "0.0.0"
#endif

namespace draguard::cli {

std::string_view Version() { return DRAGUARD_VERSION; }

int RunVersion(const std::vector<std::string>& args, CommandContext& context) {
  bool help = false;
  FlagSet flags("draguard version");
  flags.AddBool("help", &help, "Show this help");
  std::vector<std::string> positional;
  Status status = flags.Parse(args, &positional);
  if (!status.ok() || !positional.empty()) {
    context.err << "draguard version: "
                << (status.ok() ? "takes no arguments" : status.message()) << "\n";
    return kExitUsage;
  }
  if (help) {
    context.out << "Print draguard's version.\n\n" << flags.Help(context.program);
    return kExitOk;
  }
  context.out << "draguard " << Version() << "\n";
  return kExitOk;
}

}  // namespace draguard::cli
