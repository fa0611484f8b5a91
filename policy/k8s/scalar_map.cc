// Maps byte offsets in a decoded scalar back to the source (SourceOffsetOfValueByte).
//
// The scalar is decoded a second time from its source text, but instead of producing bytes
// this pass records, for each output byte, the source offset that produced it; it stops as
// soon as the wanted byte is reached. Flow scalars (plain, single- and double-quoted) share
// the line-folding rule: a single line break becomes a space, n > 1 breaks become n - 1
// newlines, and indentation and trailing blanks vanish. Block scalars drop their indentation;
// literal ones keep every line break, folded ones turn a break between two normal lines into
// a space. Escapes in double quotes map all the bytes they produce to the backslash.
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

#include "policy/common/strings.h"
#include "policy/k8s/document.h"

namespace draguard::k8s {
namespace {

size_t LineBreakLength(std::string_view t, size_t i) {
  if (i < t.size() && t[i] == '\n') return 1;
  if (i + 1 < t.size() && t[i] == '\r' && t[i + 1] == '\n') return 2;
  return 0;
}

// UTF-8 length of code point `cp`.
size_t Utf8Length(unsigned long cp) {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}

size_t HexEscapeLength(char c) {
  switch (c) {
    case 'x': return 2;
    case 'u': return 4;
    case 'U': return 8;
    default: return 0;
  }
}

// Bytes produced by the escape after a backslash at t[i] ('\\' at i - 1), and its length.
void DecodeEscape(std::string_view t, size_t i, size_t* produced, size_t* consumed) {
  const size_t hex = HexEscapeLength(t[i]);
  if (hex > 0) {
    unsigned long cp = 0;
    size_t n = 0;
    for (; n < hex && i + 1 + n < t.size(); ++n) {
      char c = t[i + 1 + n];
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) break;
      cp = cp * 16 + static_cast<unsigned long>(d);
    }
    *produced = Utf8Length(cp);
    *consumed = 1 + n;
    return;
  }
  // \N (U+0085) takes 2 bytes, \_ (U+00A0) 2, \L and \P (U+2028/9) 3.
  *produced = t[i] == 'N' || t[i] == '_' ? 2 : (t[i] == 'L' || t[i] == 'P') ? 3 : 1;
  *consumed = 1;
}

class OffsetRecorder {
 public:
  explicit OffsetRecorder(size_t wanted) : wanted_(wanted) {}
  void Emit(size_t src, size_t count = 1) {
    for (size_t k = 0; k < count; ++k) map_.push_back(src);
  }
  void DropTrailingBlanks(std::string_view t) {
    while (!map_.empty() && map_.size() > protected_ && IsSpaceOrTab(t[map_.back()])) {
      map_.pop_back();
    }
  }
  void Protect() { protected_ = map_.size(); }
  bool done() const { return map_.size() > wanted_; }
  size_t size() const { return map_.size(); }
  size_t at(size_t i) const { return map_[i]; }

