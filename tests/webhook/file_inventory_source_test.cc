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

// The first load runs on the polling thread, which rereads the files later, so that every
// snapshot's objects come from that thread's malloc arena (file_inventory_source.h); Start()
// returns once it is done.
TEST_F(FileInventorySourceTest, LoadsOnThePollingThreadBeforeStartReturns) {
  Write("a.yaml", Slice("node-a", 2));
  FileInventoryOptions options = Options({dir_});
  std::vector<std::thread::id> loaded_on;
  options.log = [&](std::string_view line) {
    if (line.find("inventory loaded") != std::string_view::npos) {
      loaded_on.push_back(std::this_thread::get_id());
    }
  };
  FileInventorySource source(std::move(options));
  ASSERT_TRUE(source.Start().ok());
  ASSERT_NE(source.Current(), nullptr);
  EXPECT_EQ(source.Current()->DeviceCount(), 2u);
  ASSERT_EQ(loaded_on.size(), 1u);
  EXPECT_NE(loaded_on[0], std::this_thread::get_id());
  source.Stop();
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
  EXPECT_FALSE(source.PollOnce()) << "a file gone at one poll may be being replaced";
  EXPECT_EQ(source.Current()->DeviceCount(), 3u);
  EXPECT_EQ(source.State().failing_files, 1u);
  ASSERT_TRUE(source.PollOnce()) << "gone at two polls: removed";
  EXPECT_EQ(source.Current()->DeviceCount(), 2u);
  EXPECT_EQ(source.State().failing_files, 0u);
  EXPECT_THAT(source.State().problem, IsEmpty());
}

// The objects are held once, in the snapshot (issue 17 item 0): a new snapshot takes the
// unchanged files' objects from the previous one, at the places each file recorded.
TEST_F(FileInventorySourceTest, UnchangedFilesCarryOverFromSnapshotToSnapshot) {
  Write("a.yaml", Slice("node-a", 1));
  Write("b.yaml", Slice("node-b", 2));
  Write("c.yaml", Slice("node-c", 3));
  FileInventorySource source(Options({dir_}));
  ASSERT_TRUE(source.PollOnce());
  auto nodes = [&] {
    std::vector<std::string> out;
    for (const k8s::ResourceSlice& slice : source.Current()->slices) {
      out.push_back(slice.spec.node_name.value_or("") + "/" +
                    std::to_string(slice.spec.devices.size()));
    }
    return out;
  };
  for (int devices : {4, 1, 5}) {
    auto before = source.Current();
    Write("b.yaml", Slice("node-b", devices));
    ASSERT_TRUE(source.PollOnce());
    EXPECT_EQ(nodes(), (std::vector<std::string>{"node-a/1", "node-b/" + std::to_string(devices),
                                                 "node-c/3"}));
    // Issue 17 item 3: the unchanged files' objects are shared with the previous snapshot
    // (the same objects, not copies); only the rewritten file's are new.
    auto after = source.Current();
    ASSERT_EQ(after->slices.size(), 3u);
    EXPECT_EQ(after->slices.ptr(0), before->slices.ptr(0));
    EXPECT_NE(after->slices.ptr(1), before->slices.ptr(1));
    EXPECT_EQ(after->slices.ptr(2), before->slices.ptr(2));
  }
  fs::remove(fs::path(dir_) / "a.yaml");
  source.PollOnce();
  ASSERT_TRUE(source.PollOnce());
  EXPECT_EQ(nodes(), (std::vector<std::string>{"node-b/5", "node-c/3"}));
}

TEST_F(FileInventorySourceTest, FileBackBeforeTheRemovalGraceKeepsEverything) {
  Write("a.yaml", Slice("node-a", 1));
  Write("b.yaml", Slice("node-b", 2));
  FileInventorySource source(Options({dir_}));
  ASSERT_TRUE(source.PollOnce());
  fs::rename(fs::path(dir_) / "a.yaml", fs::path(dir_) / "a.tmp");
  EXPECT_FALSE(source.PollOnce());
  EXPECT_EQ(source.Current()->DeviceCount(), 3u);
  fs::rename(fs::path(dir_) / "a.tmp", fs::path(dir_) / "a.yaml");
  source.PollOnce();  // a rename changes ctime: the file may be reread
  EXPECT_EQ(source.Current()->DeviceCount(), 3u);
  EXPECT_EQ(source.State().failing_files, 0u);
  source.PollOnce();
  EXPECT_EQ(source.Current()->DeviceCount(), 3u) << "back in time: never counted as removed";
}

