// The walk follows cel-go's parseFormatString byte by byte, including the order of its
// checks, so that both the texts and the precedence of errors match.
#include "policy/cel/internal/format_string.h"

#include <string>

#include "policy/common/utf8.h"

namespace draguard::cel::internal {
namespace {

std::string IndexOutOfRange(size_t index) {
  return "index " + std::to_string(index) + " out of range";
}

// Go's strconv.Atoi on a digit string: "" is a syntax error, more than int64 a range error.
std::optional<std::string> ParsePrecisionDigits(std::string_view digits, int64_t* out) {
  const std::string quoted = "strconv.Atoi: parsing \"" + std::string(digits) + "\": ";
  if (digits.empty()) return quoted + "invalid syntax";
  constexpr int64_t kMax = 9223372036854775807;
  int64_t value = 0;
  for (char c : digits) {
    const int64_t digit = c - '0';
    if (value > (kMax - digit) / 10) return quoted + "value out of range";
    value = value * 10 + digit;
  }
  *out = value;
  return std::nullopt;
}

// `clause` starts after the '%'. Sets *read to the bytes consumed.
std::optional<std::string> ParseClause(std::string_view clause, const FormatWalkOptions& options,
                                       FormatClause* out, size_t* read) {
  size_t i = 0;
  if (clause[0] == '.') {
    i = 1;
    while (i < clause.size() && clause[i] >= '0' && clause[i] <= '9') ++i;
    if (i >= clause.size()) {
      return "error while parsing precision: could not find end of precision specifier";
    }
    int64_t precision = 0;
    if (auto err = ParsePrecisionDigits(clause.substr(1, i - 1), &precision)) {
      return "error while parsing precision: error while converting precision to integer: " +
             *err;
    }
    if (options.max_precision > 0 && precision > options.max_precision) {
      return "error while parsing precision: precision " + std::to_string(precision) +
             " exceeds maximum allowed precision " + std::to_string(options.max_precision);
    }
    out->precision = precision;
  }
  const char verb = clause[i];
  switch (verb) {
    case 's': case 'd': case 'f': case 'e': case 'b': case 'x': case 'X': case 'o':
      out->verb = verb;
      *read = i + 1;
      return std::nullopt;
    default: {
      // Go prints the byte as a rune (%c of rune(byte)): Latin-1 for bytes >= 0x80.
      std::string shown;
      AppendUtf8(static_cast<unsigned char>(verb), shown);
      return "unrecognized formatting clause \"" + shown + "\"";
    }
  }
}

}  // namespace

std::optional<std::string> WalkFormatString(std::string_view format, FormatCallbacks& callbacks,
                                            const FormatWalkOptions& options) {
  size_t i = 0;
  size_t arg = 0;
  while (i < format.size()) {
    const size_t percent = format.find('%', i);
    if (percent == std::string_view::npos) {
      callbacks.Literal(format.substr(i));
      break;
    }
    if (percent > i) callbacks.Literal(format.substr(i, percent - i));
    i = percent;
    if (i + 1 < format.size() && format[i + 1] == '%') {
      callbacks.Literal("%");
      i += 2;
      continue;
    }
    if (options.argument_before_clause && arg >= callbacks.ArgCount()) return IndexOutOfRange(arg);
    if (i + 1 >= format.size()) return "unexpected end of string";
    if (arg >= callbacks.ArgCount()) return IndexOutOfRange(arg);
    FormatClause clause;
    size_t read = 0;
    if (auto err = ParseClause(format.substr(i + 1), options, &clause, &read)) {
      return "could not parse formatting clause: " + *err;
    }
    if (auto err = callbacks.Clause(arg, clause)) return "error during formatting: " + *err;
    i += 1 + read;
    ++arg;
  }
  return std::nullopt;
}

}  // namespace draguard::cel::internal
