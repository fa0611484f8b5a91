#include "webhook/admission/snapshot_builder.h"

#include <algorithm>
#include <utility>

#include "policy/common/heap.h"
#include "policy/common/thread_priority.h"

namespace draguard::webhook {

SnapshotBuilder::~SnapshotBuilder() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  built_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

SnapshotBuilder::StepId SnapshotBuilder::AddStep(Step step) {
  std::lock_guard lock(steps_mu_);
  steps_.emplace_back(next_step_, std::move(step));
  return next_step_++;
}

void SnapshotBuilder::RemoveStep(StepId id) {
  std::lock_guard lock(steps_mu_);  // waits for a build under way
  std::erase_if(steps_, [id](const auto& step) { return step.first == id; });
}

void SnapshotBuilder::Request(Snapshot snapshot) {
  {
    std::lock_guard lock(mu_);
    if (stop_ || snapshot == pending_ || snapshot == building_) return;
    pending_ = std::move(snapshot);  // a newer snapshot replaces one not yet started
    if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
  }
  cv_.notify_one();
}

void SnapshotBuilder::Build(Snapshot snapshot) {
  if (snapshot == nullptr) return;
  Request(snapshot);
  std::unique_lock lock(mu_);
  built_cv_.wait(lock, [&] { return stop_ || (pending_ != snapshot && building_ != snapshot); });
}

void SnapshotBuilder::Loop() {
  // Builds take tens of milliseconds of a core; requests come first (thread_priority.h).
  SetCurrentThreadNice(kBackgroundNice);
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || pending_ != nullptr; });
    if (stop_) return;
    building_ = std::move(pending_);
    pending_.reset();
    lock.unlock();
    {
      std::lock_guard steps(steps_mu_);
      for (const auto& [id, step] : steps_) step(building_);
    }
    ReleaseFreeHeapPages();
    lock.lock();
    building_.reset();
    built_cv_.notify_all();
  }
}

}  // namespace draguard::webhook
