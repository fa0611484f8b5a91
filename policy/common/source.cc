#include "policy/common/source.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

namespace draguard {
namespace {

// Whether every byte of `text` is below 0x80.
bool IsAscii(std::string_view text) {
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  size_t i = 0;
  uint64_t any = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    any |= word;
  }
  for (; i < text.size(); ++i) any |= static_cast<unsigned char>(text[i]);
  return (any & kHigh) == 0;  // the tail bytes were folded into the lowest byte
}

}  // namespace

SourceText::SourceText() {
  static const std::shared_ptr<const Data> empty = std::make_shared<const Data>();
  data_ = empty;
}

SourceText::SourceText(std::string name, std::string text) {
  auto data = std::make_shared<Data>();
  data->name = std::move(name);
  data->text = std::move(text);
  // A UTF-8 byte order mark is no content: yaml-cpp skips it (its positions start after it)
  // and editors do not count it as a column, so keeping it shifted every column by 3.
  if (data->text.starts_with("\xEF\xBB\xBF")) data->text.erase(0, 3);
  Index(std::move(data));
}

SourceText::SourceText(std::string name, std::string text, int first_line) {
  auto data = std::make_shared<Data>();
  data->name = std::move(name);
  data->text = std::move(text);
  data->first_line = std::max(first_line, 1);
  Index(std::move(data));
}

void SourceText::Index(std::shared_ptr<Data> data) {
  const std::string_view t = data->text;
  // Lines found with memchr and checked for non-ASCII bytes eight at a time: every file and
  // document read goes through here (a plain loop was 3% of a lint run).
  data->line_starts.push_back(0);
  size_t start = 0;
  while (true) {
    const void* found = std::memchr(t.data() + start, '\n', t.size() - start);
    const size_t end = found == nullptr ? t.size()
                                        : static_cast<size_t>(static_cast<const char*>(found) -
                                                              t.data());
    data->line_is_ascii.push_back(IsAscii(t.substr(start, end - start)));
    if (found == nullptr) break;
    start = end + 1;
    data->line_starts.push_back(start);
  }
  data_ = std::move(data);
}

size_t CountCodePoints(std::string_view text) {
  size_t n = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

SourcePosition SourceText::PositionOf(size_t offset) const {
  PositionHint hint;
  return PositionOf(offset, hint);
}

SourcePosition SourceText::PositionOf(size_t offset, PositionHint& hint) const {
  const Data& d = *data_;
  if (d.line_starts.empty()) return {d.first_line, 1};
  offset = std::min(offset, d.text.size());
  const std::vector<size_t>& starts = d.line_starts;
  // The line is the last whose start is <= offset: a few steps forward from the hint, else a
  // binary search (from the hint when the offset is past it).
  size_t line = hint.line < starts.size() && starts[hint.line] <= offset ? hint.line : 0;
  constexpr int kSteps = 4;
  int steps = 0;
  while (line + 1 < starts.size() && starts[line + 1] <= offset && steps < kSteps) {
    ++line;
    ++steps;
  }
  if (steps == kSteps && line + 1 < starts.size() && starts[line + 1] <= offset) {
    const auto from = starts.begin() + static_cast<std::ptrdiff_t>(line);
    line = static_cast<size_t>(std::upper_bound(from, starts.end(), offset) - starts.begin()) - 1;
  }
  const size_t start = starts[line];
  // On an ASCII line bytes are code points: no scan. Otherwise code points are counted from
  // the previous answer when it is on this line before `offset`, else from the line's start.
  size_t column;
  if (d.line_is_ascii[line]) {
    column = offset - start;
  } else {
    const bool from_hint = hint.line == line && hint.offset >= start && hint.offset <= offset;
    const size_t from = from_hint ? hint.offset : start;
    column = (from_hint ? hint.column : 0) +
             CountCodePoints(std::string_view(d.text.data() + from, offset - from));
  }
  hint = {line, offset, column};
  return {static_cast<int>(line) + d.first_line, static_cast<int>(column) + 1};
}

size_t SourceText::OffsetOf(SourcePosition pos) const {
  const Data& d = *data_;
  pos.line -= d.first_line - 1;  // into this text's lines
  if (pos.line <= 0 || d.line_starts.empty()) return 0;
  if (pos.line > line_count()) return d.text.size();
  size_t offset = d.line_starts[pos.line - 1];
  if (d.line_is_ascii[pos.line - 1]) {  // bytes are code points: no scan
    const size_t end = pos.line < line_count() ? d.line_starts[pos.line] - 1 : d.text.size();
    return std::min(offset + static_cast<size_t>(std::max(pos.column, 1) - 1), end);
  }
  int column = 1;
  while (offset < d.text.size() && d.text[offset] != '\n' && column < pos.column) {
    ++offset;
    while (offset < d.text.size() && (static_cast<unsigned char>(d.text[offset]) & 0xC0) == 0x80) {
      ++offset;
    }
    ++column;
  }
  return offset;
}

std::string_view SourceText::Line(int line) const {
  const Data& d = *data_;
  line -= d.first_line - 1;  // into this text's lines
  if (line <= 0 || line > line_count()) return {};
  size_t start = d.line_starts[line - 1];
  size_t end = line < line_count() ? d.line_starts[line] - 1 : d.text.size();
  std::string_view out(d.text.data() + start, end - start);
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
