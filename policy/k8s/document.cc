// Builds the positioned tree from libyaml's event stream.
//
// libyaml is the parser Kubernetes' own YAML decoder is a port of (go-yaml v2, behind
// sigs.k8s.io/yaml), so what it accepts and rejects is what the API server and kubectl accept
// and reject; it is also about five times faster than yaml-cpp (docs/dependencies.md).
// TreeBuilder receives the events of one document and keeps a stack of open collections; a
// map alternates between "expecting a key" and "expecting a value". Each scalar's type is
// resolved with YAML 1.1 rules (scalar_resolve.h). Limits (depth, node count) are enforced by
// throwing LimitExceeded, which, like a syntax error, is caught in ParseSpanReporting and
// turned into a diagnostic: no exception leaves this file.
#include "policy/k8s/document.h"

#include <yaml.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "policy/k8s/scalar_resolve.h"
#include "policy/k8s/simple_yaml.h"

namespace draguard::k8s {

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kNull: return "null";
    case NodeKind::kBool: return "boolean";
    case NodeKind::kInt: return "integer";
    case NodeKind::kFloat: return "number";
    case NodeKind::kString: return "string";
    case NodeKind::kSequence: return "array";
    case NodeKind::kMap: return "object";
  }
  return "unknown";
}

const DocNode* DocNode::Find(std::string_view key) const {
  if (kind != NodeKind::kMap) return nullptr;
  for (const MapEntry& e : entries) {
    if (e.key.is_scalar() && e.key.text == key) return &e.value;
  }
  return nullptr;
}

namespace {

void AppendDebugString(const DocNode& n, int depth, std::string& out) {
  out.append(static_cast<size_t>(depth) * 2, ' ');
  out += std::string(NodeKindName(n.kind)) + " @" + std::to_string(n.offset) + " " +
         std::to_string(n.position.line) + ":" + std::to_string(n.position.column) +
         " style=" + std::to_string(static_cast<int>(n.style)) + (n.flow ? " flow" : "") +
         (n.from_alias ? " alias" : "");
  switch (n.kind) {
    case NodeKind::kBool: out += n.bool_value ? " true" : " false"; break;
    case NodeKind::kInt: out += " " + std::to_string(n.int_value); break;
    case NodeKind::kFloat: out += " " + std::to_string(n.float_value); break;
    default: break;
  }
  if (n.is_scalar()) out += " \"" + n.text + "\"";
  out += "\n";
  for (const DocNode& item : n.items) AppendDebugString(item, depth + 1, out);
  for (const MapEntry& e : n.entries) {
    AppendDebugString(e.key, depth + 1, out);
    AppendDebugString(e.value, depth + 2, out);
  }
}

}  // namespace

std::string DocNode::DebugString() const {
  std::string out;
  AppendDebugString(*this, 0, out);
  return out;
}

std::string DebugString(const ParseResult& result) {
  std::string out;
  for (const Document& doc : result.documents) {
    out += "document " + std::to_string(doc.index) + (doc.empty ? " empty\n" : "\n");
    AppendDebugString(doc.root, 0, out);
  }
  for (const Diagnostic& d : result.diagnostics) {
    out += d.code + " " + std::to_string(d.position.line) + ":" +
           std::to_string(d.position.column) + " " + d.message + "\n";
  }
  return out;
}

namespace {

struct LimitExceeded {
  std::string code;
  std::string message;
  size_t offset;
};

// A syntax error (libyaml's, or an alias to no anchor), with where in the source it is.
struct SyntaxError {
  std::string message;
  size_t offset;
};

// Levels of collections in `n` (0 for a scalar).
int Height(const DocNode& n) {
  int below = 0;
  for (const DocNode& item : n.items) below = std::max(below, Height(item));
  for (const MapEntry& e : n.entries) {
    below = std::max({below, Height(e.key), Height(e.value)});
  }
  return n.is_scalar() ? 0 : below + 1;
}

size_t CountNodes(const DocNode& n) {
  size_t count = 1;
  for (const DocNode& item : n.items) count += CountNodes(item);
  for (const MapEntry& e : n.entries) count += CountNodes(e.key) + CountNodes(e.value);
  return count;
}

// Skips `&anchor` and `!tag` properties and the blanks after them.
size_t SkipProperties(std::string_view text, size_t pos) {
  while (pos < text.size() && (text[pos] == '&' || text[pos] == '!')) {
    while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t' && text[pos] != '\n' &&
           text[pos] != '\r') {
      ++pos;
    }
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
                                 text[pos] == '\r')) {
      ++pos;
    }
  }
  return pos;
}

}  // namespace

