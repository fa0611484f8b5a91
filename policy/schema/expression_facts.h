// Internal to draguard_schema: what a parsed selector reads from `device` and what it
// guarantees when it is true. A walk over the CEL AST (never over the text).
//
// An access is `device.attributes[D].name` (also `[D]["name"]`, `.?name`, `[?"name"]`,
// `has(...)`) or the same under `device.capacity`. Facts are the positive atoms of the
// conjunctions that enclose an access, because CEL's `&&` absorbs errors when another operand
// is false: `device.driver == "X"`, `device.attributes[D].<type attribute> == "t"` (or `in
// [...]`), and presence tests (`has(...)`, `"name" in device.attributes[D]`).
#ifndef DRAGUARD_POLICY_SCHEMA_EXPRESSION_FACTS_H_
#define DRAGUARD_POLICY_SCHEMA_EXPRESSION_FACTS_H_

#include <forward_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "policy/cel/ast.h"
#include "policy/schema/schema.h"

namespace draguard::schema::internal {

// What holds for every device that gets past a point of evaluation.
struct Facts {
  // device.driver is one of these; nullopt when not pinned.
  std::optional<std::set<std::string>> drivers;
  // Per domain, the device types (values of the domain's type attribute) still possible.
  std::map<std::string, std::set<std::string>> types;
  // (domain, name) pairs known to be present (attributes and capacities alike).
  std::set<std::pair<std::string, std::string>> present;

  // Both hold: pins intersect, presence unites.
  void Merge(const Facts& other);
};

// Another attribute or capacity read as the other operand of a comparison
// (`device.attributes["a"].x == device.attributes["b"].y`).
struct OtherAccess {
  bool capacity = false;
  std::string domain;
  std::string name;
};

struct Comparison {
  std::string op;             // cel operator name, e.g. "_==_"
  cel::Constant literal;      // the other operand when it is a literal
  std::optional<OtherAccess> other;  // set instead when the other operand is an access
  bool access_on_left = true;
  int literal_offset = 0;     // byte range of the literal (or of the other access's name)
  int literal_length = 0;
};

struct Access {
  bool capacity = false;
  std::string domain;
  std::string name;  // empty when only the domain map is used
  int domain_offset = 0, domain_length = 0;  // the domain literal, quotes included
  int name_offset = 0, name_length = 0;
  // has(), .?name, [?"name"], "name" in ...: reading it cannot fail.
  bool presence_test = false;
  std::optional<Comparison> comparison;
  std::string method;  // a member function called on the value, e.g. "startsWith"
  int method_offset = 0;
  // Facts of the enclosing conjunctions (and of earlier selectors): the `given` of
  // AnalyzeExpression or one of ExpressionFacts::contexts, shared by the accesses under the
  // same conjunction rather than copied into each. Never null.
  const Facts* context = nullptr;
};

struct ExpressionFacts {
  std::vector<Access> accesses;
  // The contexts of conjunctions inside the expression, which accesses point to (a list:
  // adding one moves none, moving the ExpressionFacts keeps their addresses, and an
  // expression without a conjunction allocates nothing, unlike a deque).
  std::forward_list<Facts> contexts;
  // Facts that hold whenever the whole expression is true.
  Facts when_true;
};

// `given` holds before the expression runs (class selectors, earlier selectors). The accesses'
// contexts point to `given` or into the result: both must outlive the use of the accesses.
ExpressionFacts AnalyzeExpression(const cel::Ast& ast, const Schema& schema, const Facts& given);

// `device.attributes["D"].name` (or `device.capacity[...]`), as a user would write it.
std::string AccessText(const Access& access);

}  // namespace draguard::schema::internal

#endif  // DRAGUARD_POLICY_SCHEMA_EXPRESSION_FACTS_H_
