#include "webhook/file_inventory_source.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <map>
#include <system_error>
#include <utility>

#include "policy/common/diagnostic_text.h"
#include "policy/common/thread_priority.h"
#include "policy/inventory/inventory_files.h"

namespace draguard::webhook {
namespace {

namespace fs = std::filesystem;

bool Hidden(const fs::path& path) {
  std::string name = path.filename().string();
  return !name.empty() && name.front() == '.';
}

Status PathError(const std::string& path, const std::error_code& ec) {
  std::string message = path + ": " + ec.message();
  if (ec == std::errc::no_such_file_or_directory) return NotFoundError(std::move(message));
  if (ec == std::errc::permission_denied) return PermissionDeniedError(std::move(message));
  return UnavailableError(std::move(message));
}

Status ListDirectory(const std::string& dir, const inventory::InputOptions& input,
                     std::vector<std::string>& files) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  if (ec) return PathError(dir, ec);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return PathError(dir, ec);
    if (Hidden(it->path())) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec) ||
        !inventory::IsManifestFileName(it->path().filename().string())) {
      continue;
    }
    if (files.size() >= input.max_files) {
      return ResourceExhaustedError(dir + ": more than " + std::to_string(input.max_files) +
                                    " manifest files");
    }
    files.push_back(it->path().generic_string());
  }
  if (ec) return PathError(dir, ec);
  return OkStatus();
}

// "inode size mtime ctime" of a file, following symlinks: any change of its content (and a
// chmod, which may make an unreadable file readable) changes the stamp.
StatusOr<std::string> Stamp(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    return PathError(file, std::error_code(errno, std::generic_category()));
  }
  return std::to_string(st.st_ino) + ' ' + std::to_string(st.st_size) + ' ' +
         std::to_string(st.st_mtim.tv_sec) + '.' + std::to_string(st.st_mtim.tv_nsec) + ' ' +
         std::to_string(st.st_ctim.tv_sec) + '.' + std::to_string(st.st_ctim.tv_nsec);
}

// A diagnostic as one log line: "file:line:col: severity: message [code]".
std::string LogLine(const Diagnostic& d) { return DiagnosticHeadline(d); }

// The first error of a load as a log line, or empty when there is none.
std::string FirstError(const inventory::LoadedInventory& loaded) {
  for (const Diagnostic& d : loaded.diagnostics) {
    if (d.is_error()) return LogLine(d);
  }
  return {};
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string Summary(const inventory::ClusterObjects& objects) {
  return std::to_string(objects.slices.size()) + " ResourceSlices (" +
         std::to_string(objects.DeviceCount()) + " devices), " +
         std::to_string(objects.classes.size()) + " DeviceClasses, " +
         std::to_string(objects.nodes.size()) + " Nodes, " +
         std::to_string(objects.claims.size()) + " ResourceClaims";
}

void DefaultLog(std::string_view line) {
  std::fprintf(stderr, "draguard serve: %.*s\n", static_cast<int>(line.size()), line.data());
}

}  // namespace

StatusOr<std::vector<std::string>> ListInventoryFiles(const std::vector<std::string>& paths,
                                                      const inventory::InputOptions& input) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec) return PathError(path, ec);
    if (fs::is_directory(status)) {
      std::vector<std::string> found;
      if (Status s = ListDirectory(path, input, found); !s.ok()) return s;
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(path);
    }
  }
  std::vector<std::string> unique;
  for (std::string& file : files) {
    if (std::find(unique.begin(), unique.end(), file) == unique.end()) {
      unique.push_back(std::move(file));
    }
  }
  if (unique.size() > input.max_files) {
    return ResourceExhaustedError("more than " + std::to_string(input.max_files) +
                                  " inventory files");
  }
  return unique;
}

FileInventorySource::FileInventorySource(FileInventoryOptions options)
    : options_(std::move(options)) {}

FileInventorySource::~FileInventorySource() { Stop(); }

void FileInventorySource::Log(std::string_view line) const {
  if (options_.log) {
    options_.log(line);
  } else {
    DefaultLog(line);
  }
}

