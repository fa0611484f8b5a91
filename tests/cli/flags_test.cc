// The flag parser: both value forms, booleans, positionals, `--`, unknown flags with
// suggestions, missing values.
#include "cli/flags.h"

#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace draguard::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct Parsed {
  std::string output = "text";
  std::vector<std::string> gates;
  bool quiet = false;
  std::optional<bool> strict;  // a flag the policy file may also set: unset until given
  std::vector<std::string> positional;
  Status status;
};

Parsed ParseArgs(const std::vector<std::string>& args) {
  Parsed p;
  FlagSet flags("test");
  flags.AddString("output", &p.output, "FORMAT", "format");
  flags.AddList("feature-gates", &p.gates, "GATES", "gates");
  flags.AddBool("quiet", &p.quiet, "quiet");
  flags.AddOptionalBool("strict", &p.strict, "strict");
  p.status = flags.Parse(args, &p.positional);
  return p;
}

struct FlagCase {
  std::string name;
  std::vector<std::string> args;
  std::string output;
  bool quiet;
  std::vector<std::string> positional;
  std::optional<bool> strict = std::nullopt;
};

class FlagSetTest : public ::testing::TestWithParam<FlagCase> {};

TEST_P(FlagSetTest, Parses) {
  Parsed p = ParseArgs(GetParam().args);
  ASSERT_TRUE(p.status.ok()) << p.status;
  EXPECT_EQ(p.output, GetParam().output);
  EXPECT_EQ(p.quiet, GetParam().quiet);
  EXPECT_EQ(p.positional, GetParam().positional);
  EXPECT_EQ(p.strict, GetParam().strict);
}

INSTANTIATE_TEST_SUITE_P(
    Forms, FlagSetTest,
    ::testing::Values(
        FlagCase{.name = "separate_value", .args = {"--output", "json", "a.yaml"},
                 .output = "json", .quiet = false, .positional = {"a.yaml"}},
        FlagCase{.name = "equals_value", .args = {"a.yaml", "--output=sarif"},
                 .output = "sarif", .quiet = false, .positional = {"a.yaml"}},
        FlagCase{.name = "bool_bare", .args = {"--quiet"}, .output = "text", .quiet = true,
                 .positional = {}},
        FlagCase{.name = "bool_false", .args = {"--quiet=false"}, .output = "text",
                 .quiet = false, .positional = {}},
        FlagCase{.name = "stdin_dash", .args = {"-", "--quiet"}, .output = "text", .quiet = true,
                 .positional = {"-"}},
        FlagCase{.name = "double_dash", .args = {"--", "--output", "x"}, .output = "text",
                 .quiet = false, .positional = {"--output", "x"}},
        // An optional boolean tells "not given" from an explicit false.
        FlagCase{.name = "optional_bool_bare", .args = {"--strict"}, .output = "text",
                 .quiet = false, .positional = {}, .strict = true},
        FlagCase{.name = "optional_bool_false", .args = {"--strict=false"}, .output = "text",
                 .quiet = false, .positional = {}, .strict = false},
        FlagCase{.name = "optional_bool_true", .args = {"--strict=1"}, .output = "text",
                 .quiet = false, .positional = {}, .strict = true}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(FlagSetTest, ListFlagAccumulates) {
  Parsed p = ParseArgs({"--feature-gates", "A=true", "--feature-gates=B=false"});
  ASSERT_TRUE(p.status.ok());
  EXPECT_THAT(p.gates, ElementsAre("A=true", "B=false"));
}

struct ErrorCase {
  std::string name;
  std::vector<std::string> args;
  std::string message_part;
};

class FlagSetErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(FlagSetErrorTest, IsAUsageError) {
  Parsed p = ParseArgs(GetParam().args);
  ASSERT_FALSE(p.status.ok());
  EXPECT_EQ(p.status.code(), StatusCode::kInvalidArgument);
  // Only the flag names are checked, not the wording around them.
  EXPECT_THAT(p.status.message(), HasSubstr(GetParam().message_part));
}

INSTANTIATE_TEST_SUITE_P(
    Errors, FlagSetErrorTest,
    ::testing::Values(ErrorCase{.name = "unknown_with_suggestion", .args = {"--ouput", "json"},
                                .message_part = "--output"},
                      ErrorCase{.name = "missing_value", .args = {"--output"},
                                .message_part = "--output"},
                      ErrorCase{.name = "bad_bool", .args = {"--quiet=maybe"},
                                .message_part = "--quiet"},
                      ErrorCase{.name = "bad_optional_bool", .args = {"--strict=maybe"},
                                .message_part = "--strict"},
                      ErrorCase{.name = "single_dash", .args = {"-q"}, .message_part = "-q"}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(FlagSetTest, HelpListsEveryFlag) {
  std::string output;
  bool quiet = false;
  FlagSet flags("draguard test");
  flags.AddString("output", &output, "FORMAT", "Output format");
  flags.AddBool("quiet", &quiet, "Be quiet");
  std::string help = flags.Help();
  EXPECT_THAT(help, HasSubstr("draguard test"));
  EXPECT_THAT(help, HasSubstr("--output FORMAT"));
  EXPECT_THAT(help, HasSubstr("--quiet"));
}

TEST(ParseDurationTest, UnitsAndRejections) {
  EXPECT_EQ(*ParseDuration("budget", "100ms"), std::chrono::milliseconds(100));
  EXPECT_EQ(*ParseDuration("budget", "2s"), std::chrono::milliseconds(2000));
  EXPECT_EQ(*ParseDuration("budget", "5m"), std::chrono::milliseconds(300'000));
  EXPECT_EQ(*ParseDuration("budget", "1h"), std::chrono::milliseconds(3'600'000));
  for (const char* bad : {"", "soon", "0s", "-1s", "10", "1.5s", "2d"}) {
    StatusOr<std::chrono::milliseconds> d = ParseDuration("budget", bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_NE(std::string(d.status().message()).find("--budget"), std::string::npos);
  }
}

}  // namespace
}  // namespace draguard::cli
