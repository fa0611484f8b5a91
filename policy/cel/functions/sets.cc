// cel-go sets extension: sets.contains, sets.equivalent, sets.intersects, with CEL's
// heterogeneous (numeric) equality.
#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

bool ListHas(const ListData& list, const Value& v) {
  for (const Value& e : list.elements) {
    if (ValuesEqual(e, v)) return true;
  }
  return false;
}

bool ContainsAll(const ListData& a, const ListData& b) {
  for (const Value& v : b.elements) {
    if (!ListHas(a, v)) return false;
  }
  return true;
}

bool BothLists(Args a) { return a[0].kind() == Kind::kList && a[1].kind() == Kind::kList; }

Value SetsContains(Args a, EvalState&) {
  if (!BothLists(a)) return NoSuchOverload();
  return Value::Bool(ContainsAll(a[0].list(), a[1].list()));
}

Value Equivalent(Args a, EvalState&) {
  if (!BothLists(a)) return NoSuchOverload();
  return Value::Bool(ContainsAll(a[0].list(), a[1].list()) &&
                     ContainsAll(a[1].list(), a[0].list()));
}

Value Intersects(Args a, EvalState&) {
  if (!BothLists(a)) return NoSuchOverload();
  for (const Value& v : a[1].list().elements) {
    if (ListHas(a[0].list(), v)) return Value::Bool(true);
  }
  return Value::Bool(false);
}

}  // namespace

void RegisterSetFunctions(Registry& r) {
  r.Add("sets.contains", 2, SetsContains);
  r.Add("sets.equivalent", 2, Equivalent);
  r.Add("sets.intersects", 2, Intersects);
}

}  // namespace draguard::cel