void FileInventorySource::Fail(std::string problem) {
  bool changed = false;
  bool have_snapshot = false;
  {
    std::lock_guard lock(mu_);
    changed = state_.problem != problem;
    have_snapshot = current_ != nullptr;
    state_.problem = problem;
  }
  // Logged and counted when it changes only: a missing path would otherwise log at every poll.
  if (changed) {
    ++file_failures_;
    Log("inventory: " + problem + (have_snapshot ? "; keeping the previous inventory" : ""));
  }
}

bool FileInventorySource::HasContent(const FileEntry& entry) {
  if (entry.has_fresh) return !entry.fresh.empty();
  return std::any_of(entry.published.begin(), entry.published.end(),
                     [](const std::pair<size_t, size_t>& r) { return r.second > r.first; });
}

bool FileInventorySource::Refresh(FileEntry& entry, const std::string& stamp) {
  if (stamp == entry.tried_stamp) return false;  // a failing file is retried when it changes
  entry.tried_stamp = stamp;
  StatusOr<inventory::LoadedInventory> loaded =
      inventory::LoadInventoryFiles({inventory::Input{entry.path}}, options_.input, options_.version);
  entry.read_problem = loaded.ok() ? FirstError(*loaded) : loaded.status().message();
  if (!entry.read_problem.empty()) return false;
  size_t warnings = loaded->diagnostics.size();
  if (warnings > 0) {
    Log("inventory: " + std::to_string(warnings) + " problems in " + entry.path +
        ", objects kept as far as they decode; first: " + LogLine(loaded->diagnostics.front()));
  }
  entry.fresh = std::move(loaded->objects);
  entry.has_fresh = true;
  return true;
}

bool FileInventorySource::Update(const std::vector<std::string>& listed) {
  std::map<std::string, FileEntry*, std::less<>> known;
  for (FileEntry& entry : files_) known.emplace(entry.path, &entry);
  std::vector<FileEntry> next;
  bool changed = false;
  for (const std::string& path : listed) {
    auto old = known.find(path);
    next.push_back(old != known.end() ? std::move(*old->second) : FileEntry{.path = path});
    if (old != known.end()) known.erase(old);
    FileEntry& entry = next.back();
    entry.missing_polls = 0;
    StatusOr<std::string> stamp = Stamp(path);
    if (!stamp.ok()) {
      entry.read_problem = stamp.status().message();
      entry.tried_stamp.clear();
      continue;
    }
    changed = Refresh(entry, *stamp) || changed;
  }
  // What is left was not listed: removed, or gone for a moment while being replaced.
  for (auto& [path, entry] : known) {
    if (++entry->missing_polls >= std::max(options_.removal_polls, 1)) {
      Log("inventory: " + path + " was removed; its objects leave the inventory");
      changed = true;
      continue;
    }
    next.push_back(std::move(*entry));
  }
  files_ = std::move(next);
  return changed;
}

void FileInventorySource::Settle(FileEntry& entry, std::chrono::system_clock::time_point now) {
  std::string problem =
      entry.missing_polls > 0
          ? entry.path + ": not found; its last content is kept unless it stays away"
          : entry.read_problem;
  if (problem.empty()) {
    if (!entry.reported.empty()) Log("inventory: " + entry.path + " is usable again");
    entry.reported.clear();
    entry.failing_since = {};
    return;
  }
  if (entry.failing_since == std::chrono::system_clock::time_point{}) entry.failing_since = now;
  if (problem == entry.reported) return;  // logged and counted already
  ++file_failures_;
  Log("inventory: " + problem +
      (!HasContent(entry) ? "; the file has no usable content yet"
                             : "; keeping its last good content"));
  entry.reported = std::move(problem);
}

std::shared_ptr<inventory::ClusterObjects> FileInventorySource::Union(
    const inventory::ClusterObjects* previous) {
  auto snapshot = std::make_shared<inventory::ClusterObjects>();
  static const inventory::ClusterObjects kNothing;
  for (FileEntry& entry : files_) {
    size_t kind = 0;
    // A file read anew brings its objects; any other keeps the objects it has in the
    // previous snapshot, shared with it (pointers copied, not objects).
    const inventory::ClusterObjects& from_file =
        entry.has_fresh ? entry.fresh : previous ? *previous : kNothing;
    inventory::ForEachKind(*snapshot, from_file, [&](auto& into, const auto& from) {
      auto [begin, end] = entry.has_fresh ? std::pair<size_t, size_t>{0, from.size()}
                                          : entry.published[kind];
      end = std::min(end, from.size());
      begin = std::min(begin, end);
      entry.published[kind++] = {into.size(), into.size() + (end - begin)};
      into.Append(from, begin, end);
    });
    entry.fresh = inventory::ClusterObjects();
    entry.has_fresh = false;
  }
  return snapshot;
}

