// Strict reading of one map node into model fields (internal to the decoder).
//
// A MapReader wraps a map node and its field path. Each accessor names a field, which both
// reads it and declares it known; Finish() then reports every key that was never declared as
// `decode.unknown-field` (with a "did you mean" among the declared names) and every repeated
// key as `decode.duplicate-field`. A value of the wrong JSON type is `decode.wrong-type`.
// `null` values read as absent, as Go's encoding/json leaves the zero value.
#ifndef DRAGUARD_POLICY_K8S_FIELD_READER_H_
#define DRAGUARD_POLICY_K8S_FIELD_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/field_path.h"
#include "policy/common/function_ref.h"
#include "policy/k8s/decode.h"
#include "policy/k8s/document.h"

namespace draguard::k8s {

// What a MapReader records of its map to report unknown keys: the keys declared and the hints
// given, all views of text that outlives the reader (literals, the tree's keys).
struct DeclaredKeys {
  std::vector<std::string_view> known;
  std::vector<std::pair<std::string_view, std::string_view>> hints;  // key, suggestion
};

struct DecodeContext {
  Diagnostics* diagnostics = nullptr;
  UnknownFields unknown_fields = UnknownFields::kError;
  DecodeScope scope = DecodeScope::kAll;  // claims and templates only (decode.h)
  // The release whose fields are known (fields a release does not have are unknown fields).
  KubernetesVersion version = kDefaultKubernetesVersion;
  // DeclaredKeys of readers that finished, for the next ones to reuse (readers nest, so they
  // take and give back in LIFO order): a reader per attribute of a 50,000-device inventory
  // then allocates nothing. May be null.
  std::vector<DeclaredKeys>* spare_keys = nullptr;
};

// Reports `decode.wrong-type` unless `node` has kind `want`; returns whether it has.
bool ExpectKind(const DocNode& node, NodeKind want, const FieldPath& path, DecodeContext& ctx);

// The compact JSON text of a node (for opaque parameters); never throws.
std::string NodeToJson(const DocNode& node);

class MapReader {
 public:
  // A null node reads as an empty map; any other non-map reports `decode.wrong-type`.
  MapReader(const DocNode& node, FieldPath path, DecodeContext& ctx);
  MapReader(const MapReader&) = delete;
  MapReader& operator=(const MapReader&) = delete;

  bool is_map() const { return is_map_; }
  // The value at `key` without declaring it (nullptr when absent or not a map).
  const DocNode* Find(std::string_view key) const { return is_map_ ? node_->Find(key) : nullptr; }
  // The number of items of the list at `key` (0 when absent or not a list), for a caller to
  // reserve its vector before ObjectList. Declares nothing.
  size_t ListSize(std::string_view key) const {
    const DocNode* v = Find(key);
    return v != nullptr && v->kind == NodeKind::kSequence ? v->items.size() : 0;
  }
  // The key of a map with exactly one entry; empty otherwise. Declares nothing.
  std::string_view OnlyKey() const {
    return is_map_ && node_->entries.size() == 1 ? std::string_view(node_->entries[0].key.text)
                                                 : std::string_view();
  }
  // The reader's field path, rendered on each call: a reader below another keeps only its step
  // (see Place), since decoding builds a reader per object while only a finding needs a path.
  FieldPath path() const;
  DecodeContext& ctx() { return ctx_; }

  // Declares `key` and returns its value, or nullptr when absent or null.
  const DocNode* Get(std::string_view key);
  // Declares keys that are accepted and ignored.
  void Ignore(std::initializer_list<std::string_view> keys);
  // A suggestion used instead of "did you mean" when `key` turns out unknown; a later hint
  // for the same key wins. Both are kept as views: they must outlive the reader (literals).
  void Hint(std::string_view key, std::string_view suggestion);

  // Typed accessors: each returns whether the field was present with the right type.
  bool String(std::string_view key, std::string* out);
  bool String(std::string_view key, std::optional<std::string>* out);
  bool Int(std::string_view key, int64_t* out);
  bool Int(std::string_view key, std::optional<int64_t>* out);
  bool Bool(std::string_view key, std::optional<bool>* out);
  bool StringList(std::string_view key, std::vector<std::string>* out);
  bool StringMap(std::string_view key, std::map<std::string, std::string>* out);
  // A Quantity field: a string or a number, kept as written.
  bool Quantity(std::string_view key, std::string* out);
  bool Quantity(std::string_view key, std::optional<std::string>* out);
  bool QuantityMap(std::string_view key, std::map<std::string, std::string>* out);
  // A nested object: calls `read` with a reader for it when present.
  bool Object(std::string_view key, FunctionRef<void(MapReader&)> read);
  // A list of objects: calls `read` for each item with its reader.
  bool ObjectList(std::string_view key, FunctionRef<void(MapReader&)> read);
  // A map of objects keyed by string: calls `read(key, reader)`.
  bool ObjectMap(std::string_view key,
                 FunctionRef<void(const std::string&, MapReader&)> read);

  // Reports unknown and duplicate keys. Called by the destructor if not called before.
  void Finish();
  ~MapReader();

 private:
  // Where a reader made by Object, ObjectList or ObjectMap sits: the value of `child` in
  // `parent`'s map, and, for an item, its index or map key under that value. Views into the
  // caller's key and the tree, which outlive the child reader (it lives within the call).
  struct Place {
    enum class Tail : uint8_t { kNone, kIndex, kKey };
    const MapReader* parent = nullptr;
    std::string_view child;
    Tail tail = Tail::kNone;
    size_t index = 0;
    std::string_view key;
  };
  MapReader(const DocNode& node, const Place& place, DecodeContext& ctx);
  // The shared part of the constructors: takes spare keys, checks the node is a map.
  void Init();

  // Whether `value` (the value of `key`) has kind `want`; reports decode.wrong-type if not.
  bool Expect(const DocNode& value, NodeKind want, std::string_view key);
  // The declared keys and hints serve only the unknown-field check: not kept without it
  // (the webhook's decode, which runs on every admission request).
  bool RecordsKeys() const { return ctx_.unknown_fields != UnknownFields::kIgnore; }

  const DocNode* node_;
  Place place_;                  // parent == nullptr for a reader given its path
  std::optional<FieldPath> root_;  // that path (empty for the child readers)
  DecodeContext& ctx_;
  bool is_map_ = false;
  bool finished_ = false;
  // Bit i: Get found entry i (of the first 64). Get finds a key's first entry, so a found
  // entry is neither repeated nor unknown: when every entry was found, Finish has nothing to
  // check, and otherwise it checks only the others.
  uint64_t found_ = 0;
  DeclaredKeys keys_;
};

// Reads a scalar as a string (for list items and map values); reports wrong types.
bool ReadString(const DocNode& node, const FieldPath& path, DecodeContext& ctx,
                std::string* out);

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_FIELD_READER_H_
