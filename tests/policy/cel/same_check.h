// Test helper: the first difference between two CheckResults of one Ast (issues, every
// node's type and reference, the result type), or "" when they agree. For differential
// tests of the checker's fast paths against its general path.
#ifndef DRAGUARD_TESTS_POLICY_CEL_SAME_CHECK_H_
#define DRAGUARD_TESTS_POLICY_CEL_SAME_CHECK_H_

#include <cstdint>
#include <string>

#include "policy/cel/checker.h"

namespace draguard::cel {

inline std::string ReferenceText(const Reference* r) {
  if (r == nullptr) return "none";
  std::string text = r->name + (r->target_is_namespace ? " ns" : "") +
                     (r->select_is_variable ? " var" : "") + " [";
  for (const std::string_view id : r->overload_ids) text += std::string(id) + " ";
  return text + "]";
}

inline std::string CheckDifference(const CheckResult& a, const CheckResult& b, int64_t max_id) {
  if (a.issues.size() != b.issues.size()) {
    return "issue counts " + std::to_string(a.issues.size()) + " and " +
           std::to_string(b.issues.size());
  }
  for (size_t i = 0; i < a.issues.size(); ++i) {
    const Diagnostic& x = a.issues.items()[i];
    const Diagnostic& y = b.issues.items()[i];
    if (x.code != y.code || x.message != y.message || x.value_offset != y.value_offset) {
      return "issue " + std::to_string(i) + ": " + x.message + " | " + y.message;
    }
  }
  for (int64_t id = 0; id <= max_id; ++id) {
    const std::string ta = a.checked.TypeOf(id).DebugString();
    const std::string tb = b.checked.TypeOf(id).DebugString();
    if (ta != tb) return "type of node " + std::to_string(id) + ": " + ta + " | " + tb;
    const std::string ra = ReferenceText(a.checked.ReferenceOf(id));
    const std::string rb = ReferenceText(b.checked.ReferenceOf(id));
    if (ra != rb) return "reference of node " + std::to_string(id) + ": " + ra + " | " + rb;
  }
  if (!(a.checked.result_type() == b.checked.result_type())) return "result types differ";
  return "";
}

}  // namespace draguard::cel

#endif  // DRAGUARD_TESTS_POLICY_CEL_SAME_CHECK_H_
