// The checks of Go's net/url parse() in their order, messages as Go's (strings quoted with
// strconv.Quote); then the parts of url.Parse the URL library reads.
#include "policy/cel/internal/go_url.h"

#include <algorithm>

#include "policy/cel/internal/go_text.h"
#include "policy/common/utf8.h"

namespace draguard::cel::internal {
namespace {

enum class Mode { kPath, kHost, kZone, kUserPassword };

bool IsAsciiAlnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// net/url shouldEscape for the modes unescape consults.
bool ShouldEscape(unsigned char c, Mode mode) {
  if (IsAsciiAlnum(c)) return false;
  if (mode == Mode::kHost || mode == Mode::kZone) {
    switch (c) {
      case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+':
      case ',': case ';': case '=': case ':': case '[': case ']': case '<': case '>': case '"':
        return false;
      default: break;
    }
  }
  switch (c) {
    case '-': case '_': case '.': case '~': return false;
    case '$': case '&': case '+': case ',': case '/': case ':': case ';': case '=': case '?':
    case '@':
      // Host and zone fall through to "escape everything else"; userinfo escapes @ / ? :.
      if (mode == Mode::kPath) return c == '?';
      if (mode == Mode::kUserPassword) return c == '@' || c == '/' || c == '?' || c == ':';
      return true;
    default: return true;
  }
}

std::string EscapeError(std::string_view s) { return "invalid URL escape " + GoQuote(s); }

// net/url unescape's validation pass.
std::optional<std::string> CheckEscapes(std::string_view s, Mode mode) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      if (i + 2 >= s.size() || HexValue(s[i + 1]) < 0 || HexValue(s[i + 2]) < 0) {
        return EscapeError(s.substr(i, 3));
      }
      const std::string_view escape = s.substr(i, 3);
      if (mode == Mode::kHost && HexValue(s[i + 1]) < 8 && escape != "%25") {
        return EscapeError(escape);
      }
      if (mode == Mode::kZone) {
        const auto v = static_cast<unsigned char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
        if (escape != "%25" && v != ' ' && ShouldEscape(v, Mode::kHost)) return EscapeError(escape);
      }
      i += 3;
      continue;
    }
    if ((mode == Mode::kHost || mode == Mode::kZone) && c < 0x80 && ShouldEscape(c, mode)) {
      return "invalid character " + GoQuote(s.substr(i, 1)) + " in host name";
    }
    ++i;
  }
  return std::nullopt;
}

// ^(:[0-9]*)?$
bool ValidOptionalPort(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  for (char c : port.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::optional<std::string> CheckHost(std::string_view host) {
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.rfind(']');
    if (close == std::string_view::npos) return "missing ']' in host";
    const std::string_view colon_port = host.substr(close + 1);
    if (!ValidOptionalPort(colon_port)) return "invalid port " + GoQuote(colon_port) + " after host";
    const size_t zone = host.substr(0, close).find("%25");
    if (zone != std::string_view::npos) {
      if (auto err = CheckEscapes(host.substr(0, zone), Mode::kHost)) return err;
      if (auto err = CheckEscapes(host.substr(zone, close - zone), Mode::kZone)) return err;
      return CheckEscapes(host.substr(close), Mode::kHost);
    }
  } else if (const size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    const std::string_view colon_port = host.substr(colon);
    if (!ValidOptionalPort(colon_port)) return "invalid port " + GoQuote(colon_port) + " after host";
  }
  return CheckEscapes(host, Mode::kHost);
}

bool ValidUserinfo(std::string_view s) {
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (IsAsciiAlnum(c)) continue;
    switch (c) {
      case '-': case '.': case '_': case ':': case '~': case '!': case '$': case '&':
      case '\'': case '(': case ')': case '*': case '+': case ',': case ';': case '=':
      case '%': case '@':
        continue;
      default: return false;  // includes every byte of a non-ASCII rune
    }
  }
  return true;
}

std::optional<std::string> CheckAuthority(std::string_view authority) {
  const size_t at = authority.rfind('@');
  const std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
  if (auto err = CheckHost(host)) return err;
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view userinfo = authority.substr(0, at);
  if (!ValidUserinfo(userinfo)) return "net/url: invalid userinfo";
  const size_t colon = userinfo.find(':');
  if (colon == std::string_view::npos) return CheckEscapes(userinfo, Mode::kUserPassword);
  if (auto err = CheckEscapes(userinfo.substr(0, colon), Mode::kUserPassword)) return err;
  return CheckEscapes(userinfo.substr(colon + 1), Mode::kUserPassword);
}

