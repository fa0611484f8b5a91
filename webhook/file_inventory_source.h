// FileInventorySource: `draguard serve --inventory PATH...`, the InventorySource read from
// files or directories, typically a mounted ConfigMap holding a cluster export
// (`kubectl get resourceslices,deviceclasses,nodes,resourceclaims -A -o yaml`).
//
// Each file is decoded with inventory::LoadInventoryFiles, the same reader as
// `draguard lint --inventory`; a new immutable snapshot, the union of every file's objects,
// replaces the old one atomically. The objects are held once, in the snapshot: each file
// remembers where its objects are in it, and a new snapshot takes the files that changed
// from their new reading and shares the others' objects with the previous snapshot
// (inventory::ClusterObjects holds objects by shared pointer), so that a rewritten file
// costs a new copy of its own objects only, not of the whole inventory. A background thread polls every
// poll_interval: it stats each file (following symlinks: inode, size, mtime, ctime) and
// rereads only the files whose stamp changed, so a ConfigMap's atomic `..data` swap is seen and
// an unchanged inventory costs a few stat calls.
//
// Directories are walked recursively for *.yaml, *.yml and *.json, skipping entries whose name
// starts with '.': kubelet keeps the real files of a ConfigMap volume in `..<timestamp>/`
// directories behind `..data` and exposes them as symlinks at the top, so reading the hidden
// directories too would load every object twice.
//
// A broken file never changes verdicts: a file that cannot be used (unreadable, invalid YAML,
// over a decoder limit) keeps its last good content in the snapshot until it reads cleanly
// again, and a file that disappears is a deliberate removal only once it has stayed away for
// `removal_polls` polls (a file being rewritten or a ConfigMap being swapped may vanish for a
// moment). Each such failure is logged once with its file and line and counted; while any file
// is failing, State() names it, counts the failing files and gives the time the oldest one
// started failing, and confirmed_at stays at that time, so the checker's staleness limit
// (`--inventory-max-age`) decides when the kept content is too old to trust. A failed listing
// (a path vanished) keeps everything the same way.
#ifndef DRAGUARD_WEBHOOK_FILE_INVENTORY_SOURCE_H_
#define DRAGUARD_WEBHOOK_FILE_INVENTORY_SOURCE_H_

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "policy/common/status_or.h"
#include "policy/inventory/inputs.h"
#include "webhook/inventory_source.h"

namespace draguard::webhook {

struct FileInventoryOptions {
  // Files or directories; at least one.
  std::vector<std::string> paths;
  // How often the files are checked for changes.
  std::chrono::milliseconds poll_interval{2'000};
  // Bounds on the files read (count, size).
  inventory::InputOptions input;
  // The release whose apiVersion verdicts the problems in the files describe.
  KubernetesVersion version = kDefaultKubernetesVersion;
  // A file missing at this many consecutive polls is removed from the snapshot; before that
  // its last content is kept (and counted as failing). At least 1.
  int removal_polls = 2;
  // One line per load, failure or problem in the files; default: stderr. Called from the
  // polling thread.
  std::function<void(std::string_view)> log;
};

// The manifest files `paths` stand for, sorted, hidden entries skipped as described above.
// NotFound when a path does not exist; ResourceExhausted beyond input.max_files.
StatusOr<std::vector<std::string>> ListInventoryFiles(const std::vector<std::string>& paths,
                                                      const inventory::InputOptions& input);

class FileInventorySource : public InventorySource {
 public:
  explicit FileInventorySource(FileInventoryOptions options);
  ~FileInventorySource() override;
  FileInventorySource(const FileInventorySource&) = delete;
  FileInventorySource& operator=(const FileInventorySource&) = delete;

  // Starts the polling thread and returns once its first poll has loaded the files. The first
  // load runs there, not on the caller's thread, so that every snapshot's objects come from
  // the same malloc arena: loaded on the main thread, the first objects were freed from the
  // main arena as rereads replaced them, leaving its pages fragmented and partly resident
  // (snapshot_builder.h says the same of the views). InvalidArgument when no path was given; a failing first load is not an error (it is retried at every poll and shown in
  // State().problem), since a ConfigMap may be mounted after the container starts.
  Status Start() override;
  void Stop() override;

  std::shared_ptr<const inventory::ClusterObjects> Current() const override;
  InventorySourceState State() const override;

  // One poll, on the calling thread: rereads the files that changed. Returns true when a new
  // snapshot was installed. Start() and the polling thread call it; tests call it directly
  // (without Start) to step through changes deterministically.
  bool PollOnce();

 private:
  static constexpr size_t kKinds = 6;  // the lists of inventory::ForEachKind
  // What the source knows of one file. Touched only under poll_mu_.
  struct FileEntry {
    std::string path;
    // The last good content: `fresh`, read and not yet published, or else the objects at
    // `published` in the current snapshot (nothing before the first good read).
    inventory::ClusterObjects fresh;
    bool has_fresh = false;
    std::array<std::pair<size_t, size_t>, kKinds> published{};  // [begin, end) per kind
    std::string tried_stamp;            // the stamp last read, good or not
    std::string read_problem;           // why the last read was not usable; empty if it was
    int missing_polls = 0;              // consecutive polls that did not find the file
    std::string reported;               // the problem last logged and counted
    std::chrono::system_clock::time_point failing_since{};  // epoch while healthy
  };

  static bool HasContent(const FileEntry& entry);
  void Log(std::string_view line) const;
  void Fail(std::string problem);
  // Rereads `entry` when `stamp` differs from the last read; true when its content changed.
  bool Refresh(FileEntry& entry, const std::string& stamp);
  // Brings the entries in line with the listing; true when some content changed.
  bool Update(const std::vector<std::string>& listed);
  // Starts or ends `entry`'s failure at `now`, logging and counting a new problem once.
  void Settle(FileEntry& entry, std::chrono::system_clock::time_point now);
  // Publishes the failure gauges and, when `changed` (or nothing is installed yet), a new
  // snapshot of every file's content. Returns whether a snapshot was installed.
  bool Publish(bool changed);
  // The union of every file's content (fresh, else from `previous`), recording where each
  // file's objects are in it.
  std::shared_ptr<inventory::ClusterObjects> Union(const inventory::ClusterObjects* previous);
  void PollLoop();

  FileInventoryOptions options_;
  mutable std::mutex mu_;
  std::shared_ptr<const inventory::ClusterObjects> current_;
  InventorySourceState state_;

  // Guarded by poll_mu_: every known file in listing order; failures counted so far; since
  // when the listing itself fails (epoch while it works).
  std::vector<FileEntry> files_;
  uint64_t file_failures_ = 0;
  std::chrono::system_clock::time_point listing_failing_since_{};

  std::mutex poll_mu_;  // one poll at a time
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_FILE_INVENTORY_SOURCE_H_
