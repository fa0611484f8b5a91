#include "policy/lint/inputs.h"

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

namespace draguard::lint {
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

StatusOr<std::vector<std::string>> ListDirectory(const std::string& dir,
                                                 const InputOptions& options) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  if (ec) return IoError(dir, ec);
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return IoError(dir, ec);
    // Hidden entries are skipped: a mounted ConfigMap or Secret keeps its real files under
    // `..2026_11_23_...` and `..data`, next to the symlinks that name them, so reading both
    // would see every object twice.
    if (it->path().filename().string().starts_with(".")) {
      std::error_code dir_ec;
      if (it->is_directory(dir_ec)) it.disable_recursion_pending();
      continue;
    }
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec) || !IsManifestFileName(it->path().filename().string())) {
      continue;
    }
    if (files.size() >= options.max_files) {
      return ResourceExhaustedError(dir + ": more than " + std::to_string(options.max_files) +
                                    " manifest files");
    }
    files.push_back(it->path().generic_string());
  }
  if (ec) return IoError(dir, ec);
  std::sort(files.begin(), files.end());
  return files;
}

StatusOr<std::string> ReadStream(std::istream& in, const std::string& name, size_t max_bytes) {
  std::string text;
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
  return ReadStream(in, path, options.max_file_bytes);
}

}  // namespace

bool IsManifestFileName(std::string_view name) {
  return EndsWith(name, ".yaml") || EndsWith(name, ".yml") || EndsWith(name, ".json");
}

StatusOr<std::vector<std::string>> ExpandInput(const Input& input, const InputOptions& options) {
  if (input.path == "-") return std::vector<std::string>{kStdinName};
  std::error_code ec;
  fs::file_status status = fs::status(input.path, ec);
  if (ec) return IoError(input.path, ec);
  if (fs::is_directory(status)) return ListDirectory(input.path, options);
  return std::vector<std::string>{input.path};
}

StatusOr<std::vector<SourceText>> ReadInputs(const std::vector<Input>& inputs,
                                             const InputOptions& options) {
  std::vector<std::string> paths;
  std::set<std::string> seen;
  for (const Input& input : inputs) {
    StatusOr<std::vector<std::string>> expanded = ExpandInput(input, options);
    if (!expanded.ok()) return expanded.status();
    for (std::string& path : *expanded) {
      if (seen.insert(path).second) paths.push_back(std::move(path));
    }
    if (paths.size() > options.max_files) {
      return ResourceExhaustedError("more than " + std::to_string(options.max_files) +
                                    " input files");
    }
  }
  std::vector<SourceText> sources;
  sources.reserve(paths.size());
  for (const std::string& path : paths) {
    StatusOr<std::string> text = ReadFile(path, options);
    if (!text.ok()) return text.status();
    sources.emplace_back(path, std::move(text).value());
  }
  return sources;
}

}  // namespace draguard::lint
