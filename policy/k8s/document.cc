// Builds the positioned tree from yaml-cpp's event stream.
//
// TreeBuilder receives the events of one document and keeps a stack of open collections; a
// map alternates between "expecting a key" and "expecting a value". Each scalar's style is
// learnt by rescanning the source at its mark (past any `&anchor`/`!tag` properties), and its
// type is resolved with YAML 1.1 rules (scalar_resolve.h). Limits (depth, node count) are
// enforced in the handler by throwing LimitExceeded, which, like every yaml-cpp exception, is
// caught in ParseDocuments and turned into a diagnostic.
#include "policy/k8s/document.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <istream>
#include <streambuf>
#include <stdexcept>
#include <utility>

#include "policy/k8s/scalar_resolve.h"

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

struct LimitExceeded {
  std::string code;
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

ScalarStyle StyleAt(std::string_view text, size_t pos) {
  if (pos >= text.size()) return ScalarStyle::kPlain;
  switch (text[pos]) {
    case '\'': return ScalarStyle::kSingleQuoted;
    case '"': return ScalarStyle::kDoubleQuoted;
    case '|': return ScalarStyle::kLiteral;
    case '>': return ScalarStyle::kFolded;
    default: return ScalarStyle::kPlain;
  }
}

class TreeBuilder : public YAML::EventHandler {
 public:
  // `base`: where in `source` the text given to the parser starts (marks are relative to it).
  TreeBuilder(const SourceText& source, const ParseOptions& options, size_t* node_count,
              size_t base)
      : source_(source), options_(options), node_count_(node_count), base_(base) {}

  Document TakeDocument() { return std::move(doc_); }
  bool has_root() const { return has_root_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    DocNode n = MakeNode(mark);
    n.kind = NodeKind::kNull;
    Add(std::move(n), anchor, /*opens=*/false);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    DocNode n;
    size_t size = 1;
    if (it != anchors_.end()) {
      n = it->second.node;
      size = it->second.size;
      // Copies nest: without this check, chains of aliases could build trees far deeper
      // than the text, and recursion over them could exhaust the stack.
      if (static_cast<int>(stack_.size()) + it->second.height > options_.max_depth) {
        throw LimitExceeded{"decode.too-deep",
                            "expanding this alias nests collections more than " +
                                std::to_string(options_.max_depth) + " levels deep",
                            Offset(mark)};
      }
    }
    Count(size, mark);
    n.from_alias = true;
    n.offset = Offset(mark);
    n.position = source_.PositionOf(n.offset);
    Add(std::move(n), 0, /*opens=*/false);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    DocNode n = MakeNode(mark);
    n.style = StyleAt(source_.text(), n.offset);
    n.text = value;
    // yaml-cpp reports "?" for an untagged plain scalar and "!" for the non-specific tag.
    ResolveScalar(n, tag == "?" || tag == "!" ? std::string_view() : std::string_view(tag));
    Add(std::move(n), anchor, /*opens=*/false);
  }

  // A collection's tag changes nothing in Kubernetes' decoder: it is not kept.
  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    Open(mark, anchor, style, NodeKind::kSequence);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    Open(mark, anchor, style, NodeKind::kMap);
  }
  void OnMapEnd() override { Close(); }

 private:
  struct Frame {
    DocNode* node;
    YAML::anchor_t anchor;
  };

  size_t Offset(const YAML::Mark& mark) const {
    return std::min<size_t>(base_ + static_cast<size_t>(std::max(mark.pos, 0)),
                            source_.text().size());
  }

  void Count(size_t n, const YAML::Mark& mark) {
    *node_count_ += n;
    if (*node_count_ > options_.max_nodes) {
      throw LimitExceeded{"decode.too-many-nodes",
                          "the document has more than " + std::to_string(options_.max_nodes) +
                              " nodes (aliases included)",
                          Offset(mark)};
    }
  }

  DocNode MakeNode(const YAML::Mark& mark) {
    Count(1, mark);
    DocNode n;
    n.offset = SkipProperties(source_.text(), Offset(mark));
    if (n.offset >= source_.text().size()) n.offset = Offset(mark);
    n.position = source_.PositionOf(n.offset);
    return n;
  }

  void Open(const YAML::Mark& mark, YAML::anchor_t anchor,
            YAML::EmitterStyle::value style, NodeKind kind) {
    if (static_cast<int>(stack_.size()) >= options_.max_depth) {
      throw LimitExceeded{"decode.too-deep",
                          "collections are nested more than " +
                              std::to_string(options_.max_depth) + " levels deep",
                          Offset(mark)};
    }
    DocNode n = MakeNode(mark);
    n.kind = kind;
    n.flow = style == YAML::EmitterStyle::Flow;
    DocNode* slot = Add(std::move(n), 0, /*opens=*/true);
    stack_.push_back(Frame{slot, anchor});
  }