// The tree of the document last handed out, and the nodes it no longer uses, for the next
// document of the stream to be built in (TreeBuilder). A node taken from here keeps its
// buffers (its text's, its children's vectors' and, nested, its children's), so that a
// stream whose documents repeat their shapes (the slices of an inventory) builds each tree
// without allocating and never frees one: building is overwriting, dropping is moving a node
// here. A node is made only when no spare of its kind (sequence item, map entry) is left, so
// it holds about what the stream's largest documents need, and it lives only as long as the
// stream is read (ForEachDocument, or DocumentStreamState across pieces), not past its file.
class TreeRecycler {
 public:
  Document& document() { return document_; }

  // Makes `n` what a fresh DocNode is, keeping its buffers; its children go to the spares.
  void ResetNode(DocNode& n) {
    ResetScalarFields(n);
    Truncate(n.items, 0);
    Truncate(n.entries, 0);
  }
  // Makes `n` a fresh collection of `kind`: the children of the other kind go to the spares;
  // its own are overwritten in order and truncated when it closes.
  void ResetCollection(DocNode& n, NodeKind kind) {
    ResetScalarFields(n);
    if (kind == NodeKind::kMap) {
      Truncate(n.items, 0);
    } else {
      Truncate(n.entries, 0);
    }
    n.kind = kind;
  }

  // The element `i` of `nodes` (i <= nodes.size()): the one there, or a spare appended.
  DocNode& NodeAt(std::vector<DocNode>& nodes, size_t i) { return At(nodes, i, spare_nodes_); }
  MapEntry& EntryAt(std::vector<MapEntry>& entries, size_t i) {
    return At(entries, i, spare_entries_);
  }

  // Moves the elements of `v` from `keep` on to the spares.
  void Truncate(std::vector<DocNode>& v, size_t keep) { MoveToSpares(v, keep, spare_nodes_); }
  void Truncate(std::vector<MapEntry>& v, size_t keep) { MoveToSpares(v, keep, spare_entries_); }

 private:
  static void ResetScalarFields(DocNode& n) {
    n.text.clear();
    n.offset = 0;
    n.position = {};
    n.int_value = 0;
    n.float_value = 0;
    n.kind = NodeKind::kNull;
    n.style = ScalarStyle::kPlain;
    n.flow = false;
    n.from_alias = false;
    n.bool_value = false;
  }

  template <typename T>
  static T& At(std::vector<T>& v, size_t i, std::vector<T>& spares) {
    if (i < v.size()) return v[i];
    if (spares.empty()) return v.emplace_back();
    v.push_back(std::move(spares.back()));
    spares.pop_back();
    return v.back();
  }

  template <typename T>
  static void MoveToSpares(std::vector<T>& v, size_t keep, std::vector<T>& spares) {
    if (v.size() <= keep) return;
    for (size_t i = keep; i < v.size(); ++i) spares.push_back(std::move(v[i]));
    v.resize(keep);
  }

  Document document_;
  std::vector<DocNode> spare_nodes_;
  std::vector<MapEntry> spare_entries_;
};

namespace {

// Builds the tree of one document from libyaml's events, in place: into the recycler's
// document, overwriting the previous document's nodes in order (TreeRecycler). Offsets are
// byte offsets into the whole source (the event loop converts libyaml's marks).
class TreeBuilder {
 public:
  TreeBuilder(const SourceText& source, const ParseOptions& options, size_t* node_count,
              TreeRecycler& recycler)
      : source_(source), options_(options), node_count_(node_count), recycler_(recycler) {
    stack_.reserve(16);
  }

