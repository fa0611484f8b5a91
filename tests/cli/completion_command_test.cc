// `draguard completion bash|zsh`: the scripts name every command and every flag of the real
// tables (each command's FlagSet, read back from its --help), and FlagSet::ListedFlags reads
// Help()'s layout back exactly.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/command.h"
#include "cli/flags.h"
#include "tests/cli/run_command.h"

namespace draguard::cli {
namespace {

using ::testing::HasSubstr;

TEST(ListedFlagsTest, ReadsHelpBack) {
  std::string text, path;
  bool on = false;
  std::vector<std::string> list;
  FlagSet flags("draguard demo");
  flags.AddString("output", &text, "FORMAT", "Output format");
  flags.AddBool("verbose", &on, "More output");
  flags.AddList("a-very-long-flag-name-for-the-column", &list, "PATH", "Wrapped help");
  flags.AddString("x", &path, "V", "Short");
  std::string name_space;
  flags.AddString("namespace", &name_space, "NS", "With a one-letter form");
  flags.AddShort('n', "namespace");
  std::vector<FlagSet::Listed> listed = FlagSet::ListedFlags(flags.Help());
  ASSERT_EQ(listed.size(), 5u);
  EXPECT_EQ(listed[4].name, "namespace");
  EXPECT_EQ(listed[4].short_name, 'n');
  EXPECT_EQ(listed[4].value_name, "NS");
  EXPECT_EQ(listed[4].help, "With a one-letter form");
  EXPECT_EQ(listed[0].short_name, 0);
  EXPECT_EQ(listed[0].name, "output");
  EXPECT_EQ(listed[0].value_name, "FORMAT");
  EXPECT_EQ(listed[0].help, "Output format");
  EXPECT_EQ(listed[1].name, "verbose");
  EXPECT_EQ(listed[1].value_name, "");
  EXPECT_EQ(listed[2].name, "a-very-long-flag-name-for-the-column");
  EXPECT_EQ(listed[2].value_name, "PATH");
  EXPECT_EQ(listed[2].help, "Wrapped help");
  EXPECT_EQ(listed[3].value_name, "V");
}

class CompletionTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompletionTest, NamesEveryCommandAndFlag) {
  testing::CommandRun script = testing::RunDraguard({"completion", GetParam()});
  ASSERT_EQ(script.code, kExitOk) << script.err;
  size_t flags_seen = 0;
  for (const Command& c : Commands()) {
    EXPECT_THAT(script.out, HasSubstr(std::string(c.name))) << c.name;
    testing::CommandRun help = testing::RunDraguard({std::string(c.name), "--help"});
    ASSERT_EQ(help.code, kExitOk) << c.name;
    for (const FlagSet::Listed& f : FlagSet::ListedFlags(help.out)) {
      EXPECT_THAT(script.out, HasSubstr("--" + f.name)) << c.name << " --" << f.name;
      ++flags_seen;
    }
  }
  EXPECT_GT(flags_seen, 20u);
  EXPECT_THAT(script.out, HasSubstr("kubectl-draguard"));
}

INSTANTIATE_TEST_SUITE_P(Shells, CompletionTest, ::testing::Values("bash", "zsh"));

// The generated scripts parse: `bash -n`, and `zsh -n` when zsh is installed.
TEST_P(CompletionTest, ScriptParses) {
  const std::string shell = GetParam();
  if (std::system(("command -v " + shell + " >/dev/null 2>&1").c_str()) != 0) {
    GTEST_SKIP() << shell << " not installed";
  }
  testing::CommandRun script = testing::RunDraguard({"completion", shell});
  const std::string path = ::testing::TempDir() + "draguard-completion-" +
                           std::to_string(::getpid()) + "." + shell;
  std::ofstream(path) << script.out;
  EXPECT_EQ(std::system((shell + " -n '" + path + "'").c_str()), 0) << script.out;
  std::remove(path.c_str());
}

// kubectl's plugin completion protocol: the words after `kubectl draguard`, the last being
// completed; candidates ("value<TAB>help") then ":DIRECTIVE" (4: no file names, 0: the shell
// completes file names).
struct PluginCompletionCase {
  std::vector<std::string> words;
  std::vector<std::string> expected;  // lines, the directive last
};

class PluginCompletionTest : public ::testing::TestWithParam<PluginCompletionCase> {};

TEST_P(PluginCompletionTest, AnswersAsKubectlExpects) {
  std::vector<std::string> argv = {"/usr/local/bin/kubectl_complete-draguard"};
  argv.insert(argv.end(), GetParam().words.begin(), GetParam().words.end());
  std::istringstream in;
  std::ostringstream out, err;
  CommandContext context{.in = in, .out = out, .err = err};
  EXPECT_EQ(RunMain(argv, context), kExitOk);
  std::vector<std::string> lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line.substr(0, line.find('\t')));
  EXPECT_EQ(lines, GetParam().expected);
  std::vector<std::string> hidden = {"draguard", "__complete"};  // the same, as a command
  hidden.insert(hidden.end(), GetParam().words.begin(), GetParam().words.end());
  EXPECT_EQ(testing::RunDraguard({hidden.begin() + 1, hidden.end()}).out, out.str());
}

INSTANTIATE_TEST_SUITE_P(
    Words, PluginCompletionTest,
    ::testing::Values(
        PluginCompletionCase{{"ca"}, {"capacity", ":4"}},
        PluginCompletionCase{{""}, {"lint", "serve", "cel", "explain", "capacity", "completion", "version", ":4"}},
        PluginCompletionCase{{"explain", "--pen"}, {"--pending", ":4"}},
        PluginCompletionCase{{"explain", "-o", ""}, {":4"}},
        PluginCompletionCase{{"explain", "--kubernetes-version", "1.3"}, {"1.34", "1.35", "1.36", ":4"}},
        PluginCompletionCase{{"capacity", "--what-if", ""}, {":0"}},
        PluginCompletionCase{{"capacity", "pod/x", ""}, {":0"}},
        PluginCompletionCase{{"completion", "z"}, {"zsh", ":4"}},
        PluginCompletionCase{{"version", ""}, {":4"}},
        PluginCompletionCase{{"nope", ""}, {":4"}}));

TEST(CompletionTest, UnknownShellIsUsageError) {
  EXPECT_EQ(testing::RunDraguard({"completion", "fish"}).code, kExitUsage);
  EXPECT_EQ(testing::RunDraguard({"completion"}).code, kExitUsage);
}

}  // namespace
}  // namespace draguard::cli
