#include "policy/cel/checked_ast.h"

#include <utility>

namespace draguard::cel {

const Type& CheckedAst::TypeOf(int64_t id) const {
  static const Type* const kDyn = new Type(Type::Dyn());
  if (id < 0 || static_cast<size_t>(id) >= types_.size()) return *kDyn;
  return types_[static_cast<size_t>(id)];
}

const Reference* CheckedAst::ReferenceOf(int64_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= reference_at_.size()) return nullptr;
  const int32_t at = reference_at_[static_cast<size_t>(id)];
  return at == kNoReference ? nullptr : &references_[static_cast<size_t>(at)];
}

void CheckedAst::SetType(int64_t id, Type type) {
  if (id < 0) return;
  if (static_cast<size_t>(id) >= types_.size()) types_.resize(static_cast<size_t>(id) + 1);
  types_[static_cast<size_t>(id)] = std::move(type);
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
