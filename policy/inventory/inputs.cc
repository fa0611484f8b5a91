#include "policy/inventory/inputs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <system_error>

#include "policy/common/ascii.h"
#include "policy/common/status_macros.h"

namespace draguard::inventory {
namespace {

namespace fs = std::filesystem;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Status IoError(const std::string& path, const std::error_code& ec) {
  std::string message = path + ": " + ec.message();
  if (ec == std::errc::no_such_file_or_directory) return NotFoundError(std::move(message));
  if (ec == std::errc::permission_denied) return PermissionDeniedError(std::move(message));
  return UnavailableError(std::move(message));
}

bool HasManifestExtensionIgnoringCase(std::string_view name) {
  return IsManifestFileName(AsciiLower(name));
}

// A recursive walk that reports what it passes over. Symbolic links to files are read (a
// ConfigMap volume's top-level names are such links); links to directories are not followed
// (as std::filesystem's default walk), so a walk cannot loop.
class DirectoryWalk {
 public:
  // `notes` (may be null) receives what was skipped and the subdirectories that could not be
  // listed; without it such a subdirectory fails the walk.
  DirectoryWalk(const InputOptions& options, InputSet* notes) : options_(options), notes_(notes) {}

  Status Walk(const fs::path& dir) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) return IoError(dir.generic_string(), ec);
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) return IoError(dir.generic_string(), ec);
      entries.push_back(*it);
    }
    if (ec) return IoError(dir.generic_string(), ec);
    std::sort(entries.begin(), entries.end());
    for (const fs::directory_entry& entry : entries) {
      Status visited = Visit(entry);
      if (visited.ok()) continue;
      if (notes_ == nullptr || visited.code() == StatusCode::kResourceExhausted) return visited;
      notes_->unreadable.push_back(std::move(visited));  // the rest of the tree is still read
    }
    return OkStatus();
  }

  std::vector<std::string> TakeFiles() { return std::move(files_); }

 private:
  Status Visit(const fs::directory_entry& entry) {
    const std::string name = entry.path().filename().string();
    const std::string path = entry.path().generic_string();
    // Hidden entries are skipped: a mounted ConfigMap or Secret keeps its real files under
    // `..2026_11_23_...` and `..data`, next to the symlinks that name them, so reading both
    // would see every object twice.
    if (name.starts_with(".")) return Skip(path, SkippedInput::Reason::kHidden);
    std::error_code ec;
    const bool link = entry.is_symlink(ec);
    const fs::file_status target = entry.status(ec);
    if (link && (ec || !fs::exists(target))) {
      return Skip(path, SkippedInput::Reason::kDanglingSymlink);
    }
    if (ec) return IoError(path, ec);
    if (fs::is_directory(target)) {
      if (link) return Skip(path, SkippedInput::Reason::kDirectorySymlink);
      return Walk(entry.path());
    }
    if (!fs::is_regular_file(target)) return OkStatus();
    if (!IsManifestFileName(name)) {
      if (HasManifestExtensionIgnoringCase(name)) {
        return Skip(path, SkippedInput::Reason::kExtensionCase);
      }
      return OkStatus();
    }
    if (files_.size() >= options_.max_files) {
      return ResourceExhaustedError("more than " + std::to_string(options_.max_files) +
                                    " manifest files");
    }
    files_.push_back(path);
    return OkStatus();
  }

  Status Skip(const std::string& path, SkippedInput::Reason reason) {
    if (notes_ != nullptr) notes_->skipped.push_back({path, reason});
    return OkStatus();
  }

  const InputOptions& options_;
  InputSet* notes_;
  std::vector<std::string> files_;
};

// The same file named under different spellings (`f`, `./f`, `$PWD/f`, `d/../f`) has one key.
// Symlinks are not resolved: two links are two names, as the user chose them.
std::string SameFileKey(const std::string& path) {
  if (path == kStdinName) return path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  return ec ? path : absolute.lexically_normal().generic_string();
}

StatusOr<std::vector<std::string>> ListDirectory(const std::string& dir,
                                                 const InputOptions& options,
                                                 InputSet* notes) {
  DirectoryWalk walk(options, notes);
  if (Status s = walk.Walk(dir); !s.ok()) {
    if (s.code() == StatusCode::kResourceExhausted) {
      return ResourceExhaustedError(dir + ": " + s.message());
    }
    return s;
  }
  std::vector<std::string> files = walk.TakeFiles();
  std::sort(files.begin(), files.end());
  return files;
}