  // The document, its open collections closed (a whole stream leaves none open); without a
  // root, a null one.
  Document& FinishDocument() {
    while (!stack_.empty()) Close();
    Document& doc = recycler_.document();
    if (!has_root_) recycler_.ResetNode(doc.root);
    return doc;
  }
  bool has_root() const { return has_root_; }

  void OnAlias(size_t offset, const std::string& anchor) {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {  // go-yaml's words: the API server rejects it so
      throw SyntaxError{"the file is not valid YAML: unknown anchor '" + anchor + "' referenced",
                        offset};
    }
    // Copies nest: without this check, chains of aliases could build trees far deeper than
    // the text, and recursion over them could exhaust the stack.
    if (static_cast<int>(stack_.size()) + it->second.height > options_.max_depth) {
      throw LimitExceeded{"decode.too-deep",
                          "expanding this alias nests collections more than " +
                              std::to_string(options_.max_depth) + " levels deep",
                          offset};
    }
    Count(it->second.size, offset);
    DocNode& n = NewSlot();
    n = it->second.node;
    n.from_alias = true;
    n.offset = offset;
    n.position = source_.PositionOf(n.offset, position_hint_);
  }

  // `tag` as written and resolved by libyaml ("tag:yaml.org,2002:str"), empty when untagged.
  void OnScalar(size_t offset, std::string_view tag, const std::string& anchor,
                std::string_view value, ScalarStyle style) {
    Count(1, offset);
    DocNode& n = NewSlot();
    recycler_.ResetNode(n);
    Locate(n, offset);
    n.style = style;
    n.text.assign(value);
    ResolveScalar(n, tag);
    if (n.kind == NodeKind::kNull) n.text.clear();  // `~`, `null`: no text, as JSON's null
    if (!anchor.empty()) anchors_[anchor] = {n, 1, Height(n)};
  }

  // A collection's tag changes nothing in Kubernetes' decoder: it is not kept.
  void Open(size_t offset, const std::string& anchor, bool flow, NodeKind kind) {
    if (static_cast<int>(stack_.size()) >= options_.max_depth) {
      throw LimitExceeded{"decode.too-deep",
                          "collections are nested more than " +
                              std::to_string(options_.max_depth) + " levels deep",
                          offset};
    }
    Count(1, offset);
    DocNode& n = NewSlot();
    recycler_.ResetCollection(n, kind);
    Locate(n, offset);
    n.flow = flow;
    Frame& f = stack_.emplace_back();
    f.node = &n;
    f.used = 0;
    f.anchor = anchor;
  }

  // Completes the innermost open collection: what its vector holds past the children written
  // (an earlier document's) goes back to the recycler.
  void Close() {
    if (stack_.empty()) return;
    Frame& f = stack_.back();
    DocNode& node = *f.node;
    if (node.kind == NodeKind::kMap) {
      // A key without its value (only from a stream cut short) gets a null value.
      if (f.used % 2 == 1) recycler_.ResetNode(node.entries[f.used / 2].value);
      recycler_.Truncate(node.entries, (f.used + 1) / 2);
      ExpandMergeKeys(node);
    } else {
      recycler_.Truncate(node.items, f.used);
    }
    if (!f.anchor.empty()) anchors_[f.anchor] = {node, CountNodes(node), Height(node)};
    stack_.pop_back();
  }

 private:
  // An open collection and how many children (a map's keys and values) it has so far. The
  // node stays where it is while open: only the innermost collection's vector grows.
  struct Frame {
    DocNode* node = nullptr;
    size_t used = 0;
    std::string anchor;  // empty: none
  };

  void Count(size_t n, size_t offset) {
    *node_count_ += n;
    if (*node_count_ > options_.max_nodes) {
      throw LimitExceeded{"decode.too-many-nodes",
                          "the document has more than " + std::to_string(options_.max_nodes) +
                              " nodes (aliases included)",
                          offset};
    }
  }

