// A recursive-descent JSON reader (RFC 8259) that builds the DocNode tree in place.
//
// It replaced nlohmann's SAX interface on the webhook's hot path: that route moved every
// scalar through a temporary std::string and every node through two DocNode moves, and
// nlohmann's lexer alone was a quarter of a request's CPU. Here a string without escapes is
// copied once, from the input into its node, and collections are filled in place. Tokens are
// JsonLexer's, the review scanner's too; fuzz/webhook_object_fuzzer.cc checks the accepted
// language against nlohmann::json::accept.
#include "webhook/admission/json_object.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "policy/k8s/decode.h"
#include "webhook/admission/collection_end.h"
#include "webhook/admission/direct_decode.h"
#include "webhook/admission/json_lexer.h"

namespace draguard::webhook {
namespace {

using k8s::DocNode;
using k8s::NodeKind;

// What an object is, for the one subtree that is not built: metadata.managedFields is the API
// server's bookkeeping, often half of a stored object, and no check reads it.
enum class ObjectRole { kRoot, kMetadata, kOther };

class TreeParser {
 public:
  TreeParser(JsonLexer& lexer, size_t max_depth, DeferredSpec* defer = nullptr,
             DirectMetadata* direct = nullptr)
      : lexer_(lexer), max_depth_(max_depth), defer_(defer), direct_(direct) {}

  bool Parse(DocNode& root, size_t depth) { return ParseValue(&root, depth, ObjectRole::kRoot); }
  // A member's value at the lexer's position, as ParseObject reads it (ReadDeferredSpec).
  bool ParseMember(DocNode* node, size_t depth) {
    return ParseValue(node, depth, ObjectRole::kOther);
  }
  // The text of the root object's `spec` after Parse(); empty unless there was exactly one.
  std::string_view root_spec() const { return spec_count_ == 1 ? spec_ : std::string_view(); }

 private:
  // Each Parse* reads one value at the lexer's position into `node`, or only checks it when
  // `node` is null. `depth` counts the collections around it. `node` may hold a value of an
  // earlier parse (see ReadJsonTree): every field is set again, and its strings and child
  // vectors are reused, members and items by position, so that a review shaped like the
  // previous one is read without allocating or freeing.
  bool ParseValue(DocNode* node, size_t depth, ObjectRole role);
  // ParseValue for a member or an item: a string, most of them, is read in the caller's loop
  // (ParseValue is a large recursive function whose call costs as much as a short string).
  bool ParseChild(DocNode* node, size_t depth, ObjectRole role) {
    return lexer_.Peek() == '"' ? ParseString(node) : ParseValue(node, depth, role);
  }
  // A string value at the lexer's position.
  bool ParseString(DocNode* node);
  bool ParseObject(DocNode* node, size_t depth, ObjectRole role);
  bool ParseArray(DocNode* node, size_t depth);
  // Steps over the opening bracket of a collection of `kind` at `depth` and the space after
  // it; false when the collection is too deep.
  bool Open(DocNode* node, size_t depth, NodeKind kind);
  bool ParseLiteral(DocNode* node);
  // After a member or an item: the closing bracket `close`, or a comma and the space after it.
  enum class After { kMore, kClosed, kInvalid };
  After AfterElement(char close);
  bool ParseNumber(DocNode* node);
  // Defers the root's spec member at the lexer's position (see ReadJsonTree); false, moving
  // nothing, when it is not an object whose end its brackets give.
  bool Defer(DocNode& value, size_t depth, size_t entry);
  // Decodes the root's first metadata member at the lexer's position straight into direct_
  // (direct_decode.h), leaving `value` an empty object; false, with the lexer back at the
  // value, when the direct decoder gives up.
  bool DecodeMetadata(DocNode& value, size_t depth, size_t entry);
  // After the root object: a metadata decoded directly that turned out repeated is read into
  // its node after all (the tree route then reports the repeat). False on a read error.
  bool UndoRepeatedMetadata(DocNode& root, size_t depth);

