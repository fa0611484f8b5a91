#include "policy/cel/checked_ast.h"

#include <utility>

namespace draguard::cel {

const Type& CheckedAst::TypeOf(int64_t id) const {
  static const Type* const kDyn = new Type(Type::Dyn());
  if (id < 0 || static_cast<size_t>(id) >= types_.size()) return *kDyn;
  return types_[static_cast<size_t>(id)];
}

const Reference* CheckedAst::ReferenceOf(int64_t id) const {
  auto it = references_.find(id);
  return it == references_.end() ? nullptr : &it->second;
}

void CheckedAst::SetType(int64_t id, Type type) {
  if (id < 0) return;
  if (static_cast<size_t>(id) >= types_.size()) types_.resize(static_cast<size_t>(id) + 1);
  types_[static_cast<size_t>(id)] = std::move(type);
}

void CheckedAst::SetReference(int64_t id, Reference reference) {
  references_[id] = std::move(reference);
}

}  // namespace draguard::cel
