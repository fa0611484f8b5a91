// Parsing follows apimachinery's parseQuantityString: sign, integer digits, optional
// fraction, then a suffix made of the letters "eEinumkKMGTP" optionally followed by a
// signed integer (only meaningful for the e/E exponent form). The number is turned into
// nano-units exactly: N * base^k * 10^(9 - fraction digits), dividing with round-up
// (away from zero) when the shift is negative. String() reproduces CanonicalizeBytes:
// BinarySI prints base-1024 suffixes only for integral values with |v| >= 1024;
// everything else prints a mantissa with a power-of-ten exponent that is a multiple of 3.
#include "policy/common/quantity.h"

#include <array>
#include <charconv>
#include <cmath>

#include "policy/common/ascii.h"

namespace draguard {
namespace {

using i128 = Int128;
constexpr i128 kNano = 1000000000;

struct Suffix {
  int base = 10;  // 10 or 2 (power of 1024 then)
  int exponent = 0;
  Quantity::Format format = Quantity::Format::kDecimalSI;
};

std::optional<Suffix> InterpretSuffix(std::string_view s) {
  using F = Quantity::Format;
  static constexpr std::array<std::pair<std::string_view, int>, 10> kDecimal = {{
      {"", 0}, {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3},
      {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}}};
  static constexpr std::array<std::string_view, 6> kBinary = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  for (const auto& [name, exp] : kDecimal) {
    if (s == name) return Suffix{10, exp, F::kDecimalSI};
  }
  for (size_t i = 0; i < kBinary.size(); ++i) {
    if (s == kBinary[i]) return Suffix{2, static_cast<int>(i + 1), F::kBinarySI};
  }
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return std::nullopt;
  std::string_view digits = s.substr(1);
  if (digits[0] == '+') digits.remove_prefix(1);
  int32_t exp = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), exp);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return Suffix{10, exp, F::kDecimalExponent};
}


// Multiplies |v| by 10^n, or returns false past kMaxNanos.
bool ScaleUp(i128& v, int n) {
  for (int i = 0; i < n; ++i) {
    if (v > Quantity::kMaxNanos / 10) return false;
    v *= 10;
  }
  return true;
}

// Divides the non-negative v by 10^n rounding up.
i128 ScaleDownRoundUp(i128 v, int n) {
  bool inexact = false;
  for (int i = 0; i < n && v != 0; ++i) {
    inexact |= (v % 10) != 0;
    v /= 10;
  }
  return inexact ? v + 1 : v;
}

Status SyntaxError(std::string_view text) {
  return InvalidArgumentError("quantities must match the regular expression "
                              "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \"" +
                              std::string(text) + "\"");
}

Status RangeError(std::string_view text) {
  return OutOfRangeError("quantity \"" + std::string(text) +
                         "\" is outside the supported range (|value| < 1e28)");
}

std::string Int128ToString(i128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  UInt128 u = negative ? -static_cast<UInt128>(v) : v;
  std::string out;
  while (u != 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) out.insert(out.begin(), '-');
  return out;
}

std::string DecimalSuffix(int exponent, Quantity::Format format) {
  if (format == Quantity::Format::kDecimalSI) {
    switch (exponent) {
      case -9: return "n";
      case -6: return "u";
      case -3: return "m";
      case 0: return "";
      case 3: return "k";
      case 6: return "M";
      case 9: return "G";
      case 12: return "T";
      case 15: return "P";
      case 18: return "E";
      default: break;
    }
  }
  if (exponent == 0) return "";
  return "e" + std::to_string(exponent);
}

}  // namespace