bool FileInventorySource::Publish(bool changed) {
  const auto now = std::chrono::system_clock::now();
  size_t failing = 0;
  std::chrono::system_clock::time_point oldest = now;
  std::string first;
  for (FileEntry& entry : files_) {
    Settle(entry, now);
    if (entry.reported.empty()) continue;
    ++failing;
    oldest = std::min(oldest, entry.failing_since);
    if (first.empty()) first = entry.reported;
  }
  // The new snapshot is assembled outside mu_ (it shares the unchanged files' objects with
  // the previous one, a pointer each), and every request reads Current() and State()
  // meanwhile. Only this thread (under poll_mu_) replaces current_. `previous` outlives the
  // swap, so that the old snapshot, when this was its last holder, is freed after mu_ is
  // released too.
  std::shared_ptr<const inventory::ClusterObjects> previous = Current();
  std::shared_ptr<inventory::ClusterObjects> snapshot;
  if (changed || previous == nullptr) {
    snapshot = Union(previous.get());
    snapshot->source = "files: " + Join(options_.paths);
    snapshot->as_of = now;
  }
  {
    std::lock_guard lock(mu_);
    if (snapshot != nullptr) {
      state_.synced = true;
      state_.objects = CountObjects(*snapshot);
      current_ = snapshot;
    }
    state_.failing_files = failing;
    state_.stale_since = failing > 0 ? oldest : std::chrono::system_clock::time_point{};
    state_.file_failures = file_failures_;
    // Kept content was last known to match its file when the file started failing.
    state_.confirmed_at = oldest;
    state_.problem = first;
    if (failing > 1) state_.problem += " (and " + std::to_string(failing - 1) + " more files failing)";
  }
  if (snapshot != nullptr) {
    Log("inventory loaded from " + Join(options_.paths) + ": " + Summary(*snapshot));
  }
  return snapshot != nullptr;
}

bool FileInventorySource::PollOnce() {
  std::lock_guard poll_lock(poll_mu_);
  StatusOr<std::vector<std::string>> listed = ListInventoryFiles(options_.paths, options_.input);
  if (!listed.ok()) {
    // Nothing is known about any file: all keep their content, all are stale.
    const auto now = std::chrono::system_clock::now();
    if (listing_failing_since_ == std::chrono::system_clock::time_point{}) {
      listing_failing_since_ = now;
    }
    Fail(listed.status().message());
    std::lock_guard lock(mu_);
    state_.failing_files = files_.size();
    state_.stale_since = listing_failing_since_;
    state_.file_failures = file_failures_;
    return false;
  }
  listing_failing_since_ = {};
  return Publish(Update(*listed));
}

Status FileInventorySource::Start() {
  if (options_.paths.empty()) return InvalidArgumentError("--inventory: no path given");
  std::promise<void> loaded;
  std::future<void> first_load = loaded.get_future();
  {
    std::lock_guard lock(stop_mu_);
    if (thread_.joinable()) return FailedPreconditionError("inventory source already started");
    stop_ = false;
    thread_ = std::thread([this, loaded = std::move(loaded)]() mutable {
      // Reading and decoding a changed file is background work (thread_priority.h).
      SetCurrentThreadNice(kBackgroundNice);
      PollOnce();
      loaded.set_value();
      PollLoop();
    });
  }
  first_load.wait();
  return OkStatus();
}

void FileInventorySource::PollLoop() {
  std::unique_lock lock(stop_mu_);
  while (!stop_cv_.wait_for(lock, options_.poll_interval, [this] { return stop_; })) {
    lock.unlock();
    PollOnce();
    lock.lock();
  }
}

void FileInventorySource::Stop() {
  {
    std::lock_guard lock(stop_mu_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const inventory::ClusterObjects> FileInventorySource::Current() const {
  std::lock_guard lock(mu_);
  return current_;
}

InventorySourceState FileInventorySource::State() const {
  std::lock_guard lock(mu_);
  return state_;
}

}  // namespace draguard::webhook
