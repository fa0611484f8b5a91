// The planned-node tree evaluated by Program (internal to the runtime).
#ifndef DRAGUARD_POLICY_CEL_EVALUATOR_H_
#define DRAGUARD_POLICY_CEL_EVALUATOR_H_

#include <memory>
#include <string>
#include <vector>

#include "policy/common/node_arena.h"
#include "policy/cel/functions/registry.h"
#include "policy/cel/program.h"
#include "policy/cel/value.h"

namespace draguard::cel {

enum class NodeOp {
  kConst,
  kGlobal,
  kSlot,
  kSelect,
  kTestOnly,
  kAnd,
  kOr,
  kTernary,
  kNotStrictlyFalse,
  kCall,
  kList,
  kMap,
  kComprehension,
};

struct PlannedNode {
  NodeOp op = NodeOp::kConst;
  Value constant;           // kConst value; kSelect/kTestOnly: the field name
  std::string name;         // kGlobal variable / kCall function / kSelect field storage
  // kGlobal: the names to try in order when a container applies (empty: just `name`);
  // kSelect: the qualified variable names the select chain may spell, tried before
  // selecting (cel-go resolves `a.b` as the variable "a.b" first). Without a container a
  // chain spells one name, the chain's own (QualifiedSelectName), which is then not stored:
  // only an activation with dotted names asks for it (`qualified` says the chain spells one).
  std::vector<std::string> candidates;
  bool qualified = false;   // kSelect: try the qualified variable names first (above)
  std::shared_ptr<const void> keep;  // owns payloads `constant` borrows
  int slot = -1;            // kSlot; kComprehension: iteration variable
  int slot2 = -1;           // kComprehension: second iteration variable or -1
  int accu_slot = -1;       // kComprehension
  Function fn = nullptr;    // kCall; null for an unknown function (a runtime error)
  PreparedCall prepared;    // kCall with constant arguments prepared at plan time
  std::vector<bool> optional;  // kList: per element; kMap: per entry
  // kCall: arguments (receiver first); kList: elements; kMap: key, value, key, value...;
  // kSelect/kTestOnly: operand; kTernary: cond, then, else;
  // kComprehension: range, init, condition, step, result.
  std::vector<NodePtr<PlannedNode>> children;  // in the Program's arena
};

// Whether `node` is a string or bytes literal whose value borrows the node's own `name`.
inline bool ConstantIsName(const PlannedNode& node) {
  return node.op == NodeOp::kConst && !node.name.empty() &&
         (node.constant.kind() == Kind::kString || node.constant.kind() == Kind::kBytes) &&
         node.constant.text().data() == node.name.data();
}

// The dotted name a kSelect chain of kSelect nodes over a kGlobal spells ("a.b.c"); false
// when `node`'s chain is not one.
bool QualifiedSelectName(const PlannedNode& node, std::string* out);

struct Evaluator {
  const RuntimeOptions& options;
  const Activation& activation;
  EvalState& state;
  bool cancelled = false;
  const char* cancel_reason = nullptr;

  Value Eval(const PlannedNode& node);

 private:
  // The activation's value for a kGlobal node or a qualified kSelect, or null.
  const Value* FindVariable(const PlannedNode& node) const;
  Value EvalSelect(const PlannedNode& node, bool test_only);
  Value EvalLogic(const PlannedNode& node, bool is_and);
  Value EvalCall(const PlannedNode& node);
  template <size_t N>
  Value CallWithArity(const PlannedNode& node);
  Value EvalList(const PlannedNode& node);
  Value EvalMap(const PlannedNode& node);
  Value EvalComprehension(const PlannedNode& node);
  bool Charge(uint64_t cost);
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_EVALUATOR_H_
