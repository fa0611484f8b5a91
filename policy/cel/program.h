// Program: a CEL expression planned once and evaluated many times.
//
// Plan() turns an (unchecked) Ast into a tree of planned nodes: identifiers are resolved
// to comprehension slots or activation names, calls to function pointers by name and
// arity, constant list/map literals are built once, and constant type conversions
// (int("1"), uint(-1), ...) are folded, as cel-go's optimiser does in Kubernetes; a
// failing conversion makes Plan fail with "program instantiation failed: ...". Constant
// regex patterns are compiled once. RuntimeOptions::container applies cel-go's name
// resolution to identifiers and functions.
//
// Evaluate() returns a Value, which is an error value for CEL runtime errors (no such
// key, overflow, cost limit, ...). A non-OK Status is never produced by evaluation.
// Selectors in the common shape also get a FastPredicate, tried first (same results).
// Thread-safety: a Program is immutable and may be evaluated concurrently; each thread
// uses its own EvalState.
#ifndef DRAGUARD_POLICY_CEL_PROGRAM_H_
#define DRAGUARD_POLICY_CEL_PROGRAM_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "policy/cel/activation.h"
#include "policy/cel/ast.h"
#include "policy/cel/fast_predicate.h"
#include "policy/cel/runtime_options.h"
#include "policy/cel/value.h"
#include "policy/common/node_arena.h"
#include "policy/common/status_or.h"

namespace draguard::cel {

struct PlannedNode;

// Per-evaluation scratch: comprehension slots, cost and iteration counters.
class EvalState {
 public:
  // Called every RuntimeOptions::interrupt_check_frequency comprehension iterations;
  // returning true stops evaluation with the error "operation interrupted".
  std::function<bool()> interrupt;

  // Actual cost of the last evaluation.
  uint64_t cost() const { return cost_; }

 private:
  friend class Program;
  friend struct Evaluator;
  std::vector<Value> slots_;
  uint64_t cost_ = 0;
  int64_t iterations_ = 0;
};

class Program {
 public:
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  // Evaluates against `activation`. The returned value may borrow from the Program and
  // from the activation's values.
  Value Evaluate(const Activation& activation, EvalState& state) const;
  // Evaluates with `name` the only variable bound to `value` (a selector's `device`);
  // `value` must outlive the returned value.
  Value Evaluate(std::string_view name, const Value& value, EvalState& state) const;
  // The boolean result of the fast form alone, or nullopt when there is none or it
  // cannot decide (then Evaluate() or EvaluateGeneral() must be used, and state.cost() is
  // unspecified until it runs). Same result and cost as Evaluate(). Inline, as is
  // FastPredicate::EvaluateOne: for the commonest selectors the whole evaluation costs
  // less than two calls.
  std::optional<bool> TryFast(std::string_view name, const Value& value,
                              EvalState& state) const {
    return TryFast(name, FastPredicate::Bind(&value), state);
  }
  // The same with `name` bound as `bound` (FastPredicate::Bind() of its value, which a
  // caller evaluating many programs against one value can make once).
  std::optional<bool> TryFast(std::string_view name, const FastPredicate::Binding& bound,
                              EvalState& state) const {
    const FastPredicate* fast = FastForm();
    if (fast == nullptr) return std::nullopt;
    // The cost accumulates in the state directly (EvaluateGeneral resets it); the
    // iteration count only matters inside comprehensions, which the fast form has none of.
    FastPredicate::Outcome o = fast->EvaluateOne(name, bound, state, state.cost_);
    if (o == FastPredicate::Outcome::kBail) return std::nullopt;
    return o == FastPredicate::Outcome::kTrue;
  }
  // Evaluate() with the general evaluator alone: for a caller whose TryFast() has just given
  // up, so that the fast form is not tried twice.
  Value EvaluateGeneral(std::string_view name, const Value& value, EvalState& state) const;
  Value EvaluateGeneral(const Activation& activation, EvalState& state) const;

  // An estimate of the heap the program holds (planned nodes, constants, compiled regular
  // expressions, the fast form: when it is still to be built, a bound of what it will
  // hold), for caches of programs. Walks the program: call it once.
  size_t ApproximateBytes() const;
  // Whether the fast form has been built (for tests of RuntimeOptions::fast_path_after).
  bool has_fast_form() const {
    return fast_ != nullptr || (lazy_ != nullptr && lazy_->ready.load(std::memory_order_acquire));
  }

 private:
  friend StatusOr<Program> Plan(const Ast& ast, const RuntimeOptions& options);
  Program() = default;

  // The fast form built on demand (RuntimeOptions::fast_path_after > 0). Thread-safe.
  struct LazyFastForm {
    std::atomic<const FastPredicate*> ready{nullptr};  // built, and there is one
    std::atomic<bool> decided{false};                  // built, or there is none
    std::atomic<uint32_t> general_runs{0};
    std::once_flag once;
    std::unique_ptr<const FastPredicate> built;
  };
  // The fast form, or null (none, or not built yet: this counts one more general run).
  const FastPredicate* FastForm() const {
    if (fast_ != nullptr) return fast_.get();
    if (lazy_ == nullptr) return nullptr;
    if (const FastPredicate* ready = lazy_->ready.load(std::memory_order_acquire)) return ready;
    return BuildFastFormWhenDue();
  }
  const FastPredicate* BuildFastFormWhenDue() const;

  // The storage of root_'s nodes; declared first, so destroyed after them (node_arena.h).
  std::unique_ptr<NodeArena<PlannedNode>> arena_;
  NodePtr<PlannedNode> root_;
  // The fast form of root_ when it has one (fast_predicate.h); borrows from root_.
  std::unique_ptr<const FastPredicate> fast_;
  // Instead of fast_ with RuntimeOptions::fast_path_after.
  std::unique_ptr<LazyFastForm> lazy_;
  int slot_count_ = 0;
  RuntimeOptions options_;
};

// Plans `ast` for evaluation. Errors: INVALID_ARGUMENT "program instantiation failed:
// ..." for a constant conversion that fails, an invalid constant matches/find/findAll
// pattern (compiled once here, as Kubernetes does) or an unsupported expression (message
// literals). A call of a function without a runtime implementation is not a planning
// error: evaluating it gives the error value "no such overload: <name>", as cel-go does
// for unchecked expressions. `ast` may be discarded afterwards.
StatusOr<Program> Plan(const Ast& ast, const RuntimeOptions& options = {});

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_PROGRAM_H_
