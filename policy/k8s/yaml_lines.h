// Where the real comments of a YAML text are, line by line, without parsing it.
//
// yaml-cpp drops comments, yet two readers need them: inline `# draguard:ignore` suppressions
// (policy/lint/suppress.h) and template detection (decode.cc), which skips comment lines. A
// `#` opens a YAML comment only outside scalar values: text inside a `|`/`>` block scalar or a
// quoted scalar (which may span lines) is part of the value, so `# draguard:ignore` written
// there must not silence the error that very text causes.
//
// The scan follows the YAML lexical rules that decide this: `#` after a blank or at the line
// start; quoted scalars with their escapes (`\"`, `''`) across lines; flow collections; and
// block scalars, whose content is every following line that is blank or indented deeper than
// the node that owns the `|`/`>` (the key, the `-` entry, or the header's own line).
#ifndef DRAGUARD_POLICY_K8S_YAML_LINES_H_
#define DRAGUARD_POLICY_K8S_YAML_LINES_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "policy/common/source.h"

namespace draguard::k8s {

struct YamlLine {
  // Byte offset in the line of the `#` that opens a real comment; npos when there is none.
  size_t comment = std::string_view::npos;
  // The line is content of a block scalar: every byte of it belongs to a value.
  bool block_content = false;
};

// One entry per line of `source` (index 0 is line 1). Linear in the text; never fails: on
// text that is not valid YAML it gives the reading a YAML lexer would have up to the error.
// Thread-compatible; the result does not refer to `source`.
std::vector<YamlLine> ScanYamlLines(const SourceText& source);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_YAML_LINES_H_
