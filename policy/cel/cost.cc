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

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

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
  std::optional<SizeEstimate> EstimateSize(std::span<const std::string_view> p) const override {
    if (p.empty() || p[0] != "device") return std::nullopt;
    if (p.size() == 2 && p[1] == "driver") return SizeEstimate{0, 63};
    if (p.size() < 2 || (p[1] != "attributes" && p[1] != "capacity")) return std::nullopt;
    if (p.size() == 2) return SizeEstimate{0, 32};                     // domains
    if (p.size() == 3) return SizeEstimate{0, p[2] == "@keys" ? 63u : 32u};  // domain / inner map
    if (p.size() == 4) return SizeEstimate{0, p[3] == "@keys" ? 32u : 64u};  // id / value
    return std::nullopt;
  }
};

// What Kubernetes' library estimator (LibraryCost) prices by function name, classified once
// per call rather than compared name by name for every overload.
enum class LibFn : uint8_t {
  kNone,
  kScan,       // url quantity isQuantity semver isSemver cidr isCIDR isIP isURL
  kScanSized,  // lowerAscii upperAscii substring trim: a scan, result as large as the subject
  kIp,         // ip(): a scan in its global form only
  kReplace,
  kSplit,
  kFind,      // find findAll
  kListScan,  // isSorted sum max min indexOf lastIndexOf
  kValidate,
  kEquals,  // _==_ (named formats)
};

// A fixed set of names, looked up by length first: the coster classifies every call of
// every compile (a never-seen selector is compiled per request), and hashing the name cost
// more than the lookup. Entries are bucketed by length at compile time; a lookup compares
// the first byte, then the bytes, of the few names of the same length.
template <typename T, size_t N>
class NameTable {
 public:
  using Entry = std::pair<std::string_view, T>;
  constexpr NameTable(std::array<Entry, N> entries, T none) : entries_(entries), none_(none) {
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.first.size() < b.first.size(); });
    size_t i = 0;
    for (size_t len = 0; len <= kMaxLength; ++len) {
      start_[len] = i;
      while (i < N && entries_[i].first.size() == len) ++i;
    }
    start_[kMaxLength + 1] = i;
  }

  // Every name is non-empty and fits a bucket (checked by static_assert where declared).
  constexpr bool Valid() const {
    return start_[kMaxLength + 1] == N && (N == 0 || start_[1] == 0);
  }

  T Find(std::string_view name) const {
    if (name.empty() || name.size() > kMaxLength) return none_;
    for (size_t i = start_[name.size()]; i < start_[name.size() + 1]; ++i) {
      const std::string_view key = entries_[i].first;
      if (key.front() == name.front() && key == name) return entries_[i].second;
    }
    return none_;
  }

 private:
  static constexpr size_t kMaxLength = 31;
  std::array<Entry, N> entries_;
  std::array<size_t, kMaxLength + 2> start_{};
  T none_;
};

LibFn ClassifyFunction(std::string_view f) {
  // Operators (cel-go's internal names all start with '_') are most calls of a selector, and
  // the table below holds one of them: answer those without a lookup.
  if (!f.empty() && f.front() == '_') {
    return f == std::string_view(op::kEquals) ? LibFn::kEquals : LibFn::kNone;
  }
  static constexpr NameTable<LibFn, 25> kByName(
      {{
          {"lowerAscii", LibFn::kScanSized}, {"upperAscii", LibFn::kScanSized},
          {"substring", LibFn::kScanSized},  {"trim", LibFn::kScanSized},
          {"url", LibFn::kScan},             {"quantity", LibFn::kScan},
          {"isQuantity", LibFn::kScan},      {"semver", LibFn::kScan},
          {"isSemver", LibFn::kScan},        {"cidr", LibFn::kScan},
          {"isCIDR", LibFn::kScan},          {"isIP", LibFn::kScan},
          {"isURL", LibFn::kScan},           {"ip", LibFn::kIp},
          {"replace", LibFn::kReplace},      {"split", LibFn::kSplit},
          {"find", LibFn::kFind},            {"findAll", LibFn::kFind},
          {"isSorted", LibFn::kListScan},    {"sum", LibFn::kListScan},
          {"max", LibFn::kListScan},         {"min", LibFn::kListScan},
          {"indexOf", LibFn::kListScan},     {"lastIndexOf", LibFn::kListScan},
          {"validate", LibFn::kValidate},
      }},
      LibFn::kNone);
  static_assert(kByName.Valid());
  return kByName.Find(f);
}

