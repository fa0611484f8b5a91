// DecodedObject::Locate: from an API-server field path to a file position, through the
// object's FieldIndex (field_index.h says how a path is walked), plus the offset inside a
// scalar value.
#include "policy/k8s/decode.h"

#include <memory>
#include <utility>

namespace draguard::k8s {

void DecodedObject::Bind(std::shared_ptr<const SourceText> source, const DocNode& root,
                         bool index) {
  source_ = std::move(source);
  if (index) index_ = std::make_shared<const FieldIndex>(root);
  position_ = root.position;
}

void DecodedObject::Locate(Diagnostic& d) const {
  if (d.object.kind.empty()) d.object = ref;
  if (source_ == nullptr || index_ == nullptr) return;
  d.file = source_->name();
  if (d.position.known()) return;
  const FieldIndex::Found found = index_->Resolve(d.field);
  size_t offset = found.node.offset;
  if (found.exact && d.value_offset >= 0 && found.node.is_scalar()) {
    offset = SourceOffsetOfValueByte(*source_, found.node, static_cast<size_t>(d.value_offset));
  }
  d.position = source_->PositionOf(offset);
}

SourcePosition DecodedObject::PositionOf(const std::string& field) const {
  if (source_ == nullptr || index_ == nullptr) return {};
  return source_->PositionOf(index_->Resolve(field).node.offset);
}

}  // namespace draguard::k8s