// Go's getScheme: "" when there is no scheme; error when the input starts with ':'.
std::optional<std::string> SplitScheme(std::string_view raw, std::string_view* scheme,
                                       std::string_view* rest) {
  *scheme = {};
  *rest = raw;
  for (size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (i == 0) return std::nullopt;
      continue;
    }
    if (c == ':') {
      if (i == 0) return "missing protocol scheme";
      *scheme = raw.substr(0, i);
      *rest = raw.substr(i + 1);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> ParseError(std::string_view raw) {
  for (char c : raw) {
    if (static_cast<unsigned char>(c) < ' ' || c == 0x7F) {
      return "net/url: invalid control character in URL";
    }
  }
  if (raw.empty()) return "empty url";
  if (raw == "*") return std::nullopt;
  std::string_view scheme, rest;
  if (auto err = SplitScheme(raw, &scheme, &rest)) return err;
  const size_t question = rest.find('?');
  if (question != std::string_view::npos) rest = rest.substr(0, question);
  if (rest.empty() || rest[0] != '/') {
    if (!scheme.empty()) return std::nullopt;  // opaque: scheme:rootless
    return "invalid URI for request";
  }
  if (!scheme.empty() && rest.substr(0, 2) == "//") {
    std::string_view authority = rest.substr(2);
    const size_t slash = authority.find('/');
    rest = slash == std::string_view::npos ? std::string_view() : authority.substr(slash);
    authority = authority.substr(0, slash);
    if (auto err = CheckAuthority(authority)) return err;
  }
  return CheckEscapes(rest, Mode::kPath);
}

}  // namespace

std::optional<std::string> GoParseRequestUriError(std::string_view raw) {
  std::optional<std::string> err = ParseError(raw);
  if (!err) return std::nullopt;
  return "parse " + GoQuote(raw) + ": " + *err;
}

namespace {

int Unhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Go's unescape: %XX to bytes ('+' to ' ' in query components). nullopt on a bad escape.
std::optional<std::string> Unescape(std::string_view s, bool query) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = Unhex(s[i + 1]), lo = Unhex(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (query && s[i] == '+') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

// validEncoded(s, encodePath).
bool ValidEncodedPath(std::string_view s) {
  for (char ch : s) {
    switch (ch) {
      case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',':
      case ';': case '=': case ':': case '@': case '[': case ']': case '%':
        continue;
      default:
        if (ShouldEscape(static_cast<unsigned char>(ch), Mode::kPath)) return false;
    }
  }
  return true;
}

bool ValidPort(std::string_view port) {
  for (char c : port) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// splitHostPort: the port after the last ':' when all digits (possibly empty).
std::pair<std::string_view, std::string_view> SplitHostPort(std::string_view host) {
  std::string_view port;
  const size_t colon = host.rfind(':');
  if (colon != std::string_view::npos && ValidPort(host.substr(colon + 1))) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return {host, port};
}

}  // namespace

GoUrl GoParseUrl(std::string_view raw) {
  GoUrl url;
  raw = raw.substr(0, raw.find('#'));
  if (raw == "*") {
    url.raw_path = "*";
    return url;
  }
  std::string_view scheme, rest;
  if (SplitScheme(raw, &scheme, &rest)) return url;  // cannot happen after ParseRequestURI
  for (char c : scheme) url.scheme += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (!rest.empty() && rest.back() == '?' && rest.find('?') == rest.size() - 1) {
    rest.remove_suffix(1);  // ForceQuery: an empty query
  } else if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    url.raw_query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (rest.empty() || rest[0] != '/') {
    if (!url.scheme.empty()) return url;  // opaque
  }
  if (rest.substr(0, 2) == "//" && (!url.scheme.empty() || rest.substr(0, 3) != "///")) {
    std::string_view authority = rest.substr(2);
    const size_t slash = authority.find('/');
    rest = slash == std::string_view::npos ? std::string_view() : authority.substr(slash);
    authority = authority.substr(0, slash);
    const size_t at = authority.rfind('@');
    url.host = std::string(at == std::string_view::npos ? authority : authority.substr(at + 1));
  }
  url.raw_path = std::string(rest);
  return url;
}

std::string GoEscapedPath(std::string_view raw_path) {
  if (ValidEncodedPath(raw_path)) return std::string(raw_path);
  const std::string path = Unescape(raw_path, false).value_or(std::string(raw_path));
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (ShouldEscape(c, Mode::kPath)) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

std::string GoHostname(std::string_view host) { return std::string(SplitHostPort(host).first); }

std::string GoPort(std::string_view host) { return std::string(SplitHostPort(host).second); }

std::vector<std::pair<std::string, std::vector<std::string>>> GoParseQuery(
    std::string_view raw_query) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  while (!raw_query.empty()) {
    const size_t amp = raw_query.find('&');
    std::string_view pair = raw_query.substr(0, amp);
    raw_query = amp == std::string_view::npos ? std::string_view() : raw_query.substr(amp + 1);
    if (pair.empty() || pair.find(';') != std::string_view::npos) continue;
    const size_t eq = pair.find('=');
    std::optional<std::string> key = Unescape(pair.substr(0, eq), true);
    std::optional<std::string> value =
        Unescape(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
    if (!key || !value) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == *key; });
    if (it == out.end()) {
      out.push_back({*key, {}});
      it = out.end() - 1;
    }
    it->second.push_back(*std::move(value));
  }
  return out;
}

}  // namespace draguard::cel::internal
