#include "policy/lint/suppress.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "policy/config/policy_config.h"
#include "policy/k8s/yaml_lines.h"

namespace draguard::lint {
namespace {

constexpr std::string_view kMarker = "draguard:ignore";

struct Pattern {
  std::string text;
  size_t offset = 0;  // in the source text, for the finding about an unknown code
};

// The codes listed in `rest`, which starts at byte `at` of the source; `*` when none is.
std::vector<Pattern> Patterns(std::string_view rest, size_t at) {
  std::vector<Pattern> out;
  for (size_t i = 0; i < rest.size();) {
    const size_t end = std::min(rest.find_first_of(", \t", i), rest.size());
    if (end > i) out.push_back({std::string(rest.substr(i, end - i)), at + i});
    i = end + 1;
  }
  if (out.empty()) out.push_back({"*", at});
  return out;
}

// Adds the patterns to `into`, reporting those that match no code.
void Add(const std::vector<Pattern>& patterns, const SourceText& source,
         std::vector<std::string>& into, std::vector<Diagnostic>& findings) {
  for (const Pattern& p : patterns) {
    into.push_back(p.text);
    std::string closest;
    if (config::MatchesKnownCode(p.text, &closest)) continue;
    Diagnostics found;
    Diagnostic& d = found.Warning("lint.ignore.code.unknown", FieldPath(),
                                  "no diagnostic code matches \"" + p.text +
                                      "\"; this draguard:ignore silences nothing for it "
                                      "(docs/diagnostics.md lists the codes)",
                                  closest);
    d.file = source.name();
    d.position = source.PositionOf(p.offset);
    findings.push_back(std::move(d));
  }
}

// A line that holds nothing but blanks and a real comment (not block scalar content).
bool IsBlankOrComment(std::string_view line, const k8s::YamlLine& info) {
  if (info.block_content) return false;
  size_t i = line.find_first_not_of(" \t");
  return i == std::string_view::npos || i == info.comment;
}

bool Matches(const std::vector<std::string>& patterns, std::string_view code) {
  for (const std::string& p : patterns) {
    if (config::Rule{p, config::RuleAction::kOff}.Specificity(code) >= 0) return true;
  }
  return false;
}

}  // namespace

Suppressions Suppressions::Scan(const SourceText& source) {
  Suppressions s;
  if (source.text().find(kMarker) == std::string::npos) return s;  // the common case
  const std::vector<k8s::YamlLine> lines = k8s::ScanYamlLines(source);
  auto info = [&](int line) -> const k8s::YamlLine& {
    return lines[static_cast<size_t>(line - source.first_line())];
  };
  for (int line = source.first_line(); line <= source.last_line(); ++line) {
    std::string_view text = source.Line(line);
    if (info(line).comment == std::string_view::npos) continue;
    std::string_view body = text.substr(info(line).comment + 1);
    body.remove_prefix(std::min(body.find_first_not_of(" \t"), body.size()));
    if (!body.starts_with(kMarker)) continue;
    body.remove_prefix(kMarker.size());
    // Byte offset in the source of body[0].
    auto at = [&](std::string_view rest) {
      return static_cast<size_t>(rest.data() - source.text().data());
    };
    if (body.starts_with("-file")) {
      Add(Patterns(body.substr(5), at(body.substr(5))), source, s.file_, s.findings_);
      continue;
    }
    if (!body.empty() && body.front() != ' ' && body.front() != '\t') continue;  // ignoreX
    const std::vector<Pattern> patterns = Patterns(body, at(body));
    // A comment alone on its line applies to the next line that is not blank or a comment.
    int target = line;
    if (IsBlankOrComment(text, info(line))) {
      target = line + 1;
      while (target <= source.last_line() &&
             IsBlankOrComment(source.Line(target), info(target))) {
        ++target;
      }
    }
    Add(patterns, source, s.by_line_[target], s.findings_);
  }
  return s;
}

void Suppressions::ScanPiece(const SourceText& piece) {
  Suppressions found = Scan(piece);
  for (auto& [line, patterns] : found.by_line_) {
    std::vector<std::string>& into = by_line_[line];
    into.insert(into.end(), patterns.begin(), patterns.end());
  }
  file_.insert(file_.end(), found.file_.begin(), found.file_.end());
  findings_.insert(findings_.end(), found.findings_.begin(), found.findings_.end());
}

bool Suppressions::Silences(std::string_view code, int line) const {
  if (Matches(file_, code)) return true;
  auto it = by_line_.find(line);
  return it != by_line_.end() && Matches(it->second, code);
}

}  // namespace draguard::lint
