// Parsing follows Go's netip.ParseAddr/ParsePrefix step by step, with their messages
// (without Go's "(at ...)" position suffix).
#include "policy/common/ip_address.h"

#include <optional>

#include "policy/common/strings.h"

namespace draguard {
namespace {

Status AddrError(std::string_view in, std::string_view msg) {
  return InvalidArgumentError("ParseAddr(" + Quote(in) + "): " + std::string(msg));
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Dotted IPv4 into out[0..3]; `in` is the whole input for messages.
Status ParseIPv4(std::string_view s, std::string_view in, uint8_t* out) {
  int fields = 0, value = 0, digits = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits == 1 && value == 0) return AddrError(in, "IPv4 field has octet with leading zero");
      value = value * 10 + (c - '0');
      ++digits;
      if (value > 255) return AddrError(in, "IPv4 field has value >255");
    } else if (c == '.') {
      if (digits == 0) return AddrError(in, "IPv4 field must have at least one digit");
      if (fields == 3) return AddrError(in, "IPv4 address too long");
      out[fields++] = static_cast<uint8_t>(value);
      value = digits = 0;
    } else {
      return AddrError(in, "unexpected character");
    }
  }
  if (digits == 0) return AddrError(in, "IPv4 field must have at least one digit");
  if (fields < 3) return AddrError(in, "IPv4 address too short");
  out[3] = static_cast<uint8_t>(value);
  return OkStatus();
}

StatusOr<IpAddress> ParseIPv6(std::string_view in) {
  std::string_view s = in;
  IpAddress ip;
  if (size_t pct = s.find('%'); pct != std::string_view::npos) {
    ip.zone = std::string(s.substr(pct + 1));
    s = s.substr(0, pct);
    if (ip.zone.empty()) return AddrError(in, "zone must be a non-empty string");
  }
  int ellipsis = -1;  // byte index where "::" stands
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return ip;  // "::"
  }
  size_t i = 0;  // bytes filled
  while (i < 16) {
    size_t off = 0;
    uint32_t acc = 0;
    while (off < s.size()) {
      const int d = HexDigit(s[off]);
      if (d < 0) break;
      acc = (acc << 4) + static_cast<uint32_t>(d);
      if (acc > 0xffff) return AddrError(in, "IPv6 field has value >=2^16");
      ++off;
    }
    if (off == 0) return AddrError(in, "each colon-separated field must have at least one digit");
    if (off < s.size() && s[off] == '.') {
      if (ellipsis < 0 && i != 12) {
        return AddrError(in, "embedded IPv4 address must replace the final 2 fields of the address");
      }
      if (i + 4 > 16) return AddrError(in, "too many hex fields to fit an embedded IPv4 at the end of the address");
      Status v4 = ParseIPv4(s, in, &ip.bytes[i]);
      if (!v4.ok()) return v4;
      s = {};
      i += 4;
      break;
    }
    ip.bytes[i] = static_cast<uint8_t>(acc >> 8);
    ip.bytes[i + 1] = static_cast<uint8_t>(acc);
    i += 2;
    s.remove_prefix(off);
    if (s.empty()) break;
    if (s[0] != ':') return AddrError(in, "unexpected character, want colon");
    if (s.size() == 1) return AddrError(in, "colon must be followed by more characters");
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return AddrError(in, "multiple :: in address");
      ellipsis = static_cast<int>(i);
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return AddrError(in, "trailing garbage after address");
  if (i < 16) {
    if (ellipsis < 0) return AddrError(in, "address string too short");
    const size_t n = 16 - i;
    for (size_t j = i; j-- > static_cast<size_t>(ellipsis);) ip.bytes[j + n] = ip.bytes[j];
    for (size_t j = static_cast<size_t>(ellipsis); j < static_cast<size_t>(ellipsis) + n; ++j) {
      ip.bytes[j] = 0;
    }
  } else if (ellipsis >= 0) {
    return AddrError(in, "the :: must expand to at least one field of zeros");
  }
  return ip;
}

uint16_t Group(const IpAddress& ip, int i) {
  return static_cast<uint16_t>(ip.bytes[2 * i] << 8 | ip.bytes[2 * i + 1]);
}

std::string Dotted(const uint8_t* b) {
  return std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) + "." +
         std::to_string(b[3]);
}

// The first byte pair of an IPv6 address (or the first byte of an IPv4 one) matches
// `prefix` in its top `bits` bits.
bool HasPrefix(const IpAddress& ip, std::initializer_list<uint8_t> prefix, int bits) {
  int i = 0;
  for (uint8_t p : prefix) {
    const int take = bits >= 8 ? 8 : bits;
    if (take <= 0) break;
    const uint8_t mask = static_cast<uint8_t>(0xff << (8 - take));
    if ((ip.bytes[static_cast<size_t>(i)] & mask) != (p & mask)) return false;
    bits -= take;
    ++i;
  }
  return true;
}

}  // namespace

