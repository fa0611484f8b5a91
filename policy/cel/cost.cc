// cel-go's cost model (checker/cost.go), walked over our AST:
//  - literals cost 0, identifiers 1, a field select on a map or object 1 (on dyn/any 0),
//    a presence test only its operand;
//  - a call costs its target and arguments plus the function cost, the union over every
//    candidate overload; most functions cost 1, string- and list-size-dependent ones scale
//    with size estimates (traversal factor 0.1, regex factor 0.25), && and || cost the
//    left side at least and both at most, ?: the condition plus the dearer branch;
//  - list literals 10, map literals 30, message literals 40, plus their elements;
//  - a comprehension costs range + init + result + range size × (condition + step).
// Sizes come from computed results, literals, the SizeEstimator by field path, scalars (size
// 1) and local variables; anything else is [0, UINT64_MAX]. As cel-go v0.26 (the version
// Kubernetes 1.34-1.36 vendor), list and map literals also carry the size range of their
// entries: an index into a literal, and an iteration variable over one, is sized by the
// literal's elements; `?:` and `+` merge entry sizes; comprehension accumulators are local
// variables sized by their initial value; bytes(string) and string(bytes) have sizes.
#include "policy/cel/cost.h"

#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "policy/cel/operators.h"

namespace draguard::cel {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
constexpr double kTraversal = 0.1;
constexpr double kRegexFactor = 0.25;
// apiserver/pkg/cel/limits.go: MaxNameFormatRegexSize and MaxFormatSize.
constexpr double kMaxNameFormatRegexSize = 128;
constexpr uint64_t kMaxFormatNameSize = 64;

uint64_t SatAdd(uint64_t a, uint64_t b) { return a > kMax - b ? kMax : a + b; }
uint64_t SatMul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kMax / b ? kMax : a * b;
}
uint64_t ByFactor(uint64_t x, double f) {
  const double xf = static_cast<double>(x);
  if (xf > 0 && f > 0 && xf > static_cast<double>(kMax) / f) return kMax;
  const double c = std::ceil(xf * f);
  if (c >= 18446744073709551616.0) return kMax;
  return static_cast<uint64_t>(c);
}

CostEstimate Add(CostEstimate a, CostEstimate b) {
  return {SatAdd(a.min, b.min), SatAdd(a.max, b.max)};
}
CostEstimate Mul(CostEstimate a, CostEstimate b) {
  return {SatMul(a.min, b.min), SatMul(a.max, b.max)};
}
CostEstimate Factor(SizeEstimate s, double f) { return {ByFactor(s.min, f), ByFactor(s.max, f)}; }
CostEstimate Union(CostEstimate a, CostEstimate b) {
  return {std::min(a.min, b.min), std::max(a.max, b.max)};
}
SizeEstimate UnionSize(SizeEstimate a, SizeEstimate b) {
  return {std::min(a.min, b.min), std::max(a.max, b.max)};
}

// The sizes of a list's items (key: the index, size 1) or a map's keys and values.
struct EntrySize {
  TypeKind container;
  SizeEstimate key;
  SizeEstimate val;
};

bool IsScalar(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kBool:
    case TypeKind::kDouble:
    case TypeKind::kDuration:
    case TypeKind::kInt:
    case TypeKind::kTimestamp:
    case TypeKind::kUint:
      return true;
    default:
      return false;
  }
}

class DraSizes final : public SizeEstimator {
 public:
  std::optional<SizeEstimate> EstimateSize(const std::vector<std::string>& p) const override {
    if (p.empty() || p[0] != "device") return std::nullopt;
    if (p.size() == 2 && p[1] == "driver") return SizeEstimate{0, 63};
    if (p.size() < 2 || (p[1] != "attributes" && p[1] != "capacity")) return std::nullopt;
    if (p.size() == 2) return SizeEstimate{0, 32};                     // domains
    if (p.size() == 3) return SizeEstimate{0, p[2] == "@keys" ? 63u : 32u};  // domain / inner map
    if (p.size() == 4) return SizeEstimate{0, p[3] == "@keys" ? 32u : 64u};  // id / value
    return std::nullopt;
  }
};

