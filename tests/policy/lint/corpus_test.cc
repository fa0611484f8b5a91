// Corpus test: lints every file under ../shared/corpus in one run (so that workloads see the
// claims and templates of their sibling files) and checks the verdicts that
// corpus/README.md expects, read from its per-folder tables:
//   Valid (v1 / workload only), Template -> no error;
//   Valid only where a beta API is served, Beta API, Alpha API -> at least one warning or
//     error about the API version (never silently accepted; a warning where a cluster may
//     enable it with --runtime-config, an error where the chosen release cannot serve it,
//     such as a v1beta2 DeviceTaintRule in 1.35);
//   Old alpha API ("invalid on current clusters": removed, no --runtime-config serves it),
//     Invalid (upstream mistake or on purpose), Will not allocate as written (an attribute the
//     devices do not publish: a schema error) -> at least one error.
// Every disagreement is printed with the diagnostics of the file; the lead decides.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/lint/linter.h"
#include "policy/lint/render_text.h"

namespace draguard::lint {
namespace {

namespace fs = std::filesystem;

enum class Verdict { kNoError, kOldApi, kError };

struct Expectation {
  Verdict verdict;
  std::string text;  // the README's wording
};

std::string Trim(std::string s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::stringstream in(row);
  std::string cell;
  std::getline(in, cell, '|');  // before the first bar
  while (std::getline(in, cell, '|')) cells.push_back(Trim(cell));
  return cells;
}

Verdict Classify(const std::string& text) {
  std::string plain;
  for (char c : text) {
    if (c != '*') plain += c;
  }
  // "Will not allocate as written": the selector or constraint names an attribute the
  // devices do not publish; the schema checks make that an error.
  if (plain.rfind("Invalid", 0) == 0 || plain.rfind("Will not allocate", 0) == 0 ||
      plain.rfind("Old alpha", 0) == 0) {
    return Verdict::kError;
  }
  if (plain.rfind("Valid only where", 0) == 0 || plain.rfind("Alpha API", 0) == 0 ||
      plain.rfind("Beta API", 0) == 0) {
    return Verdict::kOldApi;
  }
  return Verdict::kNoError;  // Valid, Template
}

// corpus-relative path -> expectation, from the README's folder tables.
std::map<std::string, Expectation> ReadExpectations(const std::string& readme) {
  std::map<std::string, Expectation> out;
  std::ifstream in(readme);
  std::string line, folder;
  int column = -1;
  while (std::getline(in, line)) {
    if (line.rfind("### `", 0) == 0) {
      folder = line.substr(5, line.find('`', 5) - 5);
      column = -1;
    } else if (line.rfind("| File |", 0) == 0) {
      std::vector<std::string> header = Cells(line);
      for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "Expected validity") column = static_cast<int>(i);
      }
    } else if (line.rfind("| `", 0) == 0 && column >= 0 && !folder.empty()) {
      std::vector<std::string> cells = Cells(line);
      if (static_cast<int>(cells.size()) <= column) continue;
      std::string file = cells[0].substr(1, cells[0].rfind('`') - 1);
      out[folder + file] = {Classify(cells[column]), cells[column]};
    }
  }
  return out;
}

// Files where draguard and README.md disagree today, each with the reason. The lead decides
// whether draguard or the README is right; until then a listed file may disagree, and the test
// fails on any other disagreement. A listed file that starts to agree is printed, to be removed.
constexpr char kSourceWrapper[] =
    "the README calls it valid, but its own note says the pods use the resourceClaims[].source "
    "wrapper removed in Kubernetes 1.28, which the API server rejects (issue 19 item 3)";

const std::map<std::string, std::string>& KnownDisagreements() {
  static const auto* known = new std::map<std::string, std::string>{
      {"kubernetes-sigs-dra-driver-nvidia-gpu/tests/bats/specs/gpu-cel-nomatch.yaml",
       "intentionally unsatisfiable through a productName value no device has; every name and "
       "type is right, so only satisfiability against an inventory can tell"},
      {"kubernetes-sigs-dra-driver-nvidia-gpu/demo/specs/mig+mps/sharing-demo-job.yaml",
       kSourceWrapper},
      {"kubernetes-sigs-dra-driver-nvidia-gpu/demo/specs/mig+mps/sharing-demo-job-1.yaml",
       kSourceWrapper},
      {"kubernetes-sigs-dra-driver-nvidia-gpu/demo/specs/selectors/pods.yaml", kSourceWrapper},
  };
  return *known;
}

struct FileFindings {
  size_t errors = 0;
  size_t warnings = 0;
  std::string rendered;
};

TEST(CorpusTest, VerdictsMatchReadme) {
  const std::string corpus = std::string(DRAGUARD_SHARED_DIR) + "/corpus";
  if (!fs::exists(corpus + "/README.md")) GTEST_SKIP() << "no corpus at " << corpus;
  std::map<std::string, Expectation> expected = ReadExpectations(corpus + "/README.md");
  ASSERT_GT(expected.size(), 250u) << "README tables not understood";

  StatusOr<LintReport> report = Lint({{corpus}}, {});
  ASSERT_TRUE(report.ok()) << report.status();
  std::map<std::string, FileFindings> findings;
  for (const Diagnostic& d : report->diagnostics) {
    FileFindings& f = findings[d.file];
    if (d.is_error()) ++f.errors;
    if (d.severity == Severity::kWarning) ++f.warnings;
    f.rendered += "      " + RenderTextDiagnostic(d, nullptr, {});
  }
  size_t disagreements = 0, checked = 0;
  for (const std::string& file : report->files) {
    std::string rel = file.substr(corpus.size() + 1);
    auto it = expected.find(rel);
    if (it == expected.end()) continue;  // not in the tables (none expected)
    ++checked;
    const FileFindings& f = findings[file];
    bool ok = it->second.verdict == Verdict::kNoError  ? f.errors == 0
              : it->second.verdict == Verdict::kOldApi ? f.errors + f.warnings > 0
                                                       : f.errors > 0;
    auto known = KnownDisagreements().find(rel);
    if (ok && known != KnownDisagreements().end()) {
      std::cout << "now agrees, remove from KnownDisagreements(): " << rel << "\n";
    }
    if (ok) continue;
    ++disagreements;
    if (known != KnownDisagreements().end()) {
      std::cout << "known disagreement: " << rel << ": " << known->second << "\n";
      continue;
    }
    ADD_FAILURE() << rel << "\n    README: " << it->second.text << "\n    draguard: " << f.errors
                  << " errors, " << f.warnings << " warnings\n"
                  << f.rendered;
  }
  std::cout << "corpus: " << checked << " files checked, " << disagreements
            << " disagree with README.md (" << KnownDisagreements().size() << " known)\n";
  EXPECT_GT(checked, 250u);
}

}  // namespace
}  // namespace draguard::lint
