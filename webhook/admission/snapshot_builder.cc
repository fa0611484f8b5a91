#include "webhook/admission/snapshot_builder.h"

#include <utility>

#include "webhook/background_priority.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace draguard::webhook {
namespace {

// Returns the heap's free pages to the system where the C library can (glibc).
void ReleaseFreePages() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

SnapshotBuilder::SnapshotBuilder(std::function<void(const Snapshot&)> build,
                                 std::function<void()> release_free_pages)
    : build_(std::move(build)),
      release_free_pages_(release_free_pages ? std::move(release_free_pages)
                                             : std::function<void()>(ReleaseFreePages)) {}

SnapshotBuilder::~SnapshotBuilder() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(trim_mu_);
    stopping_trimmer_ = true;
  }
  trim_cv_.notify_all();
  if (trimmer_.joinable()) trimmer_.join();
}

void SnapshotBuilder::Request(Snapshot snapshot) {
  {
    std::lock_guard lock(mu_);
    if (stop_ || snapshot == pending_ || snapshot == building_) return;
    pending_ = std::move(snapshot);  // a newer snapshot replaces one not yet started
    if (!thread_.joinable()) {
      // The trimmer first: a thread inherits its creator's priority, and it must not
      // inherit the builder's.
      trimmer_ = std::thread([this] { TrimLoop(); });
      thread_ = std::thread([this] { Loop(); });
    }
  }
  cv_.notify_one();
}

void SnapshotBuilder::Loop() {
  LowerThreadPriority();
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || pending_ != nullptr; });
    if (stop_) return;
    building_ = std::move(pending_);
    pending_.reset();
    lock.unlock();
    build_(building_);
    {
      std::lock_guard trim_lock(trim_mu_);
      trim_requested_ = true;
    }
    trim_cv_.notify_one();
    lock.lock();
    building_.reset();
  }
}

void SnapshotBuilder::TrimLoop() {
  std::unique_lock lock(trim_mu_);
  while (true) {
    trim_cv_.wait(lock, [this] { return stopping_trimmer_ || trim_requested_; });
    if (stopping_trimmer_) return;
    trim_requested_ = false;
    lock.unlock();
    release_free_pages_();
    lock.lock();
  }
}

}  // namespace draguard::webhook