StatusOr<Quantity> Quantity::Parse(std::string_view text) {
  size_t pos = 0;
  const size_t end = text.size();
  bool negative = false;
  if (pos < end && (text[pos] == '+' || text[pos] == '-')) negative = text[pos++] == '-';
  const size_t int_start = pos;
  while (pos < end && IsAsciiDigit(text[pos])) ++pos;
  std::string_view int_digits = text.substr(int_start, pos - int_start);
  std::string_view frac_digits;
  if (pos < end && text[pos] == '.') {
    const size_t frac_start = ++pos;
    while (pos < end && IsAsciiDigit(text[pos])) ++pos;
    frac_digits = text.substr(frac_start, pos - frac_start);
  }
  if (int_digits.empty() && frac_digits.empty()) return SyntaxError(text);
  std::optional<Suffix> suffix = InterpretSuffix(text.substr(pos));
  if (!suffix) return SyntaxError(text);

  // Significant digits N with f fractional digits; leading/trailing zeros dropped.
  while (!int_digits.empty() && int_digits.front() == '0') int_digits.remove_prefix(1);
  while (!frac_digits.empty() && frac_digits.back() == '0') frac_digits.remove_suffix(1);
  std::string digits = std::string(int_digits) + std::string(frac_digits);
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Quantity(0, suffix->format);
  digits.erase(0, first);
  if (digits.size() > 37) return RangeError(text);
  i128 n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  int64_t shift = 9 - static_cast<int64_t>(frac_digits.size());
  if (suffix->base == 2) {
    for (int i = 0; i < suffix->exponent; ++i) {
      if (n > kMaxNanos / 1024) return RangeError(text);
      n *= 1024;
    }
  } else {
    shift += suffix->exponent;
  }
  if (shift >= 0) {
    if (shift > 40 || !ScaleUp(n, static_cast<int>(shift))) return RangeError(text);
  } else {
    n = shift < -40 ? 1 : ScaleDownRoundUp(n, static_cast<int>(-shift));
  }
  if (suffix->format == Format::kBinarySI) {
    const i128 cap = static_cast<i128>(INT64_MAX) * kNano;
    if (n > cap) n = cap;
  }
  return Quantity(negative ? -n : n, suffix->format);
}

Quantity Quantity::FromInt64(int64_t value) {
  return Quantity(static_cast<i128>(value) * kNano, Format::kDecimalSI);
}

int Quantity::Cmp(const Quantity& other) const {
  return nanos_ < other.nanos_ ? -1 : (nanos_ > other.nanos_ ? 1 : 0);
}

StatusOr<Quantity> Quantity::Add(const Quantity& other) const {
  i128 sum = nanos_ + other.nanos_;  // cannot overflow: both are below 10^37
  if (sum > kMaxNanos || sum < -kMaxNanos) return RangeError(String() + " + " + other.String());
  return Quantity(sum, nanos_ == 0 ? other.format_ : format_);
}

StatusOr<Quantity> Quantity::Sub(const Quantity& other) const {
  i128 diff = nanos_ - other.nanos_;
  if (diff > kMaxNanos || diff < -kMaxNanos) return RangeError(String() + " - " + other.String());
  return Quantity(diff, nanos_ == 0 ? other.format_ : format_);
}

std::optional<int64_t> Quantity::AsInt64() const {
  if (nanos_ % kNano != 0) return std::nullopt;
  i128 v = nanos_ / kNano;
  if (v > INT64_MAX || v < INT64_MIN) return std::nullopt;
  return static_cast<int64_t>(v);
}

double Quantity::AsApproximateDouble() const {
  return static_cast<double>(static_cast<long double>(nanos_) / 1e9L);
}

std::string Quantity::String() const {
  if (nanos_ == 0) return "0";
  Format format = format_;
  if (format == Format::kBinarySI) {
    const i128 limit = 1024 * kNano;
    if ((nanos_ > -limit && nanos_ < limit) || nanos_ % kNano != 0) format = Format::kDecimalSI;
  }
  if (format == Format::kBinarySI) {
    static constexpr std::array<std::string_view, 7> kBinary = {"",   "Ki", "Mi", "Gi",
                                                                "Ti", "Pi", "Ei"};
    i128 v = nanos_ / kNano;
    size_t k = 0;
    while (k + 1 < kBinary.size() && v % 1024 == 0) {
      v /= 1024;
      ++k;
    }
    return Int128ToString(v) + std::string(kBinary[k]);
  }
  i128 mantissa = nanos_;
  int exponent = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  switch (exponent % 3) {
    case 1: case -2: mantissa *= 10; exponent -= 1; break;
    case 2: case -1: mantissa *= 100; exponent -= 2; break;
    default: break;
  }
  return Int128ToString(mantissa) + DecimalSuffix(exponent, format);
}

}  // namespace draguard
