#include "policy/allocator/internal/amount.h"

#include <string>

namespace draguard::alloc::internal {
namespace {

__extension__ typedef __int128 i128;
constexpr i128 kMax = INT64_MAX;

// Multiplier (numerator, denominator) for a suffix, relative to milli-units.
bool Suffix(std::string_view s, i128& num, i128& den) {
  static constexpr struct { std::string_view name; int base; int exp; } kTable[] = {
      {"", 10, 0},    {"m", 10, -3},  {"k", 10, 3},    {"M", 10, 6},   {"G", 10, 9},
      {"T", 10, 12},  {"P", 10, 15},  {"Ki", 2, 10},   {"Mi", 2, 20},  {"Gi", 2, 30},
      {"Ti", 2, 40},  {"Pi", 2, 50},  {"n", 10, -9},   {"u", 10, -6},
  };
  for (const auto& e : kTable) {
    if (e.name != s) continue;
    num = 1000;
    den = 1;
    i128 p = 1;
    for (int i = 0; i < (e.exp < 0 ? -e.exp : e.exp); ++i) p *= e.base;
    if (e.exp < 0) den = p; else num *= p;
    return true;
  }
  return false;
}

}  // namespace

std::optional<int64_t> ParseMilli(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && text[i] == '+') ++i;
  i128 mantissa = 0, scale = 1;
  bool digits = false, dot = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !dot) { dot = true; continue; }
    if (c < '0' || c > '9') break;
    digits = true;
    if (mantissa > kMax * 1000) return std::nullopt;
    mantissa = mantissa * 10 + (c - '0');
    if (dot) scale *= 10;
    if (scale > kMax) return std::nullopt;
  }
  if (!digits) return std::nullopt;
  std::string_view rest = text.substr(i);
  i128 num = 1000, den = 1;
  if (!rest.empty() && (rest[0] == 'e' || rest[0] == 'E') && rest.size() > 1) {
    int exp = 0;
    size_t j = 1;
    bool neg = rest[j] == '-';
    if (rest[j] == '-' || rest[j] == '+') ++j;
    if (j >= rest.size()) return std::nullopt;
    for (; j < rest.size(); ++j) {
      if (rest[j] < '0' || rest[j] > '9' || exp > 30) return std::nullopt;
      exp = exp * 10 + (rest[j] - '0');
    }
    for (int k = 0; k < exp; ++k) (neg ? den : num) *= 10;
  } else if (!Suffix(rest, num, den)) {
    return std::nullopt;
  }
  den *= scale;
  if (mantissa != 0 && num > kMax * 1000 / mantissa) return std::nullopt;
  i128 value = mantissa * num;
  if (value % den != 0) return std::nullopt;
  value /= den;
  if (value > kMax) return std::nullopt;
  return static_cast<int64_t>(value);
}

}  // namespace draguard::alloc::internal
