// matches() on RE2 (substring match, as cel-go) and the Kubernetes regex library
// (find, findAll). Patterns are compiled per call; RE2 errors become the error value
// "Illegal regex: <RE2 error>".
#include <re2/re2.h>

#include "policy/cel/functions/registry.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value Matches(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kString) return NoSuchOverload();
  RE2::Options options;
  options.set_log_errors(false);
  RE2 re(re2::StringPiece(a[1].text().data(), a[1].text().size()), options);
  if (!re.ok()) return Value::Error("Illegal regex: " + re.error());
  return Value::Bool(
      RE2::PartialMatch(re2::StringPiece(a[0].text().data(), a[0].text().size()), re));
}

// find (limit 1, returns a string) and findAll (optional limit, returns a list).
Value FindImpl(Args a, bool all) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kString) return NoSuchOverload();
  int64_t limit = all ? -1 : 1;
  if (a.size() == 3) {
    if (a[2].kind() != Kind::kInt) return NoSuchOverload();
    limit = a[2].int_value();
  }
  RE2::Options options;
  options.set_log_errors(false);
  RE2 re(re2::StringPiece(a[1].text().data(), a[1].text().size()), options);
  if (!re.ok()) return Value::Error("Illegal regex: " + re.error());
  auto list = std::make_shared<ListData>();
  re2::StringPiece input(a[0].text().data(), a[0].text().size());
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

Value Find(Args a, EvalState&) { return FindImpl(a, false); }
Value FindAll(Args a, EvalState&) { return FindImpl(a, true); }

}  // namespace

void RegisterRegexFunctions(Registry& r) {
  r.Add("matches", 2, Matches);
  r.Add("find", 2, Find);
  r.Add("findAll", 2, FindAll);
  r.Add("findAll", 3, FindAll);
}

}  // namespace draguard::cel
