// `draguard completion bash|zsh`: the scripts name every command and every flag of the real
// tables (each command's FlagSet, read back from its --help), and FlagSet::ListedFlags reads
// Help()'s layout back exactly.
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
  std::vector<FlagSet::Listed> listed = FlagSet::ListedFlags(flags.Help());
  ASSERT_EQ(listed.size(), 4u);
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

TEST(CompletionTest, UnknownShellIsUsageError) {
  EXPECT_EQ(testing::RunDraguard({"completion", "fish"}).code, kExitUsage);
  EXPECT_EQ(testing::RunDraguard({"completion"}).code, kExitUsage);
}

}  // namespace
}  // namespace draguard::cli
