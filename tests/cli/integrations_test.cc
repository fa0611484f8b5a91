// What CI users pick up: action.yml and .pre-commit-hooks.yaml at the repository root are
// well-formed and name only `draguard lint` flags that exist; and the SARIF output passes
// Microsoft's validator with GitHub's rules (`Sarif.Multitool validate --rule-kind "Gh;Sarif"`)
// where the validator is installed (scripts/install-deps --sarif-validator installs it); and the
// Dockerfile's runtime stage installs exactly the shared libraries the binary links; and the
// profile-guided build's training (scripts/pgo-train) still runs every command it uses.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace {

namespace fs = std::filesystem;

struct ShellResult {
  int code = -1;
  std::string out;
};

ShellResult RunShell(const std::string& command) {
  ShellResult outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) outcome.out.append(buffer, n);
  int status = pclose(pipe);
  if (WIFEXITED(status)) outcome.code = WEXITSTATUS(status);
  return outcome;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string LintHelp() {
  return RunShell(Quote(DRAGUARD_BINARY) + " lint --help 2>&1").out;
}

// The long flags (--name) in `text`.
std::set<std::string> Flags(const std::string& text) {
  std::set<std::string> flags;
  static const std::regex kFlag(R"((^|[\s(])(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(text.begin(), text.end(), kFlag), end; it != end; ++it) {
    flags.insert((*it)[2].str());
  }
  return flags;
}

void ExpectFlagsExist(const std::set<std::string>& flags, const std::string& where) {
  std::string help = LintHelp();
  ASSERT_THAT(help, ::testing::HasSubstr("Usage: draguard lint"));
  for (const std::string& flag : flags) {
    EXPECT_NE(help.find("  " + flag + " "), std::string::npos)
        << where << " uses " << flag << ", which `draguard lint --help` does not list";
  }
}

YAML::Node LoadRootFile(const std::string& name) {
  return YAML::LoadFile(std::string(DRAGUARD_SOURCE_DIR) + "/" + name);
}

TEST(ActionYamlTest, IsACompositeActionWhoseInputsExist) {
  YAML::Node action;
  ASSERT_NO_THROW(action = LoadRootFile("action.yml"));
  ASSERT_TRUE(action.IsMap());
  EXPECT_FALSE(action["name"].as<std::string>("").empty());
  EXPECT_FALSE(action["description"].as<std::string>("").empty());
  ASSERT_TRUE(action["inputs"].IsMap());
  std::set<std::string> inputs;
  for (const auto& input : action["inputs"]) {
    inputs.insert(input.first.as<std::string>());
    EXPECT_TRUE(input.second["description"].IsScalar()) << input.first.as<std::string>();
  }
  EXPECT_TRUE(inputs.contains("paths"));
  EXPECT_TRUE(inputs.contains("sarif-file"));
  EXPECT_TRUE(inputs.contains("upload-sarif"));
  EXPECT_EQ(action["runs"]["using"].as<std::string>(""), "composite");
  const YAML::Node& steps = action["runs"]["steps"];
  ASSERT_TRUE(steps.IsSequence());
  std::set<std::string> step_ids;
  std::string lint_script;
  for (const auto& step : steps) {
    EXPECT_TRUE(step["run"].IsDefined() != step["uses"].IsDefined())
        << "a step has either run or uses";
    if (step["run"].IsDefined()) {
      EXPECT_TRUE(step["shell"].IsScalar()) << "composite run steps need a shell";
    }
    if (step["id"].IsDefined()) step_ids.insert(step["id"].as<std::string>());
    if (step["id"].as<std::string>("") == "lint") lint_script = step["run"].as<std::string>();
  }
  ASSERT_FALSE(lint_script.empty()) << "no step with id lint";
  // Every ${{ inputs.X }} and ${{ steps.Y.outputs... }} names something that exists.
  std::stringstream text;
  text << std::ifstream(std::string(DRAGUARD_SOURCE_DIR) + "/action.yml").rdbuf();
  std::string all = text.str();
  static const std::regex kInput(R"(inputs\.([a-z0-9-]+))");
  for (std::sregex_iterator it(all.begin(), all.end(), kInput), end; it != end; ++it) {
    EXPECT_TRUE(inputs.contains((*it)[1].str())) << "unknown input " << (*it)[1].str();
  }
  static const std::regex kStep(R"(steps\.([a-z0-9-]+)\.outputs)");
  for (std::sregex_iterator it(all.begin(), all.end(), kStep), end; it != end; ++it) {
    EXPECT_TRUE(step_ids.contains((*it)[1].str())) << "unknown step " << (*it)[1].str();
  }
  // The lint step runs `draguard lint --output sarif` with flags that exist.
  EXPECT_THAT(lint_script, ::testing::HasSubstr("args=(lint --output sarif)"));
  std::set<std::string> flags = Flags(lint_script);
  EXPECT_TRUE(flags.contains("--output"));
  EXPECT_TRUE(flags.contains("--kubernetes-version"));
  ExpectFlagsExist(flags, "action.yml");
}

