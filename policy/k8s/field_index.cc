#include "policy/k8s/field_index.h"

#include "policy/common/field_path.h"

namespace draguard::k8s {
namespace {

bool IsScalar(NodeKind kind) { return kind != NodeKind::kSequence && kind != NodeKind::kMap; }

uint32_t Narrow(size_t value) { return static_cast<uint32_t>(value); }

}  // namespace

FieldIndex::FieldIndex(const DocNode& root) {
  nodes_.push_back(Make(root, nullptr));
  AddChildren(0, root);
  nodes_.shrink_to_fit();
  key_text_.shrink_to_fit();
}

// Offsets fit in 32 bits: the input reader refuses files of 1 GiB and more.
FieldIndex::Node FieldIndex::Make(const DocNode& node, const DocNode* key) {
  Node out;
  out.offset = Narrow(node.offset);
  out.kind = node.kind;
  out.style = node.style;
  out.from_alias = node.from_alias;
  if (key != nullptr) {
    out.has_key = true;
    out.key_offset = Narrow(key->offset);
    out.key_begin = Narrow(key_text_.size());
    out.key_size = Narrow(key->text.size());
    key_text_ += key->text;
    out.key_kind = key->kind;
    out.key_style = key->style;
    out.key_from_alias = key->from_alias;
  }
  return out;
}

// Children are placed together first, then each one's own children (recursion depth is the
// tree's, which the parser bounds).
void FieldIndex::AddChildren(uint32_t index, const DocNode& node) {
  const size_t first = nodes_.size();
  for (const DocNode& item : node.items) nodes_.push_back(Make(item, nullptr));
  for (const MapEntry& e : node.entries) nodes_.push_back(Make(e.value, &e.key));
  nodes_[index].first_child = Narrow(first);
  nodes_[index].child_count = Narrow(nodes_.size() - first);
  size_t child = first;
  for (const DocNode& item : node.items) AddChildren(Narrow(child++), item);
  for (const MapEntry& e : node.entries) AddChildren(Narrow(child++), e.value);
}

std::string_view FieldIndex::KeyOf(const Node& node) const {
  return std::string_view(key_text_).substr(node.key_begin, node.key_size);
}

int64_t FieldIndex::FindEntry(uint32_t map, std::string_view key) const {
  const Node& m = nodes_[map];
  if (m.kind != NodeKind::kMap) return -1;
  for (uint32_t i = m.first_child; i < m.first_child + m.child_count; ++i) {
    if (KeyOf(nodes_[i]) == key) return i;
  }
  return -1;
}

DocNode FieldIndex::StandIn(uint32_t offset, NodeKind kind, ScalarStyle style, bool from_alias) {
  DocNode n;
  n.offset = offset;
  n.kind = kind;
  n.style = style;
  n.from_alias = from_alias;
  return n;
}

FieldIndex::Found FieldIndex::Resolve(std::string_view field) const {
  if (nodes_.empty()) return {};
  uint32_t at = 0;
  bool exact = true;
  for (const FieldPathSegment& seg : SplitFieldPath(field)) {
    const Node& node = nodes_[at];
    int64_t next = -1;
    if (seg.kind == FieldPathSegment::Kind::kIndex) {
      if (node.kind == NodeKind::kSequence && seg.index < node.child_count) {
        next = node.first_child + static_cast<int64_t>(seg.index);
      }
    } else if ((next = FindEntry(at, seg.name)) < 0 &&
               seg.kind == FieldPathSegment::Kind::kField) {
      if (seg.name == "exactly" && node.kind == NodeKind::kMap) continue;  // v1beta1 request
      if (const int64_t basic = FindEntry(at, "basic"); basic >= 0) {      // v1beta1 device
        next = FindEntry(static_cast<uint32_t>(basic), seg.name);
      }
    }
    if (next < 0) {
      exact = false;
      break;
    }
    at = static_cast<uint32_t>(next);
  }
  const Node& n = nodes_[at];
  if (exact && IsScalar(n.kind)) return {StandIn(n.offset, n.kind, n.style, n.from_alias), true};
  if (n.has_key) {
    return {StandIn(n.key_offset, n.key_kind, n.key_style, n.key_from_alias), exact};
  }
  return {StandIn(n.offset, n.kind, n.style, n.from_alias), exact};
}

}  // namespace draguard::k8s
