#include "policy/schema/expression_facts.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string_view>

#include "policy/cel/operators.h"

namespace draguard::schema::internal {
namespace {

bool IsComparison(std::string_view f) {
  return f == cel::op::kEquals || f == cel::op::kNotEquals || f == cel::op::kLess ||
         f == cel::op::kLessEquals || f == cel::op::kGreater || f == cel::op::kGreaterEquals;
}

const std::string* StringConst(const cel::Expr& e) {
  const cel::ConstExpr* c = e.as_const();
  return c ? std::get_if<std::string>(&c->value) : nullptr;
}

// `device.attributes` / `device.capacity`: returns "attributes", "capacity" or "".
std::string_view DeviceMap(const cel::Expr& e) {
  const cel::SelectExpr* s = e.as_select();
  if (s == nullptr || s->test_only || !s->operand) return {};
  const cel::IdentExpr* id = s->operand->as_ident();
  if (id == nullptr || id->name != "device") return {};
  if (s->field == "attributes" || s->field == "capacity") return s->field;
  return {};
}

// `device.attributes["D"]`: the map and the domain literal node.
struct DomainMap {
  bool capacity = false;
  const cel::Expr* domain = nullptr;  // a string constant
};
std::optional<DomainMap> MatchDomainMap(const cel::Expr& e) {
  const cel::CallExpr* c = e.as_call();
  if (c == nullptr || c->target || c->function != cel::op::kIndex || c->args.size() != 2) {
    return std::nullopt;
  }
  const std::string_view map = DeviceMap(*c->args[0]);
  if (map.empty() || StringConst(*c->args[1]) == nullptr) return std::nullopt;
  return DomainMap{map == "capacity", c->args[1].get()};
}

// Whether `text` holds three `quote`s from `at`.
bool TripleQuoteAt(std::string_view text, size_t at, char quote) {
  return at + 3 <= text.size() && text[at] == quote && text[at + 1] == quote &&
         text[at + 2] == quote;
}

// Byte length of the literal starting at `offset` (a quoted string, raw or not).
int LiteralLength(std::string_view text, int offset) {
  size_t i = static_cast<size_t>(offset);
  if (i >= text.size()) return 0;
  while (i < text.size() && (text[i] == 'r' || text[i] == 'R' || text[i] == 'b' || text[i] == 'B')) ++i;
  if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) return 1;
  const char quote = text[i];
  const bool triple = TripleQuoteAt(text, i, quote);
  size_t j = i + (triple ? 3 : 1);
  while (j < text.size()) {
    if (text[j] == '\\') {
      j += 2;
      continue;
    }
    if (text[j] == quote && (!triple || TripleQuoteAt(text, j, quote))) {
      return static_cast<int>(j + (triple ? 3 : 1)) - offset;
    }
    ++j;
  }
  return static_cast<int>(text.size()) - offset;
}

// LiteralLength of a string literal whose value is `value`, without scanning it when it is
// written plainly (`"gpu.nvidia.com"`: a quote, the value's bytes, the same quote), as almost
// every domain and compared value is. A value without backslashes and that quote matching the
// text can only be written so (an escape would differ from the value's bytes, and a triple
// quote would put the quote in the value).
int StringLiteralLength(std::string_view text, int offset, std::string_view value) {
  const auto at = static_cast<size_t>(offset);
  if (!value.empty() && at + value.size() + 2 <= text.size() &&
      (text[at] == '"' || text[at] == '\'') && text[at + 1 + value.size()] == text[at] &&
      text.compare(at + 1, value.size(), value) == 0 &&
      value.find('\\') == std::string_view::npos &&
      value.find(text[at]) == std::string_view::npos) {
    return static_cast<int>(value.size()) + 2;
  }
  return LiteralLength(text, offset);
}

// An attribute or capacity access: `device.attributes["D"].name`, `[D]["name"]`, `.?name`,
// `[?"name"]` (also under device.capacity), or a presence test of one.
struct AccessSite {
  DomainMap map;
  std::string name;
  int name_offset = 0;
  bool presence = false;  // has(), .?, [?...]: reading it cannot fail
};

// How a node's parent uses it.
struct Use {
  const cel::CallExpr* comparison = nullptr;  // parent comparison, with `self_left`
  bool self_left = true;
  int comparison_offset = 0;
  std::string method;
  int method_offset = 0;
};

class Analyzer {
 public:
  Analyzer(const cel::Ast& ast, const Schema& schema) : ast_(ast), schema_(schema) {}