TEST(PreCommitHooksTest, HooksRunDraguardLintWithFlagsThatExist) {
  YAML::Node hooks;
  ASSERT_NO_THROW(hooks = LoadRootFile(".pre-commit-hooks.yaml"));
  ASSERT_TRUE(hooks.IsSequence());
  ASSERT_GE(hooks.size(), 1u);
  std::set<std::string> ids;
  for (const auto& hook : hooks) {
    for (const char* key : {"id", "name", "entry", "language"}) {
      EXPECT_FALSE(hook[key].as<std::string>("").empty()) << "hook without " << key;
    }
    EXPECT_TRUE(ids.insert(hook["id"].as<std::string>("")).second) << "duplicate hook id";
    std::string entry = hook["entry"].as<std::string>("");
    EXPECT_TRUE(entry.starts_with("draguard lint")) << entry;
    EXPECT_TRUE(hook["types_or"].IsSequence() || hook["types"].IsSequence() ||
                hook["files"].IsScalar())
        << hook["id"].as<std::string>("") << " runs on every file";
    ExpectFlagsExist(Flags(entry), ".pre-commit-hooks.yaml " + hook["id"].as<std::string>(""));
  }
}

// The validator's executable: $DRAGUARD_SARIF_MULTITOOL, else Sarif.Multitool on PATH, else
// the one in the global npm package (its `sarif-multitool-linux` wrapper passes arguments
// through a shell, which splits "Gh;Sarif"); "" when none is installed.
std::string FindValidator() {
  if (const char* env = std::getenv("DRAGUARD_SARIF_MULTITOOL"); env != nullptr && *env) {
    return Quote(env);
  }
  if (RunShell("command -v Sarif.Multitool >/dev/null 2>&1").code == 0) return "Sarif.Multitool";
  ShellResult root = RunShell("npm root -g 2>/dev/null");
  while (!root.out.empty() && (root.out.back() == '\n' || root.out.back() == '\r')) {
    root.out.pop_back();
  }
  if (root.code != 0 || root.out.empty()) return "";
  fs::path tool = fs::path(root.out) / "@microsoft/sarif-multitool-linux/Sarif.Multitool";
  return access(tool.c_str(), X_OK) == 0 ? Quote(tool.string()) : "";
}

