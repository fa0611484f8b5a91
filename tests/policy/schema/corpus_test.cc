// The schema checks over ../shared/corpus: every upstream mistake of corpus/README.md that is
// about attributes is flagged with its code, and no file the README expects to be valid gets
// a schema error. DeviceClasses of every corpus file are the known classes (as in one lint run).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/k8s/decode.h"
#include "policy/schema/check.h"
#include "tests/policy/schema/check_helpers.h"

namespace draguard::schema {
namespace {

namespace fs = std::filesystem;

// corpus-relative path -> the README's "Expected validity" text.
std::map<std::string, std::string> ReadVerdicts(const fs::path& readme) {
  std::map<std::string, std::string> out;
  std::ifstream in(readme);
  std::string line, folder;
  int column = -1;
  auto cells = [](const std::string& row) {
    std::vector<std::string> c;
    std::stringstream s(row);
    std::string cell;
    std::getline(s, cell, '|');
    while (std::getline(s, cell, '|')) {
      const size_t b = cell.find_first_not_of(' ');
      const size_t e = cell.find_last_not_of(' ');
      c.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    return c;
  };
  while (std::getline(in, line)) {
    if (line.rfind("### `", 0) == 0) {
      folder = line.substr(5, line.find('`', 5) - 5);
      column = -1;
    } else if (line.rfind("| File |", 0) == 0) {
      std::vector<std::string> header = cells(line);
      for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "Expected validity") column = static_cast<int>(i);
      }
    } else if (line.rfind("| `", 0) == 0 && column >= 0) {
      std::vector<std::string> c = cells(line);
      if (static_cast<int>(c.size()) <= column) continue;
      out[folder + c[0].substr(1, c[0].rfind('`') - 1)] = c[column];
    }
  }
  return out;
}

struct Corpus {
  std::vector<std::string> files;  // corpus-relative
  std::vector<k8s::DecodeResult> decoded;
  std::map<std::string, Diagnostics> findings;  // per file
};

const Corpus* LoadCorpus(const fs::path& root) {
  auto* corpus = new Corpus;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml" && ext != ".json")) continue;
    corpus->files.push_back(fs::relative(entry.path(), root).string());
    corpus->decoded.push_back(
        k8s::Decode(SourceText(corpus->files.back(), testing::ReadFile(entry.path()))));
  }
  CheckOptions options;
  for (const k8s::DecodeResult& file : corpus->decoded) {
    for (const k8s::DecodedObject& o : file.objects) {
      if (const auto* c = std::get_if<k8s::DeviceClass>(&o.object)) options.classes.push_back(c);
    }
  }
  for (size_t i = 0; i < corpus->files.size(); ++i) {
    Diagnostics& out = corpus->findings[corpus->files[i]];
    for (const k8s::DecodedObject& o : corpus->decoded[i].objects) {
      Diagnostics found;
      CheckObject(o.object, testing::CatalogSchema(), options, found);
      for (Diagnostic& d : found.mutable_items()) {
        o.Locate(d);
        out.Add(std::move(d));
      }
    }
  }
  return corpus;
}

const Corpus* SharedCorpus() {
  static const Corpus* corpus = [] {
    const fs::path root = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
    return fs::exists(root / "README.md") ? LoadCorpus(root) : nullptr;
  }();
  return corpus;
}

std::string Render(const Diagnostics& ds) {
  std::string out;
  for (const Diagnostic& d : ds) {
    out += "    " + std::string(SeverityName(d.severity)) + " " + d.code + " " + d.field + ":" +
           std::to_string(d.position.line) + ": " + d.message + "\n";
  }
  return out;
}

struct Mistake {
  std::string file;
  std::string code;
};

class CorpusMistakeTest : public ::testing::TestWithParam<Mistake> {};

TEST_P(CorpusMistakeTest, IsFlagged) {
  const Corpus* corpus = SharedCorpus();
  if (corpus == nullptr) GTEST_SKIP() << "no corpus under " << DRAGUARD_SHARED_DIR;
  auto it = corpus->findings.find(GetParam().file);
  ASSERT_NE(it, corpus->findings.end()) << GetParam().file << " is not in the corpus";
  bool found = false;
  for (const Diagnostic& d : it->second) {
    if (d.code == GetParam().code && d.is_error()) found = true;
  }
  EXPECT_TRUE(found) << GetParam().file << " lacks " << GetParam().code << "\n"
                     << Render(it->second);
}

