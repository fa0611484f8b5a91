#include "webhook/file_inventory_source.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "policy/lint/inventory_files.h"

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

Status ListDirectory(const std::string& dir, const lint::InputOptions& input,
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
        !lint::IsManifestFileName(it->path().filename().string())) {
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

// "path inode size mtime" per file, following symlinks. Any change of a file, or of the list
// of files, changes the stamp.
StatusOr<std::string> Stamp(const std::vector<std::string>& files) {
  std::string stamp;
  for (const std::string& file : files) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) {
      return PathError(file, std::error_code(errno, std::generic_category()));
    }
    stamp += file + '\0' + std::to_string(st.st_ino) + ' ' + std::to_string(st.st_size) + ' ' +
             std::to_string(st.st_mtim.tv_sec) + '.' + std::to_string(st.st_mtim.tv_nsec) + '\n';
  }
  return stamp;
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
                                                      const lint::InputOptions& input) {
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
  // Logged when it changes only: a missing file would otherwise log at every poll.
  if (changed) {
    Log("inventory: " + problem + (have_snapshot ? "; keeping the previous inventory" : ""));
  }
}

bool FileInventorySource::PollOnce() {
  std::lock_guard poll_lock(poll_mu_);
  StatusOr<std::vector<std::string>> files = ListInventoryFiles(options_.paths, options_.input);
  if (!files.ok()) {
    Fail(files.status().message());
    return false;
  }
  StatusOr<std::string> stamp = Stamp(*files);
  if (!stamp.ok()) {
    Fail(stamp.status().message());
    return false;
  }
  {
    std::lock_guard lock(mu_);
    if (current_ != nullptr && *stamp == stamp_) {
      state_.confirmed_at = std::chrono::system_clock::now();
      state_.problem.clear();
      return false;
    }
  }
  std::vector<lint::Input> inputs;
  for (const std::string& file : *files) inputs.push_back({file});
  StatusOr<lint::LoadedInventory> loaded = lint::LoadInventoryFiles(inputs, options_.input);
  if (!loaded.ok()) {
    Fail(loaded.status().message());
    return false;
  }
  auto snapshot = std::make_shared<inventory::ClusterObjects>(std::move(loaded->objects));
  snapshot->source = "files: " + Join(options_.paths);
  std::string line = "inventory loaded from " + Join(options_.paths) + ": " + Summary(*snapshot);
  if (!loaded->diagnostics.empty()) {
    const Diagnostic& first = loaded->diagnostics.front();
    line += "; " + std::to_string(loaded->diagnostics.size()) + " problems in the files, first: " +
            first.file + ":" + std::to_string(first.position.line) + ": " + first.message;
  }
  {
    std::lock_guard lock(mu_);
    state_.synced = true;
    state_.confirmed_at = snapshot->as_of;
    state_.objects = CountObjects(*snapshot);
    state_.problem.clear();
    stamp_ = std::move(*stamp);
    current_ = std::move(snapshot);
  }
  Log(line);
  return true;
}

Status FileInventorySource::Start() {
  if (options_.paths.empty()) return InvalidArgumentError("--inventory: no path given");
  PollOnce();
  std::lock_guard lock(stop_mu_);
  if (thread_.joinable()) return FailedPreconditionError("inventory source already started");
  stop_ = false;
  thread_ = std::thread([this] { PollLoop(); });
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
