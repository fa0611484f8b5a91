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

// Builds the tree of one document from libyaml's events. Offsets are byte offsets into the
// whole source (the event loop converts libyaml's marks).
class TreeBuilder {
 public:
  TreeBuilder(const SourceText& source, const ParseOptions& options, size_t* node_count)
      : source_(source), options_(options), node_count_(node_count) {
    pending_.reserve(64);  // a ResourceSlice of 8 devices needs about 50
    stack_.reserve(16);
  }

  // The document, its open collections closed (a whole stream leaves none open).
  Document TakeDocument() {
    while (!stack_.empty()) Close();
    return std::move(doc_);
  }
  bool has_root() const { return has_root_; }

  void OnAlias(size_t offset, const std::string& anchor) {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {  // go-yaml's words: the API server rejects it so
      throw SyntaxError{"the file is not valid YAML: unknown anchor '" + anchor + "' referenced",
                        offset};
    }
    DocNode n = it->second.node;
    // Copies nest: without this check, chains of aliases could build trees far deeper than
    // the text, and recursion over them could exhaust the stack.
    if (static_cast<int>(stack_.size()) + it->second.height > options_.max_depth) {
      throw LimitExceeded{"decode.too-deep",
                          "expanding this alias nests collections more than " +
                              std::to_string(options_.max_depth) + " levels deep",
                          offset};
    }
    Count(it->second.size, offset);
    n.from_alias = true;
    n.offset = offset;
    n.position = source_.PositionOf(n.offset, position_hint_);
    Place(std::move(n));
  }

  // `tag` as written and resolved by libyaml ("tag:yaml.org,2002:str"), empty when untagged.
  void OnScalar(size_t offset, std::string_view tag, const std::string& anchor,
                std::string_view value, ScalarStyle style) {
    Count(1, offset);
    DocNode& n = NewSlot();  // built in place: a node is a few hundred bytes to move
    Locate(n, offset);
    n.style = style;
    n.text = value;
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
    Frame& f = stack_.emplace_back();
    f.first = pending_.size();
    f.anchor = anchor;
    Locate(f.node, offset);
    f.node.kind = kind;
    f.node.flow = flow;
  }

  // Completes the innermost open collection: its children, held in pending_ until now, move
  // into vectors of their exact size (one allocation each, nothing to shrink later: the tree
  // outlives the parse), and the collection takes its place in its parent.
  void Close() {
    if (stack_.empty()) return;
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    DocNode& node = f.node;
    const auto first = pending_.begin() + static_cast<std::ptrdiff_t>(f.first);
    if (node.kind == NodeKind::kMap) {
      const size_t count = pending_.size() - f.first;
      // A key without its value (only from a stream cut short) gets a null value.
      node.entries.resize((count + 1) / 2);
      for (size_t i = 0; i < count; ++i) {
        MapEntry& entry = node.entries[i / 2];
        (i % 2 == 0 ? entry.key : entry.value) = std::move(pending_[f.first + i]);
      }
      ExpandMergeKeys(node);
    } else {
      node.items.assign(std::make_move_iterator(first), std::make_move_iterator(pending_.end()));
    }
    pending_.erase(first, pending_.end());
    if (!f.anchor.empty()) anchors_[f.anchor] = {node, CountNodes(node), Height(node)};
    Place(std::move(node));
  }

 private:
  // An open collection. Its children are pending_[first...]: a map's as key, value, key, ...
  struct Frame {
    DocNode node;
    size_t first;
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

  // Where the next complete node goes: after the open collection's children, or the root.
  DocNode& NewSlot() {
    if (!stack_.empty()) return pending_.emplace_back();
    doc_.root = DocNode{};
    has_root_ = true;
    return doc_.root;
  }

  void Place(DocNode&& n) { NewSlot() = std::move(n); }

  const SourceText& source_;
  const ParseOptions& options_;
  size_t* node_count_;
  Document doc_;
  bool has_root_ = false;
  std::vector<Frame> stack_;
  // The completed children of every open collection, innermost last (see Frame).
  std::vector<DocNode> pending_;
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
};

// Hands the document `builder` holds to the sink.
void EmitDocument(const SourceText& source, const Span& span, const ParseOptions& options,
                  TreeBuilder& builder, DocumentSink& sink) {
  Document doc = builder.TakeDocument();
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
  TreeBuilder builder(source, options, &node_count);
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
      builder.emplace(source, options, &node_count);
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
  DocumentSink sink{on_document, diagnostics, state};
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
  DocumentSink sink{on_document, diagnostics, state};
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
    constexpr size_t kChunk = 64 * 1024;
    buffer_.resize(kChunk);
    in_.read(buffer_.data(), static_cast<std::streamsize>(kChunk));
    buffer_.resize(static_cast<size_t>(in_.gcount()));
    if (!in_) eof_ = true;
  }
}

DocumentReader::Result DocumentReader::Next(SourceText* piece) {
  if (done_) return Result::kEnd;
  std::string line;
  auto emit = [&](std::string text, int first_line) {
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