  ExpressionFacts Run(const Facts& given) {
    ExpressionFacts out;
    out.when_true = given;
    out.when_true.Merge(FactsOf(ast_.root()));
    // Most selectors read one to four attributes: one allocation instead of a growth per read.
    out.accesses.reserve(4);
    Walk(ast_.root(), given, {}, out);
    return out;
  }

 private:
  std::string_view Text() const { return ast_.source().text(); }

  std::optional<AccessSite> MatchAccess(const cel::Expr& e) const {
    if (const cel::SelectExpr* s = e.as_select()) {
      if (!s->operand) return std::nullopt;
      std::optional<DomainMap> m = MatchDomainMap(*s->operand);
      if (!m) return std::nullopt;
      return AccessSite{*m, s->field, FindName(e.offset, s->field), s->test_only};
    }
    const cel::CallExpr* c = e.as_call();
    if (c == nullptr || c->target || c->args.size() != 2 ||
        (c->function != cel::op::kIndex && c->function != cel::op::kOptIndex &&
         c->function != cel::op::kOptSelect)) {
      return std::nullopt;
    }
    std::optional<DomainMap> m = MatchDomainMap(*c->args[0]);
    const std::string* name = StringConst(*c->args[1]);
    if (!m || name == nullptr) return std::nullopt;
    const int at = c->function == cel::op::kOptSelect ? FindName(e.offset, *name)
                                                      : c->args[1]->offset + 1;
    return AccessSite{*m, *name, at, c->function != cel::op::kIndex};
  }

  // The positive atoms of `e` as a conjunction.
  Facts FactsOf(const cel::Expr& e) const {
    Facts f;
    PresenceFact(e, f);
    const cel::CallExpr* c = e.as_call();
    if (c == nullptr) return f;
    if (c->function == cel::op::kLogicalAnd && !c->target) {
      for (const cel::ExprPtr& arg : c->args) f.Merge(FactsOf(*arg));
      return f;
    }
    if ((c->function == cel::op::kEquals || c->function == cel::op::kIn) && c->args.size() == 2 &&
        !c->target) {
      PinFrom(*c->args[0], *c->args[1], c->function == cel::op::kIn, f);
    }
    if (c->function == cel::op::kIn && c->args.size() == 2) {
      const std::string* name = StringConst(*c->args[0]);
      if (std::optional<DomainMap> m = MatchDomainMap(*c->args[1]); m && name) {
        f.present.emplace(*StringConst(*m->domain), *name);
      }
    }
    return f;
  }

  void PresenceFact(const cel::Expr& e, Facts& f) const {
    const cel::SelectExpr* s = e.as_select();
    if (s == nullptr || !s->test_only || !s->operand) return;
    if (std::optional<DomainMap> m = MatchDomainMap(*s->operand)) {
      f.present.emplace(*StringConst(*m->domain), s->field);
    }
  }

