// Kubernetes list library (isSorted, sum, min, max, indexOf, lastIndexOf) and cel-go's
// lists extension v3 (slice, flatten, distinct, reverse, sort, lists.range, first, last).
// indexOf/lastIndexOf on a string receiver belong to the strings extension and are
// dispatched there.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value IsSorted(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  const auto& e = a[0].list().elements;
  for (size_t i = 1; i < e.size(); ++i) {
    std::optional<int> c = CompareValues(e[i - 1], e[i]);
    if (!c) return NoSuchOverload();
    if (*c > 0) return Value::Bool(false);
  }
  return Value::Bool(true);
}

Value Sum(Args a, EvalState& s) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  const auto& e = a[0].list().elements;
  if (e.empty()) return Value::Int(0);
  Value acc = e[0];
  Function add = Registry::Default().Find("_+_", 2);
  for (size_t i = 1; i < e.size(); ++i) {
    std::array<Value, 2> args = {acc, e[i]};
    acc = add(args, s);
    if (acc.is_error()) return acc;
  }
  return acc;
}

template <bool kMax>
Value Extreme(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  const auto& e = a[0].list().elements;
  if (e.empty()) return Value::ErrorView(kMax ? "max of empty list" : "min of empty list");
  size_t best = 0;
  for (size_t i = 1; i < e.size(); ++i) {
    std::optional<int> c = CompareValues(e[i], e[best]);
    if (!c) return NoSuchOverload();
    if (kMax ? *c > 0 : *c < 0) best = i;
  }
  return e[best];
}

Value ListIndexOf(Args a, bool last) {
  const auto& e = a[0].list().elements;
  for (size_t k = 0; k < e.size(); ++k) {
    size_t i = last ? e.size() - 1 - k : k;
    if (ValuesEqual(e[i], a[1])) return Value::Int(static_cast<int64_t>(i));
  }
  return Value::Int(-1);
}

// indexOf/lastIndexOf are shared with the strings extension: dispatch on the receiver.
template <bool kLast>
Value IndexOf(Args a, EvalState& s) {
  if (a[0].kind() == Kind::kList && a.size() == 2) return ListIndexOf(a, kLast);
  return kLast ? StringLastIndexOf(a, s) : StringIndexOf(a, s);
}

Value Slice(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList || a[1].kind() != Kind::kInt || a[2].kind() != Kind::kInt) {
    return NoSuchOverload();
  }
  const auto& e = a[0].list().elements;
  int64_t start = a[1].int_value();
  int64_t end = a[2].int_value();
  if (start < 0 || end < 0) {
    return Value::Error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), negative indexes not supported");
  }
  if (start > end) {
    return Value::Error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), start index must be less than or equal to end index");
  }
  if (static_cast<size_t>(end) > e.size()) {
    return Value::Error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), list is length " + std::to_string(e.size()));
  }
  auto out = std::make_shared<ListData>();
  out->elements.assign(e.begin() + start, e.begin() + end);
  return Value::List(std::move(out));
}

void FlattenInto(const ListData& list, int64_t depth, std::vector<Value>& out) {
  for (const Value& v : list.elements) {
    if (v.kind() == Kind::kList && depth > 0) {
      FlattenInto(v.list(), depth - 1, out);
    } else {
      out.push_back(v);
    }
  }
}

Value Flatten(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  int64_t depth = 1;
  if (a.size() == 2) {
    if (a[1].kind() != Kind::kInt) return NoSuchOverload();
    depth = a[1].int_value();
    if (depth < 0) return Value::ErrorView("level must be non-negative");
  }
  auto out = std::make_shared<ListData>();
  FlattenInto(a[0].list(), depth, out->elements);
  return Value::List(std::move(out));
}

Value Distinct(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  auto out = std::make_shared<ListData>();
  for (const Value& v : a[0].list().elements) {
    bool seen = false;
    for (const Value& w : out->elements) seen = seen || ValuesEqual(v, w);
    if (!seen) out->elements.push_back(v);
  }
  return Value::List(std::move(out));
}

Value Reverse(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  auto out = std::make_shared<ListData>(a[0].list());
  std::reverse(out->elements.begin(), out->elements.end());
  return Value::List(std::move(out));
}