// How a file of a working inventory can break (issue 19 item 4; removal is above). The text
// replaces node-b's slice; `where` follows the file name in the report (":line:").
struct BreakCase {
  std::string name;
  std::string text;
  std::string where;  // expected in the log line and State().problem
};

class FileInventoryBreakTest : public FileInventorySourceTest,
                               public ::testing::WithParamInterface<BreakCase> {};

// A file that cannot be used keeps its last good content: the snapshot (and the verdicts of
// the claims only its devices can satisfy) does not change, the failure is logged once with
// its file and line and counted, and the state shows how long the content has been stale.
TEST_P(FileInventoryBreakTest, KeepsTheLastGoodContentUntilTheFileIsUsableAgain) {
  Write("a.yaml", Slice("node-a", 1));
  Write("b.yaml", Slice("node-b", 2));
  FileInventorySource source(Options({dir_}));
  ASSERT_TRUE(source.PollOnce());
  auto good = source.Current();
  ASSERT_EQ(good->DeviceCount(), 3u);

  Write("b.yaml", GetParam().text);
  EXPECT_FALSE(source.PollOnce());
  EXPECT_FALSE(source.PollOnce());
  EXPECT_EQ(source.Current(), good) << "the snapshot keeps node-b's devices";
  InventorySourceState state = source.State();
  EXPECT_TRUE(state.synced);
  EXPECT_EQ(state.failing_files, 1u);
  EXPECT_EQ(state.file_failures, 1u) << "counted once while it persists";
  EXPECT_GT(state.stale_since.time_since_epoch().count(), 0);
  EXPECT_EQ(state.confirmed_at, state.stale_since) << "confirmed only up to the failure";
  EXPECT_THAT(state.problem, HasSubstr(dir_ + "/b.yaml" + GetParam().where));
  int logged = 0;
  for (const std::string& line : log_) {
    logged += line.find(dir_ + "/b.yaml" + GetParam().where) != std::string::npos;
  }
  EXPECT_EQ(logged, 1) << ::testing::PrintToString(log_);

  Write("b.yaml", Slice("node-b", 4));
  EXPECT_TRUE(source.PollOnce());
  EXPECT_EQ(source.Current()->DeviceCount(), 5u);
  state = source.State();
  EXPECT_EQ(state.failing_files, 0u);
  EXPECT_EQ(state.stale_since.time_since_epoch().count(), 0);
  EXPECT_THAT(state.problem, IsEmpty());
  EXPECT_GE(state.confirmed_at, source.Current()->as_of);
}

INSTANTIATE_TEST_SUITE_P(
    Breakages, FileInventoryBreakTest,
    ::testing::Values(
        BreakCase{.name = "InvalidYaml",
                  .text = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nspec: [unclosed\n",
                  .where = ":4:"},
        BreakCase{.name = "HalfWritten", .text = Slice("node-b", 2).substr(0, 150) + "\n  - {",
                  .where = ":"},
        // One object over the API server's 3 MiB limit.
        BreakCase{.name = "ObjectTooLarge",
                  .text = Slice("node-b", 2) + "  - name: big\n    attributes:\n      blob: {string: \"" +
                          std::string(3 * 1024 * 1024, 'x') + "\"}\n",
                  .where = ":"}),
    [](const ::testing::TestParamInfo<BreakCase>& param_info) { return param_info.param.name; });

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
  EXPECT_EQ(source.State().failing_files, 1u) << "no good content yet, but failing all the same";
  EXPECT_THAT(source.State().problem, HasSubstr(dir_ + "/b.yaml:"));
  EXPECT_THAT(::testing::PrintToString(log_), HasSubstr("no usable content yet"));
}

TEST_F(FileInventorySourceTest, MalformedObjectsAreLoggedAndKeptAsFarAsTheyDecode) {
  Write("a.yaml", Slice("node-a", 2) + "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
                                       "metadata: {name: c}\nspec: {selectors: {}}\n");
  FileInventorySource source(Options({dir_}));
  ASSERT_TRUE(source.PollOnce());
  EXPECT_EQ(source.Current()->DeviceCount(), 2u);
  EXPECT_EQ(source.State().failing_files, 0u);
  EXPECT_THAT(::testing::PrintToString(log_), HasSubstr(dir_ + "/a.yaml:"));
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
