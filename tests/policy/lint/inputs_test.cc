// Input collection: directory recursion and order, extensions, stdin, duplicates, I/O errors.
#include "policy/lint/inputs.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace draguard::lint {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

class InputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("draguard_inputs_test_" + std::to_string(::testing::UnitTest::GetInstance()
                                                          ->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "b" / "deep");
    fs::create_directories(root_ / "a");
    for (const char* name : {"b/deep/z.yml", "b/x.json", "a/c.yaml", "a/notes.txt", "top.yaml",
                             "a/chart.tpl"}) {
      std::ofstream(root_ / name) << "kind: X\n";
    }
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Path(const std::string& rel) const { return (root_ / rel).generic_string(); }

  fs::path root_;
};

TEST_F(InputsTest, DirectoryIsRecursiveSortedAndFiltered) {
  StatusOr<std::vector<std::string>> files = ExpandInput({root_.generic_string()}, {});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre(Path("a/c.yaml"), Path("b/deep/z.yml"), Path("b/x.json"),
                                  Path("top.yaml")));
}

TEST_F(InputsTest, MountedConfigMapIsReadOnce) {
  // A ConfigMap volume: real files under ..<timestamp>/, ..data -> it, and top-level links.
  fs::create_directories(root_ / "cm" / "..2026_11_23_01_00_00.1");
  std::ofstream(root_ / "cm" / "..2026_11_23_01_00_00.1" / "slices.yaml") << "kind: X\n";
  fs::create_directory_symlink("..2026_11_23_01_00_00.1", root_ / "cm" / "..data");
  fs::create_symlink("..data/slices.yaml", root_ / "cm" / "slices.yaml");
  std::ofstream(root_ / "cm" / ".hidden.yaml") << "kind: X\n";
  StatusOr<std::vector<std::string>> files = ExpandInput({Path("cm")}, {});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre(Path("cm/slices.yaml")));
}

TEST_F(InputsTest, NamedFileIsTakenWhateverItsExtension) {
  StatusOr<std::vector<std::string>> files = ExpandInput({Path("a/notes.txt")}, {});
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, ElementsAre(Path("a/notes.txt")));
}

TEST_F(InputsTest, MissingPathIsNotFound) {
  StatusOr<std::vector<SourceText>> read = ReadInputs({{Path("nope.yaml")}}, {});
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kNotFound);
}

TEST_F(InputsTest, StdinAndDuplicates) {
  std::istringstream in("kind: Pod\n");
  InputOptions options;
  options.stdin_stream = &in;
  StatusOr<std::vector<SourceText>> read =
      ReadInputs({{"-"}, {Path("top.yaml")}, {Path("top.yaml")}}, options);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].name(), kStdinName);
  EXPECT_EQ((*read)[0].text(), "kind: Pod\n");
  EXPECT_EQ((*read)[1].name(), Path("top.yaml"));
}

TEST_F(InputsTest, TooManyFilesIsResourceExhausted) {
  InputOptions options;
  options.max_files = 2;
  StatusOr<std::vector<SourceText>> read = ReadInputs({{root_.generic_string()}}, options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kResourceExhausted);
}

struct NameCase {
  std::string name;
  bool manifest;
};

class ManifestNameTest : public ::testing::TestWithParam<NameCase> {};

TEST_P(ManifestNameTest, Classifies) {
  EXPECT_EQ(IsManifestFileName(GetParam().name), GetParam().manifest);
}

INSTANTIATE_TEST_SUITE_P(Cases, ManifestNameTest,
                         ::testing::Values(NameCase{.name = "a.yaml", .manifest = true},
                                           NameCase{.name = "a.yml", .manifest = true},
                                           NameCase{.name = "a.json", .manifest = true},
                                           NameCase{.name = "a.tpl", .manifest = false},
                                           NameCase{.name = "a.YAML", .manifest = false},
                                           NameCase{.name = "yaml", .manifest = false}));

}  // namespace
}  // namespace draguard::lint
