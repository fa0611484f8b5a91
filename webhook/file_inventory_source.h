// FileInventorySource: `draguard serve --inventory PATH...`, the InventorySource read from
// files or directories, typically a mounted ConfigMap holding a cluster export
// (`kubectl get resourceslices,deviceclasses,nodes,resourceclaims -A -o yaml`).
//
// The files are decoded with lint::LoadInventoryFiles, the same reader as
// `draguard lint --inventory`, into a new immutable snapshot that replaces the old one
// atomically. A background thread polls every poll_interval: it stats each file (following
// symlinks: inode, size, mtime) and reloads only when that stamp changed, so a ConfigMap's
// atomic `..data` swap is seen and an unchanged inventory costs a few stat calls.
//
// Directories are walked recursively for *.yaml, *.yml and *.json, skipping entries whose name
// starts with '.': kubelet keeps the real files of a ConfigMap volume in `..<timestamp>/`
// directories behind `..data` and exposes them as symlinks at the top, so reading the hidden
// directories too would load every object twice.
//
// A failed poll (a path vanished, a file unreadable) keeps the last snapshot and reports the
// problem in State(); confirmed_at then stops advancing, and the checker's staleness limit
// decides when the snapshot is too old to trust.
#ifndef DRAGUARD_WEBHOOK_FILE_INVENTORY_SOURCE_H_
#define DRAGUARD_WEBHOOK_FILE_INVENTORY_SOURCE_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "policy/common/status_or.h"
#include "policy/lint/inputs.h"
#include "webhook/inventory_source.h"

namespace draguard::webhook {

struct FileInventoryOptions {
  // Files or directories; at least one.
  std::vector<std::string> paths;
  // How often the files are checked for changes.
  std::chrono::milliseconds poll_interval{2'000};
  // Bounds on the files read (count, size).
  lint::InputOptions input;
  // One line per load, failure or problem in the files; default: stderr. Called from the
  // polling thread.
  std::function<void(std::string_view)> log;
};

// The manifest files `paths` stand for, sorted, hidden entries skipped as described above.
// NotFound when a path does not exist; ResourceExhausted beyond input.max_files.
StatusOr<std::vector<std::string>> ListInventoryFiles(const std::vector<std::string>& paths,
                                                      const lint::InputOptions& input);

class FileInventorySource : public InventorySource {
 public:
  explicit FileInventorySource(FileInventoryOptions options);
  ~FileInventorySource() override;
  FileInventorySource(const FileInventorySource&) = delete;
  FileInventorySource& operator=(const FileInventorySource&) = delete;

  // Loads once, synchronously, then starts the polling thread. InvalidArgument when no path
  // was given; a failing first load is not an error (it is retried at every poll and shown in
  // State().problem), since a ConfigMap may be mounted after the container starts.
  Status Start() override;
  void Stop() override;

  std::shared_ptr<const inventory::ClusterObjects> Current() const override;
  InventorySourceState State() const override;

  // One poll, on the calling thread: reloads when the files changed. Returns true when a new
  // snapshot was installed. Start() and the polling thread call it; tests call it directly
  // (without Start) to step through changes deterministically.
  bool PollOnce();

 private:
  void Log(std::string_view line) const;
  void Fail(std::string problem);
  void PollLoop();

  FileInventoryOptions options_;
  mutable std::mutex mu_;
  std::shared_ptr<const inventory::ClusterObjects> current_;
  InventorySourceState state_;
  std::string stamp_;  // the stat stamp of the files the current snapshot was read from

  std::mutex poll_mu_;  // one poll at a time
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_FILE_INVENTORY_SOURCE_H_