class Coster {
 public:
  Coster(const CheckedAst& checked, const CostOptions& options)
      : checked_(checked), options_(options) {}

  CostEstimate Cost(const Expr& e) {
    if (e.as_const()) return {};
    if (const IdentExpr* i = e.as_ident()) return CostIdent(e, *i);
    if (const SelectExpr* s = e.as_select()) return CostSelect(e, *s);
    if (const CallExpr* c = e.as_call()) return CostCall(e, *c);
    if (const ListExpr* l = e.as_list()) {
      CostEstimate sum{10, 10};
      EntrySize entry{TypeKind::kList, {1, 1}, {l->elements.empty() ? 0 : kMax, 0}};
      for (const ExprPtr& el : l->elements) {
        sum = Add(sum, Cost(*el));
        entry.val = UnionSize(entry.val, SizeOf(*el));
      }
      entries_[e.id] = entry;
      return sum;
    }
    if (const StructExpr* st = e.as_struct()) {
      const uint64_t base = st->message_name.empty() ? 30 : 40;
      CostEstimate sum{base, base};
      const uint64_t init = st->entries.empty() ? 0 : kMax;
      EntrySize entry{TypeKind::kMap, {init, 0}, {init, 0}};
      for (const StructEntry& field : st->entries) {
        if (field.key) {
          sum = Add(sum, Cost(*field.key));
          entry.key = UnionSize(entry.key, SizeOf(*field.key));
        }
        if (field.value) {
          sum = Add(sum, Cost(*field.value));
          entry.val = UnionSize(entry.val, SizeOf(*field.value));
        }
      }
      if (st->message_name.empty()) entries_[e.id] = entry;
      return sum;
    }
    if (const ComprehensionExpr* c = e.as_comprehension()) return CostComprehension(e, *c);
    return {};
  }