  void Close() {
    if (stack_.empty()) return;
    Frame f = stack_.back();
    stack_.pop_back();
    expecting_key_.pop_back();
    if (f.node->kind == NodeKind::kMap) ExpandMergeKeys(*f.node);
    // The tree outlives the parse (decoded objects locate diagnostics in it): drop the spare
    // capacity growth left, about a third of a map's entries.
    f.node->entries.shrink_to_fit();
    f.node->items.shrink_to_fit();
    if (f.anchor != 0) anchors_[f.anchor] = {*f.node, CountNodes(*f.node), Height(*f.node)};
    if (!stack_.empty() && stack_.back().node->kind == NodeKind::kMap) {
      expecting_key_.back() = !expecting_key_.back();
    }
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

  // Places `n` in the open collection (or as the root) and returns where it now lives.
  // `opens` is true for a collection whose items follow (not for an alias copy).
  DocNode* Add(DocNode n, YAML::anchor_t anchor, bool opens) {
    const bool collection = opens;
    if (anchor != 0 && !opens) anchors_[anchor] = {n, 1, Height(n)};
    DocNode* slot = nullptr;
    if (stack_.empty()) {
      doc_.root = std::move(n);
      has_root_ = true;
      slot = &doc_.root;
    } else {
      DocNode* parent = stack_.back().node;
      if (parent->kind == NodeKind::kSequence) {
        parent->items.push_back(std::move(n));
        slot = &parent->items.back();
      } else if (expecting_key_.back()) {
        parent->entries.push_back(MapEntry{std::move(n), DocNode{}});
        slot = &parent->entries.back().key;
        if (!collection) expecting_key_.back() = false;
      } else {
        parent->entries.back().value = std::move(n);
        slot = &parent->entries.back().value;
        if (!collection) expecting_key_.back() = true;
      }
    }
    if (collection) expecting_key_.push_back(true);
    return slot;
  }

  const SourceText& source_;
  const ParseOptions& options_;
  size_t* node_count_;
  size_t base_;
  Document doc_;
  bool has_root_ = false;
  std::vector<Frame> stack_;
  // One flag per open collection; for maps, whether the next node is a key. The entry for
  // the parent map is flipped when a child collection closes.
  std::vector<bool> expecting_key_;
  struct Anchored {
    DocNode node;
    size_t size;  // nodes, for max_nodes
    int height;   // collection levels, for max_depth
  };
  std::map<YAML::anchor_t, Anchored> anchors_;
};

void AddError(ParseResult& result, const SourceText& source, std::string code,
              std::string message, size_t offset) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.code = std::move(code);
  d.message = std::move(message);
  d.file = source.name();
  d.position = source.PositionOf(offset);
  result.diagnostics.Add(std::move(d));
}

// An input stream over text it does not own: yaml-cpp reads a document where it lies in the
// source, without the two copies a substr and an istringstream would make of it.
class ViewStreamBuf : public std::streambuf {
 public:
  explicit ViewStreamBuf(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // never written: get area only
    setg(begin, begin, begin + text.size());
  }
};

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

// yaml-cpp reports a mark of -1 for errors at the end of input.
size_t MarkOffset(const YAML::Mark& mark, const Span& span) {
  if (mark.pos < 0) return span.end;
  return std::min(span.begin + static_cast<size_t>(mark.pos), span.end);
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
                          Document& doc, ParseResult& result) {
  auto over = [&](size_t begin, size_t stop) {
    if (stop <= begin || stop - begin <= options.max_bytes) return false;
    AddError(result, source, "decode.too-large",
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

// Parses the documents of one span, numbering them from `index`. Limits per document (depth,
// nodes, object size) and syntax errors throw or are reported.
void ParseSpan(const SourceText& source, const Span& span, const ParseOptions& options,
               size_t& index, ParseResult& result) {
  ViewStreamBuf buffer(std::string_view(source.text()).substr(span.begin, span.end - span.begin));
  std::istream in(&buffer);
  YAML::Parser parser(in);
  for (;; ++index) {
    size_t node_count = 0;
    TreeBuilder builder(source, options, &node_count, span.begin);
    if (!parser.HandleNextDocument(builder)) break;
    if (result.documents.size() >= options.max_documents) {
      throw LimitExceeded{"decode.too-many-documents",
                          "the input has more than " + std::to_string(options.max_documents) +
                              " documents",
                          span.begin};
    }
    Document doc = builder.TakeDocument();
    doc.index = index;
    doc.empty = !builder.has_root() || doc.root.kind == NodeKind::kNull;
    DropObjectsOverLimit(source, span.end, options, doc, result);
    result.documents.push_back(std::move(doc));
  }
}

// Parses one span into `result`; returns false when the rest of the stream must not be read:
// after a syntax error (kubectl stops at a document it cannot read) or past max_documents.
// A document over a per-document limit is reported alone and the stream goes on.
bool ParseSpanReporting(const SourceText& source, const Span& span, const ParseOptions& options,
                        size_t& index, ParseResult& result) {
  try {
    ParseSpan(source, span, options, index, result);
  } catch (const LimitExceeded& e) {
    AddError(result, source, e.code, e.message, e.offset);
    ++index;
    return e.code != "decode.too-many-documents";
  } catch (const YAML::Exception& e) {
    AddError(result, source, "decode.yaml-syntax",
             "the file is not valid YAML: " + (e.msg.empty() ? std::string(e.what()) : e.msg),
             MarkOffset(e.mark, span));
    return false;
  } catch (const std::exception& e) {
    AddError(result, source, "decode.yaml-syntax",
             std::string("the file could not be read as YAML: ") + e.what(), span.begin);
    return false;
  }
  return true;
}

}  // namespace

// Documents are parsed one at a time (SplitDocuments), so that a limit hit in one document
// does not hide the others, and sizes are checked per object, as the API server checks them.
ParseResult ParseDocuments(const SourceText& source, const ParseOptions& options) {
  ParseResult result;
  size_t index = 0;
  for (const Span& span : SplitDocuments(source.text())) {
    if (!ParseSpanReporting(source, span, options, index, result)) break;
  }
  return result;
}

}  // namespace draguard::k8s
