// Exit codes of the built `draguard` executable, run through its path with a shell. The
// command functions are tested directly in lint_command_test.cc; this checks the thin main.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

struct Outcome {
  int code = -1;
  std::string out;
};

Outcome Shell(const std::string& args) {
  std::string command = std::string("NO_COLOR=1 '") + DRAGUARD_BINARY + "' " + args + " 2>&1";
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) outcome.out.append(buffer, n);
  int status = pclose(pipe);
  if (WIFEXITED(status)) outcome.code = WEXITSTATUS(status);
  return outcome;
}

std::string Examples() { return std::string("'") + DRAGUARD_SOURCE_DIR + "/examples/"; }

struct BinaryCase {
  std::string name;
  std::string args;
  int code;
};

class BinaryTest : public ::testing::TestWithParam<BinaryCase> {};

TEST_P(BinaryTest, ExitCode) {
  Outcome o = Shell(GetParam().args);
  EXPECT_EQ(o.code, GetParam().code) << o.out;
}

INSTANTIATE_TEST_SUITE_P(
    Runs, BinaryTest,
    ::testing::Values(
        BinaryCase{.name = "version", .args = "version", .code = 0},
        BinaryCase{.name = "good", .args = "lint " + Examples() + "good'", .code = 0},
        BinaryCase{.name = "bad", .args = "lint " + Examples() + "bad'", .code = 1},
        BinaryCase{.name = "stdin", .args = "lint - < " + Examples() + "good/amd-mi300x.yaml'",
                   .code = 0},
        BinaryCase{.name = "missing", .args = "lint /nonexistent/x.yaml", .code = 2},
        BinaryCase{.name = "usage", .args = "lint --bogus", .code = 2},
        BinaryCase{.name = "no_command", .args = "", .code = 2}),
    [](const auto& test_info) { return test_info.param.name; });

TEST(BinaryTest, VersionPrintsName) {
  EXPECT_THAT(Shell("version").out, ::testing::StartsWith("draguard "));
}

// Installed as kubectl-draguard (a symlink, as `make install` does), the usage says how kubectl
// runs it; the same binary called draguard does not.
TEST(BinaryTest, KubectlPluginSymlinkChangesUsage) {
  const std::string dir = ::testing::TempDir() + "draguard-plugin-" + std::to_string(getpid());
  const std::string link = dir + "/kubectl-draguard";
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "' && ln -sf '" + DRAGUARD_BINARY + "' '" + link +
                         "'").c_str()), 0);
  FILE* pipe = popen(("NO_COLOR=1 '" + link + "' explain --help 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << out;
  EXPECT_THAT(out, ::testing::HasSubstr("Usage: kubectl draguard explain"));
  EXPECT_THAT(Shell("explain --help").out, ::testing::HasSubstr("Usage: draguard explain"));
  std::system(("rm -rf '" + dir + "'").c_str());
}

// What `make install` sets up for kubectl (1.26+): kubectl-draguard and
// kubectl_complete-draguard on PATH. `kubectl __complete draguard ...` is what the shell's
// kubectl completion calls for `kubectl draguard <TAB>`; kubectl runs our completer with the
// words (k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go). Skipped without kubectl.
TEST(BinaryTest, KubectlCompletesThePluginThroughKubectlComplete) {
  if (std::system("command -v kubectl >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "kubectl not installed";
  }
  const std::string dir = ::testing::TempDir() + "draguard-complete-" + std::to_string(getpid());
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "' && ln -sf '" + DRAGUARD_BINARY + "' '" + dir +
                         "/kubectl-draguard' && ln -sf '" + DRAGUARD_BINARY + "' '" + dir +
                         "/kubectl_complete-draguard'").c_str()), 0);
  auto complete = [&](const std::string& words) {
    const std::string command = "PATH='" + dir + "':\"$PATH\" KUBECONFIG=/nonexistent kubectl "
                                "__complete draguard " + words + " 2>/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    std::string out;
    if (pipe == nullptr) return out;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    pclose(pipe);
    return out;
  };
  EXPECT_THAT(complete("ex"), ::testing::HasSubstr("explain\t"));
  EXPECT_THAT(complete("capacity --out"), ::testing::HasSubstr("--output\t"));
  EXPECT_THAT(complete("capacity --kubernetes-version ''"), ::testing::HasSubstr("1.36\n"));
  std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