  // A node at `offset`, where its properties (`&anchor`, `!tag`) start: the node itself
  // starts after them.
  void Locate(DocNode& n, size_t offset) {
    n.offset = SkipProperties(source_.text(), offset);
    if (n.offset >= source_.text().size()) n.offset = offset;
    n.position = source_.PositionOf(n.offset, position_hint_);
  }

  // YAML 1.1 merge keys (`<<: *base` or `<<: [*a, *b]`), which go-yaml v2 applies: the
  // merged maps' entries are added unless the map already has the key; earlier maps win.
  static bool IsMergeKey(const DocNode& key) {
    return key.kind == NodeKind::kString && key.text == "<<" && key.style == ScalarStyle::kPlain;
  }

  static void ExpandMergeKeys(DocNode& map) {
    bool any = false;
    for (const MapEntry& e : map.entries) any = any || IsMergeKey(e.key);
    if (!any) return;
    std::vector<MapEntry> merged;
    std::vector<MapEntry> own;
    for (MapEntry& e : map.entries) {
      if (!IsMergeKey(e.key)) {
        own.push_back(std::move(e));
      } else if (e.value.kind == NodeKind::kMap) {
        for (MapEntry& m : e.value.entries) merged.push_back(std::move(m));
      } else {
        for (DocNode& item : e.value.items) {
          for (MapEntry& m : item.entries) merged.push_back(std::move(m));
        }
      }
    }
    for (MapEntry& m : merged) {
      if (m.key.is_scalar()) {
        bool seen = false;
        for (const MapEntry& o : own) seen = seen || o.key.text == m.key.text;
        if (!seen) own.push_back(std::move(m));
      }
    }
    map.entries = std::move(own);
  }

  // Where the next node goes: the open collection's next child (a map's key or value), or
  // the root.
  DocNode& NewSlot() {
    if (stack_.empty()) {
      has_root_ = true;
      return recycler_.document().root;
    }
    Frame& f = stack_.back();
    const size_t i = f.used++;
    if (f.node->kind == NodeKind::kMap) {
      MapEntry& entry = recycler_.EntryAt(f.node->entries, i / 2);
      return i % 2 == 0 ? entry.key : entry.value;
    }
    return recycler_.NodeAt(f.node->items, i);
  }

  const SourceText& source_;
  const ParseOptions& options_;
  size_t* node_count_;
  TreeRecycler& recycler_;
  bool has_root_ = false;
  std::vector<Frame> stack_;
  // Nodes come in text order: positions are found from the last one.
  SourceText::PositionHint position_hint_;
  struct Anchored {
    DocNode node;
    size_t size;  // nodes, for max_nodes
    int height;   // collection levels, for max_depth
  };
  std::map<std::string, Anchored, std::less<>> anchors_;  // a redefined anchor: the latest
};

void AddError(Diagnostics& diagnostics, const SourceText& source, std::string code,
              std::string message, size_t offset) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.code = std::move(code);
  d.message = std::move(message);
  d.file = source.name();
  d.position = source.PositionOf(offset);
  diagnostics.Add(std::move(d));
}

// A document of the stream: [begin, end) in the source text.
struct Span {
  size_t begin;
  size_t end;
};

bool StartsKubectlDocument(std::string_view line) {
  return line.starts_with("---") &&
         (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
}

// Splits a stream into documents as kubectl's reader does (apimachinery's
// util/yaml.YAMLReader): a document starts at a line that begins with `---` followed by a
// blank or the line end. YAML forbids such a line inside a scalar, so no other context is
// needed. Directive lines (`%YAML`, `%TAG`) right before the marker belong to the document
// it starts. The spans cover the whole text in order; the first starts at 0.
std::vector<Span> SplitDocuments(std::string_view text) {
  std::vector<Span> spans{{0, text.size()}};
  size_t directives = std::string_view::npos;  // start of the directive lines just seen
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (StartsKubectlDocument(line)) {
      size_t begin = directives != std::string_view::npos ? directives : start;
      if (begin > spans.back().begin) {
        spans.back().end = begin;
        spans.push_back({begin, text.size()});
      }
      directives = std::string_view::npos;
    } else if (line.starts_with("%")) {
      if (directives == std::string_view::npos) directives = start;
    } else {
      directives = std::string_view::npos;
    }
    start = end + 1;
  }
  return spans;
}

