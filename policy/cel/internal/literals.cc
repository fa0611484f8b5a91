// Literal decoding following cel-go's parser/unescape.go semantics: escapes \a \b \f \n \r
// \t \v \\ \? \" \' \`, \xHH / \XHH, \uHHHH, \UHHHHHHHH (strings only) and three-digit octal
// \[0-3][0-7][0-7].
// Raw literals (r/R prefix) keep backslashes verbatim. Numbers use std::from_chars (no
// locale, no allocation).
#include "policy/cel/internal/literals.h"

#include <charconv>
#include <limits>

#include "policy/common/utf8.h"

namespace draguard::cel::internal {
namespace {


struct Body {
  std::string_view text;
  size_t offset = 0;  // of text inside the token
  bool raw = false;
};

Body SplitToken(std::string_view token) {
  Body body;
  size_t i = 0;
  while (i < token.size() && token[i] != '"' && token[i] != '\'') {
    if (token[i] == 'r' || token[i] == 'R') body.raw = true;
    ++i;
  }
  size_t quote_len = (token.size() - i >= 6 && token[i + 1] == token[i] && token[i + 2] == token[i])
                         ? 3
                         : 1;
  body.offset = i + quote_len;
  body.text = token.substr(body.offset, token.size() - body.offset - quote_len);
  return body;
}

// Decodes one escape starting after the backslash at text[i]; advances i.
std::optional<LiteralError> DecodeEscape(std::string_view text, size_t& i, bool is_bytes,
                                         std::string& out) {
  size_t start = i - 1;
  auto fail = [&](std::string message) {
    size_t len = (i < text.size() ? i + 1 : text.size()) - start;
    return LiteralError{start, len, std::move(message)};
  };
  if (i >= text.size()) return fail("invalid escape sequence at end of literal");
  char c = text[i];
  switch (c) {
    case 'a': out += '\a'; ++i; return std::nullopt;
    case 'b': out += '\b'; ++i; return std::nullopt;
    case 'f': out += '\f'; ++i; return std::nullopt;
    case 'n': out += '\n'; ++i; return std::nullopt;
    case 'r': out += '\r'; ++i; return std::nullopt;
    case 't': out += '\t'; ++i; return std::nullopt;
    case 'v': out += '\v'; ++i; return std::nullopt;
    case '\\': case '?': case '"': case '\'': case '`':
      out += c;
      ++i;
      return std::nullopt;
    default:
      break;
  }
  if (c >= '0' && c <= '3') {
    if (i + 2 >= text.size() || text[i + 1] < '0' || text[i + 1] > '7' || text[i + 2] < '0' ||
        text[i + 2] > '7') {
      return fail("invalid octal escape sequence");
    }
    uint32_t v = static_cast<uint32_t>((c - '0') * 64 + (text[i + 1] - '0') * 8 + (text[i + 2] - '0'));
    i += 3;
    if (is_bytes) {
      out += static_cast<char>(v);
    } else {
      AppendUtf8(v, out);
    }
    return std::nullopt;
  }
  size_t digits = (c == 'x' || c == 'X') ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
  if (digits == 0) return fail(std::string("invalid escape sequence '\\") + c + "'");
  // cel-go's unescape: a bytes literal has no code points, so \u and \U are errors there.
  if (digits > 2 && is_bytes) {
    return fail(std::string("invalid escape sequence '\\") + c + "' in a bytes literal");
  }
  uint32_t v = 0;
  for (size_t k = 1; k <= digits; ++k) {
    int h = i + k < text.size() ? HexValue(text[i + k]) : -1;
    if (h < 0) return fail("invalid hex escape sequence");
    v = v * 16 + static_cast<uint32_t>(h);
  }
  i += digits + 1;
  if (digits == 2 && is_bytes) {
    out += static_cast<char>(v);
    return std::nullopt;
  }
  if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) {
    i = start + 1;  // report the escape itself
    return LiteralError{start, digits + 2, "invalid unicode code point in escape sequence"};
  }
  AppendUtf8(v, out);
  return std::nullopt;
}

}  // namespace


std::optional<LiteralError> DecodeQuotedLiteral(std::string_view token, bool is_bytes,
                                                std::string& out) {
  Body body = SplitToken(token);
  out.clear();
  out.reserve(body.text.size());
  if (body.raw) {
    out.append(body.text);
    return std::nullopt;
  }
  size_t i = 0;
  while (i < body.text.size()) {
    size_t next = body.text.find('\\', i);
    if (next == std::string_view::npos) next = body.text.size();
    out.append(body.text.substr(i, next - i));
    i = next;
    if (i >= body.text.size()) break;
    ++i;
    if (auto err = DecodeEscape(body.text, i, is_bytes, out)) {
      err->offset += body.offset;
      return err;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> ParseIntLiteral(std::string_view digits, bool negative) {
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  constexpr uint64_t kMaxPositive = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!negative) {
    if (magnitude > kMaxPositive) return std::nullopt;
    return static_cast<int64_t>(magnitude);
  }
  if (magnitude > kMaxPositive + 1) return std::nullopt;
  if (magnitude == kMaxPositive + 1) return std::numeric_limits<int64_t>::min();
  return -static_cast<int64_t>(magnitude);
}

std::optional<uint64_t> ParseUintLiteral(std::string_view digits) {
  if (!digits.empty()) digits.remove_suffix(1);  // u / U
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::optional<double> ParseDoubleLiteral(std::string_view digits, bool negative) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Underflow rounds to zero in Go's ParseFloat; overflow is an error.
    bool tiny = digits.find("e-") != std::string_view::npos ||
                digits.find("E-") != std::string_view::npos;
    if (!tiny) return std::nullopt;
    value = 0;
  } else if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return negative ? -value : value;
}

}  // namespace draguard::cel::internal
