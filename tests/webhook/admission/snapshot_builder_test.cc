#include "webhook/admission/snapshot_builder.h"

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace draguard::webhook {
namespace {

using ::testing::ElementsAre;
using Snapshot = SnapshotBuilder::Snapshot;

Snapshot NewSnapshot() { return std::make_shared<inventory::ClusterObjects>(); }

// What the steps saw, in order, as "step:snapshot-number".
class Journal {
 public:
  void Add(std::string entry) {
    std::lock_guard lock(mu_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> entries() {
    std::lock_guard lock(mu_);
    return entries_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> entries_;
};

// A step that waits at its first snapshot until released, so that a test can queue more
// snapshots while a build is under way.
struct Gate {
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> first{true};
  void PassOrWait() {
    if (first.exchange(false)) {
      entered.set_value();
      released.wait();
    }
  }
};

// A snapshot being built is not built again, and a newer one replaces one waiting: a burst
// costs one build. Each build runs every step in order.
TEST(SnapshotBuilderTest, RunsEveryStepInTheOrderAddedForTheNewestSnapshotHandedOver) {
  Journal journal;
  Gate gate;
  std::vector<Snapshot> s = {NewSnapshot(), NewSnapshot(), NewSnapshot()};
  auto name = [&](const Snapshot& x) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == x) return std::to_string(i);
    }
    return std::string("?");
  };
  {
    SnapshotBuilder builder;
    builder.AddStep([&](const Snapshot& x) {
      gate.PassOrWait();
      journal.Add("schema:" + name(x));
    });
    builder.AddStep([&](const Snapshot& x) { journal.Add("view:" + name(x)); });
    // Signals s[2]'s build, after which the builder has nothing left to do.
    std::promise<void> done;
    builder.AddStep([&](const Snapshot& x) {
      if (x == s[2]) done.set_value();
    });
    builder.Request(s[0]);
    gate.entered.get_future().wait();
    builder.Request(s[0]);  // being built: not again
    builder.Request(s[1]);  // replaced by s[2] before its build starts
    builder.Request(s[2]);
    builder.Request(s[2]);  // already waiting
    gate.release.set_value();
    done.get_future().wait();
  }
  EXPECT_THAT(journal.entries(), ElementsAre("schema:0", "view:0", "schema:2", "view:2"));
}

TEST(SnapshotBuilderTest, ARemovedStepNoLongerRuns) {
  Journal journal;
  std::promise<void> second_built;
  SnapshotBuilder builder;
  const SnapshotBuilder::StepId removed =
      builder.AddStep([&](const Snapshot&) { journal.Add("removed"); });
  builder.AddStep([&](const Snapshot&) {
    journal.Add("kept");
    if (journal.entries().size() == 1) second_built.set_value();
  });
  builder.RemoveStep(removed);
  builder.Request(NewSnapshot());
  second_built.get_future().wait();
  EXPECT_THAT(journal.entries(), ElementsAre("kept"));
}

// A check removes its step in its destructor: RemoveStep must not return while a build is
// running the step, or the step would touch a destroyed check.
TEST(SnapshotBuilderTest, RemoveStepWaitsForTheBuildUnderWay) {
  Gate gate;
  std::atomic<bool> finished{false};
  SnapshotBuilder builder;
  const SnapshotBuilder::StepId id = builder.AddStep([&](const Snapshot&) {
    gate.PassOrWait();
    finished = true;
  });
  builder.Request(NewSnapshot());
  gate.entered.get_future().wait();
  std::atomic<bool> seen_finished{false};
  std::thread remover([&] {
    builder.RemoveStep(id);
    seen_finished = finished.load();
  });
  gate.release.set_value();
  remover.join();
  EXPECT_TRUE(seen_finished) << "RemoveStep returned while the step was still running";
}

// The server builds its first snapshot with Build(): on the builder's thread, as every
// later one, and returning only when it is done.
TEST(SnapshotBuilderTest, BuildReturnsOnceTheSnapshotIsBuiltOnTheBuildersThread) {
  SnapshotBuilder builder;
  std::vector<std::thread::id> built_on;  // written by the builder, read after Build returns
  builder.AddStep([&](const Snapshot&) { built_on.push_back(std::this_thread::get_id()); });
  builder.Build(nullptr);  // nothing to build: returns at once
  EXPECT_TRUE(built_on.empty());
  const Snapshot first = NewSnapshot();
  builder.Build(first);
  ASSERT_EQ(built_on.size(), 1u);
  EXPECT_NE(built_on[0], std::this_thread::get_id());
  builder.Build(NewSnapshot());
  EXPECT_EQ(built_on.size(), 2u);
}

TEST(SnapshotBuilderTest, ReleaseHereFreesTheLastReferenceOnTheCallingThread) {
  auto only = std::make_shared<int>(1);
  std::weak_ptr<int> watch = only;
  EXPECT_TRUE(SnapshotBuilder::ReleaseHere(std::move(only), std::chrono::milliseconds(0)));
  EXPECT_TRUE(watch.expired());

  auto shared = std::make_shared<int>(2);
  std::shared_ptr<int> request = shared;  // a request still holding it past the wait
  EXPECT_FALSE(SnapshotBuilder::ReleaseHere(std::move(shared), std::chrono::milliseconds(0)));
  EXPECT_EQ(request.use_count(), 1);
}

}  // namespace
}  // namespace draguard::webhook