  // `lhs == rhs` or `lhs in [..]` pinning device.driver or a domain's type attribute.
  void PinFrom(const cel::Expr& lhs, const cel::Expr& rhs, bool in, Facts& f) const {
    std::set<std::string> values;
    if (in) {
      const cel::ListExpr* list = rhs.as_list();
      if (list == nullptr) return;
      for (const cel::ExprPtr& item : list->elements) {
        const std::string* v = StringConst(*item);
        if (v == nullptr) return;
        values.insert(*v);
      }
    } else if (const std::string* v = StringConst(rhs)) {
      values.insert(*v);
    } else if (StringConst(lhs) != nullptr) {
      PinFrom(rhs, lhs, false, f);  // "gpu" == device.attributes[...].type
      return;
    } else {
      return;
    }
    if (const cel::SelectExpr* s = lhs.as_select()) {
      if (s->operand && s->operand->as_ident() && s->operand->as_ident()->name == "device" &&
          s->field == "driver") {
        Intersect(f.drivers, values);
        return;
      }
      if (s->operand && !s->test_only) {
        if (std::optional<DomainMap> m = MatchDomainMap(*s->operand); m && !m->capacity) {
          const std::string& domain = *StringConst(*m->domain);
          const DomainSchema* d = schema_.FindDomain(domain);
          if (d != nullptr && !d->type_attribute.empty() && d->type_attribute == s->field) {
            auto [it, fresh] = f.types.emplace(domain, values);
            if (!fresh) it->second = IntersectSets(it->second, values);
          }
        }
      }
    }
  }

  static std::set<std::string> IntersectSets(const std::set<std::string>& a,
                                             const std::set<std::string>& b) {
    std::set<std::string> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
    return out;
  }
  static void Intersect(std::optional<std::set<std::string>>& pin,
                        const std::set<std::string>& values) {
    pin = pin ? IntersectSets(*pin, values) : values;
  }

  void Walk(const cel::Expr& e, const Facts& ctx, const Use& use, ExpressionFacts& out) const {
    if (std::optional<AccessSite> site = MatchAccess(e)) {
      Record(site->map, site->name, site->name_offset, site->presence, ctx, use, out);
      return;
    }
    if (const cel::SelectExpr* s = e.as_select()) {
      if (s->operand) Walk(*s->operand, ctx, {}, out);
      return;
    }
    if (const cel::CallExpr* c = e.as_call()) {
      if (!c->target && c->args.size() == 2 &&
          (c->function == cel::op::kIndex || c->function == cel::op::kOptIndex ||
           c->function == cel::op::kOptSelect)) {
        // `device.attributes["D"]` alone, e.g. in `"x" in ...`
        if (const std::optional<DomainMap> found = MatchDomainMap(e)) {
          const DomainMap m = *found;
          Record(m, "", 0, true, ctx, use, out);
          for (const cel::ExprPtr& a : c->args) {
            if (a.get() != m.domain) Walk(*a, ctx, {}, out);
          }
          return;
        }
      }
      if (c->function == cel::op::kLogicalAnd && !c->target) {
        Facts& inner = out.contexts.emplace_front(ctx);
        inner.Merge(FactsOf(e));
        for (const cel::ExprPtr& a : c->args) Walk(*a, inner, {}, out);
        return;
      }
      if (c->function == cel::op::kConditional && c->args.size() == 3) {
        Walk(*c->args[0], ctx, {}, out);
        Facts& then_ctx = out.contexts.emplace_front(ctx);
        then_ctx.Merge(FactsOf(*c->args[0]));
        Walk(*c->args[1], then_ctx, {}, out);
        Walk(*c->args[2], ctx, {}, out);
        return;
      }
      if (c->target) {
        Use method;
        method.method = c->function;
        // A call sits at its '(' (parser.h); the name ends there.
        method.method_offset = std::max(0, e.offset - static_cast<int>(c->function.size()));
        Walk(*c->target, ctx, method, out);
      }
      const bool comparison = IsComparison(c->function) && c->args.size() == 2 && !c->target;
      for (size_t i = 0; i < c->args.size(); ++i) {
        Use arg_use;
        if (comparison) {
          arg_use.comparison = c;
          arg_use.self_left = i == 0;
          arg_use.comparison_offset = e.offset;
        }
        Walk(*c->args[i], ctx, arg_use, out);
      }
      return;
    }
    if (const cel::ListExpr* l = e.as_list()) {
      for (const cel::ExprPtr& item : l->elements) Walk(*item, ctx, {}, out);
      return;
    }
    if (const cel::StructExpr* st = e.as_struct()) {
      for (const cel::StructEntry& entry : st->entries) {
        if (entry.key) Walk(*entry.key, ctx, {}, out);
        if (entry.value) Walk(*entry.value, ctx, {}, out);
      }
      return;
    }
    if (const cel::ComprehensionExpr* comp = e.as_comprehension()) {
      for (const cel::ExprPtr* part : {&comp->iter_range, &comp->accu_init, &comp->loop_condition,
                                       &comp->loop_step, &comp->result}) {
        if (*part) Walk(**part, ctx, {}, out);
      }
    }
  }