TEST(SarifValidatorTest, GitHubRulesReportNothingOnTheCorpus) {
  std::string validator = FindValidator();
  if (validator.empty()) {
    GTEST_SKIP() << "Sarif.Multitool is not installed (npm i -g @microsoft/sarif-multitool-linux,"
                    " or scripts/install-deps --sarif-validator)";
  }
  fs::path input = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!fs::is_directory(input)) input = fs::path(DRAGUARD_SOURCE_DIR) / "examples";
  fs::path dir = fs::temp_directory_path() / ("draguard-sarif-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path sarif = dir / "lint.sarif";
  fs::path verdict = dir / "validation.sarif";
  ShellResult lint = RunShell(Quote(DRAGUARD_BINARY) + " lint --output sarif " + Quote(input.string()) +
                       " > " + Quote(sarif.string()) + " 2>/dev/null");
  ASSERT_LE(lint.code, 1) << "draguard lint failed on " << input;
  ShellResult run = RunShell(validator + " validate --rule-kind 'Gh;Sarif' --log ForceOverwrite -o " +
                      Quote(verdict.string()) + " " + Quote(sarif.string()) + " 2>&1");
  ASSERT_EQ(run.code, 0) << run.out;
  std::ifstream in(verdict);
  ASSERT_TRUE(in.good()) << run.out;
  nlohmann::json log = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(log.is_object()) << verdict;
  int problems = 0;
  for (const auto& result : log["runs"][0]["results"]) {
    std::string level = result.value("level", "warning");
    if (level != "error" && level != "warning") continue;
    ++problems;
    ADD_FAILURE() << level << " " << result.value("ruleId", "") << ": "
                  << result["message"].dump();
  }
  EXPECT_EQ(problems, 0) << "on the SARIF of " << input;
  fs::remove_all(dir);
}

// The packages a debian:12-slim image already holds that the binary's libraries come from.
const std::set<std::string>& SlimImagePackages() {
  static const std::set<std::string> kPackages = {"libc6", "libgcc-s1", "libstdc++6"};
  return kPackages;
}

// The packages the Dockerfile's last stage (the runtime image) installs with apt-get.
std::set<std::string> RuntimeStagePackages() {
  std::stringstream text;
  text << std::ifstream(std::string(DRAGUARD_SOURCE_DIR) + "/Dockerfile").rdbuf();
  std::string dockerfile = text.str();
  size_t stage = dockerfile.rfind("\nFROM ");
  if (stage == std::string::npos) return {};
  std::istringstream words(dockerfile.substr(stage));
  std::set<std::string> packages;
  bool installing = false;
  for (std::string word; words >> word;) {
    if (word == "install") {
      installing = true;
    } else if (word == "&&" || word == "RUN" || word == "COPY") {
      installing = false;
    } else if (installing && word[0] != '-' && word != "\\") {
      packages.insert(word);
    }
  }
  return packages;
}

// The paths under which dpkg may know `library` (merged /usr: ldd reports /lib paths that
// dpkg may list under /usr/lib, or the other way round).
std::vector<std::string> PathSpellings(const std::string& library) {
  std::vector<std::string> paths = {library};
  if (library.starts_with("/usr/")) paths.push_back(library.substr(4));
  if (library.starts_with("/lib")) paths.push_back("/usr" + library);
  return paths;
}

// Package per path, from one `dpkg -S` over every spelling of every library (one call: each
// call reads dpkg's whole database). Lines read "package[:arch][, other]: path".
std::map<std::string, std::string> OwningPackages(const std::vector<std::string>& libraries) {
  std::string command = "dpkg -S";
  for (const std::string& library : libraries) {
    for (const std::string& path : PathSpellings(library)) command += " " + Quote(path);
  }
  std::map<std::string, std::string> owners;
  std::istringstream lines(RunShell(command + " 2>/dev/null").out);
  for (std::string line; std::getline(lines, line);) {
    size_t colon_space = line.find(": ");
    if (colon_space == std::string::npos) continue;
    owners[line.substr(colon_space + 2)] = line.substr(0, line.find_first_of(":,"));
  }
  return owners;
}

