#include "policy/k8s/yaml_lines.h"

#include "policy/common/strings.h"

namespace draguard::k8s {
namespace {

constexpr int kNoBlock = -2;

// Whether line[i] is followed by a blank or the line end (how `- `, `? `, `: ` and the
// document markers end).
bool BlankOrEndAfter(std::string_view line, size_t i) {
  return i + 1 >= line.size() || IsSpaceOrTab(line[i + 1]);
}

bool IsDocumentMarker(std::string_view line) {
  return (line.starts_with("---") || line.starts_with("...")) &&
         (line.size() == 3 || IsSpaceOrTab(line[3]));
}

// The lexer state that crosses lines: open quotes, flow nesting, block scalar content.
class Scanner {
 public:
  YamlLine Scan(std::string_view line);

 private:
  // Consumes line[i] inside a quoted scalar; returns the next index.
  size_t InQuote(std::string_view line, size_t i);
  // Handles the first character of a token at line[i]; returns the next index.
  size_t TokenStart(std::string_view line, size_t i, int indent);

  char quote_ = 0;          // '\'' or '"' while a quoted scalar is open
  int flow_depth_ = 0;      // open `[` and `{`
  int block_owner_ = kNoBlock;  // column deeper than which lines are block content
  // Per line:
  bool token_start_ = true;  // the next non-blank character starts a node
  bool quote_closed_ = false;  // the last token was a quoted scalar (`"k":v` in JSON)
  int owner_ = -1;           // column of the node that would own a block scalar here
  int scalar_ = -1;          // column where the current plain or quoted scalar started
  bool header_ = false;      // this line opened a block scalar
};

YamlLine Scanner::Scan(std::string_view line) {
  YamlLine out;
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string_view::npos) indent = line.size();
  const bool blank = line.find_first_not_of(" \t") == std::string_view::npos;
  if (block_owner_ != kNoBlock) {
    if (!IsDocumentMarker(line) && (blank || static_cast<int>(indent) > block_owner_)) {
      out.block_content = true;
      return out;
    }
    block_owner_ = kNoBlock;
  }
  token_start_ = true;
  quote_closed_ = false;
  header_ = false;
  owner_ = static_cast<int>(indent) - 1;
  size_t i = 0;
  if (quote_ == 0 && IsDocumentMarker(line)) {
    flow_depth_ = 0;
    owner_ = -1;
    i = 3;
  }
  bool after_blank = true;
  while (i < line.size()) {
    if (quote_ != 0) {
      i = InQuote(line, i);
      continue;
    }
    const char c = line[i];
    if (IsSpaceOrTab(c)) {
      after_blank = true;
      ++i;
      continue;
    }
    if (c == '#' && after_blank) {
      out.comment = i;
      break;
    }
    after_blank = false;
    if (flow_depth_ > 0 && (c == ',' || c == ']' || c == '}')) {
      if (c != ',') --flow_depth_;
      token_start_ = c == ',';
      quote_closed_ = false;
      ++i;
    } else if (c == ':' && (BlankOrEndAfter(line, i) || quote_closed_) && !token_start_) {
      owner_ = scalar_;  // a key: it owns the value that follows
      token_start_ = true;
      quote_closed_ = false;
      ++i;
    } else if (token_start_) {
      i = TokenStart(line, i, static_cast<int>(indent));
    } else {
      quote_closed_ = false;
      ++i;
    }
  }
  if (header_) block_owner_ = owner_;
  return out;
}

size_t Scanner::InQuote(std::string_view line, size_t i) {
  const char c = line[i];
  if (quote_ == '"' && c == '\\') return i + 2;
  if (c != quote_) return i + 1;
  if (quote_ == '\'' && i + 1 < line.size() && line[i + 1] == '\'') return i + 2;  // ''
  quote_ = 0;
  quote_closed_ = true;
  return i + 1;
}

size_t Scanner::TokenStart(std::string_view line, size_t i, int indent) {
  const char c = line[i];
  if ((c == '-' || c == '?' || c == ':') && BlankOrEndAfter(line, i)) {
    owner_ = static_cast<int>(i);  // an entry or explicit key owns what follows it
    return i + 1;
  }
  if (c == '"' || c == '\'') {
    quote_ = c;
    scalar_ = static_cast<int>(i);
    token_start_ = false;
    return i + 1;
  }
  if (c == '[' || c == '{') {
    ++flow_depth_;
    return i + 1;
  }
  if (c == '!' || c == '&' || c == '*') {  // tag, anchor (a node follows) or alias
    while (i < line.size() && !IsSpaceOrTab(line[i])) ++i;
    token_start_ = c != '*';
    return i;
  }
  if ((c == '|' || c == '>') && flow_depth_ == 0) {
    header_ = true;
    if (static_cast<int>(i) == indent) owner_ = indent - 1;  // the value of a key above
  }
  scalar_ = static_cast<int>(i);
  token_start_ = false;
  return i + 1;
}

}  // namespace

std::vector<YamlLine> ScanYamlLines(const SourceText& source) {
  std::vector<YamlLine> out;
  out.reserve(static_cast<size_t>(source.line_count()));
  Scanner scanner;
  for (int line = source.first_line(); line <= source.last_line(); ++line) {
    out.push_back(scanner.Scan(source.Line(line)));
  }
  return out;
}

}  // namespace draguard::k8s