  JsonLexer& lexer_;
  size_t max_depth_;
  DeferredSpec* defer_;
  DirectMetadata* direct_;
  int metadata_count_ = 0;  // the root's metadata members
  size_t metadata_begin_ = 0;   // the first one's value's byte, when decoded directly
  size_t metadata_entry_ = 0;  // and its index in the root's entries
  std::string_view spec_;
  int spec_count_ = 0;
  std::string key_scratch_;  // a metadata key with an escape, decoded (ReadStringView)
};

// Clears what a value of any kind sets, keeping the capacity of the strings. Children are
// the collection parsers' to reuse (ParseValue drops those a scalar cannot have).
void ResetScalarFields(DocNode& node) {
  node.kind = NodeKind::kNull;
  node.text.clear();
  node.style = k8s::ScalarStyle::kPlain;
  node.flow = false;
  node.from_alias = false;
  node.offset = 0;
  node.position = {};
  node.bool_value = false;
  node.int_value = 0;
  node.float_value = 0;
}

// Whether `node` is a string node as ParseString leaves it, apart from its text: kind
// kString and double-quoted, every other field at its default, no children. By ReadJsonTree's
// contract a node is a default one or one this parser set, and only ParseString and
// ResetToString set kind kString (ParseValue resets every other kind before reading), so the
// kind and the style say it. review_scanner_test (ReusedFieldsGiveAFreshScansResult) reads
// reviews of every shape into one another's trees.
bool IsParsedString(const DocNode& node) {
  return node.kind == NodeKind::kString && node.style == k8s::ScalarStyle::kDoubleQuoted;
}

// The slot for the `used`-th child of `children`: an earlier parse's when there is one.
template <class T>
T& Slot(std::vector<T>& children, size_t used) {
  return used < children.size() ? children[used] : children.emplace_back();
}

bool TreeParser::ParseValue(DocNode* node, size_t depth, ObjectRole role) {
  const char first = lexer_.Peek();
  if (first == '"') return ParseString(node);  // which sets every field of the node itself
  if (node != nullptr) {
    ResetScalarFields(*node);
    if (first != '{') node->entries.clear();
    if (first != '[') node->items.clear();
  }
  switch (first) {
    case '{': return ParseObject(node, depth + 1, role);
    case '[': return ParseArray(node, depth + 1);
    case 't':
    case 'f':
    case 'n': return ParseLiteral(node);
    default: return ParseNumber(node);
  }
}

// ResetToString's rare case, out of line: a node that is not a string node yet.
[[gnu::noinline]] void ResetOtherToString(DocNode& node) {
  ResetScalarFields(node);
  node.entries.clear();
  node.items.clear();
  node.kind = NodeKind::kString;
  node.style = k8s::ScalarStyle::kDoubleQuoted;
}

// Sets `node` to an empty string node of this parser's (IsParsedString). A node that is one
// already, as most of a reused tree's are, needs only its text cleared instead of the general
// reset's ten stores (~230 instructions of a 23 k review scan, issue 16).
// Inline: called for every key and string value (a call cost ~270 instructions a review).
[[gnu::always_inline]] inline void ResetToString(DocNode& node) {
  node.text.clear();
  if (!IsParsedString(node)) ResetOtherToString(node);
}

// Inline: ParseChild's fast case.
inline bool TreeParser::ParseString(DocNode* node) {
  if (node == nullptr) return lexer_.ReadString(nullptr);
  ResetToString(*node);
  return lexer_.ReadString(&node->text);
}

bool TreeParser::ParseLiteral(DocNode* node) {
  NodeKind kind = NodeKind::kBool;
  std::string_view word = "true";
  if (lexer_.Peek() == 'f') word = "false";
  if (lexer_.Peek() == 'n') {
    kind = NodeKind::kNull;
    word = "null";
  }
  if (!lexer_.ReadLiteral(word)) return false;
  if (node != nullptr) {
    node->kind = kind;
    node->bool_value = word == "true";
    if (kind == NodeKind::kBool) node->text.assign(word);
  }
  return true;
}

bool TreeParser::Open(DocNode* node, size_t depth, NodeKind kind) {
  if (depth > max_depth_) return false;
  lexer_.Advance();  // '{' or '['
  if (node != nullptr) {
    node->kind = kind;
    node->flow = true;
  }
  lexer_.SkipSpace();
  return true;
}

// The byte after an element is looked at once: a comma or the bracket, nearly always (the
// API server sends no space), each a compare. Inline in both loops: gcc kept it a call, whose
// set-up and register spills cost more than its compares (measured in the commit that made it
// so).
[[gnu::always_inline]] inline TreeParser::After TreeParser::AfterElement(char close) {
  char c = lexer_.Peek();
  if (c != ',' && c != close) {
    lexer_.SkipSpace();
    c = lexer_.Peek();
  }
  if (c == close) {
    lexer_.Advance();
    return After::kClosed;
  }
  if (c != ',') return After::kInvalid;
  lexer_.Advance();
  lexer_.SkipSpace();
  return After::kMore;
}

bool TreeParser::ParseObject(DocNode* node, size_t depth, ObjectRole role) {
  if (!Open(node, depth, NodeKind::kMap)) return false;
  size_t used = 0;  // members read into node->entries; later slots are an earlier parse's
  // Most objects of a DRA manifest have a handful of members: one allocation, not three.
  if (node != nullptr && node->entries.empty()) node->entries.reserve(4);
  bool ok = lexer_.Consume('}');
  while (!ok) {
    if (lexer_.Peek() != '"') break;
    // The key of a member that is only checked is not decoded. A kept member's key is read
    // into its slot; metadata's keys are looked at first, so that the slot of the member left
    // out (managedFields, nearly always the last) is not created and dropped on every review.
    k8s::MapEntry* entry = nullptr;
    std::string_view key;
    if (node == nullptr) {
      if (!lexer_.ReadString(nullptr)) break;
    } else if (role == ObjectRole::kMetadata) {
      if (!lexer_.ReadStringView(key, key_scratch_)) break;
      if (key != "managedFields") {
        entry = &Slot(node->entries, used);
        ResetToString(entry->key);
        entry->key.text.assign(key);
      }
    } else {
      entry = &Slot(node->entries, used);
      ResetToString(entry->key);
      if (!lexer_.ReadString(&entry->key.text)) break;
      key = entry->key.text;
    }
    lexer_.SkipSpace();
    if (!lexer_.Consume(':')) break;
    lexer_.SkipSpace();
    DocNode* value = nullptr;
    ObjectRole child = ObjectRole::kOther;
    bool is_spec = false;  // the root's `spec`
    bool direct_metadata = false;  // the root's first `metadata`, to decode directly
    // Each key is compared with the names that matter in its object only, once.
    if (entry != nullptr) {
      value = &entry->value;
      ++used;
      if (role == ObjectRole::kRoot) {
        if (key == "metadata") {
          child = ObjectRole::kMetadata;
          direct_metadata = direct_ != nullptr && ++metadata_count_ == 1;
        }
        is_spec = key == "spec";
      }
    }
    const size_t begin = lexer_.pos();
    const bool deferred = (is_spec && defer_ != nullptr && !defer_->deferred &&
                           Defer(*value, depth, used - 1)) ||
                          (direct_metadata && DecodeMetadata(*value, depth, used - 1));
    if (!deferred && !ParseChild(value, depth, child)) break;
    if (is_spec) {
      spec_ = lexer_.text().substr(begin, lexer_.pos() - begin);
      ++spec_count_;
    }
    const After after = AfterElement('}');
    if (after == After::kInvalid) break;
    ok = after == After::kClosed;
  }
  if (node != nullptr) node->entries.resize(used);
  if (ok && role == ObjectRole::kRoot && node != nullptr) ok = UndoRepeatedMetadata(*node, depth);
  return ok;
}

bool TreeParser::DecodeMetadata(DocNode& value, size_t depth, size_t entry) {
  const size_t begin = lexer_.pos();
  direct_->meta = k8s::ObjectMeta();
  if (!DecodeObjectMetaDirect(lexer_, depth, max_depth_, direct_->meta)) {
    direct_->meta = k8s::ObjectMeta();
    lexer_.Seek(begin);
    return false;
  }
  ResetScalarFields(value);
  value.kind = NodeKind::kMap;
  value.flow = true;
  value.entries.clear();
  value.items.clear();
  direct_->decoded = true;
  metadata_begin_ = begin;
  metadata_entry_ = entry;
  return true;
}

bool TreeParser::UndoRepeatedMetadata(DocNode& root, size_t depth) {
  if (direct_ == nullptr || !direct_->decoded || metadata_count_ < 2) return true;
  direct_->decoded = false;
  direct_->meta = k8s::ObjectMeta();
  const size_t end = lexer_.pos();
  lexer_.Seek(metadata_begin_);
  if (!ParseChild(&root.entries[metadata_entry_].value, depth, ObjectRole::kMetadata)) {
    return false;  // not reached: the direct decoder read this text as valid JSON
  }
  lexer_.Seek(end);
  return true;
}

bool TreeParser::Defer(DocNode& value, size_t depth, size_t entry) {
  if (lexer_.Peek() != '{') return false;
  const size_t begin = lexer_.pos();
  const size_t end = CollectionEnd(lexer_.text(), begin);
  if (end == std::string_view::npos) return false;
  ResetScalarFields(value);
  if (value.entries.size() > defer_->storage.size()) std::swap(value.entries, defer_->storage);
  value.entries.clear();
  value.items.clear();
  defer_->deferred = true;
  defer_->begin = begin;
  defer_->depth = depth;
  defer_->entry = entry;
  lexer_.Seek(end);
  return true;
}

bool TreeParser::ParseArray(DocNode* node, size_t depth) {
  if (!Open(node, depth, NodeKind::kSequence)) return false;
  size_t used = 0;  // as in ParseObject
  bool ok = lexer_.Consume(']');
  while (!ok) {
    DocNode* item = node != nullptr ? &Slot(node->items, used++) : nullptr;
    if (!ParseChild(item, depth, ObjectRole::kOther)) break;
    const After after = AfterElement(']');
    if (after == After::kInvalid) break;
    ok = after == After::kClosed;
  }
  if (node != nullptr) node->items.resize(used);
  return ok;
}

// Integers that fit int64 are ints with their decimal text ("-0" is 0); integers up to
// uint64's maximum are floats with their decimal text; anything else is a float keeping its
// source text, and ±HUGE_VAL or ±0 when out of double's range (as strtod gives them).
bool TreeParser::ParseNumber(DocNode* node) {
  const std::string_view number = lexer_.ReadNumber();
  if (number.empty()) return false;
  if (node == nullptr) return true;
  const char* first = number.data();
  const char* last = number.data() + number.size();
  if (number.find_first_of(".eE") == std::string_view::npos) {
    int64_t value = 0;
    if (std::from_chars(first, last, value).ec == std::errc()) {
      node->kind = NodeKind::kInt;
      node->int_value = value;
      node->text = std::to_string(value);
      return true;
    }
    uint64_t big = 0;
    if (std::from_chars(first, last, big).ec == std::errc()) {
      node->kind = NodeKind::kFloat;
      node->float_value = static_cast<double>(big);
      node->text = std::to_string(big);
      return true;
    }
  }
  double value = 0;
  if (std::from_chars(first, last, value).ec == std::errc::result_out_of_range) {
    value = std::strtod(std::string(number).c_str(), nullptr);
  }
  node->kind = NodeKind::kFloat;
  node->float_value = value;
  node->text.assign(number);
  return true;
}

}  // namespace

bool ReadJsonTree(JsonLexer& lexer, size_t depth, size_t max_depth, DocNode& root,
                  std::string_view* root_spec, DeferredSpec* defer, DirectMetadata* direct) {
  if (defer != nullptr) defer->deferred = false;
  if (direct != nullptr) {
    direct->decoded = false;
    direct->meta = k8s::ObjectMeta();
  }
  TreeParser parser(lexer, max_depth, defer, direct);
  const bool ok = parser.Parse(root, depth);
  if (root_spec != nullptr) *root_spec = ok ? parser.root_spec() : std::string_view();
  return ok;
}

bool ReadDeferredSpec(JsonLexer& lexer, size_t max_depth, DeferredSpec& spec, DocNode* root) {
  lexer.Seek(spec.begin);
  DocNode* node = root != nullptr && spec.entry < root->entries.size()
                      ? &root->entries[spec.entry].value
                      : nullptr;
  if (node != nullptr && node->entries.empty()) std::swap(node->entries, spec.storage);
  return TreeParser(lexer, max_depth).ParseMember(node, spec.depth);
}

bool ReadJsonValue(JsonLexer& lexer, size_t depth, size_t max_depth, DocNode& node) {
  return TreeParser(lexer, max_depth).ParseMember(&node, depth);
}

std::optional<DocNode> ParseJsonTree(std::string_view json, const JsonObjectOptions& options) {
  JsonLexer lexer(json);
  DocNode root;
  lexer.SkipSpace();
  if (!ReadJsonTree(lexer, 0, options.max_depth, root)) return std::nullopt;
  lexer.SkipSpace();
  if (!lexer.AtEnd()) return std::nullopt;
  return root;
}

k8s::ObjectVariant DecodeAdmissionObject(std::string_view json, std::string_view kind,
                                         std::string_view version, Diagnostics& out) {
  const std::optional<DocNode> root = ParseJsonTree(json);
  const DocNode not_json;  // a null node: refused below like any other non-object
  return DecodeAdmissionTree(root.has_value() ? *root : not_json, kind, version, out);
}

namespace {

// Whether every member of the root is one the k8s decoders ignore (apiVersion, kind) or one
// decoded directly (metadata; spec when the scope reads it), each once: then the object is
// its type and its direct parts alone, with no finding (unknown members are ignored here,
// repeated ones reported, and a `status` is read: those take the decoders).
bool RootDecodedDirectly(const DocNode& root, k8s::DecodeScope scope, bool spec_direct) {
  uint32_t seen = 0;
  for (const k8s::MapEntry& e : root.entries) {
    const std::string_view key = e.key.text;
    uint32_t bit = 0;
    if (key == "apiVersion") {
      bit = 1;
    } else if (key == "kind") {
      bit = 2;
    } else if (key == "metadata") {
      bit = 4;
    } else if (key == "spec" && (spec_direct || scope == k8s::DecodeScope::kWithoutSpec)) {
      bit = 8;
    } else {
      return false;
    }
    if ((seen & bit) != 0) return false;
    seen |= bit;
  }
  return true;
}

// DecodeResourceTree's answer for a root that RootDecodedDirectly accepts, built from the
// direct parts: `spec` is the directly decoded spec the scope reads, or null (no spec member,
// or a scope without it: the model's spec stays default).
k8s::ObjectVariant AssembleDirectObject(std::string_view kind, std::string_view version,
                                        DirectMetadata& metadata, DirectSpec* spec) {
  std::string source_version;
  source_version.reserve(sizeof k8s::kResourceGroup + version.size());
  source_version.append(k8s::kResourceGroup).append("/").append(version);
  if (kind == "ResourceClaim") {
    k8s::ResourceClaim claim;
    claim.metadata = std::move(metadata.meta);
    if (spec != nullptr) claim.spec = std::move(spec->spec);
    claim.source_api_version = std::move(source_version);
    return claim;
  }
  if (kind == "ResourceClaimTemplate") {
    k8s::ResourceClaimTemplate tmpl;
    tmpl.metadata = std::move(metadata.meta);
    if (spec != nullptr) {
      tmpl.spec = std::move(spec->spec);
      tmpl.template_metadata = std::move(spec->template_metadata);
    }
    tmpl.source_api_version = std::move(source_version);
    return tmpl;
  }
  return {};
}

}  // namespace

k8s::ObjectVariant DecodeAdmissionTree(const DocNode& root, std::string_view kind,
                                       std::string_view version, Diagnostics& out,
                                       k8s::DecodeScope scope, DirectMetadata* metadata,
                                       DirectSpec* spec) {
  if (root.kind != NodeKind::kMap) {
    out.Error("webhook.object.invalid", FieldPath(),
              "request.object is not a JSON object within the nesting limit");
    return {};
  }
  // The usual review's object: no reader over the tree's leftovers (~2.3 k instructions of a
  // request, issue 16).
  const bool spec_direct = spec != nullptr && spec->decoded && spec->kind == kind;
  if (metadata != nullptr && metadata->decoded && (kind == "ResourceClaim" ||
                                                   kind == "ResourceClaimTemplate") &&
      RootDecodedDirectly(root, scope, spec_direct)) {
    metadata->decoded = false;
    DirectSpec* read = spec_direct && scope == k8s::DecodeScope::kAll ? spec : nullptr;
    if (read != nullptr) read->decoded = false;
    return AssembleDirectObject(kind, version, *metadata, read);
  }
  k8s::ObjectVariant object =
      k8s::DecodeResourceTree(root, kind, version, out, k8s::UnknownFields::kIgnore, scope);
  if (metadata != nullptr && metadata->decoded) {
    // The tree's metadata was an empty object: the model's is default, with no finding.
    metadata->decoded = false;
    std::visit(
        [&](auto& o) {
          if constexpr (requires { o.metadata; }) o.metadata = std::move(metadata->meta);
        },
        object);
  }
  if (spec != nullptr && spec->decoded && spec->kind == kind && scope == k8s::DecodeScope::kAll) {
    // The tree's spec was null: the model's is default, with no finding.
    spec->decoded = false;
    if (auto* claim = std::get_if<k8s::ResourceClaim>(&object)) {
      claim->spec = std::move(spec->spec);
    } else if (auto* tmpl = std::get_if<k8s::ResourceClaimTemplate>(&object)) {
      tmpl->spec = std::move(spec->spec);
      tmpl->template_metadata = std::move(spec->template_metadata);
    }
  }
  return object;
}

}  // namespace draguard::webhook