// The overloads FunctionCost prices by id, classified once per overload.
enum class Overload : uint8_t {
  kOther,
  kStartsEnds,  // starts_with_string ends_with_string
  kStringFormat,
  kDraIncludes,
  kInList,
  kMatches,
  kContains,
  kLogical,  // logical_and logical_or
  kConditional,
  kStringToBytes,
  kBytesToString,
  kAddSized,  // add_string add_bytes
  kAddList,
  kSizeComparison,  // equals not_equals, less/greater(_equals) on strings and bytes
  kIndexList,
  kIndexMap,
};

Overload ClassifyOverload(std::string_view id) {
  static constexpr NameTable<Overload, 27> kById({{
          {"starts_with_string", Overload::kStartsEnds},
          {"ends_with_string", Overload::kStartsEnds},
          {"string_format", Overload::kStringFormat},
          {"dra_includes_dyn_dyn", Overload::kDraIncludes},
          {"in_list", Overload::kInList},
          {"matches_string", Overload::kMatches},
          {"contains_string", Overload::kContains},
          {"logical_and", Overload::kLogical},
          {"logical_or", Overload::kLogical},
          {"conditional", Overload::kConditional},
          {"string_to_bytes", Overload::kStringToBytes},
          {"bytes_to_string", Overload::kBytesToString},
          {"add_string", Overload::kAddSized},
          {"add_bytes", Overload::kAddSized},
          {"add_list", Overload::kAddList},
          {"equals", Overload::kSizeComparison},
          {"not_equals", Overload::kSizeComparison},
          {"less_string", Overload::kSizeComparison},
          {"less_bytes", Overload::kSizeComparison},
          {"less_equals_string", Overload::kSizeComparison},
          {"less_equals_bytes", Overload::kSizeComparison},
          {"greater_string", Overload::kSizeComparison},
          {"greater_bytes", Overload::kSizeComparison},
          {"greater_equals_string", Overload::kSizeComparison},
          {"greater_equals_bytes", Overload::kSizeComparison},
          {"index_list", Overload::kIndexList},
          {"index_map", Overload::kIndexMap},
                                                  }},
                                                  Overload::kOther);
  static_assert(kById.Valid());
  return kById.Find(id);
}

// No field path (PathOf of a node that has none).
constexpr int32_t kNoPath = -1;

// Per node: what the walk found out, by node id (dense: ids run from 1 to Ast::max_id).
struct NodeFacts {
  int32_t path = kNoPath;  // into Coster::path_parts_
  bool has_computed = false;
  bool has_local_size = false;
  bool has_entry = false;
  SizeEstimate computed;    // a call's or comprehension's result size
  SizeEstimate local_size;  // the size of the local variable an identifier names
  EntrySize entry{};        // entry sizes of a literal, a merge or a local
};