TEST(DockerfileTest, RuntimeStageInstallsExactlyTheLibrariesTheBinaryLinks) {
  if (RunShell("command -v ldd >/dev/null && command -v dpkg >/dev/null").code != 0) {
    GTEST_SKIP() << "needs ldd and dpkg (a Debian system) to map libraries to packages";
  }
  std::set<std::string> installed = RuntimeStagePackages();
  ASSERT_THAT(installed, ::testing::Contains("libssl3")) << "runtime stage not found";
  ShellResult ldd = RunShell("ldd " + Quote(DRAGUARD_BINARY));
  ASSERT_EQ(ldd.code, 0) << ldd.out;
  std::vector<std::string> libraries;
  static const std::regex kLibrary(R"(=> (/\S+))");
  for (std::sregex_iterator it(ldd.out.begin(), ldd.out.end(), kLibrary), end; it != end; ++it) {
    libraries.push_back((*it)[1].str());
  }
  ASSERT_FALSE(libraries.empty()) << ldd.out;
  std::map<std::string, std::string> owners = OwningPackages(libraries);
  std::set<std::string> needed;
  for (const std::string& library : libraries) {
    std::string package;
    for (const std::string& path : PathSpellings(library)) {
      if (auto found = owners.find(path); found != owners.end()) package = found->second;
    }
    ASSERT_FALSE(package.empty()) << "no Debian package holds " << library;
    // ASan and UBSan builds link their runtimes statically: nothing more is needed.
    if (!SlimImagePackages().contains(package)) needed.insert(package);
  }
  // The image builds with the default allocator, jemalloc (docs/dependencies.md); a build on
  // the system's (sanitizers) links one library fewer than the image's binary.
  if (std::string_view(DRAGUARD_BINARY_MALLOC) == "system") needed.insert("libjemalloc2");
  EXPECT_EQ(installed, needed) << "the Dockerfile's runtime stage must install the libraries "
                                  "the binary links, and nothing else";
}

// scripts/pgo-train, which the image's build and `make install` run, breaks when a command
// or flag it uses changes; here it runs quick (a few requests of each kind, 20 nodes) against
// this build's binary. Two runs must give the same answers, as scripts/build-pgo requires of
// the instrumented and the trained binaries.
TEST(PgoTrainingTest, RunsEveryCommandAndAnswersTheSameTwice) {
  if (RunShell("command -v curl >/dev/null && command -v openssl >/dev/null && "
               "command -v perl >/dev/null")
          .code != 0) {
    GTEST_SKIP() << "scripts/pgo-train needs curl, openssl and perl (scripts/install-deps)";
  }
  const fs::path out = fs::temp_directory_path() / ("draguard-pgo-test-" + std::to_string(getpid()));
  const std::string train = "DRAGUARD_PGO_QUICK=1 DRAGUARD_PGO_PORT=" +
                            std::to_string(20000 + getpid() % 20000) + " " +
                            Quote(std::string(DRAGUARD_SOURCE_DIR) + "/scripts/pgo-train") + " " +
                            Quote(DRAGUARD_BINARY) + " ";
  ShellResult first = RunShell(train + Quote((out / "first").string()) + " 2>&1");
  ASSERT_EQ(first.code, 0) << first.out;
  ShellResult second = RunShell(train + Quote((out / "second").string()) + " 2>&1");
  ASSERT_EQ(second.code, 0) << second.out;
  size_t answers = 0;
  for (const auto& entry : fs::directory_iterator(out / "first")) answers += entry.is_regular_file();
  // 6 example reviews x 2 servers, 20 + 10 + 10 fresh, 2 x 10 repeated, 3 + 2 mutated, and 9
  // offline runs (lint x 6, explain, cel check, cel eval).
  EXPECT_EQ(answers, 6u * 2 + 40 + 20 + 5 + 9);
  ShellResult diff = RunShell("diff -r " + Quote((out / "first").string()) + " " +
                              Quote((out / "second").string()) + " 2>&1");
  EXPECT_EQ(diff.code, 0) << diff.out.substr(0, 2000);
  // Not vacuous: the fresh specs reach the allocator, which explains the ones no device matches.
  std::ifstream none(out / "first" / "inventory-none-1.json");
  std::string answer((std::istreambuf_iterator<char>(none)), std::istreambuf_iterator<char>());
  EXPECT_THAT(answer, ::testing::HasSubstr("no node can allocate this claim"));
  fs::remove_all(out);
}

}  // namespace
