// DecodedObject::Locate: from an API-server field path to a file position.
//
// The path is split into segments and walked through the object's node tree. The model is
// v1-shaped while the document may be a beta shape, so a missing segment gets two second
// chances: `exactly` is skipped (v1beta1 requests carry its fields directly) and a `basic`
// map is entered (v1beta1 slice devices). Where the walk stops short, the deepest node found
// is used; a field that exists is shown at its value when that is a scalar (plus the value
// offset inside it), otherwise at its key.
#include "policy/k8s/decode.h"

#include "policy/common/field_path.h"

namespace draguard::k8s {
namespace {

struct Step {
  const DocNode* value = nullptr;
  const DocNode* key = nullptr;  // the key node when the value came from a map entry
};

const MapEntry* FindEntry(const DocNode& map, std::string_view key) {
  if (map.kind != NodeKind::kMap) return nullptr;
  for (const MapEntry& e : map.entries) {
    if (e.key.text == key) return &e;
  }
  return nullptr;
}

bool Advance(const FieldPathSegment& seg, Step* at) {
  const DocNode& node = *at->value;
  if (seg.kind == FieldPathSegment::Kind::kIndex) {
    if (node.kind != NodeKind::kSequence || seg.index >= node.items.size()) return false;
    *at = Step{&node.items[seg.index], nullptr};
    return true;
  }
  if (const MapEntry* e = FindEntry(node, seg.name)) {
    *at = Step{&e->value, &e->key};
    return true;
  }
  if (seg.kind != FieldPathSegment::Kind::kField) return false;
  if (seg.name == "exactly" && node.kind == NodeKind::kMap) return true;  // v1beta1 request
  if (const MapEntry* basic = FindEntry(node, "basic")) {                // v1beta1 device
    if (const MapEntry* e = FindEntry(basic->value, seg.name)) {
      *at = Step{&e->value, &e->key};
      return true;
    }
  }
  return false;
}

}  // namespace

void DecodedObject::Bind(std::shared_ptr<const SourceText> source,
                         std::shared_ptr<const DocNode> root) {
  source_ = std::move(source);
  root_ = std::move(root);
}

const DocNode* DecodedObject::Resolve(const std::string& field, bool* exact) const {
  Step at{root_.get(), nullptr};
  *exact = true;
  for (const FieldPathSegment& seg : SplitFieldPath(field)) {
    if (!Advance(seg, &at)) {
      *exact = false;
      break;
    }
  }
  if (*exact && at.value->is_scalar()) return at.value;
  return at.key != nullptr ? at.key : at.value;
}

void DecodedObject::Locate(Diagnostic& d) const {
  if (d.object.kind.empty()) d.object = ref;
  if (source_ == nullptr || root_ == nullptr) return;
  d.file = source_->name();
  if (d.position.known()) return;
  bool exact = false;
  const DocNode* node = Resolve(d.field, &exact);
  size_t offset = node->offset;
  if (exact && d.value_offset >= 0 && node->is_scalar()) {
    offset = SourceOffsetOfValueByte(*source_, *node, static_cast<size_t>(d.value_offset));
  }
  d.position = source_->PositionOf(offset);
}

SourcePosition DecodedObject::PositionOf(const std::string& field) const {
  if (source_ == nullptr || root_ == nullptr) return {};
  bool exact = false;
  return source_->PositionOf(Resolve(field, &exact)->offset);
}

}  // namespace draguard::k8s
