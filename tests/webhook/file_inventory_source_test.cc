// FileInventorySource: loading, the ConfigMap volume layout, change detection and failures,
// stepped with PollOnce() so that nothing depends on timing.
#include "webhook/file_inventory_source.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace draguard::webhook {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Slice(const std::string& name, int devices) {
  std::string text = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " +
                     name + "\nspec:\n  driver: gpu.example.com\n  nodeName: " + name +
                     "\n  pool:\n    name: " + name +
                     "\n    generation: 1\n    resourceSliceCount: 1\n  devices:\n";
  for (int i = 0; i < devices; ++i) text += "  - name: gpu-" + std::to_string(i) + "\n";
  return text;
}

constexpr char kClass[] =
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\n"
    "spec:\n  selectors:\n  - cel:\n      expression: device.driver == \"gpu.example.com\"\n";

class FileInventorySourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/draguard-inventory-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& relative, const std::string& text) {
    fs::path path = fs::path(dir_) / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }

  FileInventoryOptions Options(std::vector<std::string> paths) {
    FileInventoryOptions options;
    options.paths = std::move(paths);
    options.log = [this](std::string_view line) { log_.emplace_back(line); };
    return options;
  }

  // Lays `files` out as kubelet mounts a ConfigMap: the data in a timestamped hidden
  // directory, `..data` pointing at it, and one symlink per key at the top.
  void ConfigMapVolume(const std::string& generation,
                       const std::vector<std::pair<std::string, std::string>>& files) {
    for (const auto& [name, text] : files) Write(generation + "/" + name, text);
    fs::path data = fs::path(dir_) / "..data";
    fs::path tmp = fs::path(dir_) / "..data_tmp";
    fs::create_directory_symlink(generation, tmp);
    fs::rename(tmp, data);  // atomic swap, as kubelet's AtomicWriter does
    for (const auto& [name, text] : files) {
      fs::path link = fs::path(dir_) / name;
      if (!fs::is_symlink(link)) fs::create_symlink(fs::path("..data") / name, link);
    }
  }

  std::string dir_;
  std::vector<std::string> log_;
};

TEST_F(FileInventorySourceTest, LoadsFilesAndDirectoriesOnStart) {
  Write("slices/a.yaml", Slice("node-a", 2));
  Write("slices/b.yml", Slice("node-b", 3));
  Write("slices/notes.txt", "not a manifest");
  Write("class.yaml", kClass);
  FileInventorySource source(Options({dir_ + "/slices", dir_ + "/class.yaml"}));
  EXPECT_FALSE(source.Synced());
  EXPECT_EQ(source.Current(), nullptr);
  ASSERT_TRUE(source.Start().ok());
  auto snapshot = source.Current();
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(snapshot->slices.size(), 2u);
  EXPECT_EQ(snapshot->DeviceCount(), 5u);
  EXPECT_EQ(snapshot->classes.size(), 1u);
  InventorySourceState state = source.State();
  EXPECT_TRUE(state.synced);
  EXPECT_EQ(state.objects, 3u);
  EXPECT_THAT(state.problem, IsEmpty());
  EXPECT_GT(state.confirmed_at.time_since_epoch().count(), 0);
  source.Stop();
  source.Stop();  // idempotent
  EXPECT_EQ(source.Current(), snapshot);  // the last snapshot survives Stop
}

TEST_F(FileInventorySourceTest, ConfigMapVolumeIsReadOnceAndSwapsAreSeen) {
  ConfigMapVolume("..2026_01_01_00_00_00.1", {{"slices.yaml", Slice("node-a", 1)},
                                              {"classes.yaml", kClass}});
  StatusOr<std::vector<std::string>> files = ListInventoryFiles({dir_}, {});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre(dir_ + "/classes.yaml", dir_ + "/slices.yaml"));

  FileInventorySource source(Options({dir_}));
  EXPECT_TRUE(source.PollOnce());
  auto first = source.Current();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->DeviceCount(), 1u);
  EXPECT_FALSE(source.PollOnce()) << "nothing changed";
  EXPECT_EQ(source.Current(), first);

  ConfigMapVolume("..2026_01_01_00_01_00.2", {{"slices.yaml", Slice("node-a", 4)},
                                              {"classes.yaml", kClass}});
  EXPECT_TRUE(source.PollOnce());
  ASSERT_NE(source.Current(), nullptr);
  EXPECT_EQ(source.Current()->DeviceCount(), 4u);
  EXPECT_EQ(first->DeviceCount(), 1u) << "a snapshot already taken never changes";
}

