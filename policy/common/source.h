// SourceText: an input file (or stdin, or an expression) with its line index, mapping byte
// offsets to 1-based line:column positions for diagnostics.
#ifndef DRAGUARD_POLICY_COMMON_SOURCE_H_
#define DRAGUARD_POLICY_COMMON_SOURCE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace draguard {

// A 1-based position. line == 0 means "unknown". Columns count Unicode code points from the
// start of the line (what editors and SARIF viewers show for UTF-8 text), not bytes.
struct SourcePosition {
  int line = 0;
  int column = 0;

  bool known() const { return line > 0; }
  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

// Immutable once built, and cheap to copy: copies share one text and line index, so the
// decoder, its objects and the renderer can each hold the file without holding it twice (a
// 20 MB input is 20 MB once, not once per holder).
class SourceText {
 public:
  SourceText();
  // `name` is what diagnostics print ("claim.yaml", "<stdin>"). A leading UTF-8 BOM is dropped.
  SourceText(std::string name, std::string text);
  // A piece of a larger file that starts at the start of line `first_line` (1-based) of that
  // file: positions, Line() and OffsetOf() use the file's line numbers (offsets stay offsets
  // into `text`). Streamed inputs are held one document at a time this way (no BOM handling:
  // the reader drops it).
  SourceText(std::string name, std::string text, int first_line);
  // Copies share the data; there is no move, so a moved-from SourceText stays valid.
  SourceText(const SourceText&) = default;
  SourceText& operator=(const SourceText&) = default;

  const std::string& name() const { return data_->name; }
  const std::string& text() const { return data_->text; }

  // Position of a byte offset; offsets past the end map to the end of the text.
  SourcePosition PositionOf(size_t offset) const;
  // What PositionOf(offset, hint) remembers of its previous answer: the line index, and an
  // offset on that line with its column (so that a column on a long non-ASCII line is
  // counted from the previous one, not from the line's start). A default hint is "nothing
  // yet"; a default hint or one this text's PositionOf wrote gives the right answer.
  struct PositionHint {
    size_t line = 0;
    size_t offset = 0;  // on `line`, with `column` (0-based code points); 0/0: line's start
    size_t column = 0;
  };
  // The same, for callers that ask in text order (a parser): the next answer is usually a
  // step or two from the previous one instead of a search over every line, and on one line
  // of megabytes (minified JSON) the work stays proportional to the text, not to its square.
  SourcePosition PositionOf(size_t offset, PositionHint& hint) const;
  // Byte offset of a position (inverse of PositionOf); clamps to the text.
  size_t OffsetOf(SourcePosition pos) const;
  // The text of 1-based `line` without its line terminator; empty when out of range.
  std::string_view Line(int line) const;
  int line_count() const { return static_cast<int>(data_->line_starts.size()); }
  // The file line numbers this text covers: [first_line(), last_line()].
  int first_line() const { return data_->first_line; }
  int last_line() const { return data_->first_line + line_count() - 1; }

 private:
  struct Data {
    std::string name;
    std::string text;
    std::vector<size_t> line_starts;
    std::vector<bool> line_is_ascii;  // per line: every byte < 0x80
    int first_line = 1;
  };
  void Index(std::shared_ptr<Data> data);
  std::shared_ptr<const Data> data_;  // never null
};

// Counts the code points of UTF-8 text (continuation bytes are not counted).
size_t CountCodePoints(std::string_view text);

// Renders the compiler-style excerpt for a position: the source line (over 200 code points:
// 200 around the column, "..." at the cuts), then a caret under it. Empty if pos is unknown.
std::string RenderSnippet(const SourceText& source, SourcePosition pos);

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_SOURCE_H_
