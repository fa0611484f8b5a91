// The checker's output about an Ast: the type of every node, what every identifier and call
// resolved to, and the result type. The runtime plans from it; the cost estimator reads it.
//
// Node ids index the tables directly (ids are dense, 1..Ast::max_id()). A CheckedAst does
// not own the Ast it describes; keep both alive together. Immutable after Check();
// thread compatible.
#ifndef DRAGUARD_POLICY_CEL_CHECKED_AST_H_
#define DRAGUARD_POLICY_CEL_CHECKED_AST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "policy/cel/types.h"

namespace draguard::cel {

// What an identifier, a select or a call resolved to.
struct Reference {
  // Fully qualified variable name (identifiers, and selects that form a qualified variable
  // name such as `a.b`), or the function name for calls ("sets.contains").
  std::string name;
  // Calls: every overload whose signature fits the argument types. Several when arguments
  // are dyn/any (the runtime picks by value). Empty for variables.
  std::vector<std::string> overload_ids;
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

  // Type of node `id`; dyn for unknown ids.
  const Type& TypeOf(int64_t id) const;
  // Reference of node `id`, or null when it is not an identifier/call/qualified select.
  const Reference* ReferenceOf(int64_t id) const;
  // The type of the whole expression.
  const Type& result_type() const { return result_type_; }

  void SetType(int64_t id, Type type);
  void SetReference(int64_t id, Reference reference);
  void SetResultType(Type type) { result_type_ = std::move(type); }
  std::vector<Type>& mutable_types() { return types_; }

 private:
  static constexpr int32_t kNoReference = -1;

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