class Coster {
 public:
  Coster(const Ast& ast, const CheckedAst& checked, const CostOptions& options)
      : checked_(checked),
        options_(options),
        facts_(static_cast<size_t>(std::max<int64_t>(ast.max_id(), 0)) + 1) {
    // One allocation each for the usual expression instead of growing through 1, 2, 4, 8
    // (the coster is made per compile): about one path part per node, and a call's argument
    // costs stay on the stack while its arguments' own calls are costed.
    path_parts_.reserve(facts_.size());
    arg_costs_.reserve(8);
  }

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
      SetEntry(e.id, entry);
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
      if (st->message_name.empty()) SetEntry(e.id, entry);
      return sum;
    }
    if (const ComprehensionExpr* c = e.as_comprehension()) return CostComprehension(e, *c);
    return {};
  }

 private:
  // A field path is a chain of parts, each naming its parent: paths share their prefixes, and
  // a part is a view of a name in the Ast or CheckedAst or of a literal (both outlive the walk).
  struct PathPart {
    int32_t parent;
    std::string_view name;
  };

  NodeFacts& Facts(int64_t id) {
    const size_t i = static_cast<size_t>(id);
    if (i >= facts_.size()) facts_.resize(i + 1);
    return facts_[i];
  }
  const NodeFacts* FindFacts(int64_t id) const {
    const size_t i = static_cast<size_t>(id);
    return i < facts_.size() ? &facts_[i] : nullptr;
  }

  int32_t Extend(int32_t parent, std::string_view name) {
    path_parts_.push_back({parent, name});
    return static_cast<int32_t>(path_parts_.size() - 1);
  }
  int32_t PathOf(const Expr& e) const {
    const NodeFacts* f = FindFacts(e.id);
    return f == nullptr ? kNoPath : f->path;
  }
  void SetComputed(int64_t id, SizeEstimate size) {
    NodeFacts& f = Facts(id);
    f.has_computed = true;
    f.computed = size;
  }
  void SetEntry(int64_t id, const EntrySize& entry) {
    NodeFacts& f = Facts(id);
    f.has_entry = true;
    f.entry = entry;
  }

  CostEstimate CostIdent(const Expr& e, const IdentExpr& ident) {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
      if (it->name != ident.name) continue;
      NodeFacts& f = Facts(e.id);
      f.path = it->path;
      if (it->size) {
        f.has_local_size = true;
        f.local_size = *it->size;
      }
      if (it->entry) {
        f.has_entry = true;
        f.entry = *it->entry;
      }
      return {1, 1};
    }
    Facts(e.id).path = Extend(kNoPath, ident.name);
    return {1, 1};
  }

  CostEstimate CostSelect(const Expr& e, const SelectExpr& sel) {
    const Reference* ref = checked_.ReferenceOf(e.id);
    if (ref != nullptr && ref->select_is_variable) {
      Facts(e.id).path = Extend(kNoPath, ref->name);
      return {1, 1};
    }
    CostEstimate sum = Cost(*sel.operand);
    if (sel.test_only) return sum;
    const TypeKind k = checked_.TypeOf(sel.operand->id).kind();
    if (k == TypeKind::kMap || k == TypeKind::kObject || k == TypeKind::kTypeParam) {
      sum = Add(sum, {1, 1});
    }
    const int32_t path = Extend(PathOf(*sel.operand), sel.field);
    Facts(e.id).path = path;
    return sum;
  }

  CostEstimate CostCall(const Expr& e, const CallExpr& call) {
    // The arguments' costs, kept on a stack shared by nested calls (no vector per call).
    const size_t mark = arg_costs_.size();
    for (const ExprPtr& a : call.args) {
      const CostEstimate c = Cost(*a);
      arg_costs_.push_back(c);
    }
    const Reference* ref = checked_.ReferenceOf(e.id);
    if (ref == nullptr || ref->overload_ids.empty()) {
      arg_costs_.resize(mark);
      return {};
    }
    CostEstimate sum;
    const Expr* target = nullptr;
    if (call.target && !ref->target_is_namespace) {
      sum = Cost(*call.target);
      target = call.target.get();
    }
    const std::span<const CostEstimate> args(arg_costs_.data() + mark, call.args.size());
    const LibFn lib = ClassifyFunction(call.function);
    CostEstimate fn{kMax, 0};
    std::optional<SizeEstimate> result_size;
    call_id_ = e.id;
    for (const std::string_view id : ref->overload_ids) {
      const Overload overload = ClassifyOverload(id);
      std::optional<SizeEstimate> size;
      fn = Union(fn, FunctionCost(call, lib, overload, target, args, &size));
      if (size) result_size = result_size ? UnionSize(*result_size, *size) : *size;
      if ((overload == Overload::kIndexList || overload == Overload::kIndexMap) &&
          !call.args.empty()) {
        AddIndexPath(e, *call.args[0], overload == Overload::kIndexList ? "@items" : "@values");
        // An index into a literal (or a value that carries entry sizes) has its entries' size.
        if (const EntrySize* entry = EntryOf(*call.args[0])) {
          result_size = result_size ? UnionSize(*result_size, entry->val) : entry->val;
        }
      }
    }
    arg_costs_.resize(mark);
    if (result_size) SetComputed(e.id, *result_size);
    return Add(sum, fn);
  }

  void AddIndexPath(const Expr& e, const Expr& container, std::string_view suffix) {
    const int32_t path = Extend(PathOf(container), suffix);
    Facts(e.id).path = path;
  }

  static CostEstimate SumOf(std::span<const CostEstimate> costs) {
    CostEstimate s;
    for (const CostEstimate& c : costs) s = Add(s, c);
    return s;
  }

  // Kubernetes' library estimator (apiserver/pkg/cel/library/cost.go), by function name.
  std::optional<CostEstimate> LibraryCost(const CallExpr& call, LibFn lib, const Expr* target,
                                          std::optional<SizeEstimate>* size) {
    if (lib == LibFn::kNone) return std::nullopt;
    if (std::optional<CostEstimate> format = FormatLibraryCost(call, lib, target)) return format;
    const Expr* subject = target ? target : (call.args.empty() ? nullptr : call.args[0].get());
    if (subject == nullptr) return std::nullopt;
    switch (lib) {
      case LibFn::kScanSized:
        *size = SizeOf(*subject);
        return Factor(SizeOf(*subject), kTraversal);
      case LibFn::kIp:
        if (target) break;
        [[fallthrough]];
      case LibFn::kScan:
        return Factor(SizeOf(*subject), kTraversal);
      case LibFn::kSplit:
      case LibFn::kReplace:
        if (!target) break;
        if (lib == LibFn::kSplit) *size = SizeEstimate{0, SizeOf(*target).max};
        return Factor(SizeOf(*target), 2 * kTraversal);
      case LibFn::kFind: {
        if (!target || call.args.empty()) break;
        SizeEstimate s = SizeOf(*target);
        s = {SatAdd(s.min, 1), SatAdd(s.max, 1)};
        return Mul(Factor(s, kTraversal), Factor(SizeOf(*call.args[0]), kRegexFactor));
      }
      case LibFn::kListScan: {
        if (!target) break;
        const Type& tt = checked_.TypeOf(target->id);
        if (tt.kind() != TypeKind::kList) return Factor(SizeOf(*target), kTraversal);
        CostEstimate el{1, 1};
        const TypeKind ek = tt.param(0).kind();
        if (ek == TypeKind::kString || ek == TypeKind::kBytes) {
          const int32_t items = Extend(PathOf(*target), "@items");
          el = Add(el, Factor(SizeByPath(items).value_or(SizeEstimate{0, kMax}), kTraversal));
        }
        const SizeEstimate n = SizeOf(*target);
        return Mul({n.min, n.max}, el);
      }
      default:
        break;
    }
    return std::nullopt;
  }

  // The Kubernetes format library: validate() scans the string once per regex-sized step
  // (MaxNameFormatRegexSize 128 × regex factor), formats compare by name (≤ 64 bytes).
  std::optional<CostEstimate> FormatLibraryCost(const CallExpr& call, LibFn lib,
                                                const Expr* target) {
    if (lib == LibFn::kValidate && target != nullptr && call.args.size() == 1) {
      const CostEstimate scan = Factor(SizeOf(*call.args[0]), kTraversal);
      return Factor({scan.min, scan.max}, kMaxNameFormatRegexSize * kRegexFactor);
    }
    if (lib == LibFn::kEquals && call.args.size() == 2 &&
        checked_.TypeOf(call.args[0]->id) == NamedFormatType() &&
        checked_.TypeOf(call.args[1]->id) == NamedFormatType()) {
      return Factor({1, kMaxFormatNameSize}, kTraversal);
    }
    return std::nullopt;
  }

  CostEstimate FunctionCost(const CallExpr& call, LibFn lib, Overload id, const Expr* target,
                            std::span<const CostEstimate> args,
                            std::optional<SizeEstimate>* size) {
    if (std::optional<CostEstimate> library = LibraryCost(call, lib, target, size)) {
      return Add(*library, SumOf(args));
    }
    const auto& a = call.args;
    switch (id) {
      case Overload::kStartsEnds:
        if (a.size() != 1) break;
        return Add(Factor(SizeOf(*a[0]), kTraversal), SumOf(args));
      case Overload::kStringFormat:  // cel-go: the format string is scanned once
        if (!target) break;
        return Add(Factor(SizeOf(*target), kTraversal), SumOf(args));
      case Overload::kDraIncludes:
        // draCostEstimator (dynamic-resource-allocation v0.36.0): `includes` is linear in a
        // list of at most ResourceSliceMaxAttributeValuesPerDevice elements, whatever the
        // target.
        if (!target) break;
        return Add({0, 48}, SumOf(args));
      case Overload::kInList: {
        if (a.size() != 2) break;
        const SizeEstimate n = SizeOf(*a[1]);
        return Add({n.min, n.max}, SumOf(args));
      }
      case Overload::kMatches: {
        if (!target || a.size() != 1) break;
        SizeEstimate s = SizeOf(*target);
        s = {SatAdd(s.min, 1), SatAdd(s.max, 1)};
        return Add(Mul(Factor(s, kTraversal), Factor(SizeOf(*a[0]), kRegexFactor)), SumOf(args));
      }
      case Overload::kContains:
        if (!target || a.size() != 1) break;
        return Add(Mul(Factor(SizeOf(*target), kTraversal), Factor(SizeOf(*a[0]), kTraversal)),
                   SumOf(args));
      case Overload::kLogical:
        if (args.size() != 2) break;
        return {args[0].min, Add(args[0], args[1]).max};
      case Overload::kConditional:
        if (args.size() != 3) break;
        *size = UnionSize(SizeOf(*a[1]), SizeOf(*a[2]));
        MergeEntries(call_id_, *a[1], *a[2]);
        return Add(args[0], Union(args[1], args[2]));
      case Overload::kStringToBytes:
      case Overload::kBytesToString: {
        if (a.size() != 1) break;
        // cel-go: a character is 1-4 bytes, so bytes(s) has |s|..4|s| and string(b) |b|/4..|b|.
        const SizeEstimate n = SizeOf(*a[0]);
        *size = id == Overload::kStringToBytes ? SizeEstimate{n.min, SatMul(n.max, 4)}
                                               : SizeEstimate{n.min / 4, n.max};
        return Add(Factor(n, kTraversal), SumOf(args));
      }
      case Overload::kAddSized:
      case Overload::kAddList: {
        if (a.size() != 2) break;
        const SizeEstimate l = SizeOf(*a[0]), r = SizeOf(*a[1]);
        *size = SizeEstimate{SatAdd(l.min, r.min), SatAdd(l.max, r.max)};
        MergeEntries(call_id_, *a[0], *a[1]);
        if (id == Overload::kAddList) return Add({1, 1}, SumOf(args));
        return Add(Factor(**size, kTraversal), SumOf(args));
      }
      case Overload::kSizeComparison: {
        if (a.size() != 2) break;
        const uint64_t smallest = std::min(SizeOf(*a[0]).max, SizeOf(*a[1]).max);
        const SizeEstimate s{smallest > 0 ? 1u : 0u, smallest};
        return Add(Factor(s, kTraversal), SumOf(args));
      }
      default:
        break;
    }
    return Add({1, 1}, SumOf(args));
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
    auto iter_local = [&](std::string_view name, std::string_view suffix, bool value) {
      const int32_t path = Extend(PathOf(*c.iter_range), suffix);
      std::optional<SizeEstimate> size;
      if (entry) size = value ? entry->val : entry->key;
      locals_.push_back({name, path, size, std::nullopt});
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
      if (std::optional<SizeEstimate> size = ComputeSize(*c.result)) SetComputed(e.id, *size);
      if (std::optional<EntrySize> result_entry = EntryCopy(*c.result)) {
        SetEntry(e.id, *result_entry);
      }
    } else if (c.accu_init->as_const() != nullptr) {
      SetComputed(e.id, SizeOf(*c.accu_init));
    } else if (c.accu_init->as_list() != nullptr || c.accu_init->as_struct() != nullptr) {
      SetComputed(e.id, n);
      if (std::optional<EntrySize> step_entry = EntryCopy(*c.loop_step)) {
        SetEntry(e.id, *step_entry);
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
    const NodeFacts* f = FindFacts(e.id);
    return f == nullptr || !f->has_entry ? nullptr : &f->entry;
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
    SetEntry(id, merged);
  }

  std::optional<SizeEstimate> SizeByPath(int32_t path) const {
    if (options_.sizes == nullptr || path == kNoPath) return std::nullopt;
    // The parts from the root: paths are a few parts long.
    std::string_view parts[16];
    size_t n = 0;
    for (int32_t p = path; p != kNoPath; p = path_parts_[static_cast<size_t>(p)].parent) {
      if (n == std::size(parts)) return SizeByLongPath(path);
      parts[n++] = path_parts_[static_cast<size_t>(p)].name;
    }
    std::reverse(parts, parts + n);
    return options_.sizes->EstimateSize(std::span<const std::string_view>(parts, n));
  }
  std::optional<SizeEstimate> SizeByLongPath(int32_t path) const {
    std::vector<std::string_view> parts;
    for (int32_t p = path; p != kNoPath; p = path_parts_[static_cast<size_t>(p)].parent) {
      parts.push_back(path_parts_[static_cast<size_t>(p)].name);
    }
    std::reverse(parts.begin(), parts.end());
    return options_.sizes->EstimateSize(parts);
  }

  SizeEstimate SizeOf(const Expr& e) const {
    return ComputeSize(e).value_or(SizeEstimate{0, kMax});
  }

  // cel-go computeSize: computed results, literals, the estimator by path, scalars, then the
  // size of the local variable an identifier names; nullopt when unknown.
  std::optional<SizeEstimate> ComputeSize(const Expr& e) const {
    const NodeFacts* f = FindFacts(e.id);
    if (f != nullptr && f->has_computed) return f->computed;
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
    if (f != nullptr && f->path != kNoPath) {
      if (std::optional<SizeEstimate> s = SizeByPath(f->path)) return *s;
    }
    if (IsScalar(checked_.TypeOf(e.id))) return SizeEstimate{1, 1};
    if (f != nullptr && f->has_local_size) return f->local_size;
    return std::nullopt;
  }

  // A comprehension's iteration variables and accumulator (cel-go localVar).
  struct Local {
    std::string_view name;
    int32_t path = kNoPath;
    std::optional<SizeEstimate> size;
    std::optional<EntrySize> entry;
  };

  const CheckedAst& checked_;
  const CostOptions& options_;
  std::vector<NodeFacts> facts_;
  std::vector<PathPart> path_parts_;
  std::vector<CostEstimate> arg_costs_;
  std::vector<Local> locals_;
  int64_t call_id_ = 0;  // the call whose overloads FunctionCost is costing
};

}  // namespace

const SizeEstimator& DraSizeEstimator() {
  static const DraSizes* const kSizes = new DraSizes();
  return *kSizes;
}

CostEstimate EstimateCost(const Ast& ast, const CheckedAst& checked, const CostOptions& options) {
  return Coster(ast, checked, options).Cost(ast.root());
}

}  // namespace draguard::cel
