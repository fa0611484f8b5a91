// `<string>.format(<list>)` of cel-go's strings extension as Kubernetes enables it (version
// 2, cel-go's legacy formatter ext/formatting.go with the en_US locale):
//   %s  strings, bools, null, bytes, types as text; ints and uints in decimal; doubles in
//       Go's shortest form ("56.8", "1e-09", "+Inf"); lists and maps as CEL-like literals
//       whose strings are Go-quoted and whose doubles print with six decimals
//       (`["a", 3.140000]`, `{"k":b"v", 1:true}`, map entries sorted by rendered key);
//   %d  ints and uints; %b %o %x %X ints and uints (Go's signed notation, "-1e"), %b also
//       bools ("1"/"0"), %x/%X also strings and bytes (hex of the bytes);
//   %f  doubles and the strings "NaN", "Infinity", "-Infinity", en_US grouped
//       ("1,234.500000", "∞"); default precision 6;
//   %e  the same operands in x/text's en_US notation "2.718280 × 10⁰⁰": cel-go passes the
//       precision as a *width* (`%6e`), so six fraction digits are always printed and the
//       result is left-padded with spaces to `precision` runes (6 by default).
// Errors are cel-go's texts, e.g. "error during formatting: decimal clause can only be used
// on integers, was given string".
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "policy/cel/functions/registry.h"
#include "policy/cel/internal/format_string.h"
#include "policy/cel/internal/go_text.h"
#include "policy/common/utf8.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;
using internal::FormatClause;
using Result = std::optional<std::string>;  // an error text

// Kubernetes sets no limit (cel-go added one at strings version 5); a precision is also a
// %e width, so without one "%.999999999f" would allocate gigabytes. Ours is far above any
// sensible precision.
constexpr int64_t kMaxPrecision = 1000;
constexpr int kDefaultPrecision = 6;

std::string WasGiven(std::string_view what, const Value& v) {
  return std::string(what) + ", was given " + std::string(v.TypeName());
}

std::string UnsignedInBase(uint64_t u, int base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  do {
    out += digits[u % static_cast<uint64_t>(base)];
    u /= static_cast<uint64_t>(base);
  } while (u != 0);
  std::reverse(out.begin(), out.end());
  return out;
}

// Go's %d/%b/%o/%x of an int64: a '-' and the magnitude.
std::string SignedInBase(int64_t i, int base, bool upper) {
  const uint64_t magnitude = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
  return (i < 0 ? "-" : "") + UnsignedInBase(magnitude, base, upper);
}

// Ints and uints in `base`, or nullopt for other kinds.
std::optional<std::string> IntegerInBase(const Value& v, int base, bool upper = false) {
  if (v.kind() == Kind::kInt) return SignedInBase(v.int_value(), base, upper);
  if (v.kind() == Kind::kUint) return UnsignedInBase(v.uint_value(), base, upper);
  return std::nullopt;
}

Result FormatString(const Value& v, std::string& out);

// cel-go's quoteForCEL: strings and bytes quoted, NaN and infinities as quoted strings.
void AppendQuotedForCel(const Value& v, const std::string& unquoted, std::string& out) {
  switch (v.kind()) {
    case Kind::kString: out += internal::GoQuote(unquoted); return;
    case Kind::kBytes: out += "b" + internal::GoQuote(unquoted); return;
    case Kind::kDouble:
      if (!std::isfinite(v.double_value())) {
        out += internal::GoQuote(unquoted);
        return;
      }
      break;
    default: break;
  }
  out += unquoted;
}

// A list element or map value, as cel-go's clauseForType renders it, then quoted.
Result FormatMember(const Value& v, std::string& out) {
  std::string unquoted;
  switch (v.kind()) {
    case Kind::kInt:
    case Kind::kUint: unquoted = *IntegerInBase(v, 10); break;
    case Kind::kDouble: unquoted = internal::GoFormatFixed(v.double_value(), kDefaultPrecision); break;
    case Kind::kString:
    case Kind::kBytes:
    case Kind::kBool:
    case Kind::kNull:
    case Kind::kType:
    case Kind::kList:
    case Kind::kMap:
    case Kind::kTimestamp:
    case Kind::kDuration:
      if (Result err = FormatString(v, unquoted)) return err;
      break;
    default: return "no formatting function for " + std::string(v.TypeName());
  }
  AppendQuotedForCel(v, unquoted, out);
  return std::nullopt;
}

Result FormatList(const ListData& list, std::string& out) {
  out += '[';
  for (size_t i = 0; i < list.elements.size(); ++i) {
    if (i > 0) out += ", ";
    if (Result err = FormatMember(list.elements[i], out)) return err;
  }
  out += ']';
  return std::nullopt;
}

Result FormatMap(const MapData& map, std::string& out) {
  std::vector<std::pair<std::string, std::string>> pairs;
  pairs.reserve(map.entries.size());
  for (const auto& [key, value] : map.entries) {
    std::string unquoted_key, key_text, value_text;
    switch (key.kind()) {
      case Kind::kString:
      case Kind::kBool: (void)FormatString(key, unquoted_key); break;
      case Kind::kInt:
      case Kind::kUint: unquoted_key = *IntegerInBase(key, 10); break;
      default: return "no formatting function for map key of type " + std::string(key.TypeName());
    }
    AppendQuotedForCel(key, unquoted_key, key_text);
    if (Result err = FormatMember(value, value_text)) return err;
    pairs.emplace_back(std::move(key_text), std::move(value_text));
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out += '{';
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) out += ", ";
    out += pairs[i].first + ":" + pairs[i].second;
  }
  out += '}';
  return std::nullopt;
}

