// The checker's output about an Ast: the type of every node, what every identifier and call
// resolved to, and the result type. The runtime plans from it; the cost estimator reads it.
//
// Node ids index the tables directly (ids are dense, 1..Ast::max_id()). A CheckedAst does
// not own the Ast it describes; keep both alive together. Immutable after Check();
// thread compatible.
#ifndef DRAGUARD_POLICY_CEL_CHECKED_AST_H_
#define DRAGUARD_POLICY_CEL_CHECKED_AST_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/cel/types.h"

namespace draguard::cel {

// The ids of the overloads a call resolved to, in declaration order. Each is a view of text
// that lives as long as the process (an id interned by InternOverloadId, or a literal), so a
// CheckedAst does not depend on the Environment it was checked in, and a call's ids cost no
// allocation: the usual call has one id, rarely two (dyn arguments), and those are inline.
// A moved-from list is empty.
class OverloadIds {
 public:
  OverloadIds() = default;
  OverloadIds(const OverloadIds& other) { *this = other; }
  OverloadIds& operator=(const OverloadIds& other);
  OverloadIds(OverloadIds&& other) noexcept { *this = std::move(other); }
  OverloadIds& operator=(OverloadIds&& other) noexcept;

  // `id` must outlive every reader (see above).
  void push_back(std::string_view id);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const std::string_view* begin() const { return size_ <= kInline ? inline_ : more_.data(); }
  const std::string_view* end() const { return begin() + size_; }
  std::string_view operator[](size_t i) const { return begin()[i]; }

  friend bool operator==(const OverloadIds& a, const OverloadIds& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static constexpr size_t kInline = 2;
  std::string_view inline_[kInline];
  std::vector<std::string_view> more_;  // all of them, once there are more than kInline
  size_t size_ = 0;
};

// What an identifier, a select or a call resolved to.
struct Reference {
  // Fully qualified variable name (identifiers, and selects that form a qualified variable
  // name such as `a.b`), or the function name for calls ("sets.contains").
  std::string name;
  // Calls: every overload whose signature fits the argument types. Several when arguments
  // are dyn/any (the runtime picks by value). Empty for variables.
  OverloadIds overload_ids;
  // Calls written `ns.f(args)` that resolved to the namespaced global function `ns.f`: the
  // call's target is part of the name, not an operand.
  bool target_is_namespace = false;
  // Selects resolved as a qualified variable name: the operand is part of the name.
  bool select_is_variable = false;

  bool is_variable() const { return overload_ids.empty(); }
};

class CheckedAst {
 public:
  CheckedAst() = default;
  explicit CheckedAst(int64_t max_id)
      : types_(static_cast<size_t>(max_id) + 1), reference_at_(types_.size(), kNoReference) {
    // About every other node is a call, an identifier or a select: one growth at most.
    references_.reserve(types_.size() / 2 + 1);
  }

  // Type of node `id`; dyn for unknown ids. Inline, with SetType: the checker and the
  // estimator call them several times per node.
  const Type& TypeOf(int64_t id) const {
    const auto slot = static_cast<size_t>(id);  // a negative id wraps to a huge slot
    return slot < types_.size() ? types_[slot] : DynType();
  }
  // Reference of node `id`, or null when it is not an identifier/call/qualified select.
  const Reference* ReferenceOf(int64_t id) const;
  // The type of the whole expression.
  const Type& result_type() const { return result_type_; }

  void SetType(int64_t id, Type type) {
    const auto slot = static_cast<size_t>(id);
    if (slot < types_.size()) {
      types_[slot] = std::move(type);
    } else if (id >= 0) {
      SetTypeGrowing(slot, std::move(type));
    }
  }
  void SetReference(int64_t id, Reference reference);
  // A default Reference recorded for node `id` (replacing any earlier one), to be filled in
  // place: the checker records one per call and identifier, and building it aside costs two
  // moves of it. Valid until the next reference is added.
  Reference& AddReference(int64_t id);
  void SetResultType(Type type) { result_type_ = std::move(type); }
  std::vector<Type>& mutable_types() { return types_; }

 private:
  static constexpr int32_t kNoReference = -1;

  static const Type& DynType();
  void SetTypeGrowing(size_t slot, Type type);

  std::vector<Type> types_;
  // By node id, the index in references_ of the node's reference, or kNoReference. Ids are
  // dense and most nodes have a reference, so two vectors replace a hash map (one allocation
  // per referenced node, at every compile of a new selector).
  std::vector<int32_t> reference_at_;
  std::vector<Reference> references_;
  Type result_type_ = Type::Error();
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_CHECKED_AST_H_
