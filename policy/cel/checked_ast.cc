#include "policy/cel/checked_ast.h"

#include <iterator>
#include <utility>

namespace draguard::cel {

OverloadIds& OverloadIds::operator=(const OverloadIds& other) {
  if (this == &other) return *this;
  std::copy(std::begin(other.inline_), std::end(other.inline_), inline_);
  more_ = other.more_;
  size_ = other.size_;
  return *this;
}

OverloadIds& OverloadIds::operator=(OverloadIds&& other) noexcept {
  if (this == &other) return *this;
  std::copy(std::begin(other.inline_), std::end(other.inline_), inline_);
  more_ = std::move(other.more_);
  size_ = other.size_;
  other.more_.clear();
  other.size_ = 0;
  return *this;
}

void OverloadIds::push_back(std::string_view id) {
  if (size_ < kInline) {
    inline_[size_++] = id;
    return;
  }
  if (size_ == kInline) more_.assign(std::begin(inline_), std::end(inline_));
  more_.push_back(id);
  ++size_;
}

const Type& CheckedAst::DynType() {
  static const Type* const kDyn = new Type(Type::Dyn());
  return *kDyn;
}

const Reference* CheckedAst::ReferenceOf(int64_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= reference_at_.size()) return nullptr;
  const int32_t at = reference_at_[static_cast<size_t>(id)];
  return at == kNoReference ? nullptr : &references_[static_cast<size_t>(at)];
}

void CheckedAst::SetTypeGrowing(size_t slot, Type type) {
  types_.resize(slot + 1);
  types_[slot] = std::move(type);
}

void CheckedAst::SetReference(int64_t id, Reference reference) {
  if (id < 0) return;
  const auto slot = static_cast<size_t>(id);
  if (slot >= reference_at_.size()) reference_at_.resize(slot + 1, kNoReference);
  int32_t& at = reference_at_[slot];
  if (at != kNoReference) {
    references_[static_cast<size_t>(at)] = std::move(reference);
    return;
  }
  at = static_cast<int32_t>(references_.size());
  references_.push_back(std::move(reference));
}

}  // namespace draguard::cel

namespace draguard::cel {

Reference& CheckedAst::AddReference(int64_t id) {
  const auto slot = static_cast<size_t>(id < 0 ? 0 : id);
  if (slot >= reference_at_.size()) reference_at_.resize(slot + 1, kNoReference);
  int32_t& at = reference_at_[slot];
  if (at != kNoReference) {
    Reference& existing = references_[static_cast<size_t>(at)];
    existing = Reference();
    return existing;
  }
  at = static_cast<int32_t>(references_.size());
  return references_.emplace_back();
}

}  // namespace draguard::cel
