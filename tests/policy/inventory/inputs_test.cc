// Input collection: directory recursion and order, extensions, stdin, duplicates, I/O errors.
#include "policy/inventory/inputs.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace draguard::inventory {
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

// Issue 19 item 7: a walk says what it passed over, and unreadable inputs do not stop the rest.
TEST_F(InputsTest, WalkReportsWhatItSkips) {
  fs::create_directories(root_ / ".git");
  std::ofstream(root_ / ".git" / "config.yaml") << "kind: X\n";
  std::ofstream(root_ / "a" / ".hidden.yaml") << "kind: X\n";
  std::ofstream(root_ / "a" / "upper.YAML") << "kind: X\n";
  std::ofstream(root_ / "a" / "mixed.Json") << "kind: X\n";
  fs::create_symlink("missing.yaml", root_ / "a" / "dangling.yaml");
  fs::create_directory_symlink("../b", root_ / "a" / "linked-dir");
  fs::create_symlink("c.yaml", root_ / "a" / "linked.yaml");
  InputSet notes;
  StatusOr<std::vector<std::string>> files = ExpandInput({root_.generic_string()}, {}, &notes);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre(Path("a/c.yaml"), Path("a/linked.yaml"), Path("b/deep/z.yml"),
                                  Path("b/x.json"), Path("top.yaml")));
  using R = SkippedInput::Reason;
  EXPECT_THAT(notes.skipped,
              ::testing::UnorderedElementsAre(SkippedInput{Path(".git"), R::kHidden},
                                              SkippedInput{Path("a/.hidden.yaml"), R::kHidden},
                                              SkippedInput{Path("a/upper.YAML"), R::kExtensionCase},
                                              SkippedInput{Path("a/mixed.Json"), R::kExtensionCase},
                                              SkippedInput{Path("a/dangling.yaml"),
                                                           R::kDanglingSymlink},
                                              SkippedInput{Path("a/linked-dir"),
                                                           R::kDirectorySymlink}));
  EXPECT_TRUE(notes.unreadable.empty());
}

TEST_F(InputsTest, UnreadableInputsAreListedAndTheRestRead) {
  std::ofstream(root_ / "big.yaml") << std::string(64, '#') << "\n";
  InputOptions options;
  options.max_file_bytes = 32;
  StatusOr<InputSet> set =
      CollectInputs({{Path("nope.yaml")}, {Path("top.yaml")}, {Path("big.yaml")}}, options);
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ(set->sources.size(), 1u);
  EXPECT_EQ(set->sources[0].name(), Path("top.yaml"));
  ASSERT_EQ(set->unreadable.size(), 2u);
  EXPECT_EQ(set->unreadable[0].code(), StatusCode::kNotFound);
  EXPECT_THAT(set->unreadable[0].message(), ::testing::HasSubstr("nope.yaml"));
  EXPECT_EQ(set->unreadable[1].code(), StatusCode::kResourceExhausted);
  EXPECT_THAT(set->unreadable[1].message(), ::testing::HasSubstr("big.yaml"));
  // ReadInputs keeps failing on the first of them.
  StatusOr<std::vector<SourceText>> read = ReadInputs({{Path("top.yaml")}, {Path("nope.yaml")}}, {});
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kNotFound);
}

// Issue 19 item 20: one file under several spellings is read once, under its first name.
TEST_F(InputsTest, OneFileUnderSeveralSpellingsIsReadOnce) {
  const std::string relative = fs::relative(root_ / "top.yaml").generic_string();
  StatusOr<std::vector<SourceText>> read =
      ReadInputs({{Path("top.yaml")}, {Path("a/../top.yaml")}, {relative}, {"./" + relative},
                  {root_.generic_string()}},
                 {});
  ASSERT_TRUE(read.ok()) << read.status();
  std::vector<std::string> names;
  for (const SourceText& s : *read) names.push_back(s.name());
  EXPECT_THAT(names, ElementsAre(Path("top.yaml"), Path("a/c.yaml"), Path("b/deep/z.yml"),
                                 Path("b/x.json")));
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
}  // namespace draguard::inventory
