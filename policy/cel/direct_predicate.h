// Deciding a selector from its parsed tree, without planning it (issue 16 (c)/(d)).
//
// Why: a selector met once (the webhook's clients may send a new one on every request, a
// clause appended) is evaluated on one device per class of the values it reads, often
// once. Planning it for that (cel::Plan: ~5.9 k instructions for a two-clause selector,
// ~1.3 k more to destroy the program) and running the general evaluator (~2.5 k) cost far
// more than walking its dozen nodes once.
//
// The subset is the shape most selectors have: `&&`, `||`, `!`, `==`/`!=` and the string
// tests startsWith/endsWith/contains over constants (strings, ints, bools) and chains of
// field selections and constant-string indexes on the one variable. DirectlyEvaluable()
// tells a tree in the subset: nothing in it can fail to plan (no conversion, regex or
// message literal), so that answering from the tree never hides a planning error, and its
// cost stays far below any runtime cost limit (at most kMaxNodes nodes, constants and the
// variable's strings at most kMaxText bytes).
//
// EvaluateDirect() answers kTrue/kFalse only where the planned program gives that boolean;
// whenever anything leaves the plain path (a missing key, a value of another type, a
// non-map receiver, an optional, a variable's string longer than kMaxText) it answers kBail
// and the caller plans and evaluates the selector: every error, and every answer that is
// not a plain boolean, comes from the planned program. Differential test:
// tests/policy/cel/direct_predicate_test.cc.
//
// Thread-safe: pure functions over const inputs.
#ifndef DRAGUARD_POLICY_CEL_DIRECT_PREDICATE_H_
#define DRAGUARD_POLICY_CEL_DIRECT_PREDICATE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/cel/ast.h"
#include "policy/cel/value.h"

namespace draguard::cel {

enum class DirectOutcome : uint8_t { kFalse, kTrue, kBail };

struct DirectLimits {
  static constexpr size_t kMaxNodes = 64;
  static constexpr size_t kMaxText = 1024;
};

// Whether `root` is in the subset EvaluateDirect decides, with `variable` its only
// identifier.
bool DirectlyEvaluable(const Expr& root, std::string_view variable);

// `root` (DirectlyEvaluable) evaluated with `variable` bound to `value`: the planned
// program's boolean, or kBail (see above).
DirectOutcome EvaluateDirect(const Expr& root, std::string_view variable, const Value& value);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_DIRECT_PREDICATE_H_