 private:
  size_t wanted_;
  size_t protected_ = 0;
  std::vector<size_t> map_;
};

// Folds a line break at t[i]: returns the index of the first content byte of the next
// non-empty line, emitting a space or n - 1 newlines mapped to the first break.
size_t FoldBreak(std::string_view t, size_t i, OffsetRecorder& out) {
  const size_t first_break = i;
  size_t breaks = 0;
  while (i < t.size()) {
    size_t br = LineBreakLength(t, i);
    if (br == 0) break;
    ++breaks;
    i += br;
    while (i < t.size() && IsSpaceOrTab(t[i])) ++i;
  }
  out.DropTrailingBlanks(t);
  if (breaks == 1) {
    out.Emit(first_break);
  } else {
    out.Emit(first_break, breaks - 1);
  }
  out.Protect();
  return i;
}

void MapFlow(std::string_view t, size_t i, ScalarStyle style, OffsetRecorder& out) {
  if (style != ScalarStyle::kPlain) ++i;  // opening quote
  while (i < t.size() && !out.done()) {
    const char c = t[i];
    if (LineBreakLength(t, i) > 0) {
      i = FoldBreak(t, i, out);
    } else if (style == ScalarStyle::kSingleQuoted && c == '\'') {
      if (i + 1 < t.size() && t[i + 1] == '\'') {
        out.Emit(i);
        out.Protect();
        i += 2;
      } else {
        return;
      }
    } else if (style == ScalarStyle::kDoubleQuoted && c == '"') {
      return;
    } else if (style == ScalarStyle::kDoubleQuoted && c == '\\' && i + 1 < t.size()) {
      size_t br = LineBreakLength(t, i + 1);
      if (br > 0) {  // escaped line break: joins lines without a space
        i += 1 + br;
        while (i < t.size() && IsSpaceOrTab(t[i])) ++i;
        continue;
      }
      size_t produced = 0;
      size_t consumed = 0;
      DecodeEscape(t, i + 1, &produced, &consumed);
      out.Emit(i, produced);
      out.Protect();
      i += 1 + consumed;
    } else {
      out.Emit(i);
      ++i;
    }
  }
}

// Reads the block scalar header at t[i] ('|' or '>'); returns the first byte after its line
// break and sets *explicit_indent (0 when auto-detected).
size_t ReadBlockHeader(std::string_view t, size_t i, size_t* explicit_indent) {
  *explicit_indent = 0;
  ++i;
  for (int k = 0; k < 2 && i < t.size(); ++k) {
    if (t[i] >= '1' && t[i] <= '9') {
      *explicit_indent = static_cast<size_t>(t[i] - '0');
      ++i;
    } else if (t[i] == '+' || t[i] == '-') {
      ++i;
    }
  }
  while (i < t.size() && LineBreakLength(t, i) == 0) ++i;  // blanks and a comment
  return i + LineBreakLength(t, i);
}

size_t LineIndentOf(std::string_view t, size_t pos) {
  size_t start = pos;
  while (start > 0 && t[start - 1] != '\n') --start;
  size_t n = 0;
  while (start + n < t.size() && t[start + n] == ' ') ++n;
  return n;
}

// Auto-detects the content indentation: the indentation of the first non-empty line.
size_t DetectIndent(std::string_view t, size_t i) {
  while (i < t.size()) {
    size_t n = 0;
    while (i + n < t.size() && t[i + n] == ' ') ++n;
    size_t br = LineBreakLength(t, i + n);
    if (br == 0) return n;
    i += n + br;
  }
  return 0;
}

void MapBlock(std::string_view t, size_t i, ScalarStyle style, OffsetRecorder& out) {
  size_t explicit_indent = 0;
  const size_t header = i;
  i = ReadBlockHeader(t, i, &explicit_indent);
  const size_t indent = explicit_indent > 0 ? LineIndentOf(t, header) + explicit_indent
                                            : DetectIndent(t, i);
  bool previous_normal = false;  // the previous content line was not more-indented
  size_t pending_breaks = 0;     // line breaks since the last content line
  size_t pending_at = i;
  bool seen_content = false;
  while (i < t.size() && !out.done()) {
    size_t n = 0;
    while (i + n < t.size() && t[i + n] == ' ' && n < indent) ++n;
    const size_t br_here = LineBreakLength(t, i + n);
    if (br_here > 0 || i + n >= t.size()) {  // an empty line
      if (pending_breaks == 0) pending_at = i + n;
      ++pending_breaks;
      i += n + br_here;
      if (br_here == 0) break;
      continue;
    }
    if (n < indent) break;  // a less indented line ends the scalar
    const bool normal = !IsSpaceOrTab(t[i + n]);
    if (seen_content) {
      const bool fold = style == ScalarStyle::kFolded && normal && previous_normal;
      if (fold && pending_breaks == 1) {
        out.Emit(pending_at);
      } else {
        out.Emit(pending_at, fold ? pending_breaks - 1 : pending_breaks);
      }
    } else {
      out.Emit(pending_at, pending_breaks);  // leading empty lines
    }
    i += n;
    while (i < t.size() && LineBreakLength(t, i) == 0 && !out.done()) {
      out.Emit(i);
      ++i;
    }
    seen_content = true;
    previous_normal = normal;
    pending_at = i;
    pending_breaks = 0;
    size_t br = LineBreakLength(t, i);
    if (br == 0) break;
    pending_breaks = 1;
    i += br;
  }
  if (!out.done() && pending_breaks > 0) out.Emit(pending_at);  // the kept final break
}

}  // namespace

size_t SourceOffsetOfValueByte(const SourceText& source, const DocNode& node,
                               size_t value_offset) {
  const std::string_view t = source.text();
  if (!node.is_scalar() || node.from_alias || node.offset >= t.size()) return node.offset;
  OffsetRecorder out(value_offset);
  if (node.style == ScalarStyle::kLiteral || node.style == ScalarStyle::kFolded) {
    MapBlock(t, node.offset, node.style, out);
  } else {
    MapFlow(t, node.offset, node.style, out);
  }
  if (out.done()) return out.at(value_offset);
  if (out.size() == 0) return node.offset + (node.style == ScalarStyle::kPlain ? 0 : 1);
  // Past the end: just after the last mapped byte. When that byte is a block scalar's final
  // line break, the end of its line: the next line may lie past the end of the file.
  const size_t last = out.at(out.size() - 1);
  if (last < t.size() && (t[last] == '\n' || t[last] == '\r')) return last;
  return std::min(last + 1, t.size());
}

}  // namespace draguard::k8s