// cel-go's FormatString: %s of one value.
Result FormatString(const Value& v, std::string& out) {
  switch (v.kind()) {
    case Kind::kList: return FormatList(v.list(), out);
    case Kind::kMap: return FormatMap(v.map(), out);
    case Kind::kInt:
    case Kind::kUint: out += *IntegerInBase(v, 10); return std::nullopt;
    case Kind::kDouble: out += internal::GoFormatShortest(v.double_value()); return std::nullopt;
    case Kind::kBool: out += v.bool_value() ? "true" : "false"; return std::nullopt;
    case Kind::kString:
    case Kind::kType: out += v.text(); return std::nullopt;
    case Kind::kBytes:
      if (!IsValidUtf8(v.text())) {
        return "could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" "
               "to string";
      }
      out += v.text();
      return std::nullopt;
    case Kind::kNull: out += "null"; return std::nullopt;
    case Kind::kTimestamp: out += FormatRfc3339(v.timestamp()); return std::nullopt;
    case Kind::kDuration: out += FormatCelDuration(v.duration_nanos()); return std::nullopt;
    default:
      return WasGiven("string clause can only be used on strings, bools, bytes, ints, doubles, "
                      "maps, lists, types, durations, and timestamps",
                      v);
  }
}

// The double operand of %f and %e: a double, or one of the strings Go parses as NaN/Inf.
std::optional<double> FloatOperand(const Value& v) {
  if (v.kind() == Kind::kDouble) return v.double_value();
  if (v.kind() != Kind::kString) return std::nullopt;
  if (v.text() == "NaN") return std::nan("");
  if (v.text() == "Infinity") return HUGE_VAL;
  if (v.text() == "-Infinity") return -HUGE_VAL;
  return std::nullopt;
}

Result FormatHex(const Value& v, bool upper, std::string& out) {
  if (v.kind() == Kind::kString || v.kind() == Kind::kBytes) {
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (char c : v.text()) {
      out += digits[static_cast<unsigned char>(c) >> 4];
      out += digits[static_cast<unsigned char>(c) & 0xF];
    }
    return std::nullopt;
  }
  if (auto s = IntegerInBase(v, 16, upper)) {
    out += *s;
    return std::nullopt;
  }
  return WasGiven("only integers, byte buffers, and strings can be formatted as hex", v);
}

Result FormatClauseValue(const Value& v, const FormatClause& clause, std::string& out) {
  const int precision = static_cast<int>(clause.precision.value_or(kDefaultPrecision));
  std::optional<std::string> text;
  std::string_view refusal;
  switch (clause.verb) {
    case 's': return FormatString(v, out);
    case 'x':
    case 'X': return FormatHex(v, clause.verb == 'X', out);
    case 'd':
      text = IntegerInBase(v, 10);
      refusal = "decimal clause can only be used on integers";
      break;
    case 'o':
      text = IntegerInBase(v, 8);
      refusal = "octal clause can only be used on integers";
      break;
    case 'b':
      text = v.is_bool() ? std::optional<std::string>(v.bool_value() ? "1" : "0")
                         : IntegerInBase(v, 2);
      refusal = "only integers and bools can be formatted as binary";
      break;
    case 'f':
      if (std::optional<double> d = FloatOperand(v)) text = internal::EnUsFormatFixed(*d, precision);
      refusal = "fixed-point clause can only be used on doubles";
      break;
    default:  // 'e'
      if (std::optional<double> d = FloatOperand(v)) {
        text = internal::EnUsFormatScientific(*d, precision);
      }
      refusal = "scientific clause can only be used on doubles";
      break;
  }
  if (!text) return WasGiven(refusal, v);
  out += *text;
  return std::nullopt;
}

class RuntimeFormat final : public internal::FormatCallbacks {
 public:
  explicit RuntimeFormat(const ListData& args) : args_(args) {}

  size_t ArgCount() const override { return args_.elements.size(); }
  void Literal(std::string_view text) override { out_.append(text); }
  Result Clause(size_t index, const FormatClause& clause) override {
    return FormatClauseValue(args_.elements[index], clause, out_);
  }
  std::string& out() { return out_; }

 private:
  const ListData& args_;
  std::string out_;
};

Value Format(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString || a[1].kind() != Kind::kList) return NoSuchOverload();
  RuntimeFormat format(a[1].list());
  const internal::FormatWalkOptions options{.argument_before_clause = true,
                                            .max_precision = kMaxPrecision};
  if (auto err = internal::WalkFormatString(a[0].text(), format, options)) {
    return Value::Error(std::move(*err));
  }
  return Value::String(std::move(format.out()));
}

}  // namespace

void RegisterStringFormatFunctions(Registry& r) { r.Add("format", 2, Format); }

}  // namespace draguard::cel
