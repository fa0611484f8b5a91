// matches() on RE2 (substring match, as cel-go) and the Kubernetes regex library (find,
// findAll). A constant pattern is compiled once when the program is planned (cel-go's
// matches optimisation and Kubernetes' find/findAll ones); an invalid constant pattern
// fails planning. A pattern computed at run time is compiled per call; an invalid one is
// the error value Go's regexp gives (matches) or "Illegal regex: <that>" (find/findAll).
#include "policy/cel/functions/registry.h"
#include "policy/cel/internal/regex_text.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

bool IsString(const Value& v) { return v.kind() == Kind::kString; }

Value MatchesWith(Args a, const RE2& re) {
  return Value::Bool(RE2::PartialMatch(Piece(a[0].text()), re));
}

// find (limit 1, returns a string) and findAll (optional limit, returns a list).
Value FindWith(Args a, const RE2& re, bool all) {
  int64_t limit = all ? -1 : 1;
  if (a.size() == 3) {
    if (a[2].kind() != Kind::kInt) return NoSuchOverload();
    limit = a[2].int_value();
  }
  auto list = std::make_shared<ListData>();
  const re2::StringPiece input = Piece(a[0].text());
  size_t pos = 0;
  re2::StringPiece match;
  while ((limit < 0 || static_cast<int64_t>(list->elements.size()) < limit) &&
         pos <= input.size() &&
         re.Match(input, pos, input.size(), RE2::UNANCHORED, &match, 1)) {
    list->elements.push_back(Value::String(std::string(match.data(), match.size())));
    size_t end = static_cast<size_t>(match.data() - input.data()) + match.size();
    pos = match.empty() ? end + 1 : end;
  }
  if (!all) {
    return list->elements.empty() ? Value::StringView("") : list->elements[0];
  }
  return Value::List(std::move(list));
}

Value Matches(Args a, EvalState&) {
  if (!IsString(a[0]) || !IsString(a[1])) return NoSuchOverload();
  std::unique_ptr<RE2> re = internal::CompileRegex(a[1].text());
  if (!re->ok()) return Value::Error(internal::GoRegexpError(*re));
  return MatchesWith(a, *re);
}

template <bool kAll>
Value Find(Args a, EvalState&) {
  if (!IsString(a[0]) || !IsString(a[1])) return NoSuchOverload();
  std::unique_ptr<RE2> re = internal::CompileRegex(a[1].text());
  if (!re->ok()) return Value::Error("Illegal regex: " + internal::GoRegexpError(*re));
  return FindWith(a, *re, kAll);
}

// The prepared forms: `data` is the RE2 compiled from the constant pattern (a[1]).
Value MatchesPrepared(Args a, const void* data, EvalState&) {
  if (!IsString(a[0])) return NoSuchOverload();
  return MatchesWith(a, *static_cast<const RE2*>(data));
}

template <bool kAll>
Value FindPrepared(Args a, const void* data, EvalState&) {
  if (!IsString(a[0])) return NoSuchOverload();
  return FindWith(a, *static_cast<const RE2*>(data), kAll);
}

}  // namespace

StatusOr<PreparedCall> PrepareRegexCall(std::string_view function, int arity,
                                        const Value& pattern) {
  PreparedFunction fn = nullptr;
  if (function == "matches" && arity == 2) fn = MatchesPrepared;
  if (function == "find" && arity == 2) fn = FindPrepared<false>;
  if (function == "findAll" && (arity == 2 || arity == 3)) fn = FindPrepared<true>;
  if (fn == nullptr || !IsString(pattern)) return PreparedCall{};
  std::shared_ptr<RE2> re = internal::CompileRegex(pattern.text());
  if (!re->ok()) return InvalidArgumentError(internal::GoRegexpError(*re));
  const size_t bytes = internal::ApproximateRegexBytes(*re);
  return PreparedCall{.fn = fn, .data = std::move(re), .data_bytes = bytes};
}

void RegisterRegexFunctions(Registry& r) {
  r.Add("matches", 2, Matches);
  r.Add("find", 2, Find<false>);
  r.Add("findAll", 2, Find<true>);
  r.Add("findAll", 3, Find<true>);
}

}  // namespace draguard::cel
