#include <array>

#include "cli/command.h"
#include "policy/common/suggest.h"

namespace draguard::cli {
namespace {

// Adding a subcommand: write <name>_command.cc with its Run function, declare it in
// command.h, add one line here.
constexpr std::array kCommands = {
    Command{"lint", "Check DRA manifests as the API server would, offline", &RunLint},
    Command{"serve", "Run the HTTPS admission webhook", &RunServe},
    Command{"cel", "Check a device selector, or evaluate it on a device", &RunCel},
    Command{"explain", "Explain whether claims can be allocated on a cluster's devices", &RunExplain},
    Command{"version", "Print draguard's version", &RunVersion},
};

void PrintOverview(std::ostream& out) {
  out << "draguard: admission webhook and offline linter for Kubernetes Dynamic Resource "
         "Allocation\n\nUsage: draguard <command> [flags]\n\nCommands:\n";
  for (const Command& c : kCommands) {
    std::string name(c.name);
    name.resize(10, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nRun 'draguard <command> --help' for the flags of a command.\n";
}

}  // namespace

std::span<const Command> Commands() { return kCommands; }

int RunMain(const std::vector<std::string>& argv, CommandContext& context) {
  if (argv.size() < 2) {
    PrintOverview(context.err);
    return kExitUsage;
  }
  const std::string& name = argv[1];
  if (name == "help" || name == "-h" || name == "--help") {
    PrintOverview(context.out);
    return kExitOk;
  }
  if (name == "--version") return RunVersion({}, context);
  std::vector<std::string> args(argv.begin() + 2, argv.end());
  for (const Command& c : kCommands) {
    if (c.name == name) return c.run(args, context);
  }
  std::vector<std::string_view> names;
  for (const Command& c : kCommands) names.push_back(c.name);
  context.err << "draguard: unknown command \"" << name << "\"";
  if (auto close = ClosestMatch(name, names)) context.err << "; did you mean \"" << *close << "\"?";
  context.err << "\nRun 'draguard --help' for the list of commands.\n";
  return kExitUsage;
}

}  // namespace draguard::cli