  void Record(const DomainMap& m, const std::string& name, int name_offset, bool presence,
              const Facts& ctx, const Use& use, ExpressionFacts& out) const {
    // Built in place: an Access (strings) is large to move.
    Access& a = out.accesses.emplace_back();
    a.capacity = m.capacity;
    a.domain = *StringConst(*m.domain);
    a.domain_offset = m.domain->offset;
    a.domain_length = StringLiteralLength(Text(), m.domain->offset, a.domain);
    a.name = name;
    a.name_offset = name_offset;
    a.name_length = static_cast<int>(name.size());
    a.presence_test = presence;
    a.context = &ctx;
    a.method = use.method;
    a.method_offset = use.method_offset;
    if (use.comparison != nullptr) {
      const cel::Expr& other = *use.comparison->args[use.self_left ? 1 : 0];
      Comparison cmp;
      cmp.op = use.comparison->function;
      cmp.access_on_left = use.self_left;
      if (const cel::ConstExpr* lit = other.as_const()) {
        cmp.literal = lit->value;
        cmp.literal_offset = other.offset;
        const auto* text = std::get_if<std::string>(&lit->value);
        cmp.literal_length = text != nullptr ? StringLiteralLength(Text(), other.offset, *text)
                                             : TokenLength(other.offset);
        a.comparison = std::move(cmp);
      } else if (std::optional<AccessSite> site = MatchAccess(other); site && !site->presence) {
        cmp.other = OtherAccess{site->map.capacity, *StringConst(*site->map.domain), site->name};
        cmp.literal_offset = site->name_offset;
        cmp.literal_length = static_cast<int>(site->name.size());
        a.comparison = std::move(cmp);
      }
    }
  }

  // Where `name` is written at or after `from` (the select's '.' or '?').
  int FindName(int from, std::string_view name) const {
    const size_t at = Text().find(name, static_cast<size_t>(std::max(from, 0)));
    return at == std::string_view::npos ? std::max(from, 0) : static_cast<int>(at);
  }

  int TokenLength(int offset) const {
    size_t i = static_cast<size_t>(offset);
    while (i < Text().size() && (std::isalnum(static_cast<unsigned char>(Text()[i])) ||
                                 Text()[i] == '.' || Text()[i] == '-' || Text()[i] == '_')) {
      ++i;
    }
    return std::max(1, static_cast<int>(i) - offset);
  }

  const cel::Ast& ast_;
  const Schema& schema_;
};

}  // namespace

void Facts::Merge(const Facts& other) {
  if (other.drivers) {
    if (drivers) {
      std::set<std::string> both;
      std::set_intersection(drivers->begin(), drivers->end(), other.drivers->begin(),
                            other.drivers->end(), std::inserter(both, both.end()));
      drivers = std::move(both);
    } else {
      drivers = other.drivers;
    }
  }
  for (const auto& [domain, values] : other.types) {
    auto [it, fresh] = types.emplace(domain, values);
    if (!fresh) {
      std::set<std::string> both;
      std::set_intersection(it->second.begin(), it->second.end(), values.begin(), values.end(),
                            std::inserter(both, both.end()));
      it->second = std::move(both);
    }
  }
  present.insert(other.present.begin(), other.present.end());
}

ExpressionFacts AnalyzeExpression(const cel::Ast& ast, const Schema& schema, const Facts& given) {
  return Analyzer(ast, schema).Run(given);
}

std::string AccessText(const Access& access) {
  std::string out = access.capacity ? "device.capacity[\"" : "device.attributes[\"";
  out += access.domain;
  out += "\"]";
  if (!access.name.empty()) out += "." + access.name;
  return out;
}

}  // namespace draguard::schema::internal
