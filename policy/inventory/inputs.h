// Collecting the inputs of `draguard lint`: files, directories (recursively, `*.yaml`,
// `*.yml` and `*.json`) and `-` for standard input, read into SourceTexts.
//
// I/O problems (a missing path, an unreadable file) are never diagnostics. CollectInputs reads
// what it can and lists the rest (the CLI reports them and exits with 2 after linting the
// others); ReadInputs fails on the first. Directory entries a walk passes over on purpose
// (hidden, a manifest extension in another case, dangling or directory symlinks) are listed
// too, so that nothing is skipped without a word.
#ifndef DRAGUARD_POLICY_INVENTORY_INPUTS_H_
#define DRAGUARD_POLICY_INVENTORY_INPUTS_H_

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/source.h"
#include "policy/common/status_or.h"

namespace draguard::inventory {

// What the user named on the command line: a file, a directory, or "-" for stdin.
struct Input {
  std::string path;
};

// The name stdin gets in diagnostics.
inline constexpr char kStdinName[] = "<stdin>";

struct InputOptions {
  // Where "-" reads from; nullptr means std::cin. Not owned.
  std::istream* stdin_stream = nullptr;
  // Refuse to read more files than this (a directory argument pointing at `/`).
  size_t max_files = 100'000;
  // Refuse a single file larger than this. It only bounds memory (a file is held whole):
  // the API server's 3 MiB limit is per object and the decoder checks it per object.
  size_t max_file_bytes = size_t{1} << 30;
};

// True for names ending in .yaml, .yml or .json (case-sensitive, as kubectl).
bool IsManifestFileName(std::string_view name);

// A directory entry a walk did not read, and why.
struct SkippedInput {
  enum class Reason {
    kHidden,          // the name starts with '.' (files, and directories with all below them)
    kExtensionCase,   // x.YAML, x.Yml, x.JSON: kubectl reads only lower-case extensions
    kDanglingSymlink, // a symbolic link whose target does not exist
    kDirectorySymlink,  // a symbolic link to a directory: not followed
  };
  std::string path;
  Reason reason;
  friend bool operator==(const SkippedInput&, const SkippedInput&) = default;
};

// "hidden", "upper-case extension", "dangling symlink", "symlink to a directory".
std::string_view SkipReasonName(SkippedInput::Reason reason);

// What CollectInputs found.
struct InputSet {
  // Read, in order; a file named twice, under any spelling (`f`, `./f`, `$PWD/f`), is read
  // once under its first name.
  std::vector<SourceText> sources;
  std::vector<SkippedInput> skipped;  // directory entries passed over, in walk order
  // Named paths, files or subdirectories that could not be read (NotFound, PermissionDenied,
  // Unavailable or, for one file over max_file_bytes, ResourceExhausted), each naming its path.
  std::vector<Status> unreadable;
};

// The files an input stands for, without reading them: the path itself for a file (whatever
// its extension: the user named it), every manifest file below a directory in sorted order
// (hidden files and directories, such as a mounted ConfigMap's `..data`, are skipped),
// kStdinName for "-". NotFound when the path does not exist. With `notes`, entries passed
// over are appended to notes->skipped and subdirectories that cannot be listed to
// notes->unreadable (the rest of the tree is still listed); without it such a subdirectory
// fails the expansion. ResourceExhausted past max_files.
StatusOr<std::vector<std::string>> ExpandInput(const Input& input, const InputOptions& options,
                                               InputSet* notes = nullptr);

// The files CollectInputs would read, in the same order, without reading them: paths in
// `listed`, with the walk's skipped entries and the inputs that could not be expanded.
struct ListedInputs {
  std::vector<std::string> paths;
  std::vector<SkippedInput> skipped;
  std::vector<Status> unreadable;
};
StatusOr<ListedInputs> ListInputs(const std::vector<Input>& inputs, const InputOptions& options);

// Calls `read` with a stream of `path` (a file, or options.stdin_stream for kStdinName).
// NotFound, PermissionDenied or Unavailable naming the path when it cannot be opened.
Status WithInputStream(const std::string& path, const InputOptions& options,
                       const std::function<void(std::istream&)>& read);

// Expands and reads every input, going on past the paths that cannot be read. Fails only
// past max_files (ResourceExhausted): then the walk itself is the problem.
StatusOr<InputSet> CollectInputs(const std::vector<Input>& inputs, const InputOptions& options);

// Expands every input in order and reads each file once (duplicates are dropped, keeping the
// first). The SourceText names are the paths as printed in diagnostics. Errors: NotFound,
// PermissionDenied or Unavailable naming the path; ResourceExhausted past a limit.
StatusOr<std::vector<SourceText>> ReadInputs(const std::vector<Input>& inputs,
                                             const InputOptions& options);

}  // namespace draguard::inventory

#endif  // DRAGUARD_POLICY_INVENTORY_INPUTS_H_
