#include "policy/common/source.h"

#include <algorithm>

namespace draguard {

SourceText::SourceText(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  // A UTF-8 byte order mark is no content: yaml-cpp skips it (its positions start after it)
  // and editors do not count it as a column, so keeping it shifted every column by 3.
  if (text_.starts_with("\xEF\xBB\xBF")) text_.erase(0, 3);
  line_starts_.push_back(0);
  bool ascii = true;
  for (size_t i = 0; i < text_.size(); ++i) {
    ascii = ascii && static_cast<unsigned char>(text_[i]) < 0x80;
    if (text_[i] == '\n') {
      line_is_ascii_.push_back(ascii);
      line_starts_.push_back(i + 1);
      ascii = true;
    }
  }
  line_is_ascii_.push_back(ascii);
}

size_t CountCodePoints(std::string_view text) {
  size_t n = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

SourcePosition SourceText::PositionOf(size_t offset) const {
  if (line_starts_.empty()) return {1, 1};
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  size_t line_index = static_cast<size_t>(it - line_starts_.begin()) - 1;
  size_t start = line_starts_[line_index];
  // On an ASCII line bytes are code points: no scan, so many positions on one long line
  // (minified JSON) stay cheap.
  size_t column = line_is_ascii_[line_index]
                      ? offset - start
                      : CountCodePoints(std::string_view(text_.data() + start, offset - start));
  return {static_cast<int>(line_index) + 1, static_cast<int>(column) + 1};
}

size_t SourceText::OffsetOf(SourcePosition pos) const {
  if (pos.line <= 0 || line_starts_.empty()) return 0;
  if (pos.line > line_count()) return text_.size();
  size_t offset = line_starts_[pos.line - 1];
  int column = 1;
  while (offset < text_.size() && text_[offset] != '\n' && column < pos.column) {
    ++offset;
    while (offset < text_.size() && (static_cast<unsigned char>(text_[offset]) & 0xC0) == 0x80) {
      ++offset;
    }
    ++column;
  }
  return offset;
}

std::string_view SourceText::Line(int line) const {
  if (line <= 0 || line > line_count()) return {};
  size_t start = line_starts_[line - 1];
  size_t end = line < line_count() ? line_starts_[line] - 1 : text_.size();
  std::string_view out(text_.data() + start, end - start);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return out;
}

namespace {

// Lines longer than this many code points are shown as a window around the column, so that a
// finding in minified JSON does not echo a 5,000-character line and as many blanks before its
// caret.
constexpr int kSnippetWidth = 200;
constexpr std::string_view kClipped = "...";

// Byte offset in `line` of the code point at 1-based `column` (line.size() past the end).
size_t ByteOfColumn(std::string_view line, int column) {
  size_t i = 0;
  for (int col = 1; col < column && i < line.size(); ++col) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

}  // namespace

std::string RenderSnippet(const SourceText& source, SourcePosition pos) {
  if (!pos.known()) return {};
  std::string_view line = source.Line(pos.line);
  std::string out = "  | ";
  std::string caret_indent = "\n  | ";
  const int width = static_cast<int>(CountCodePoints(line));
  if (width > kSnippetWidth) {
    const int first = std::clamp(pos.column - kSnippetWidth / 2, 1, width - kSnippetWidth + 1);
    const size_t begin = ByteOfColumn(line, first);
    const size_t end = ByteOfColumn(line, first + kSnippetWidth);
    if (first > 1) {
      out += kClipped;
      caret_indent.append(kClipped.size(), ' ');
    }
    out += line.substr(begin, end - begin);
    if (end < line.size()) out += kClipped;
    line = line.substr(begin);
    pos.column -= first - 1;
  } else {
    out += line;
  }
  out += caret_indent;
  // Keep tabs so the caret lines up under tab-indented text.
  int col = 1;
  size_t i = 0;
  while (col < pos.column && i < line.size()) {
    out += line[i] == '\t' ? '\t' : ' ';
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
    ++col;
  }
  for (; col < pos.column; ++col) out += ' ';
  out += '^';
  return out;
}

}  // namespace draguard
