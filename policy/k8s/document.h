// A positioned document tree for YAML and JSON input.
//
// ParseDocuments splits the stream at `---` lines (as kubectl does) and parses each document
// alone (JSON is YAML 1.2 flow, so the same path serves both) and builds a small tree that
// remembers where every node and every map key starts and how each scalar was written. Scalar
// types are resolved the way Kubernetes' YAML decoder (sigs.k8s.io/yaml on go-yaml v2, i.e.
// YAML 1.1 rules) resolves them: plain `yes`/`no`/`on`/`off`/`y`/`n` and friends are booleans,
// `~`/`null`/empty are null, quoted or tagged `!!str` scalars are always strings.
//
// Aliases are expanded into copies (bounded by ParseOptions::max_nodes, which stops "billion
// laughs"). The parser is libyaml's (the C library Kubernetes' go-yaml v2 is a port of): its
// errors become `decode.yaml-syntax` diagnostics with the parser's position.
#ifndef DRAGUARD_POLICY_K8S_DOCUMENT_H_
#define DRAGUARD_POLICY_K8S_DOCUMENT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/source.h"

namespace draguard::k8s {

enum class NodeKind : uint8_t { kNull, kBool, kInt, kFloat, kString, kSequence, kMap };

// How a scalar was written in the source; decides how value offsets map back to the file.
enum class ScalarStyle : uint8_t { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral, kFolded };

// "null", "boolean", "integer", "number", "string", "array", "object" (JSON-schema words,
// as used in wrong-type messages).
std::string_view NodeKindName(NodeKind kind);

struct MapEntry;

// One node of a parsed document. Trees of every decoded object stay alive for as long as its
// diagnostics may need locating, so the node is kept small (the tag, once resolved, is not
// kept; the flags share a word): a 20 MB stream is about a million of them.
struct DocNode {
  // Decoded scalar text (after unescaping and folding); empty for collections.
  std::string text;
  // Where the node starts: byte offset into the SourceText, and its 1-based position. For a
  // quoted or block scalar this is the opening quote or indicator.
  size_t offset = 0;
  SourcePosition position;
  // Resolved values (valid when kind says so; an integer sets float_value too).
  int64_t int_value = 0;
  double float_value = 0;
  std::vector<DocNode> items;      // kSequence
  std::vector<MapEntry> entries;  // kMap, in document order (duplicates kept)
  NodeKind kind = NodeKind::kNull;
  ScalarStyle style = ScalarStyle::kPlain;
  bool flow = false;        // a `[...]`/`{...}` collection
  bool from_alias = false;  // a copy made for `*alias`
  bool bool_value = false;

