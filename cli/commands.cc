#include <array>

#include "cli/command.h"
#include "policy/common/suggest.h"

namespace draguard::cli {
namespace {

// Adding a subcommand: write <name>_command.cc with its Run function, declare it in
// command.h, add one line here (help, completion and docs/cli.md's list follow this table).
constexpr std::array kCommands = {
    Command{"lint", "Check DRA manifests as the API server would, offline", &RunLint, true},
    Command{"serve", "Run the HTTPS admission webhook", &RunServe},
    Command{"cel", "Check a device selector, or evaluate it on a device", &RunCel},
    Command{"explain", "Explain whether claims can be allocated on a cluster's devices",
            &RunExplain, true},
    Command{"capacity", "Count how many more copies of claims or pods the cluster can allocate",
            &RunCapacity, true},
    Command{"completion", "Print a bash or zsh completion script", &RunCompletion},
    Command{"version", "Print draguard's version", &RunVersion},
};

// The overview, laid out like a man page (NAME, SYNOPSIS, COMMANDS, ...).
void PrintOverview(const CommandContext& context, std::ostream& out) {
  const std::string program(context.program);
  out << "NAME\n    " << program
      << " - admission webhook, offline linter and allocation explainer for Kubernetes\n"
         "    Dynamic Resource Allocation\n\n"
         "SYNOPSIS\n    "
      << program << " <command> [flags] [PATH|-]...\n    " << program
      << " <command> --help\n\nCOMMANDS\n";
  for (const Command& c : kCommands) {
    std::string name(c.name);
    name.resize(12, ' ');
    out << "    " << name << c.summary << "\n";
  }
  out << "\nEXIT STATUS\n"
         "    0  done, nothing wrong found\n"
         "    1  done, findings (lint errors; explain/capacity: a claim that cannot be\n"
         "       allocated, or undecided)\n"
         "    2  bad usage or an I/O problem: the job could not be done\n\n"
         "ENVIRONMENT\n"
         "    NO_COLOR  when set and not empty, no colour in the output\n\n"
         "INSTALL\n"
         "    `make install PREFIX=/usr/local` installs draguard and kubectl-draguard (the same\n"
         "    program: kubectl runs it as `kubectl draguard`). Shell completion:\n"
         "    `source <("
      << program << " completion bash)` or `" << program << " completion zsh`.\n\n"
      << "SEE ALSO\n    " << program
      << " <command> --help, docs/cli.md, kubectl(1)\n";
}

}  // namespace

std::span<const Command> Commands() { return kCommands; }

std::string UsageLine(const CommandContext& context, std::string_view rest) {
  return std::string(context.program) + " " + std::string(rest);
}

std::string_view ProgramName(std::string_view argv0) {
  const size_t slash = argv0.find_last_of('/');
  const std::string_view file = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  return file.rfind("kubectl-draguard", 0) == 0 ? "kubectl draguard" : "draguard";
}

namespace {

bool CalledForPluginCompletion(std::string_view argv0) {
  const size_t slash = argv0.find_last_of('/');
  const std::string_view file = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  return file.rfind("kubectl_complete-draguard", 0) == 0;
}

}  // namespace

int RunMain(const std::vector<std::string>& argv, CommandContext& context) {
  // kubectl runs kubectl_complete-draguard (a link to this program) for `kubectl draguard <TAB>`.
  if (!argv.empty() && CalledForPluginCompletion(argv[0])) {
    context.program = "kubectl draguard";
    return RunPluginCompletion({argv.begin() + 1, argv.end()}, context);
  }
  if (argv.size() >= 2 && argv[1] == "__complete") {  // hidden: the same, for scripts
    return RunPluginCompletion({argv.begin() + 2, argv.end()}, context);
  }
  if (!argv.empty()) context.program = ProgramName(argv[0]);
  if (argv.size() < 2) {
    PrintOverview(context, context.err);
    return kExitUsage;
  }
  const std::string& name = argv[1];
  if (name == "help" || name == "-h" || name == "--help") {
    PrintOverview(context, context.out);
    return kExitOk;
  }
  if (name == "--version") return RunVersion({}, context);
  std::vector<std::string> args(argv.begin() + 2, argv.end());
  for (const Command& c : kCommands) {
    if (c.name == name) return c.run(args, context);
  }
  std::vector<std::string_view> names;
  for (const Command& c : kCommands) names.push_back(c.name);
  context.err << context.program << ": unknown command \"" << name << "\"";
  if (auto close = ClosestMatch(name, names)) context.err << "; did you mean \"" << *close << "\"?";
  context.err << "\nRun '" << context.program << " --help' for the list of commands.\n";
  return kExitUsage;
}

}  // namespace draguard::cli
