// Go's number and string renderings, rebuilt on the C library: printf's %f and %e round the
// exact binary value half-to-even as Go's strconv does, and std::to_chars gives the shortest
// round-trip digits Go's 'g' with precision -1 uses; the layout rules are Go's.
#include "policy/cel/internal/go_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "policy/common/utf8.h"

namespace draguard::cel::internal {
namespace {

constexpr char kLowerHex[] = "0123456789abcdef";

// C's printf into a std::string.
template <typename... Args>
std::string Printf(const char* format, Args... args) {
  const int n = std::snprintf(nullptr, 0, format, args...);
  std::string out(static_cast<size_t>(n > 0 ? n : 0), '\0');
  std::snprintf(out.data(), out.size() + 1, format, args...);
  return out;
}

uint32_t DecodeUtf8(std::string_view s, size_t i, size_t len) {
  const auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[k])); };
  if (len == 2) return ((b(i) & 0x1F) << 6) | (b(i + 1) & 0x3F);
  if (len == 3) return ((b(i) & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
  return ((b(i) & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) | ((b(i + 2) & 0x3F) << 6) |
         (b(i + 3) & 0x3F);
}

bool InRange(uint32_t r, uint32_t lo, uint32_t hi) { return r >= lo && r <= hi; }

// Go's strconv.IsPrint for non-ASCII code points: no controls, no spaces other than U+0020,
// no format, separator, private-use or non-characters.
bool IsGoPrintNonAscii(uint32_t r) {
  static constexpr uint32_t kRanges[][2] = {
      {0x80, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},
      {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},
      {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},   {0x2028, 0x202F},
      {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},   {0xD800, 0xDFFF},
      {0xE000, 0xF8FF},   {0xFDD0, 0xFDEF},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},
      {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
      {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF}};
  if ((r & 0xFFFE) == 0xFFFE) return false;
  for (const auto& range : kRanges) {
    if (InRange(r, range[0], range[1])) return false;
  }
  return true;
}

void AppendHexEscape(std::string& out, char kind, uint32_t value, int digits) {
  out += '\\';
  out += kind;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kLowerHex[(value >> shift) & 0xF];
}

void AppendEscapedRune(std::string& out, uint32_t r, std::string_view raw) {
  if (r == '"' || r == '\\') {
    out += '\\';
    out += static_cast<char>(r);
    return;
  }
  if (r < 0x80 ? (r >= 0x20 && r < 0x7F) : IsGoPrintNonAscii(r)) {
    out.append(raw);
    return;
  }
  switch (r) {
    case '\a': out += "\\a"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\v': out += "\\v"; return;
    default: break;
  }
  if (r < 0x20 || r == 0x7F) return AppendHexEscape(out, 'x', r, 2);
  if (r < 0x10000) return AppendHexEscape(out, 'u', r, 4);
  AppendHexEscape(out, 'U', r, 8);
}

// Groups the integer digits of `digits` ("1234.5" -> "1,234.5") as en_US does.
std::string GroupThousands(std::string_view digits) {
  const size_t dot = digits.find('.');
  const size_t int_len = dot == std::string_view::npos ? digits.size() : dot;
  std::string out;
  out.reserve(digits.size() + int_len / 3);
  for (size_t i = 0; i < int_len; ++i) {
    out += digits[i];
    const size_t remaining = int_len - i - 1;
    if (remaining > 0 && remaining % 3 == 0) out += ',';
  }
  out.append(digits.substr(int_len));
  return out;
}

void AppendSuperscriptDigit(std::string& out, int digit) {
  // U+2070, U+00B9, U+00B2, U+00B3, U+2074..U+2079: not one contiguous block.
  static constexpr uint32_t kSuper[] = {0x2070, 0xB9,   0xB2,   0xB3,   0x2074,
                                        0x2075, 0x2076, 0x2077, 0x2078, 0x2079};
  AppendUtf8(kSuper[digit], out);
}

size_t CountRunes(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::string GoQuote(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (size_t i = 0; i < text.size();) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      AppendEscapedRune(out, lead, text.substr(i, 1));
      ++i;
      continue;
    }
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) {
      AppendHexEscape(out, 'x', lead, 2);
      ++i;
      continue;
    }
    AppendEscapedRune(out, DecodeUtf8(text, i, len), text.substr(i, len));
    i += len;
  }
  out += '"';
  return out;
}

std::string GoFormatShortest(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  const std::string sign = std::signbit(d) ? "-" : "";
  if (d == 0) return sign + "0";
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof(buf), std::fabs(d), std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<size_t>(result.ptr - buf));
  const size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') digits += c;
  }
  const int exp = std::atoi(std::string(sci.substr(e + 1)).c_str());
  const int nd = static_cast<int>(digits.size());
  if (exp < -4 || exp >= 6) {  // Go's %e for the shortest form, exponent of 2+ digits
    std::string out = sign + digits.substr(0, 1);
    if (nd > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    const int mag = exp < 0 ? -exp : exp;
    if (mag < 10) out += '0';
    return out + std::to_string(mag);
  }
  const int dp = exp + 1;  // digits before the decimal point
  if (dp <= 0) return sign + "0." + std::string(static_cast<size_t>(-dp), '0') + digits;
  if (dp >= nd) return sign + digits + std::string(static_cast<size_t>(dp - nd), '0');
  return sign + digits.substr(0, static_cast<size_t>(dp)) + "." + digits.substr(static_cast<size_t>(dp));
}

std::string GoFormatFixed(double d, int precision) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  return Printf("%.*f", precision, d);
}

std::string EnUsFormatFixed(double d, int precision) {
  if (std::isnan(d)) return "NaN";
  const std::string sign = d < 0 ? "-" : "";
  if (std::isinf(d)) return sign + "\u221E";
  return sign + GroupThousands(Printf("%.*f", precision, std::fabs(d)));
}

std::string EnUsFormatScientific(double d, int width) {
  std::string out;
  if (std::isnan(d)) {
    out = "NaN";
  } else if (std::isinf(d)) {
    out = d < 0 ? "-\u221E" : "\u221E";
  } else {
    const std::string sci = Printf("%.6e", std::fabs(d));  // d.dddddde±XX
    const size_t e = sci.find('e');
    int exp = std::atoi(sci.c_str() + e + 1);
    out = (d < 0 ? "-" : "") + sci.substr(0, e) + "\u202F\u00D7\u202F10";
    if (exp < 0) {
      out += "\u207B";
      exp = -exp;
    }
    const std::string mag = std::to_string(exp);
    if (mag.size() < 2) AppendSuperscriptDigit(out, 0);
    for (char c : mag) AppendSuperscriptDigit(out, c - '0');
  }
  const size_t runes = CountRunes(out);
  if (width > 0 && runes < static_cast<size_t>(width)) {
    out.insert(0, static_cast<size_t>(width) - runes, ' ');
  }
  return out;
}

}  // namespace draguard::cel::internal
