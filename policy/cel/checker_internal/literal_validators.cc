// Kubernetes turns on cel-go's duration, timestamp and regex literal validators. Each
// looks at calls of one function name and, when the first argument is a literal, checks
// it as the runtime would, reporting "invalid <function> argument" at the literal. Constant
// find/findAll patterns are checked too: Kubernetes precompiles them when it builds the
// program, and a failure there rejects the expression as well.
#include "policy/cel/checker_internal/literal_validators.h"

#include <memory>
#include <string>

#include "policy/cel/internal/regex_text.h"

namespace draguard::cel::checker_internal {
namespace {

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

int DaysIn(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// Parses the unit at `pos`; returns its length in nanoseconds via `unit`.
size_t DurationUnit(std::string_view s, size_t pos, double* unit) {
  struct U { const char* name; double ns; };
  static const U kUnits[] = {{"ns", 1},      {"us", 1e3},  {"\xC2\xB5s", 1e3},
                             {"\xCE\xBCs", 1e3}, {"ms", 1e6}, {"s", 1e9},
                             {"m", 60e9},    {"h", 3600e9}};
  size_t best = 0;
  for (const U& u : kUnits) {
    const std::string_view name(u.name);
    if (s.substr(pos, name.size()) == name && name.size() > best) {
      best = name.size();
      *unit = u.ns;
    }
  }
  return best;
}

// Kubernetes compiles constant find/findAll patterns when it builds the program; a bad
// one fails that step, which the API server reports like a compile error.
void CheckFindPattern(const CallExpr& call, const std::string& pattern, Diagnostics& issues) {
  std::unique_ptr<RE2> re = internal::CompileRegex(pattern);
  if (re->ok()) return;
  Diagnostic& d = issues.Error("cel.program-instantiation", FieldPath(),
                               "program instantiation failed: " + internal::GoRegexpError(*re));
  d.value_offset = call.args[0]->offset;
}

// The constant string first argument of `call`, or null.
const std::string* LiteralArgument(const CallExpr& call) {
  if (call.args.empty()) return nullptr;
  const ConstExpr* lit = call.args[0]->as_const();
  return lit == nullptr ? nullptr : std::get_if<std::string>(&lit->value);
}

void CheckCall(const CallExpr& call, Diagnostics& issues) {
  const std::string* text = LiteralArgument(call);
  if (text == nullptr) return;
  if ((call.function == "find" || call.function == "findAll") && call.target) {
    return CheckFindPattern(call, *text, issues);
  }
  bool ok = true;
  if (call.function == "matches") ok = IsValidRegex(*text);
  else if (call.function == "duration") ok = IsValidGoDuration(*text);
  else if (call.function == "timestamp") ok = IsValidRfc3339(*text);
  if (ok) return;
  Diagnostic& d = issues.Error("cel.invalid-literal", FieldPath(),
                               "invalid " + call.function + " argument");
  d.value_offset = call.args[0]->offset;
}

void Visit(const Expr& e, Diagnostics& issues) {
  ForEachChild(e, [&](const Expr& child) { Visit(child, issues); });
  if (const CallExpr* call = e.as_call()) CheckCall(*call, issues);
}

}  // namespace

bool IsValidRegex(std::string_view pattern) { return internal::CompileRegex(pattern)->ok(); }

bool IsValidGoDuration(std::string_view s) {
  size_t pos = 0;
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) ++pos;
  if (s.substr(pos) == "0") return true;
  if (pos == s.size()) return false;
  double total = 0;
  while (pos < s.size()) {
    const size_t start = pos;
    double value = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') value = value * 10 + (s[pos++] - '0');
    bool digits = pos > start;
    if (pos < s.size() && s[pos] == '.') {
      ++pos;
      double scale = 0.1;
      const size_t frac_start = pos;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
        value += (s[pos++] - '0') * scale;
        scale /= 10;
      }
      digits = digits || pos > frac_start;
    }
    if (!digits) return false;
    double unit = 0;
    const size_t len = DurationUnit(s, pos, &unit);
    if (len == 0) return false;
    pos += len;
    total += value * unit;
  }
  return total <= 9223372036854775807.0;
}

bool IsValidRfc3339(std::string_view s) {
  int year, month, day, hour, minute, second;
  if (!Digits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, &month) ||
      s[7] != '-' || !Digits(s, 8, 2, &day) || s[10] != 'T' || !Digits(s, 11, 2, &hour) ||
      s[13] != ':' || !Digits(s, 14, 2, &minute) || s[16] != ':' ||
      !Digits(s, 17, 2, &second)) {
    return false;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > DaysIn(year, month) ||
      hour > 23 || minute > 59 || second > 59) {
    return false;
  }
  size_t pos = 19;
  if (s[pos] == '.') {
    const size_t start = ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return false;
  }
  if (pos < s.size() && s[pos] == 'Z') return pos + 1 == s.size();
  int zh, zm;
  if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return false;
  if (!Digits(s, pos + 1, 2, &zh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
      !Digits(s, pos + 4, 2, &zm) || pos + 6 != s.size()) {
    return false;
  }
  return zh < 24 && zm < 60;
}

void ValidateLiterals(const Expr& root, Diagnostics& issues) { Visit(root, issues); }

bool IsLiteralValidatedCall(const CallExpr& call) {
  const std::string_view f = call.function;
  const bool validated = (call.target && (f == "find" || f == "findAll")) || f == "matches" ||
                         f == "duration" || f == "timestamp";
  return validated && LiteralArgument(call) != nullptr;
}

}  // namespace draguard::cel::checker_internal
