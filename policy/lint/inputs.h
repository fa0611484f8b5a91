// Collecting the inputs of `draguard lint`: files, directories (recursively, `*.yaml`,
// `*.yml` and `*.json`) and `-` for standard input, read into SourceTexts.
//
// I/O problems (a missing path, an unreadable file) are a Status: the linter cannot do its job,
// and the CLI exits with 2. They are never diagnostics.
#ifndef DRAGUARD_POLICY_LINT_INPUTS_H_
#define DRAGUARD_POLICY_LINT_INPUTS_H_

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/source.h"
#include "policy/common/status_or.h"

namespace draguard::lint {

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

// The files an input stands for, without reading them: the path itself for a file (whatever
// its extension: the user named it), every manifest file below a directory in sorted order
// (hidden files and directories, such as a mounted ConfigMap's `..data`, are skipped),
// kStdinName for "-". NotFound when the path does not exist.
StatusOr<std::vector<std::string>> ExpandInput(const Input& input, const InputOptions& options);

// Expands every input in order and reads each file once (duplicates are dropped, keeping the
// first). The SourceText names are the paths as printed in diagnostics. Errors: NotFound,
// PermissionDenied or Unavailable naming the path; ResourceExhausted past a limit.
StatusOr<std::vector<SourceText>> ReadInputs(const std::vector<Input>& inputs,
                                             const InputOptions& options);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_INPUTS_H_