StatusOr<IpAddress> IpAddress::Parse(std::string_view text) {
  for (char c : text) {
    if (c == '.') {
      IpAddress ip;
      ip.is4 = true;
      Status s = ParseIPv4(text, text, ip.bytes.data());
      if (!s.ok()) return s;
      return ip;
    }
    if (c == ':') return ParseIPv6(text);
    if (c == '%') return AddrError(text, "missing IPv6 address");
  }
  return AddrError(text, "unable to parse IP");
}

bool IpAddress::Is4In6() const {
  if (is4) return false;
  for (int i = 0; i < 10; ++i) {
    if (bytes[static_cast<size_t>(i)] != 0) return false;
  }
  return bytes[10] == 0xff && bytes[11] == 0xff;
}

bool IpAddress::IsUnspecified() const {
  for (int i = 0; i < (is4 ? 4 : 16); ++i) {
    if (bytes[static_cast<size_t>(i)] != 0) return false;
  }
  return true;
}

bool IpAddress::IsLoopback() const {
  if (is4) return bytes[0] == 127;
  for (int i = 0; i < 15; ++i) {
    if (bytes[static_cast<size_t>(i)] != 0) return false;
  }
  return bytes[15] == 1;
}

bool IpAddress::IsMulticast() const {
  return is4 ? HasPrefix(*this, {224}, 4) : bytes[0] == 0xff;
}

bool IpAddress::IsLinkLocalMulticast() const {
  return is4 ? HasPrefix(*this, {224, 0, 0}, 24) : HasPrefix(*this, {0xff, 0x02}, 16);
}

bool IpAddress::IsLinkLocalUnicast() const {
  return is4 ? HasPrefix(*this, {169, 254}, 16) : HasPrefix(*this, {0xfe, 0x80}, 10);
}

bool IpAddress::IsGlobalUnicast() const {
  if (is4) {
    bool broadcast = bytes[0] == 255 && bytes[1] == 255 && bytes[2] == 255 && bytes[3] == 255;
    if (IsUnspecified() || broadcast) return false;
  }
  return !IsUnspecified() && !IsLoopback() && !IsMulticast() && !IsLinkLocalUnicast();
}

std::string IpAddress::String() const {
  if (is4) return Dotted(bytes.data());
  std::string out;
  if (Is4In6()) {
    out = "::ffff:" + Dotted(&bytes[12]);
  } else {
    int zero_start = -1, zero_end = -1;
    for (int i = 0; i < 8; ++i) {
      int j = i;
      while (j < 8 && Group(*this, j) == 0) ++j;
      if (j - i >= 2 && j - i > zero_end - zero_start) {
        zero_start = i;
        zero_end = j;
      }
    }
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 8; ++i) {
      if (i == zero_start) {
        out += "::";
        i = zero_end;
        if (i >= 8) break;
      } else if (i > 0) {
        out += ':';
      }
      const uint16_t g = Group(*this, i);
      bool started = false;
      for (int shift = 12; shift >= 0; shift -= 4) {
        const int d = (g >> shift) & 0xf;
        if (d != 0 || started || shift == 0) {
          out += kHex[d];
          started = true;
        }
      }
    }
  }
  if (!zone.empty()) out += "%" + zone;
  return out;
}

IpAddress IpAddress::Masked(int bits) const {
  IpAddress m = *this;
  m.zone.clear();
  for (int i = 0; i < 16; ++i) {
    const int keep = bits - 8 * i;
    uint8_t& b = m.bytes[static_cast<size_t>(i)];
    if (keep <= 0) {
      b = 0;
    } else if (keep < 8) {
      b = static_cast<uint8_t>(b & (0xff << (8 - keep)));
    }
  }
  return m;
}

StatusOr<IpPrefix> IpPrefix::Parse(std::string_view text) {
  const std::string head = "netip.ParsePrefix(" + Quote(text) + "): ";
  const size_t slash = text.rfind('/');
  if (slash == std::string_view::npos) return InvalidArgumentError(head + "no '/'");
  StatusOr<IpAddress> addr = IpAddress::Parse(text.substr(0, slash));
  if (!addr.ok()) return InvalidArgumentError(head + std::string(addr.status().message()));
  if (!addr->zone.empty()) {
    return InvalidArgumentError(head + "IPv6 zones cannot be present in a prefix");
  }
  std::string_view bits_text = text.substr(slash + 1);
  std::optional<int> bits;
  if (!bits_text.empty() && bits_text.size() <= 3 && (bits_text.size() == 1 || bits_text[0] != '0')) {
    int v = 0;
    bool digits = true;
    for (char c : bits_text) {
      digits = digits && c >= '0' && c <= '9';
      v = v * 10 + (c - '0');
    }
    if (digits && v <= addr->BitLength()) bits = v;
  }
  if (!bits) {
    return InvalidArgumentError(head + "bad bits after slash: " + Quote(bits_text));
  }
  return IpPrefix{*std::move(addr), *bits};
}

bool IpPrefix::Contains(const IpAddress& ip) const {
  if (ip.is4 != addr.is4 || !ip.zone.empty()) return false;
  return ip.Masked(bits).bytes == addr.Masked(bits).bytes;
}

}  // namespace draguard