// The map entry `key` of `map`, mutable; nullptr when absent.
DocNode* FindMutable(DocNode& map, std::string_view key) {
  for (MapEntry& e : map.entries) {
    if (e.key.is_scalar() && e.key.text == key) return &e.value;
  }
  return nullptr;
}

// The API server's size limit is per object: a document, or each item of a `kind: ...List`
// (what `kubectl get -o yaml` prints). An object over it is reported at its start and dropped,
// and the others are kept. `end` is where the document's text ends.
void DropObjectsOverLimit(const SourceText& source, size_t end, const ParseOptions& options,
                          Document& doc, Diagnostics& diagnostics) {
  auto over = [&](size_t begin, size_t stop) {
    if (stop <= begin || stop - begin <= options.max_bytes) return false;
    AddError(diagnostics, source, "decode.too-large",
             "this object is " + std::to_string(stop - begin) + " bytes, more than the " +
                 std::to_string(options.max_bytes) + " bytes the API server accepts for one object",
             begin);
    return true;
  };
  if (doc.empty || doc.root.kind != NodeKind::kMap) return;
  const DocNode* kind = doc.root.Find("kind");
  DocNode* items = FindMutable(doc.root, "items");
  const bool list = kind != nullptr && kind->kind == NodeKind::kString &&
                    kind->text.ends_with("List") && items != nullptr &&
                    items->kind == NodeKind::kSequence;
  if (!list) {
    if (over(doc.root.offset, end)) doc = Document{.index = doc.index, .empty = true};
    return;
  }
  std::vector<DocNode> kept;
  for (size_t i = 0; i < items->items.size(); ++i) {
    const size_t stop = i + 1 < items->items.size() ? items->items[i + 1].offset : end;
    if (!over(items->items[i].offset, stop)) kept.push_back(std::move(items->items[i]));
  }
  items->items = std::move(kept);
}

std::string_view Chars(const yaml_char_t* text) {
  return text == nullptr ? std::string_view() : reinterpret_cast<const char*>(text);
}

std::string_view Chars(const yaml_char_t* text, size_t length) {
  if (text == nullptr) return {};
  return std::string_view(reinterpret_cast<const char*>(text), length);
}

// libyaml's event parser over one span of the source (read in place, not copied). Marks are
// converted to byte offsets of the whole source: libyaml counts lines and characters, and a
// span starts at a line start.
class EventParser {
 public:
  EventParser(const SourceText& source, const Span& span)
      : source_(source), span_(span), first_line_(source.PositionOf(span.begin).line) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_encoding(&parser_, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(
        &parser_, reinterpret_cast<const unsigned char*>(source.text().data() + span.begin),
        span.end - span.begin);
  }
  ~EventParser() { yaml_parser_delete(&parser_); }
  EventParser(const EventParser&) = delete;
  EventParser& operator=(const EventParser&) = delete;

  // The next event into `event` (the caller deletes it); throws SyntaxError.
  void Next(yaml_event_t& event) {
    if (yaml_parser_parse(&parser_, &event) == 0) throw Error();
  }

  size_t OffsetOf(const yaml_mark_t& mark) const {
    const size_t offset = source_.OffsetOf({first_line_ + static_cast<int>(mark.line),
                                            static_cast<int>(mark.column) + 1});
    return std::clamp(offset, span_.begin, span_.end);
  }

