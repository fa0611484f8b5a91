// The scanner keeps a stack of open block collections with their indentation, as libyaml's
// scanner does, and reads the document line by line. A line is blank, a comment, a sequence
// item (`-`), a mapping entry (`key:`), or something the fast path does not read; the few
// states between lines are a value still to come after `key:` or `-` at the end of a line.
// Flow collections are read by recursive descent (bounded depth); only a root flow
// collection (a JSON document) may span lines, since libyaml's rules for flow collections
// that continue lines inside block collections are ones this path does not need.
//
// Every "return false" is a construct left to libyaml, valid or not: the scanner never
// decides that a text is invalid, so it never needs libyaml's error messages.
#include "policy/k8s/simple_yaml.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace draguard::k8s {
namespace {

// libyaml stops looking for the `:` of a simple key after 1,024 characters.
constexpr size_t kMaxKeyLength = 1000;
// Flow collections nested deeper are left to libyaml (TreeBuilder's own limit applies there).
constexpr int kMaxFlowDepth = 64;

// Only printable ASCII and line feeds: no tabs (whose place in indentation YAML restricts),
// no carriage returns, no bytes libyaml would check as UTF-8.
bool PrintableAscii(std::string_view text) {
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n') || c > 0x7E) return false;
  }
  return true;
}