 private:
  CostEstimate CostIdent(const Expr& e, const IdentExpr& ident) {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
      if (it->name != ident.name) continue;
      paths_[e.id] = it->path;
      if (it->size) local_sizes_[e.id] = *it->size;
      if (it->entry) entries_[e.id] = *it->entry;
      return {1, 1};
    }
    paths_[e.id] = {ident.name};
    return {1, 1};
  }

  CostEstimate CostSelect(const Expr& e, const SelectExpr& sel) {
    const Reference* ref = checked_.ReferenceOf(e.id);
    if (ref != nullptr && ref->select_is_variable) {
      paths_[e.id] = {ref->name};
      return {1, 1};
    }
    CostEstimate sum = Cost(*sel.operand);
    if (sel.test_only) return sum;
    const TypeKind k = checked_.TypeOf(sel.operand->id).kind();
    if (k == TypeKind::kMap || k == TypeKind::kObject || k == TypeKind::kTypeParam) {
      sum = Add(sum, {1, 1});
    }
    auto path = PathOf(*sel.operand);
    path.push_back(sel.field);
    paths_[e.id] = std::move(path);
    return sum;
  }

  CostEstimate CostCall(const Expr& e, const CallExpr& call) {
    std::vector<CostEstimate> arg_costs;
    for (const ExprPtr& a : call.args) arg_costs.push_back(Cost(*a));
    const Reference* ref = checked_.ReferenceOf(e.id);
    if (ref == nullptr || ref->overload_ids.empty()) return {};
    CostEstimate sum;
    const Expr* target = nullptr;
    if (call.target && !ref->target_is_namespace) {
      sum = Cost(*call.target);
      target = call.target.get();
    }
    CostEstimate fn{kMax, 0};
    std::optional<SizeEstimate> result_size;
    call_id_ = e.id;
    for (const std::string& id : ref->overload_ids) {
      std::optional<SizeEstimate> size;
      fn = Union(fn, FunctionCost(call, id, target, arg_costs, &size));
      if (size) result_size = result_size ? UnionSize(*result_size, *size) : *size;
      if ((id == "index_list" || id == "index_map") && !call.args.empty()) {
        AddIndexPath(e, *call.args[0], id == "index_list" ? "@items" : "@values");
        // An index into a literal (or a value that carries entry sizes) has its entries' size.
        if (const EntrySize* entry = EntryOf(*call.args[0])) {
          result_size = result_size ? UnionSize(*result_size, entry->val) : entry->val;
        }
      }
    }
    if (result_size) computed_[e.id] = *result_size;
    return Add(sum, fn);
  }

  void AddIndexPath(const Expr& e, const Expr& container, const char* suffix) {
    auto path = PathOf(container);
    path.push_back(suffix);
    paths_[e.id] = std::move(path);
  }

  static CostEstimate SumOf(const std::vector<CostEstimate>& costs) {
    CostEstimate s;
    for (const CostEstimate& c : costs) s = Add(s, c);
    return s;
  }

  // Kubernetes' library estimator (apiserver/pkg/cel/library/cost.go), by function name.
  std::optional<CostEstimate> LibraryCost(const CallExpr& call, const Expr* target,
                                          std::optional<SizeEstimate>* size) {
    const std::string& f = call.function;
    if (std::optional<CostEstimate> format = FormatLibraryCost(call, target)) return format;
    const Expr* subject = target ? target : (call.args.empty() ? nullptr : call.args[0].get());
    if (subject == nullptr) return std::nullopt;
    if (f == "lowerAscii" || f == "upperAscii" || f == "substring" || f == "trim" ||
        f == "url" || f == "quantity" || f == "isQuantity" || f == "semver" ||
        f == "isSemver" || f == "cidr" || f == "isCIDR" || f == "isIP" || f == "isURL" ||
        (f == "ip" && !target)) {
      if (f == "lowerAscii" || f == "upperAscii" || f == "trim" || f == "substring") {
        *size = SizeOf(*subject);
      }
      return Factor(SizeOf(*subject), kTraversal);
    }
    if ((f == "replace" || f == "split") && target) {
      if (f == "split") *size = SizeEstimate{0, SizeOf(*target).max};
      return Factor(SizeOf(*target), 2 * kTraversal);
    }
    if ((f == "find" || f == "findAll") && target && !call.args.empty()) {
      SizeEstimate s = SizeOf(*target);
      s = {SatAdd(s.min, 1), SatAdd(s.max, 1)};
      return Mul(Factor(s, kTraversal), Factor(SizeOf(*call.args[0]), kRegexFactor));
    }
    if ((f == "isSorted" || f == "sum" || f == "max" || f == "min" || f == "indexOf" ||
         f == "lastIndexOf") &&
        target) {
      const Type& tt = checked_.TypeOf(target->id);
      if (tt.kind() != TypeKind::kList) return Factor(SizeOf(*target), kTraversal);
      CostEstimate el{1, 1};
      const TypeKind ek = tt.param(0).kind();
      if (ek == TypeKind::kString || ek == TypeKind::kBytes) {
        auto path = PathOf(*target);
        path.push_back("@items");
        el = Add(el, Factor(SizeByPath(path).value_or(SizeEstimate{0, kMax}), kTraversal));
      }
      const SizeEstimate n = SizeOf(*target);
      return Mul({n.min, n.max}, el);
    }
    return std::nullopt;
  }

  // The Kubernetes format library: validate() scans the string once per regex-sized step
  // (MaxNameFormatRegexSize 128 × regex factor), formats compare by name (≤ 64 bytes).
  std::optional<CostEstimate> FormatLibraryCost(const CallExpr& call, const Expr* target) {
    if (call.function == "validate" && target != nullptr && call.args.size() == 1) {
      const CostEstimate scan = Factor(SizeOf(*call.args[0]), kTraversal);
      return Factor({scan.min, scan.max}, kMaxNameFormatRegexSize * kRegexFactor);
    }
    if (call.function == op::kEquals && call.args.size() == 2 &&
        checked_.TypeOf(call.args[0]->id) == NamedFormatType() &&
        checked_.TypeOf(call.args[1]->id) == NamedFormatType()) {
      return Factor({1, kMaxFormatNameSize}, kTraversal);
    }
    return std::nullopt;
  }

  CostEstimate FunctionCost(const CallExpr& call, const std::string& id, const Expr* target,
                            const std::vector<CostEstimate>& args,
                            std::optional<SizeEstimate>* size) {
    if (std::optional<CostEstimate> lib = LibraryCost(call, target, size)) {
      return Add(*lib, SumOf(args));
    }
    const auto& a = call.args;
    if ((id == "starts_with_string" || id == "ends_with_string") && a.size() == 1) {
      return Add(Factor(SizeOf(*a[0]), kTraversal), SumOf(args));
    }
    if (id == "string_format" && target) {  // cel-go: the format string is scanned once
      return Add(Factor(SizeOf(*target), kTraversal), SumOf(args));
    }
    // draCostEstimator (dynamic-resource-allocation v0.36.0): `includes` is linear in a list
    // of at most ResourceSliceMaxAttributeValuesPerDevice elements, whatever the target.
    if (id == "dra_includes_dyn_dyn" && target) return Add({0, 48}, SumOf(args));
    if (id == "in_list" && a.size() == 2) {
      const SizeEstimate n = SizeOf(*a[1]);
      return Add({n.min, n.max}, SumOf(args));
    }
    if (id == "matches_string" && target && a.size() == 1) {
      SizeEstimate s = SizeOf(*target);
      s = {SatAdd(s.min, 1), SatAdd(s.max, 1)};
      return Add(Mul(Factor(s, kTraversal), Factor(SizeOf(*a[0]), kRegexFactor)), SumOf(args));
    }
    if (id == "contains_string" && target && a.size() == 1) {
      return Add(Mul(Factor(SizeOf(*target), kTraversal), Factor(SizeOf(*a[0]), kTraversal)),
                 SumOf(args));
    }
    if ((id == "logical_and" || id == "logical_or") && args.size() == 2) {
      return {args[0].min, Add(args[0], args[1]).max};
    }
    if (id == "conditional" && args.size() == 3) {
      *size = UnionSize(SizeOf(*a[1]), SizeOf(*a[2]));
      MergeEntries(call_id_, *a[1], *a[2]);
      return Add(args[0], Union(args[1], args[2]));
    }
    if ((id == "string_to_bytes" || id == "bytes_to_string") && a.size() == 1) {
      // cel-go: a character is 1-4 bytes, so bytes(s) has |s|..4|s| and string(b) |b|/4..|b|.
      const SizeEstimate n = SizeOf(*a[0]);
      *size = id == "string_to_bytes" ? SizeEstimate{n.min, SatMul(n.max, 4)}
                                      : SizeEstimate{n.min / 4, n.max};
      return Add(Factor(n, kTraversal), SumOf(args));
    }
    if ((id == "add_string" || id == "add_bytes" || id == "add_list") && a.size() == 2) {
      const SizeEstimate l = SizeOf(*a[0]), r = SizeOf(*a[1]);
      *size = SizeEstimate{SatAdd(l.min, r.min), SatAdd(l.max, r.max)};
      MergeEntries(call_id_, *a[0], *a[1]);
      if (id == "add_list") return Add({1, 1}, SumOf(args));
      return Add(Factor(**size, kTraversal), SumOf(args));
    }
    if (IsSizeComparison(id) && a.size() == 2) {
      const uint64_t smallest = std::min(SizeOf(*a[0]).max, SizeOf(*a[1]).max);
      const SizeEstimate s{smallest > 0 ? 1u : 0u, smallest};
      return Add(Factor(s, kTraversal), SumOf(args));
    }
    return Add({1, 1}, SumOf(args));
  }

  static bool IsSizeComparison(std::string_view id) {
    if (id == "equals" || id == "not_equals") return true;
    for (std::string_view op : {"less_", "less_equals_", "greater_", "greater_equals_"}) {
      if (id.substr(0, op.size()) != op) continue;
      const std::string_view rest = id.substr(op.size());
      if (rest == "string" || rest == "bytes") return true;
    }
    return false;
  }

  CostEstimate CostComprehension(const Expr& e, const ComprehensionExpr& c) {
    CostEstimate sum = Add(Cost(*c.iter_range), Cost(*c.accu_init));
    const size_t mark = locals_.size();
    locals_.push_back({c.accu_var, PathOf(*c.accu_init), ComputeSize(*c.accu_init),
                       EntryCopy(*c.accu_init)});
    // The iteration variables (cel-go pushIterSingle / pushIterKey / pushIterValue): a list's
    // items or a map's keys, sized by the range's entry sizes when it has them.
    const std::optional<EntrySize> entry = EntryCopy(*c.iter_range);
    const TypeKind container =
        entry ? entry->container : checked_.TypeOf(c.iter_range->id).kind();
    const bool is_map = container == TypeKind::kMap;
    auto iter_local = [&](std::string_view name, const char* suffix, bool value) {
      std::vector<std::string> path = PathOf(*c.iter_range);
      path.push_back(suffix);
      std::optional<SizeEstimate> size;
      if (entry) size = value ? entry->val : entry->key;
      locals_.push_back({name, std::move(path), size, std::nullopt});
    };
    if (c.iter_var2.empty()) {
      iter_local(c.iter_var, is_map ? "@keys" : "@items", /*value=*/!is_map);
    } else {
      iter_local(c.iter_var, is_map ? "@keys" : "@indices", /*value=*/false);
      iter_local(c.iter_var2, is_map ? "@values" : "@items", /*value=*/true);
    }
    const CostEstimate loop = Cost(*c.loop_condition);
    const CostEstimate step = Cost(*c.loop_step);
    locals_.resize(mark + 1);  // the accumulator stays visible to the result
    sum = Add(sum, Cost(*c.result));
    locals_.resize(mark);
    const SizeEstimate n = SizeOf(*c.iter_range);
    if (IsBind(c)) {
      // cel-go costBind: the bind is its result.
      if (std::optional<SizeEstimate> size = ComputeSize(*c.result)) computed_[e.id] = *size;
      if (std::optional<EntrySize> result_entry = EntryCopy(*c.result)) {
        entries_[e.id] = *result_entry;
      }
    } else if (c.accu_init->as_const() != nullptr) {
      computed_[e.id] = SizeOf(*c.accu_init);
    } else if (c.accu_init->as_list() != nullptr || c.accu_init->as_struct() != nullptr) {
      computed_[e.id] = n;
      if (std::optional<EntrySize> step_entry = EntryCopy(*c.loop_step)) {
        entries_[e.id] = *step_entry;
      }
    }
    return Add(sum, Mul({n.min, n.max}, Add(step, loop)));
  }

  // cel.bind: an empty literal range, a false literal condition, the bound variable as
  // accumulator (cel-go coster.isBind).
  static bool IsBind(const ComprehensionExpr& c) {
    const ListExpr* range = c.iter_range->as_list();
    const ConstExpr* cond = c.loop_condition->as_const();
    const bool* cond_value = cond != nullptr ? std::get_if<bool>(&cond->value) : nullptr;
    return range != nullptr && range->elements.empty() && cond_value != nullptr &&
           !*cond_value && c.accu_var != kAccumulatorName;
  }

  // Entry sizes of `e`: computed for it (literals, merges) or of the local variable it names.
  const EntrySize* EntryOf(const Expr& e) const {
    auto it = entries_.find(e.id);
    return it == entries_.end() ? nullptr : &it->second;
  }
  std::optional<EntrySize> EntryCopy(const Expr& e) const {
    const EntrySize* entry = EntryOf(e);
    return entry == nullptr ? std::nullopt : std::optional<EntrySize>(*entry);
  }

  // cel-go entrySizeEstimate.union: only when both sides have entry sizes.
  void MergeEntries(int64_t id, const Expr& a, const Expr& b) {
    const EntrySize* x = EntryOf(a);
    const EntrySize* y = EntryOf(b);
    if (x == nullptr || y == nullptr) return;
    const EntrySize merged{x->container, UnionSize(x->key, y->key), UnionSize(x->val, y->val)};
    entries_[id] = merged;
  }

  std::vector<std::string> PathOf(const Expr& e) const {
    auto it = paths_.find(e.id);
    return it == paths_.end() ? std::vector<std::string>() : it->second;
  }

  std::optional<SizeEstimate> SizeByPath(const std::vector<std::string>& path) const {
    if (options_.sizes == nullptr || path.empty()) return std::nullopt;
    return options_.sizes->EstimateSize(path);
  }

  SizeEstimate SizeOf(const Expr& e) const {
    return ComputeSize(e).value_or(SizeEstimate{0, kMax});
  }

  // cel-go computeSize: computed results, literals, the estimator by path, scalars, then the
  // size of the local variable an identifier names; nullopt when unknown.
  std::optional<SizeEstimate> ComputeSize(const Expr& e) const {
    if (auto it = computed_.find(e.id); it != computed_.end()) return it->second;
    if (const ConstExpr* c = e.as_const()) {
      if (const std::string* s = std::get_if<std::string>(&c->value)) {
        const uint64_t n = CountCodePoints(*s);
        return SizeEstimate{n, n};
      }
      if (const BytesConstant* b = std::get_if<BytesConstant>(&c->value)) {
        return SizeEstimate{b->value.size(), b->value.size()};
      }
      return SizeEstimate{1, 1};
    }
    if (const ListExpr* l = e.as_list()) {
      return SizeEstimate{l->elements.size(), l->elements.size()};
    }
    if (const StructExpr* st = e.as_struct(); st && st->message_name.empty()) {
      return SizeEstimate{st->entries.size(), st->entries.size()};
    }
    auto pit = paths_.find(e.id);
    if (pit != paths_.end()) {
      if (std::optional<SizeEstimate> s = SizeByPath(pit->second)) return *s;
    }
    if (IsScalar(checked_.TypeOf(e.id))) return SizeEstimate{1, 1};
    if (auto it = local_sizes_.find(e.id); it != local_sizes_.end()) return it->second;
    return std::nullopt;
  }

  // A comprehension's iteration variables and accumulator (cel-go localVar).
  struct Local {
    std::string_view name;
    std::vector<std::string> path;
    std::optional<SizeEstimate> size;
    std::optional<EntrySize> entry;
  };

  const CheckedAst& checked_;
  const CostOptions& options_;
  std::unordered_map<int64_t, SizeEstimate> computed_;
  std::unordered_map<int64_t, std::vector<std::string>> paths_;
  std::unordered_map<int64_t, EntrySize> entries_;
  std::unordered_map<int64_t, SizeEstimate> local_sizes_;
  std::vector<Local> locals_;
  int64_t call_id_ = 0;  // the call whose overloads FunctionCost is costing
};

}  // namespace

const SizeEstimator& DraSizeEstimator() {
  static const DraSizes* const kSizes = new DraSizes();
  return *kSizes;
}

CostEstimate EstimateCost(const Ast& ast, const CheckedAst& checked, const CostOptions& options) {
  return Coster(checked, options).Cost(ast.root());
}

}  // namespace draguard::cel
