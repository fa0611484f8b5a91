#include "policy/k8s/scalar_resolve.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <cstdlib>
#include <string>
#include <string_view>

namespace draguard::k8s {
namespace {

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

bool OneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}

bool IsNullWord(std::string_view s) { return OneOf(s, {"", "~", "null", "Null", "NULL"}); }

bool IsTrueWord(std::string_view s) {
  return OneOf(s, {"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"});
}

bool IsFalseWord(std::string_view s) {
  return OneOf(s, {"n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE"});
}

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

enum class IntParse { kNotInt, kOk, kOverflow };

// Parses like Go's strconv.ParseInt(s, 0, 64) after removing underscores.
IntParse ParseInt(std::string_view s, int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    base = 8;
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  if (base != 10 && base != 8) s.remove_prefix(2);
  if (base == 8 && s.size() > 1 && (s[0] == 'o' || s[0] == 'O')) s.remove_prefix(1);
  if (s.empty()) return IntParse::kNotInt;
  uint64_t value = 0;
  bool overflow = false;
  bool any = false;
  for (char c : s) {
    if (c == '_') continue;
    int d = DigitValue(c);
    if (d >= base) return IntParse::kNotInt;
    any = true;
    const uint64_t b = static_cast<uint64_t>(base);
    if (value > (UINT64_MAX - static_cast<uint64_t>(d)) / b) overflow = true;
    value = value * b + static_cast<uint64_t>(d);
  }
  if (!any) return IntParse::kNotInt;
  const uint64_t limit = static_cast<uint64_t>(INT64_MAX) + (negative ? 1 : 0);
  if (overflow || value > limit) return IntParse::kOverflow;
  *out = negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
  return IntParse::kOk;
}

bool ParseFloat(std::string_view s, double* out) {
  if (OneOf(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) {
    *out = HUGE_VAL;
    return true;
  }
  if (OneOf(s, {"-.inf", "-.Inf", "-.INF"})) {
    *out = -HUGE_VAL;
    return true;
  }
  if (OneOf(s, {".nan", ".NaN", ".NAN"})) {
    *out = NAN;
    return true;
  }
  // YAML 1.1 floats: [-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)? and plain decimals with
  // an exponent; go-yaml v2 simply tries strconv.ParseFloat on the text without underscores.
  std::string text;
  for (char c : s) {
    if (c == '_') continue;
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      return false;
    }
    text.push_back(c);
  }
  if (text.empty() || text.find_first_of("0123456789") == std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  *out = v;
  return true;
}

// Most plain scalars of a manifest are words ("gpu", "Nvidia"). One that starts with a letter
// is no number (those start with a digit, a sign or a dot), so it is a string unless it is one
// of the null and bool spellings above: those start with n, y, o, t or f and have at most five
// letters. Only the others need trying.
bool SurelyString(std::string_view s) {
  if (s.empty()) return false;
  const char lower = static_cast<char>(s[0] | 0x20);  // letters to lower case
  if (lower < 'a' || lower > 'z') return false;
  return s.size() > 5 || std::string_view("nyotfe").find(lower) == std::string_view::npos;
}

void ResolvePlain(DocNode& node) {
  const std::string_view s = node.text;
  if (SurelyString(s)) {
    node.kind = NodeKind::kString;
  } else if (IsNullWord(s)) {
    node.kind = NodeKind::kNull;
  } else if (IsTrueWord(s) || IsFalseWord(s)) {
    node.kind = NodeKind::kBool;
    node.bool_value = IsTrueWord(s);
  } else if (int64_t i = 0; ParseInt(s, &i) == IntParse::kOk) {
    node.kind = NodeKind::kInt;
    node.int_value = i;
  } else if (double d = 0; ParseFloat(s, &d)) {
    node.kind = NodeKind::kFloat;
    node.float_value = d;
  } else {
    node.kind = NodeKind::kString;
  }
}

}  // namespace

void ResolveScalar(DocNode& node, std::string_view tag) {
  node.kind = NodeKind::kString;
  if (tag.substr(0, kTagPrefix.size()) == kTagPrefix) tag.remove_prefix(kTagPrefix.size());
  if (tag.empty()) {
    if (node.style == ScalarStyle::kPlain) ResolvePlain(node);
    return;
  }
  if (tag == "str") return;
  DocNode probe = node;
  ResolvePlain(probe);
  const bool fits = (tag == "int" && probe.kind == NodeKind::kInt) ||
                    (tag == "bool" && probe.kind == NodeKind::kBool) ||
                    (tag == "null" && probe.kind == NodeKind::kNull) ||
                    (tag == "float" &&
                     (probe.kind == NodeKind::kFloat || probe.kind == NodeKind::kInt));
  if (!fits) return;  // unknown or mismatched tags keep the text as a string
  node.kind = tag == "float" ? NodeKind::kFloat : probe.kind;
  node.bool_value = probe.bool_value;
  node.int_value = probe.int_value;
  node.float_value = probe.kind == NodeKind::kInt ? static_cast<double>(probe.int_value)
                                                  : probe.float_value;
}

}  // namespace draguard::k8s