TEST_F(FileInventorySourceTest, NewAndRemovedFilesAreChanges) {
  Write("a.yaml", Slice("node-a", 1));
  FileInventorySource source(Options({dir_}));
  ASSERT_TRUE(source.PollOnce());
  Write("b.yaml", Slice("node-b", 2));
  ASSERT_TRUE(source.PollOnce());
  EXPECT_EQ(source.Current()->DeviceCount(), 3u);
  fs::remove(fs::path(dir_) / "a.yaml");
  ASSERT_TRUE(source.PollOnce());
  EXPECT_EQ(source.Current()->DeviceCount(), 2u);
}

TEST_F(FileInventorySourceTest, FailureKeepsTheSnapshotAndStopsConfirming) {
  Write("inventory/a.yaml", Slice("node-a", 2));
  FileInventorySource source(Options({dir_ + "/inventory"}));
  ASSERT_TRUE(source.PollOnce());
  auto snapshot = source.Current();
  auto confirmed = source.State().confirmed_at;

  fs::remove_all(fs::path(dir_) / "inventory");
  EXPECT_FALSE(source.PollOnce());
  EXPECT_FALSE(source.PollOnce());
  InventorySourceState state = source.State();
  EXPECT_TRUE(state.synced);
  EXPECT_EQ(source.Current(), snapshot);
  EXPECT_EQ(state.confirmed_at, confirmed);
  EXPECT_THAT(state.problem, HasSubstr("inventory"));
  int failures = 0;
  for (const std::string& line : log_) failures += line.find("keeping the previous") != std::string::npos;
  EXPECT_EQ(failures, 1) << "a persisting problem is logged once";

  Write("inventory/a.yaml", Slice("node-a", 2));
  EXPECT_TRUE(source.PollOnce());
  EXPECT_THAT(source.State().problem, IsEmpty());
  EXPECT_GE(source.State().confirmed_at, confirmed);
}

TEST_F(FileInventorySourceTest, MissingPathAtStartIsRetriedNotFatal) {
  FileInventorySource source(Options({dir_ + "/later"}));
  ASSERT_TRUE(source.Start().ok());
  EXPECT_FALSE(source.Synced());
  EXPECT_THAT(source.State().problem, HasSubstr("later"));
  source.Stop();
  Write("later/a.yaml", Slice("node-a", 1));
  EXPECT_TRUE(source.PollOnce());
  EXPECT_TRUE(source.Synced());
}

TEST_F(FileInventorySourceTest, BrokenFilesAreLoggedAndTheRestIsUsed) {
  Write("a.yaml", Slice("node-a", 2));
  Write("b.yaml", "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nspec: [unclosed\n");
  FileInventorySource source(Options({dir_}));
  ASSERT_TRUE(source.PollOnce());
  EXPECT_EQ(source.Current()->DeviceCount(), 2u);
  ASSERT_FALSE(log_.empty());
  EXPECT_THAT(log_.back(), HasSubstr("problems in the files"));
}

TEST_F(FileInventorySourceTest, PollingThreadPicksUpChanges) {
  Write("a.yaml", Slice("node-a", 1));
  FileInventoryOptions options = Options({dir_});
  options.poll_interval = std::chrono::milliseconds(10);
  FileInventorySource source(std::move(options));
  ASSERT_TRUE(source.Start().ok());
  Write("b.yaml", Slice("node-b", 1));
  // Bounded wait for the background poll; the assertion is on the outcome, not the time.
  for (int i = 0; i < 500 && source.Current()->DeviceCount() != 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(source.Current()->DeviceCount(), 2u);
  source.Stop();
}

TEST_F(FileInventorySourceTest, NoPathIsAnError) {
  FileInventorySource source(Options({}));
  EXPECT_EQ(source.Start().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draguard::webhook