bool IsFlowIndicator(char c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(std::string& out, uint32_t cp) {  // cp < 0x10000, not a surrogate
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The character after a double-quoted scalar's backslash, as libyaml decodes it; -1 for the
// escapes this path leaves to libyaml (\0, \N, \_, \L, \P, \U, \x, and unknown ones).
int SimpleEscape(char c) {
  switch (c) {
    case 'a': return '\a';
    case 'b': return '\b';
    case 't': return '\t';
    case 'n': return '\n';
    case 'v': return '\v';
    case 'f': return '\f';
    case 'r': return '\r';
    case 'e': return 0x1B;
    case ' ': return ' ';
    case '"': return '"';
    case '/': return '/';
    case '\\': return '\\';
    default: return -1;
  }
}

class SimpleScanner {
 public:
  SimpleScanner(std::string_view text, YamlNodeSink& sink) : t_(text), sink_(sink) {}

  bool Run() {
    if (!PrintableAscii(t_)) return false;
    bool before_root = true;  // only comments and blank lines so far: `---` may come
    for (size_t pos = 0; pos < t_.size();) {
      const size_t e = LineEnd(pos);
      size_t next = e < t_.size() ? e + 1 : e;
      const size_t q = SkipSpaces(pos, e);
      if (q == e || t_[q] == '#') {  // blank or comment line
        pos = next;
        continue;
      }
      if (q == pos && (At(pos, "---") || At(pos, "...") || t_[pos] == '%')) {
        // A bare `---` opens the document; markers elsewhere, directives: libyaml's.
        if (!before_root || SkipSpaces(pos + 3, e) != e || !At(pos, "---")) return false;
        before_root = false;
        pos = next;
        continue;
      }
      before_root = false;
      next_line_ = next;
      if (!Line(q, e, static_cast<int>(q - pos))) return false;
      pos = next_line_;
    }
    if (!root_started_) return false;  // no content, or a scalar root: libyaml's
    EmitPendingEmpty();
    while (!stack_.empty()) Close();
    return true;
  }

 private:
  enum class Pending : uint8_t {
    kNone,
    kMapValue,  // `key:` ended its line: its value is on the next lines or empty
    kSeqItem,   // `-` ended its line
  };
  enum class Lead : uint8_t { kKey, kValue, kUnsupported };
  struct Frame {
    NodeKind kind;
    int indent;
    bool indentless;  // a sequence at its parent key's indentation (`key:\n- a`)
  };
  struct Key {
    size_t offset = 0;
    size_t colon = 0;
    std::string_view value;
    ScalarStyle style = ScalarStyle::kPlain;
  };

  // One content line: `q` is its first non-blank character, at column `c`. next_line_ is
  // where the following line starts (a block scalar or a root flow collection moves it).
  bool Line(size_t q, size_t e, int c) {
    const bool item = IsItem(q, e);
    if (pending_ != Pending::kNone) {
      const int owner = stack_.back().indent;
      const bool map_value = pending_ == Pending::kMapValue;
      pending_ = Pending::kNone;
      if (c > owner || (map_value && item && c == owner)) {  // the pending value starts here
        if (item) {
          Open(NodeKind::kSequence, q, c, /*indentless=*/c == owner);
          return Item(q, e, c);
        }
        return OpenMap(q, e, c);
      }
      sink_.OnScalar(empty_offset_, {}, ScalarStyle::kPlain);
    }
    while (!stack_.empty() && stack_.back().indent > c) Close();
    if (stack_.empty()) {
      if (root_started_ || c != 0) return false;  // content after the root; indented root
      root_started_ = true;
      if (item) {
        Open(NodeKind::kSequence, q, c, /*indentless=*/false);
        return Item(q, e, c);
      }
      if (t_[q] == '{' || t_[q] == '[') return RootFlow(q);
      return OpenMap(q, e, c);
    }
    if (item) {
      if (stack_.back().kind != NodeKind::kSequence || stack_.back().indent != c) return false;
      return Item(q, e, c);
    }
    if (stack_.back().kind == NodeKind::kSequence && stack_.back().indentless &&
        stack_.back().indent == c) {
      Close();  // a key at its parent's indentation ends an indentless sequence
    }
    if (stack_.back().kind != NodeKind::kMap || stack_.back().indent != c) return false;
    Key key;
    if (ReadLead(q, e, &key) != Lead::kKey) return false;
    return Entry(key, e);
  }

  // A block mapping whose first key is at `q`.
  bool OpenMap(size_t q, size_t e, int c) {
    Key key;
    if (ReadLead(q, e, &key) != Lead::kKey) return false;
    Open(NodeKind::kMap, q, c, /*indentless=*/false);
    return Entry(key, e);
  }

  // The entry whose key was read; its value follows on the line or on the next lines.
  bool Entry(const Key& key, size_t e) {
    sink_.OnScalar(key.offset, key.value, key.style);
    const size_t v = SkipSpaces(key.colon + 1, e);
    if (v == e || t_[v] == '#') {  // `:` is followed by a blank or the line end
      pending_ = Pending::kMapValue;
      empty_offset_ = key.colon + 1;
      return true;
    }
    return InlineValue(v, e);
  }

  // The sequence item whose `-` is at `q`, column `c`: `- value`, `- key: value`, `- - ...`.
  bool Item(size_t q, size_t e, int c) {
    for (;;) {
      const size_t v = SkipSpaces(q + 1, e);
      if (v == e || t_[v] == '#') {
        pending_ = Pending::kSeqItem;
        empty_offset_ = q + 1;
        return true;
      }
      const int column = c + static_cast<int>(v - q);
      if (IsItem(v, e)) {  // a sequence as the item, on the same line
        Open(NodeKind::kSequence, v, column, /*indentless=*/false);
        q = v;
        c = column;
        continue;
      }
      Key key;
      switch (ReadLead(v, e, &key)) {
        case Lead::kKey:  // a mapping as the item, its first key on the same line
          Open(NodeKind::kMap, v, column, /*indentless=*/false);
          return Entry(key, e);
        case Lead::kValue:
          return InlineValue(v, e);
        case Lead::kUnsupported:
          return false;
      }
      return false;
    }
  }

  // Whether the node at `q` is a mapping key (then *key holds it) or a value.
  Lead ReadLead(size_t q, size_t e, Key* key) {
    const char ch = t_[q];
    if (ch == '{' || ch == '[' || ch == '|' || ch == '>') return Lead::kValue;
    size_t colon;
    if (ch == '\'' || ch == '"') {
      const size_t after = ScanQuoted(q, e, key_text_);
      if (after == std::string_view::npos) return Lead::kUnsupported;
      colon = SkipSpaces(after, e);
      if (colon == e || t_[colon] != ':') return Lead::kValue;
      if (colon + 1 < e && t_[colon + 1] != ' ') return Lead::kUnsupported;
      key->value = key_text_;
      key->style = ch == '"' ? ScalarStyle::kDoubleQuoted : ScalarStyle::kSingleQuoted;
    } else {
      if (!StartsPlain(q, e)) return Lead::kUnsupported;
      size_t end;
      if (!ScanBlockPlain(q, e, &end, &colon)) return Lead::kValue;
      key->value = t_.substr(q, end - q);
      key->style = ScalarStyle::kPlain;
    }
    if (colon - q > kMaxKeyLength) return Lead::kUnsupported;
    key->offset = q;
    key->colon = colon;
    return Lead::kKey;
  }

  // A value on the rest of the line: a one-line flow collection, a quoted or plain scalar,
  // or a block scalar on the lines that follow.
  bool InlineValue(size_t v, size_t e) {
    const char ch = t_[v];
    if (ch == '|' || ch == '>') return BlockScalar(v, e);
    if (ch == '{' || ch == '[') {
      size_t i = v;
      return FlowCollection(i, 0, /*multi_line=*/false) && RestIsBlank(i, e);
    }
    if (ch == '\'' || ch == '"') {
      const size_t after = ScanQuoted(v, e, value_text_);
      if (after == std::string_view::npos || !RestIsBlank(after, e)) return false;
      sink_.OnScalar(v, value_text_,
                     ch == '"' ? ScalarStyle::kDoubleQuoted : ScalarStyle::kSingleQuoted);
      return true;
    }
    if (!StartsPlain(v, e)) return false;
    size_t end;
    size_t colon;
    if (ScanBlockPlain(v, e, &end, &colon)) return false;  // `a: b: c`
    sink_.OnScalar(v, t_.substr(v, end - v), ScalarStyle::kPlain);
    return true;
  }

  // The root is a flow collection (a JSON document); it may span lines.
  bool RootFlow(size_t q) {
    size_t i = q;
    if (!FlowCollection(i, 0, /*multi_line=*/true)) return false;
    const size_t e = LineEnd(i);
    if (!RestIsBlank(i, e)) return false;
    next_line_ = e < t_.size() ? e + 1 : e;
    return true;
  }

  // A literal (`|`, `|-`) or folded (`>`, `>-`) block scalar whose indicator is at `i`, the
  // value of the innermost open collection; its lines follow the indicator's line. Read as
  // libyaml's yaml_parser_scan_block_scalar reads them (the same line breaks, folding and
  // chomping). Left to libyaml: `+` chomping, indentation indicators, an empty scalar, and
  // leading blank lines longer than the first line's indentation.
  bool BlockScalar(size_t i, size_t e) {
    const bool literal = t_[i] == '|';
    size_t j = i + 1;
    const bool strip = j < e && t_[j] == '-';
    if (strip) ++j;
    if (j < e && t_[j] != ' ') return false;  // `+`, an indentation digit, ...
    if (!RestIsBlank(j, e) || e == t_.size()) return false;
    const int parent = stack_.back().indent;
    // Leading blank lines, then the first content line: its indentation is the scalar's.
    std::string& value = value_text_;
    value.clear();
    std::string trailing_breaks;
    size_t pos = e + 1;
    int longest_blank = 0;
    int indent = 0;
    for (;;) {
      const size_t content = SkipSpaces(pos, t_.size());
      if (content == t_.size()) return false;
      if (t_[content] != '\n') {
        indent = static_cast<int>(content - pos);
        pos = content;
        break;
      }
      longest_blank = std::max(longest_blank, static_cast<int>(content - pos));
      trailing_breaks.push_back('\n');
      pos = content + 1;
    }
    if (indent <= parent || longest_blank > indent) return false;
    std::string leading_break;
    bool leading_blank = false;
    for (;;) {  // at a content line, after its indentation
      const bool trailing_blank = t_[pos] == ' ';
      if (!literal && !leading_break.empty() && !leading_blank && !trailing_blank) {
        if (trailing_breaks.empty()) value.push_back(' ');
      } else {
        value += leading_break;
      }
      leading_break.clear();
      value += trailing_breaks;
      trailing_breaks.clear();
      leading_blank = t_[pos] == ' ';
      const size_t end = LineEnd(pos);
      value.append(t_.substr(pos, end - pos));
      if (end == t_.size()) {
        pos = end;
        break;
      }
      leading_break = "\n";
      pos = end + 1;
      // The following blank lines (up to `indent` spaces, then a line break), then the next
      // line's indentation, up to `indent`.
      size_t spaces = 0;
      for (;;) {
        spaces = 0;
        while (pos + spaces < t_.size() && static_cast<int>(spaces) < indent &&
               t_[pos + spaces] == ' ') {
          ++spaces;
        }
        if (pos + spaces < t_.size() && t_[pos + spaces] == '\n') {
          trailing_breaks.push_back('\n');
          pos += spaces + 1;
          continue;
        }
        break;
      }
      if (pos + spaces == t_.size() || static_cast<int>(spaces) < indent) break;
      pos += spaces;
    }
    if (!strip) value += leading_break;
    sink_.OnScalar(i, value, literal ? ScalarStyle::kLiteral : ScalarStyle::kFolded);
    next_line_ = pos;
    return true;
  }

  // The flow collection whose bracket is at `i`; moves `i` past its closing bracket.
  bool FlowCollection(size_t& i, int depth, bool multi_line) {
    if (depth >= kMaxFlowDepth) return false;
    const bool map = t_[i] == '{';
    const char close = map ? '}' : ']';
    sink_.OnOpen(i, map ? NodeKind::kMap : NodeKind::kSequence, /*flow=*/true);
    ++i;
    if (!FlowSpace(i, multi_line)) return false;
    if (t_[i] != close) {
      for (;;) {
        if (map && !FlowKey(i)) return false;
        if (!FlowValue(i, depth, multi_line)) return false;
        if (!FlowSpace(i, multi_line)) return false;
        if (t_[i] == close) break;
        if (t_[i] != ',') return false;
        ++i;
        if (!FlowSpace(i, multi_line) || t_[i] == close) return false;  // `[a,]`: libyaml's
      }
    }
    ++i;
    sink_.OnClose();
    return true;
  }

  // A flow mapping's key and its `:`; leaves `i` at the value.
  bool FlowKey(size_t& i) {
    const size_t e = LineEnd(i);
    const char ch = t_[i];
    size_t colon;
    if (ch == '\'' || ch == '"') {
      const size_t after = ScanQuoted(i, e, key_text_);
      if (after == std::string_view::npos) return false;
      colon = SkipSpaces(after, e);
      if (colon == e || t_[colon] != ':') return false;  // a key without a value
      if (colon - i > kMaxKeyLength) return false;
      sink_.OnScalar(i, key_text_,
                     ch == '"' ? ScalarStyle::kDoubleQuoted : ScalarStyle::kSingleQuoted);
    } else {
      if (!StartsPlain(i, e)) return false;
      size_t end;
      bool at_colon;
      if (!ScanFlowPlain(i, &end, &colon, &at_colon) || !at_colon) return false;
      if (colon - i > kMaxKeyLength) return false;
      sink_.OnScalar(i, t_.substr(i, end - i), ScalarStyle::kPlain);
    }
    i = SkipSpaces(colon + 1, e);
    return i < e && t_[i] != ',' && t_[i] != '}' && t_[i] != '#';  // empty values: libyaml's
  }

  bool FlowValue(size_t& i, int depth, bool multi_line) {
    const char ch = t_[i];
    if (ch == '{' || ch == '[') return FlowCollection(i, depth + 1, multi_line);
    const size_t e = LineEnd(i);
    if (ch == '\'' || ch == '"') {
      const size_t after = ScanQuoted(i, e, value_text_);
      if (after == std::string_view::npos) return false;
      const size_t following = SkipSpaces(after, e);
      if (following < e && t_[following] == ':') return false;  // `["a": b]`
      sink_.OnScalar(i, value_text_,
                     ch == '"' ? ScalarStyle::kDoubleQuoted : ScalarStyle::kSingleQuoted);
      i = after;
      return true;
    }
    if (!StartsPlain(i, e)) return false;
    size_t end;
    size_t stop;
    bool at_colon;
    if (!ScanFlowPlain(i, &end, &stop, &at_colon) || at_colon) return false;  // `[a: b]`
    sink_.OnScalar(i, t_.substr(i, end - i), ScalarStyle::kPlain);
    i = end;
    return true;
  }

  // Skips blanks inside a flow collection (line breaks and comments too when `multi_line`);
  // false at the end of the text or a line where the fast path stops.
  bool FlowSpace(size_t& i, bool multi_line) {
    while (i < t_.size()) {
      const char c = t_[i];
      if (c == ' ') {
        ++i;
      } else if (c == '\n') {
        if (!multi_line) return false;
        ++i;
        if (At(i, "---") || At(i, "...") || At(i, "%")) return false;
      } else if (c == '#' && multi_line && (t_[i - 1] == ' ' || t_[i - 1] == '\n')) {
        i = LineEnd(i);
      } else {
        return true;
      }
    }
    return false;
  }

  // A plain scalar may start at `i`: not an indicator; `-` only before a character that
  // is neither a blank nor a flow indicator.
  bool StartsPlain(size_t i, size_t e) const {
    switch (t_[i]) {
      case '-':
        return i + 1 < e && t_[i + 1] != ' ' && !IsFlowIndicator(t_[i + 1]);
      case '?': case ':': case ',': case '[': case ']': case '{': case '}': case '#':
      case '&': case '*': case '!': case '|': case '>': case '\'': case '"': case '%':
      case '@': case '`':
        return false;
      default:
        return true;
    }
  }

  // A plain scalar in block context, from `i` (not a blank) to the line end `e`, a comment
  // (` #`) or a `:` before a blank or the line end. *end: after its last non-blank character.
  // True when it stopped at such a `:` (at *colon).
  bool ScanBlockPlain(size_t i, size_t e, size_t* end, size_t* colon) const {
    size_t last = i;
    for (size_t j = i; j < e; ++j) {
      const char c = t_[j];
      if (c == ' ') continue;
      if (c == ':' && (j + 1 == e || t_[j + 1] == ' ')) {
        *end = last;
        *colon = j;
        return true;
      }
      if (c == '#' && t_[j - 1] == ' ') break;
      last = j + 1;
    }
    *end = last;
    return false;
  }

  // A plain scalar in a one-line or root flow collection: it ends at a flow indicator, a line
  // break, or a `:` before a blank (*at_colon, *colon). False where libyaml's versions differ
  // or the fast path stops (`:` before a flow indicator, a comment).
  bool ScanFlowPlain(size_t i, size_t* end, size_t* colon, bool* at_colon) const {
    size_t last = i;
    *at_colon = false;
    size_t j = i;
    for (; j < t_.size(); ++j) {
      const char c = t_[j];
      if (c == ' ') continue;
      if (c == '\n' || IsFlowIndicator(c)) break;
      if (c == ':') {
        const char after = j + 1 < t_.size() ? t_[j + 1] : '\n';
        if (after == ' ' || after == '\n') {
          *at_colon = true;
          break;
        }
        if (IsFlowIndicator(after) || after == '?') return false;
      }
      if (c == '#' && t_[j - 1] == ' ') return false;
      last = j + 1;
    }
    *end = last;
    *colon = j;
    return true;
  }

  // The one-line quoted scalar whose quote is at `i`: decodes it into `out` and returns the
  // offset after its closing quote; npos where the fast path stops.
  size_t ScanQuoted(size_t i, size_t e, std::string& out) const {
    out.clear();
    const char quote = t_[i];
    for (size_t j = i + 1; j < e;) {
      const char c = t_[j];
      if (c == quote) {
        if (quote == '\'' && j + 1 < e && t_[j + 1] == '\'') {  // '' is a quote
          out.push_back('\'');
          j += 2;
          continue;
        }
        return j + 1;
      }
      if (c != '\\' || quote == '\'') {
        out.push_back(c);
        ++j;
        continue;
      }
      if (j + 1 >= e) return std::string_view::npos;  // an escaped line break
      const char escape = t_[j + 1];
      if (escape == 'u') {
        if (j + 6 > e) return std::string_view::npos;
        uint32_t cp = 0;
        for (size_t k = j + 2; k < j + 6; ++k) {
          const int h = HexValue(t_[k]);
          if (h < 0) return std::string_view::npos;
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return std::string_view::npos;
        AppendUtf8(out, cp);
        j += 6;
        continue;
      }
      const int decoded = SimpleEscape(escape);
      if (decoded < 0) return std::string_view::npos;
      out.push_back(static_cast<char>(decoded));
      j += 2;
    }
    return std::string_view::npos;  // not closed on its line
  }

  void Open(NodeKind kind, size_t offset, int indent, bool indentless) {
    sink_.OnOpen(offset, kind, /*flow=*/false);
    stack_.push_back(Frame{kind, indent, indentless});
  }

  void Close() {
    stack_.pop_back();
    sink_.OnClose();
  }

  void EmitPendingEmpty() {
    if (pending_ == Pending::kNone) return;
    pending_ = Pending::kNone;
    sink_.OnScalar(empty_offset_, {}, ScalarStyle::kPlain);
  }

  // `-` before a blank or the line end: a block sequence item.
  bool IsItem(size_t q, size_t e) const {
    return t_[q] == '-' && (q + 1 == e || t_[q + 1] == ' ');
  }

  bool RestIsBlank(size_t i, size_t e) const {
    const size_t j = SkipSpaces(i, e);
    return j == e || (t_[j] == '#' && j > i);
  }

  size_t SkipSpaces(size_t i, size_t e) const {
    while (i < e && t_[i] == ' ') ++i;
    return i;
  }

  // The end of the line holding `i`: its '\n' or the end of the text. The last answer is
  // remembered with where its search started: a flow collection asks at every key and value,
  // and a minified JSON document (an API server's list) is one line of megabytes, where a
  // search from each token to the line's end made the scan quadratic.
  size_t LineEnd(size_t i) const {
    if (i >= line_end_from_ && i <= line_end_) return line_end_;
    const size_t e = t_.find('\n', i);
    line_end_from_ = i;
    line_end_ = e == std::string_view::npos ? t_.size() : e;
    return line_end_;
  }

  bool At(size_t i, std::string_view s) const { return t_.substr(i).starts_with(s); }

  std::string_view t_;
  YamlNodeSink& sink_;
  std::vector<Frame> stack_;
  Pending pending_ = Pending::kNone;
  size_t empty_offset_ = 0;  // where the pending value is, if it turns out empty
  size_t next_line_ = 0;     // where the line after the current one starts
  // LineEnd's last answer: no '\n' in [line_end_from_, line_end_) (none at first).
  mutable size_t line_end_from_ = 1;
  mutable size_t line_end_ = 0;
  bool root_started_ = false;
  std::string key_text_;    // decoded quoted key
  std::string value_text_;  // decoded quoted value
};

}  // namespace

bool ScanSimpleYaml(std::string_view text, YamlNodeSink& sink) {
  return SimpleScanner(text, sink).Run();
}

}  // namespace draguard::k8s