// `size_hint` (a regular file's size, 0 when unknown) is reserved up front, so that a large
// file is held once at its size instead of growing through doubling copies.
StatusOr<std::string> ReadStream(std::istream& in, const std::string& name, size_t max_bytes,
                                 size_t size_hint = 0) {
  std::string text;
  if (size_hint > 0) text.reserve(std::min(size_hint, max_bytes) + 1);
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      return ResourceExhaustedError(name + ": larger than " + std::to_string(max_bytes) +
                                    " bytes");
    }
  }
  if (in.bad()) return UnavailableError(name + ": read error");
  return text;
}

StatusOr<std::string> ReadFile(const std::string& path, const InputOptions& options) {
  if (path == kStdinName) {
    return ReadStream(options.stdin_stream != nullptr ? *options.stdin_stream : std::cin, path,
                      options.max_file_bytes);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return IoError(path, std::error_code(errno != 0 ? errno : ENOENT, std::generic_category()));
  }
  std::error_code ec;
  const uintmax_t size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
  return ReadStream(in, path, options.max_file_bytes, ec ? 0 : static_cast<size_t>(size));
}

}  // namespace

bool IsManifestFileName(std::string_view name) {
  return EndsWith(name, ".yaml") || EndsWith(name, ".yml") || EndsWith(name, ".json");
}

std::string_view SkipReasonName(SkippedInput::Reason reason) {
  switch (reason) {
    case SkippedInput::Reason::kHidden: return "hidden";
    case SkippedInput::Reason::kExtensionCase: return "upper-case extension";
    case SkippedInput::Reason::kDanglingSymlink: return "dangling symlink";
    case SkippedInput::Reason::kDirectorySymlink: return "symlink to a directory";
  }
  return "skipped";
}

StatusOr<std::vector<std::string>> ExpandInput(const Input& input, const InputOptions& options,
                                               InputSet* notes) {
  if (input.path == "-") return std::vector<std::string>{kStdinName};
  std::error_code ec;
  fs::file_status status = fs::status(input.path, ec);
  if (ec) return IoError(input.path, ec);
  if (fs::is_directory(status)) return ListDirectory(input.path, options, notes);
  return std::vector<std::string>{input.path};
}

StatusOr<ListedInputs> ListInputs(const std::vector<Input>& inputs, const InputOptions& options) {
  InputSet notes;
  ListedInputs listed;
  std::set<std::string> seen;
  for (const Input& input : inputs) {
    StatusOr<std::vector<std::string>> expanded = ExpandInput(input, options, &notes);
    if (!expanded.ok()) {
      if (expanded.status().code() == StatusCode::kResourceExhausted) return expanded.status();
      notes.unreadable.push_back(expanded.status());
      continue;
    }
    for (std::string& path : *expanded) {
      if (seen.insert(SameFileKey(path)).second) listed.paths.push_back(std::move(path));
    }
    if (listed.paths.size() > options.max_files) {
      return ResourceExhaustedError("more than " + std::to_string(options.max_files) +
                                    " input files");
    }
  }
  listed.skipped = std::move(notes.skipped);
  listed.unreadable = std::move(notes.unreadable);
  return listed;
}

Status WithInputStream(const std::string& path, const InputOptions& options,
                       const std::function<void(std::istream&)>& read) {
  if (path == kStdinName) {
    read(options.stdin_stream != nullptr ? *options.stdin_stream : std::cin);
    return OkStatus();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return IoError(path, std::error_code(errno != 0 ? errno : ENOENT, std::generic_category()));
  }
  read(in);
  return OkStatus();
}

StatusOr<InputSet> CollectInputs(const std::vector<Input>& inputs, const InputOptions& options) {
  DRAGUARD_ASSIGN_OR_RETURN(ListedInputs listed, ListInputs(inputs, options));
  InputSet set;
  set.skipped = std::move(listed.skipped);
  set.unreadable = std::move(listed.unreadable);
  set.sources.reserve(listed.paths.size());
  for (const std::string& path : listed.paths) {
    StatusOr<std::string> text = ReadFile(path, options);
    if (!text.ok()) {
      set.unreadable.push_back(text.status());
      continue;
    }
    set.sources.emplace_back(path, std::move(text).value());
  }
  return set;
}

StatusOr<std::vector<SourceText>> ReadInputs(const std::vector<Input>& inputs,
                                             const InputOptions& options) {
  DRAGUARD_ASSIGN_OR_RETURN(InputSet set, CollectInputs(inputs, options));
  if (!set.unreadable.empty()) return set.unreadable.front();
  return std::move(set.sources);
}

}  // namespace draguard::inventory