 private:
  SyntaxError Error() const {
    std::string message = "the file is not valid YAML: ";
    message += parser_.problem != nullptr ? parser_.problem : "unknown error";
    if (parser_.error == YAML_READER_ERROR) {
      // Bad bytes (not UTF-8): libyaml gives their byte offset, not a mark.
      return {message, std::min(span_.begin + parser_.problem_offset, span_.end)};
    }
    // "while parsing a block mapping" says which construct is open: name its first line.
    const std::string_view context = Chars(reinterpret_cast<const yaml_char_t*>(parser_.context));
    if (context.starts_with("while parsing ")) {
      message += " (" + std::string(context) + " that starts on line " +
                 std::to_string(first_line_ + static_cast<int>(parser_.context_mark.line)) + ")";
    }
    return {message, OffsetOf(parser_.problem_mark)};
  }

  const SourceText& source_;
  Span span_;
  int first_line_;
  yaml_parser_t parser_;
};

// Deletes an event when it goes out of scope.
struct EventHolder {
  yaml_event_t event{};
  ~EventHolder() { yaml_event_delete(&event); }
};

ScalarStyle StyleOf(yaml_scalar_style_t style) {
  switch (style) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return ScalarStyle::kSingleQuoted;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return ScalarStyle::kDoubleQuoted;
    case YAML_LITERAL_SCALAR_STYLE: return ScalarStyle::kLiteral;
    case YAML_FOLDED_SCALAR_STYLE: return ScalarStyle::kFolded;
    default: return ScalarStyle::kPlain;
  }
}

// The tag as the resolver reads it: none for the non-specific "!" (a quoted or plain scalar
// without a tag).
std::string_view TagOf(const yaml_char_t* tag) {
  std::string_view t = Chars(tag);
  return t == "!" ? std::string_view() : t;
}

// Feeds one node event to `builder`; false for an event that is not a node's.
bool AddNodeEvent(const yaml_event_t& e, const EventParser& parser, TreeBuilder& builder) {
  const size_t offset = parser.OffsetOf(e.start_mark);
  switch (e.type) {
    case YAML_SCALAR_EVENT:
      builder.OnScalar(offset, TagOf(e.data.scalar.tag), std::string(Chars(e.data.scalar.anchor)),
                       Chars(e.data.scalar.value, e.data.scalar.length),
                       StyleOf(e.data.scalar.style));
      return true;
    case YAML_ALIAS_EVENT:
      builder.OnAlias(offset, std::string(Chars(e.data.alias.anchor)));
      return true;
    case YAML_SEQUENCE_START_EVENT:
      builder.Open(offset, std::string(Chars(e.data.sequence_start.anchor)),
                   e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE, NodeKind::kSequence);
      return true;
    case YAML_MAPPING_START_EVENT:
      builder.Open(offset, std::string(Chars(e.data.mapping_start.anchor)),
                   e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE, NodeKind::kMap);
      return true;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      builder.Close();
      return true;
    default:
      return false;
  }
}

// Where parsed documents go, and where the stream is (DocumentStreamState).
struct DocumentSink {
  const std::function<void(Document&)>& emit;
  Diagnostics& diagnostics;
  DocumentStreamState& state;
  TreeRecycler& recycler;  // the tree of the last document, to build the next one in
};

// Hands the document `builder` holds to the sink.
void EmitDocument(const SourceText& source, const Span& span, const ParseOptions& options,
                  TreeBuilder& builder, DocumentSink& sink) {
  Document& doc = builder.FinishDocument();
  doc.index = sink.state.index++;
  doc.empty = !builder.has_root() || doc.root.kind == NodeKind::kNull;
  DropObjectsOverLimit(source, span.end, options, doc, sink.diagnostics);
  ++sink.state.emitted;
  sink.emit(doc);
}

// ScanSimpleYaml's events, into a TreeBuilder; offsets are made the whole source's.
class TreeSink final : public YamlNodeSink {
 public:
  TreeSink(TreeBuilder& builder, size_t base) : builder_(builder), base_(base) {}
  void OnScalar(size_t offset, std::string_view value, ScalarStyle style) override {
    builder_.OnScalar(base_ + offset, {}, kNoAnchor, value, style);
  }
  void OnOpen(size_t offset, NodeKind kind, bool flow) override {
    builder_.Open(base_ + offset, kNoAnchor, flow, kind);
  }
  void OnClose() override { builder_.Close(); }