Value Sort(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  auto out = std::make_shared<ListData>(a[0].list());
  auto& e = out->elements;
  for (size_t i = 1; i < e.size(); ++i) {
    if (e[i].kind() != e[0].kind() || !CompareValues(e[0], e[i])) {
      return Value::ErrorView("list elements must have the same type");
    }
  }
  std::stable_sort(e.begin(), e.end(),
                   [](const Value& x, const Value& y) { return CompareValues(x, y) < 0; });
  return Value::List(std::move(out));
}

Value Range(Args a, EvalState&) {
  if (a[0].kind() != Kind::kInt) return NoSuchOverload();
  auto out = std::make_shared<ListData>();
  for (int64_t i = 0; i < a[0].int_value() && i < 1000000; ++i) out->elements.push_back(Value::Int(i));
  return Value::List(std::move(out));
}

template <bool kLast>
Value Edge(Args a, EvalState&) {
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  const auto& e = a[0].list().elements;
  if (e.empty()) return Value::OptionalNone();
  return Value::Optional(kLast ? e.back() : e.front());
}

// cel.@mapInsert(map, key, value) and cel.@mapInsert(map, map): the accumulator step of
// the transformMap/transformMapEntry macros (cel-go ext.TwoVarComprehensions). A key that
// is already present is an error, as in cel-go.
Value MapInsert(Args a, EvalState&) {
  if (a[0].kind() != Kind::kMap) return NoSuchOverload();
  auto out = std::make_shared<MapData>();
  out->entries = a[0].map().entries;
  auto insert = [&out](const Value& key, const Value& value) -> std::optional<Value> {
    if (out->Find(key) != nullptr) {
      return Value::Error("insert failed: key " + key.DebugString() + " already exists");
    }
    out->entries.emplace_back(key, value);
    return std::nullopt;
  };
  if (a.size() == 3) {
    if (std::optional<Value> err = insert(a[1], a[2])) return *err;
  } else {
    if (a[1].kind() != Kind::kMap) return NoSuchOverload();
    for (const auto& [key, value] : a[1].map().entries) {
      if (std::optional<Value> err = insert(key, value)) return *err;
    }
  }
  return Value::Map(std::move(out));
}

// ResourceSliceMaxAttributeValuesPerDevice: includes() scans at most this many elements.
constexpr size_t kIncludesMaxScan = 48;

// DRA `<target>.includes(<arg>)` (dynamic-resource-allocation v0.36.0 cel/compile.go
// includesFunc): on a list, whether some element Equals the argument (an error, e.g. a
// Semver against a string, counts as unequal), reading at most 48 elements; on anything
// else, whether the target itself Equals it (so not a substring test on strings).
Value Includes(Args a, EvalState&) {
  auto equal = [](const Value& x, const Value& y) {
    Value r = Equal(x, y);
    return r.is_bool() && r.bool_value();
  };
  if (a[0].kind() != Kind::kList) return Value::Bool(equal(a[0], a[1]));
  size_t scanned = 0;
  for (const Value& item : a[0].list().elements) {
    if (scanned++ >= kIncludesMaxScan) {
      return Value::ErrorView("'includes' function cannot be applied to lists longer than 48 values");
    }
    if (equal(item, a[1])) return Value::Bool(true);
  }
  return Value::Bool(false);
}

}  // namespace

void RegisterListFunctions(Registry& r) {
  r.Add("includes", 2, Includes);
  r.Add("isSorted", 1, IsSorted);
  r.Add("sum", 1, Sum);
  r.Add("min", 1, Extreme<false>);
  r.Add("max", 1, Extreme<true>);
  r.Add("indexOf", 2, IndexOf<false>);
  r.Add("indexOf", 3, IndexOf<false>);
  r.Add("lastIndexOf", 2, IndexOf<true>);
  r.Add("lastIndexOf", 3, IndexOf<true>);
  r.Add("slice", 3, Slice);
  r.Add("flatten", 1, Flatten);
  r.Add("flatten", 2, Flatten);
  r.Add("distinct", 1, Distinct);
  r.Add("reverse", 1, Reverse);
  r.Add("sort", 1, Sort);
  r.Add("lists.range", 1, Range);
  r.Add("first", 1, Edge<false>);
  r.Add("last", 1, Edge<true>);
  r.Add("cel.@mapInsert", 3, MapInsert);
  r.Add("cel.@mapInsert", 2, MapInsert);
}

}  // namespace draguard::cel
