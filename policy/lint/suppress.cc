#include "policy/lint/suppress.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "policy/config/policy_config.h"
#include "policy/k8s/yaml_lines.h"

namespace draguard::lint {
namespace {

constexpr std::string_view kMarker = "draguard:ignore";

std::vector<std::string> Patterns(std::string_view rest) {
  std::vector<std::string> out;
  std::string current;
  for (char c : rest) {
    if (c == ',' || c == ' ' || c == '\t') {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  if (out.empty()) out.push_back("*");
  return out;
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
    return lines[static_cast<size_t>(line - 1)];
  };
  for (int line = 1; line <= source.line_count(); ++line) {
    std::string_view text = source.Line(line);
    if (info(line).comment == std::string_view::npos) continue;
    std::string_view body = text.substr(info(line).comment + 1);
    body.remove_prefix(std::min(body.find_first_not_of(" \t"), body.size()));
    if (!body.starts_with(kMarker)) continue;
    body.remove_prefix(kMarker.size());
    if (body.starts_with("-file")) {
      std::vector<std::string> p = Patterns(body.substr(5));
      s.file_.insert(s.file_.end(), p.begin(), p.end());
      continue;
    }
    if (!body.empty() && body.front() != ' ' && body.front() != '\t') continue;  // ignoreX
    std::vector<std::string> patterns = Patterns(body);
    // A comment alone on its line applies to the next line that is not blank or a comment.
    int target = line;
    if (IsBlankOrComment(text, info(line))) {
      target = line + 1;
      while (target <= source.line_count() &&
             IsBlankOrComment(source.Line(target), info(target))) {
        ++target;
      }
    }
    auto& entry = s.by_line_[target];
    entry.insert(entry.end(), patterns.begin(), patterns.end());
  }
  return s;
}

bool Suppressions::Silences(std::string_view code, int line) const {
  if (Matches(file_, code)) return true;
  auto it = by_line_.find(line);
  return it != by_line_.end() && Matches(it->second, code);
}

}  // namespace draguard::lint