 private:
  static inline const std::string kNoAnchor;
  TreeBuilder& builder_;
  size_t base_;
};

// The span through the fast path; false (nothing emitted) where it gives up, or where a limit
// is hit: libyaml then reads the span again and reports what it finds first.
bool ParseSimpleSpan(const SourceText& source, const Span& span, const ParseOptions& options,
                     DocumentSink& sink) {
  if (!options.simple_yaml_fast_path || sink.state.emitted >= options.max_documents) {
    return false;
  }
  size_t node_count = 0;
  TreeBuilder builder(source, options, &node_count, sink.recycler);
  TreeSink tree(builder, span.begin);
  try {
    const std::string_view text =
        std::string_view(source.text()).substr(span.begin, span.end - span.begin);
    if (!ScanSimpleYaml(text, tree)) return false;
  } catch (const LimitExceeded&) {
    return false;
  } catch (const SyntaxError&) {
    return false;
  }
  EmitDocument(source, span, options, builder, sink);
  return true;
}

// Parses the documents of one span. Limits per document (depth, nodes, object size) and
// syntax errors throw or are reported.
void ParseSpan(const SourceText& source, const Span& span, const ParseOptions& options,
               DocumentSink& sink) {
  if (ParseSimpleSpan(source, span, options, sink)) return;
  EventParser parser(source, span);
  std::optional<TreeBuilder> builder;
  size_t node_count = 0;
  for (;;) {
    EventHolder held;
    parser.Next(held.event);
    const yaml_event_t& e = held.event;
    if (e.type == YAML_STREAM_END_EVENT) return;
    if (e.type == YAML_DOCUMENT_START_EVENT) {
      if (sink.state.emitted >= options.max_documents) {
        throw LimitExceeded{"decode.too-many-documents",
                            "the input has more than " + std::to_string(options.max_documents) +
                                " documents",
                            span.begin};
      }
      node_count = 0;
      builder.emplace(source, options, &node_count, sink.recycler);
    } else if (e.type == YAML_DOCUMENT_END_EVENT && builder.has_value()) {
      EmitDocument(source, span, options, *builder, sink);
      builder.reset();
    } else if (builder.has_value()) {
      AddNodeEvent(e, parser, *builder);
    }
  }
}

// Parses one span into the sink; sets state.stopped when the rest of the stream must not be
// read: after a syntax error (kubectl stops at a document it cannot read) or past
// max_documents. A document over a per-document limit is reported alone and the stream goes on.
void ParseSpanReporting(const SourceText& source, const Span& span, const ParseOptions& options,
                        DocumentSink& sink) {
  Diagnostics& result = sink.diagnostics;
  try {
    ParseSpan(source, span, options, sink);
  } catch (const LimitExceeded& e) {
    AddError(result, source, e.code, e.message, e.offset);
    ++sink.state.index;
    sink.state.stopped = e.code == "decode.too-many-documents";
  } catch (const SyntaxError& e) {
    AddError(result, source, "decode.yaml-syntax", e.message, e.offset);
    sink.state.stopped = true;
  } catch (const std::exception& e) {  // std::bad_alloc
    AddError(result, source, "decode.yaml-syntax",
             std::string("the file could not be read as YAML: ") + e.what(), span.begin);
    sink.state.stopped = true;
  }
}

}  // namespace

// Documents are parsed one at a time (SplitDocuments), so that a limit hit in one document
// does not hide the others, and sizes are checked per object, as the API server checks them.
Diagnostics ForEachDocument(const SourceText& source, const ParseOptions& options,
                            const std::function<void(Document&)>& on_document) {
  Diagnostics diagnostics;
  DocumentStreamState state;
  TreeRecycler recycler;
  DocumentSink sink{on_document, diagnostics, state, recycler};
  for (const Span& span : SplitDocuments(source.text())) {
    ParseSpanReporting(source, span, options, sink);
    if (state.stopped) break;
  }
  return diagnostics;
}

