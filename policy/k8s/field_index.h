// FieldIndex: what a decoded object keeps of its document tree to locate findings later.
//
// Findings of the cross-object stages (references, schema, satisfiability) are located long
// after decoding, when every input has been decoded. Keeping each object's DocNode tree alive
// until then cost about 4 KB per object (the trees were 40% of lint's memory over 10,000
// files). The index keeps only what locating needs: the shape (maps, sequences), each map
// key's text and offset, each node's offset and, for scalars, how they were written (for
// offsets inside a value). About 32 bytes per node plus the key texts.
#ifndef DRAGUARD_POLICY_K8S_FIELD_INDEX_H_
#define DRAGUARD_POLICY_K8S_FIELD_INDEX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy/k8s/document.h"

namespace draguard::k8s {

class FieldIndex {
 public:
  // An empty index: every path resolves to offset 0, not exact.
  FieldIndex() = default;
  // Indexes `root` (a map, normally). Trees are bounded in depth by the parser (max_depth).
  explicit FieldIndex(const DocNode& root);

  // Where a field path leads. `node` is a stand-in for the node found, carrying what
  // SourceOffsetOfValueByte reads (kind, style, offset, from_alias; no text).
  struct Found {
    DocNode node;
    bool exact = false;  // the whole path exists
  };

  // Walks an API-server field path ("spec.devices.requests[0].exactly.name"). The model is
  // v1-shaped while the document may be a beta shape, so a missing segment gets two second
  // chances: `exactly` is skipped (v1beta1 requests carry its fields directly) and a `basic`
  // map is entered (v1beta1 slice devices). Where the walk stops short, the deepest node found
  // is used; a field that exists is found at its value when that is a scalar, otherwise at its
  // key.
  Found Resolve(std::string_view field) const;

  size_t node_count() const { return nodes_.size(); }

 private:
  // One node; for a map's values also their key. Children of a node are contiguous.
  struct Node {
    uint32_t offset = 0;
    uint32_t first_child = 0;
    uint32_t child_count = 0;
    uint32_t key_offset = 0;  // map values only
    uint32_t key_begin = 0;   // into key_text_
    uint32_t key_size = 0;
    NodeKind kind = NodeKind::kNull;
    ScalarStyle style = ScalarStyle::kPlain;
    bool from_alias = false;
    bool has_key = false;
    NodeKind key_kind = NodeKind::kNull;
    ScalarStyle key_style = ScalarStyle::kPlain;
    bool key_from_alias = false;
  };

  Node Make(const DocNode& node, const DocNode* key);
  void AddChildren(uint32_t index, const DocNode& node);
  std::string_view KeyOf(const Node& node) const;
  // The value of `map`'s first entry whose key text is `key`; -1 when none.
  int64_t FindEntry(uint32_t map, std::string_view key) const;
  static DocNode StandIn(uint32_t offset, NodeKind kind, ScalarStyle style, bool from_alias);

  std::vector<Node> nodes_;  // nodes_[0] is the root
  std::string key_text_;
};

}  // namespace draguard::k8s

#endif  // DRAGUARD_POLICY_K8S_FIELD_INDEX_H_