  bool is_scalar() const { return kind != NodeKind::kSequence && kind != NodeKind::kMap; }
  // The value of the first entry whose key text is `key`; nullptr when absent or not a map.
  const DocNode* Find(std::string_view key) const;
  // Everything the node holds, nested, one node per line: for tests that compare trees.
  std::string DebugString() const;
};

struct MapEntry {
  DocNode key;
  DocNode value;
};

// One YAML document of the stream.
struct Document {
  DocNode root;
  size_t index = 0;  // position in the stream, 0-based
  bool empty = false;  // no content (only comments) or a null root: nothing to decode
};

struct ParseOptions {
  // Objects (a document, an item of a `kind: ...List`) larger than this: `decode.too-large`.
  size_t max_bytes = 3 * 1024 * 1024;  // the API server's limit per object, not per file
  // Collections nested deeper than this are refused with `decode.too-deep`.
  int max_depth = 256;
  // Nodes in one document, alias copies included (`decode.too-many-nodes`).
  size_t max_nodes = 1'000'000;
  // Documents in one stream (`decode.too-many-documents`).
  size_t max_documents = 1'000'000;
  // Read what tools print with ScanSimpleYaml (simple_yaml.h) and libyaml only the rest: the
  // same trees, several times faster. Off only to compare the two paths.
  bool simple_yaml_fast_path = true;
};

struct ParseResult {
  std::vector<Document> documents;
  // Syntax errors and limits (`decode.yaml-syntax`, `decode.too-large`, ...), positioned in
  // the source. A syntax error ends the stream; an object over a limit is dropped alone.
  Diagnostics diagnostics;
};

// Parses `source` into documents. Never throws; every problem is a positioned diagnostic.
// Thread-compatible; the result does not refer to `source`.
ParseResult ParseDocuments(const SourceText& source, const ParseOptions& options = {});

// The documents (index, whether empty, tree) and diagnostics (code, position, message) of a
// parse, one line each: for tests and fuzz targets that compare two parses.
std::string DebugString(const ParseResult& result);

// The same, one document at a time: each is handed to `on_document` as soon as it is read,
// so that a stream of any length holds one document's tree at a time. The callee may move the
// tree away; a tree it leaves is overwritten by the next document's (its nodes, strings and
// vectors reused: a stream of documents of one shape builds trees without allocating), so it
// must not keep pointers into it. Returns ParseResult::diagnostics.
Diagnostics ForEachDocument(const SourceText& source, const ParseOptions& options,
                            const std::function<void(Document&)>& on_document);

// The last document's tree and the nodes it no longer uses, in which the next document's
// tree is built (document.cc).
class TreeRecycler;

// Where a stream of documents is between its pieces (ForEachDocumentInPiece).
struct DocumentStreamState {
  size_t index = 0;      // the next document's index in the stream
  size_t emitted = 0;    // documents handed out so far (for max_documents)
  bool stopped = false;  // a syntax error or max_documents ended the stream
  std::shared_ptr<TreeRecycler> recycler;  // made by the first piece
};

// ForEachDocument over one piece of a stream, as DocumentReader hands them out (a SourceText
// with its first_line), continuing `state`; appends to `diagnostics`. Pieces fed in order
// give what ForEachDocument gives for the whole text, without the whole text in memory.
void ForEachDocumentInPiece(const SourceText& piece, const ParseOptions& options,
                            DocumentStreamState& state, Diagnostics& diagnostics,
                            const std::function<void(Document&)>& on_document);

// Reads a stream (a file, stdin) in chunks and hands it out one kubectl document at a time:
// the text is split where ForEachDocument splits it (a line that starts with `---`, with the
// `%` directive lines just before it), so only the current document's text is held. Each
// piece is a SourceText named `name` whose first_line is where it starts in the stream, so
// positions stay exact. A leading UTF-8 BOM is dropped.
class DocumentReader {
 public:
  // Refuses a document over `max_document_bytes` (it would be held whole; the API server's
  // limit of 3 MiB per object is checked by the parser, per object): Next() then fails.
  DocumentReader(std::istream& in, std::string name, size_t max_document_bytes);

  enum class Result { kPiece, kEnd, kTooLarge, kReadError };
  // The next piece into *piece. The first call always gives a piece (empty for empty input).
  Result Next(SourceText* piece);

 private:
  // Reads the next line (with its '\n') into `line`; false at the end of the input.
  bool ReadLine(std::string& line);

  std::istream& in_;
  std::string name_;
  size_t max_bytes_;
  std::string buffer_;  // read, not yet handed out as lines
  size_t buffer_pos_ = 0;
  // The next read's size: 4 KiB, doubling up to 64 KiB as the input goes on. Most manifests
  // are a few KB: a 64 KiB buffer for each is a large allocation, which the release build's
  // allocator returns to the system when freed (lint of 10,000 small files: 20,000 madvise
  // calls and their page faults, more CPU than the linting).
  size_t chunk_ = size_t{4} << 10;
  bool eof_ = false;
  bool started_ = false;  // the first piece (and the BOM check) done
  bool done_ = false;
  std::string current_;     // the piece being gathered
  int current_line_ = 1;    // its first line
  bool current_has_content_ = false;  // lines other than pending directives
  std::string directives_;  // `%` lines just seen, not yet placed
  int directives_line_ = 0;
  int next_line_ = 1;       // the number of the next line read
};

// Maps a byte offset inside a scalar's decoded text back to the byte offset in `source` of
// the character that produced it, through quotes, escapes, line folding and block
// indentation. Offsets past the end map to the end of the scalar. For non-scalars and alias
// copies it returns node.offset.
size_t SourceOffsetOfValueByte(const SourceText& source, const DocNode& node,
                               size_t value_offset);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_DOCUMENT_H_