void ForEachDocumentInPiece(const SourceText& piece, const ParseOptions& options,
                            DocumentStreamState& state, Diagnostics& diagnostics,
                            const std::function<void(Document&)>& on_document) {
  if (state.stopped) return;
  if (state.recycler == nullptr) state.recycler = std::make_shared<TreeRecycler>();
  DocumentSink sink{on_document, diagnostics, state, *state.recycler};
  ParseSpanReporting(piece, Span{0, piece.text().size()}, options, sink);
}

DocumentReader::DocumentReader(std::istream& in, std::string name, size_t max_document_bytes)
    : in_(in), name_(std::move(name)), max_bytes_(max_document_bytes) {}

bool DocumentReader::ReadLine(std::string& line) {
  line.clear();
  for (;;) {
    const size_t newline = buffer_.find('\n', buffer_pos_);
    if (newline != std::string::npos) {
      line.append(buffer_, buffer_pos_, newline + 1 - buffer_pos_);
      buffer_pos_ = newline + 1;
      return true;
    }
    line.append(buffer_, buffer_pos_, std::string::npos);
    buffer_.clear();
    buffer_pos_ = 0;
    if (eof_) return !line.empty();
    // A line longer than a whole document may be is not read further (minified JSON is one
    // line: it is held as the document it is).
    if (line.size() > max_bytes_) return true;
    constexpr size_t kMaxChunk = size_t{64} << 10;
    buffer_.resize(chunk_);
    in_.read(buffer_.data(), static_cast<std::streamsize>(chunk_));
    buffer_.resize(static_cast<size_t>(in_.gcount()));
    chunk_ = std::min(chunk_ * 2, kMaxChunk);
    if (!in_) eof_ = true;
  }
}

DocumentReader::Result DocumentReader::Next(SourceText* piece) {
  if (done_) return Result::kEnd;
  std::string line;
  auto emit = [&](std::string text, int first_line) {
    // Grown line by line, the text has up to twice its size reserved; lint holds the text of
    // every checked object until the cross-object stages have run (~200 bytes an object
    // saved of 10,000 small templates' ~6.5 KB each).
    if (text.capacity() - text.size() > text.size() / 4) text.shrink_to_fit();
    *piece = SourceText(name_, std::move(text), first_line);
    started_ = true;
    return Result::kPiece;
  };
  while (ReadLine(line)) {
    if (next_line_ == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    const int number = next_line_++;
    std::string_view bare = line;
    if (bare.ends_with('\n')) bare.remove_suffix(1);
    if (StartsKubectlDocument(bare)) {
      const bool split = current_has_content_;
      const int begin_line = directives_.empty() ? number : directives_line_;
      std::string next = std::move(directives_);
      directives_.clear();
      next += line;
      if (split) {
        std::string done = std::move(current_);
        const int done_line = current_line_;
        current_ = std::move(next);
        current_line_ = begin_line;
        current_has_content_ = true;
        return emit(std::move(done), done_line);
      }
      current_ += next;
      current_has_content_ = true;
    } else if (bare.starts_with("%")) {
      if (directives_.empty()) directives_line_ = number;
      directives_ += line;
    } else {
      current_ += directives_;
      directives_.clear();
      current_ += line;
      current_has_content_ = true;
    }
    if (current_.size() + directives_.size() > max_bytes_) {
      done_ = true;
      return Result::kTooLarge;
    }
  }
  done_ = true;
  if (in_.bad()) return Result::kReadError;
  current_ += directives_;
  if (current_.empty() && started_) return Result::kEnd;
  return emit(std::move(current_), current_line_);
}

ParseResult ParseDocuments(const SourceText& source, const ParseOptions& options) {
  ParseResult result;
  result.diagnostics = ForEachDocument(
      source, options, [&](Document& doc) { result.documents.push_back(std::move(doc)); });
  return result;
}

}  // namespace draguard::k8s
