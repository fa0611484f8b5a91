// Propagation helpers for Status and StatusOr, as in cel-cpp's internal/status_macros.h.
#ifndef DRAGUARD_POLICY_COMMON_STATUS_MACROS_H_
#define DRAGUARD_POLICY_COMMON_STATUS_MACROS_H_

#include "policy/common/status.h"
#include "policy/common/status_or.h"

// Returns the status from the enclosing function if `expr` is not OK.
#define DRAGUARD_RETURN_IF_ERROR(expr)                  \
  do {                                                  \
    ::draguard::Status _draguard_status = (expr);       \
    if (!_draguard_status.ok()) return _draguard_status; \
  } while (0)

#define DRAGUARD_CONCAT_INNER_(a, b) a##b
#define DRAGUARD_CONCAT_(a, b) DRAGUARD_CONCAT_INNER_(a, b)

// `lhs` = the value of StatusOr `rexpr`, or return its status from the enclosing function.
// `lhs` may be a declaration: DRAGUARD_ASSIGN_OR_RETURN(auto ast, Parse(text));
#define DRAGUARD_ASSIGN_OR_RETURN(lhs, rexpr) \
  DRAGUARD_ASSIGN_OR_RETURN_IMPL_(DRAGUARD_CONCAT_(_draguard_statusor_, __LINE__), lhs, rexpr)
#define DRAGUARD_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                    \
  if (!tmp.ok()) return std::move(tmp).status();         \
  lhs = std::move(tmp).value()

#endif  // DRAGUARD_POLICY_COMMON_STATUS_MACROS_H_
