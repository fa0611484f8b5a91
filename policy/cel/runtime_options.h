// Limits and switches of the CEL runtime. Defaults are those of the Kubernetes scheduler.
#ifndef DRAGUARD_POLICY_CEL_RUNTIME_OPTIONS_H_
#define DRAGUARD_POLICY_CEL_RUNTIME_OPTIONS_H_

#include <cstdint>
#include <string>

namespace draguard::cel {

struct RuntimeOptions {
  // Actual-cost limit per evaluation; past it the result is the error
  // "operation cancelled: actual cost limit exceeded". 0 disables tracking.
  uint64_t cost_limit = 1000000;
  // Iterations allowed per comprehension evaluation (summed over nested loops).
  int64_t comprehension_max_iterations = 10000;
  // Comprehension iterations between two calls of EvalState::interrupt.
  int interrupt_check_frequency = 100;
  // RE2 program size limit for patterns compiled by matches/find/findAll.
  int regex_max_program_size = 10000;
  // Try the FastPredicate form of boolean selectors first (fast_predicate.h). Off only to
  // compare it with the general evaluator.
  bool fast_path = true;
  // With fast_path: evaluations left to the general evaluator before the fast form is built
  // (then once, by the evaluating thread that reaches the count). 0 builds it with the plan.
  // Building costs about as much as planning (~8 k instructions for a two-clause selector)
  // and pays back only over many evaluations: a program planned for one request and
  // evaluated once or twice (the webhook's new selectors) is better off without it.
  uint32_t fast_path_after = 0;
  // cel-go's container (namespace) for name resolution: with "a.b", an identifier `x` is
  // looked up as "a.b.x", "a.x", then "x" (a leading '.' means the root only), and function
  // names likewise. Kubernetes sets none.
  std::string container;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_RUNTIME_OPTIONS_H_