INSTANTIATE_TEST_SUITE_P(
    ReadmeMistakes, CorpusMistakeTest,
    ::testing::Values(
        Mistake{"kubernetes-sigs-dra-driver-nvidia-gpu/demo/specs/quickstart/v1/gpu-test6.yaml",
                "schema.attribute.removed"},
        Mistake{"kubernetes-sigs-dra-driver-nvidia-gpu/demo/specs/quickstart/v1beta1/"
                "gpu-test6.yaml",
                "schema.attribute.removed"},
        Mistake{"kubernetes-sigs-dranet/examples/demo_nvidia_dranet/resourceclaims.yaml",
                "schema.attribute.removed"},
        Mistake{"kubernetes-sigs-dranet/examples/demo_gke_multinetwork/resourceclaim.yaml",
                "schema.attribute.removed"},
        Mistake{"kubernetes-sigs-dranet/examples/demo_gke_multinetwork/resourceclaimtemplate.yaml",
                "schema.attribute.removed"},
        Mistake{"google-dranet/examples/demo_gke_multinetwork/resourceclaim.yaml",
                "schema.attribute.removed"},
        Mistake{"intel-intel-resource-drivers-for-kubernetes/deployments/gpu/examples/"
                "pod-inline-gpu-dranet.yaml",
                "schema.domain.qualified-name"},
        Mistake{"ROCm-k8s-gpu-dra-driver/example/example-partitions-distinct-parents.yaml",
                "schema.constraint.attribute.not-published"},
        Mistake{"ROCm-k8s-gpu-dra-driver/example/example-partitions-same-parent.yaml",
                "schema.constraint.attribute.not-published"}),
    [](const ::testing::TestParamInfo<Mistake>& param_info) {
      std::string name;
      for (char c : param_info.param.file) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(CorpusTest, NoSchemaErrorOnFilesExpectedValid) {
  const Corpus* corpus = SharedCorpus();
  if (corpus == nullptr) GTEST_SKIP() << "no corpus under " << DRAGUARD_SHARED_DIR;
  std::map<std::string, std::string> verdicts =
      ReadVerdicts(fs::path(DRAGUARD_SHARED_DIR) / "corpus" / "README.md");
  ASSERT_GT(verdicts.size(), 250u);
  size_t checked = 0, warnings = 0, infos = 0;
  for (const auto& [file, found] : corpus->findings) {
    auto v = verdicts.find(file);
    if (v == verdicts.end()) continue;
    const bool expected_valid = v->second.find("Invalid") == std::string::npos &&
                                v->second.find("Will not allocate") == std::string::npos;
    warnings += found.warning_count();
    infos += static_cast<size_t>(std::count_if(found.begin(), found.end(), [](const Diagnostic& d) {
      return d.severity == Severity::kInfo;
    }));
    // DRAGUARD_SCHEMA_DUMP=1 prints every finding, to review the warnings by hand.
    if (std::getenv("DRAGUARD_SCHEMA_DUMP") != nullptr && !found.empty()) {
      std::cout << file << "\n" << Render(found);
    }
    if (!expected_valid) continue;
    ++checked;
    EXPECT_FALSE(found.has_errors()) << file << " (" << v->second << ")\n" << Render(found);
    // Private drivers' domains are information, not warnings; what may warn on a valid file
    // is an attribute its driver deprecated (Intel's pciRoot).
    for (const Diagnostic& d : found) {
      if (d.severity != Severity::kWarning) continue;
      EXPECT_EQ(d.code, "schema.attribute.deprecated") << file << "\n" << Render(found);
    }
  }
  std::cout << "schema corpus: " << checked << " valid files checked, " << warnings
            << " warnings and " << infos << " infos over the corpus\n";
  EXPECT_GT(checked, 200u);
}

}  // namespace
}  // namespace draguard::schema
