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
  // cel-go's container (namespace) for name resolution: with "a.b", an identifier `x` is
  // looked up as "a.b.x", "a.x", then "x" (a leading '.' means the root only), and function
  // names likewise. Kubernetes sets none.
  std::string container;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_RUNTIME_OPTIONS_H_
