// Kubernetes IP and CIDR libraries (apiserver/pkg/cel/library ip.go, cidr.go):
// netip semantics, with Kubernetes' extra rejections of zones and IPv4-mapped IPv6
// addresses, and its error texts.
#include "policy/cel/functions/registry.h"
#include "policy/common/strings.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;


// Kubernetes' parseIPAddr.
StatusOr<IpAddress> ParseIp(std::string_view text) {
  StatusOr<IpAddress> ip = IpAddress::Parse(text);
  if (!ip.ok()) {
    return InvalidArgumentError("IP Address " + Quote(text) +
                                " parse error during conversion from string: " +
                                std::string(ip.status().message()));
  }
  if (!ip->zone.empty()) {
    return InvalidArgumentError("IP address " + Quote(text) + " with zone value is not allowed");
  }
  if (ip->Is4In6()) {
    return InvalidArgumentError("IPv4-mapped IPv6 address " + Quote(text) + " is not allowed");
  }
  return ip;
}

// Kubernetes' parseCIDR.
StatusOr<IpPrefix> ParseCidr(std::string_view text) {
  StatusOr<IpPrefix> cidr = IpPrefix::Parse(text);
  if (!cidr.ok()) {
    return InvalidArgumentError("network address parse error during conversion from string: " +
                                std::string(cidr.status().message()));
  }
  if (cidr->addr.Is4In6()) {
    return InvalidArgumentError("IPv4-mapped IPv6 address " + Quote(text) + " is not allowed");
  }
  return cidr;
}

// ip(string) and, as a member of a CIDR, cidr.ip() (the prefix's address as written).
Value ToIp(Args a, EvalState&) {
  if (a[0].kind() == Kind::kCidr) return Value::OfIp(a[0].cidr().addr);
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<IpAddress> ip = ParseIp(a[0].text());
  if (!ip.ok()) return Value::Error(ip.status().message());
  return Value::OfIp(*std::move(ip));
}

Value IsIp(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  return Value::Bool(ParseIp(a[0].text()).ok());
}

Value IsCanonical(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<IpAddress> ip = ParseIp(a[0].text());
  if (!ip.ok()) return Value::Error(ip.status().message());
  return Value::Bool(ip->String() == a[0].text());
}

template <bool (IpAddress::*kTest)() const>
Value IpTest(Args a, EvalState&) {
  if (a[0].kind() != Kind::kIp) return NoSuchOverload();
  return Value::Bool((a[0].ip().*kTest)());
}

Value Family(Args a, EvalState&) {
  if (a[0].kind() != Kind::kIp) return NoSuchOverload();
  return Value::Int(a[0].ip().is4 ? 4 : 6);
}

Value ToCidr(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<IpPrefix> cidr = ParseCidr(a[0].text());
  if (!cidr.ok()) return Value::Error(cidr.status().message());
  return Value::OfCidr(*std::move(cidr));
}

Value IsCidr(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  return Value::Bool(ParseCidr(a[0].text()).ok());
}

Value ContainsIp(Args a, EvalState&) {
  if (a[0].kind() != Kind::kCidr) return NoSuchOverload();
  if (a[1].kind() == Kind::kIp) return Value::Bool(a[0].cidr().Contains(a[1].ip()));
  if (a[1].kind() != Kind::kString) return NoSuchOverload();
  StatusOr<IpAddress> ip = ParseIp(a[1].text());
  if (!ip.ok()) return Value::Error(ip.status().message());
  return Value::Bool(a[0].cidr().Contains(*ip));
}

// Kubernetes: the other prefix's address masked to this prefix's length equals this
// prefix masked, and this prefix is no longer than the other.
Value ContainsCidr(Args a, EvalState&) {
  if (a[0].kind() != Kind::kCidr) return NoSuchOverload();
  IpPrefix other;
  if (a[1].kind() == Kind::kCidr) {
    other = a[1].cidr();
  } else if (a[1].kind() == Kind::kString) {
    StatusOr<IpPrefix> parsed = ParseCidr(a[1].text());
    if (!parsed.ok()) return Value::Error(parsed.status().message());
    other = *std::move(parsed);
  } else {
    return NoSuchOverload();
  }
  const IpPrefix& self = a[0].cidr();
  return Value::Bool(self.Contains(other.addr) && self.bits <= other.bits);
}

Value Masked(Args a, EvalState&) {
  if (a[0].kind() != Kind::kCidr) return NoSuchOverload();
  return Value::OfCidr(a[0].cidr().Masked());
}

Value PrefixLength(Args a, EvalState&) {
  if (a[0].kind() != Kind::kCidr) return NoSuchOverload();
  return Value::Int(a[0].cidr().bits);
}

}  // namespace

Value NetworkToString(const Value& v) {
  if (v.kind() == Kind::kIp) return Value::String(v.ip().String());
  if (v.kind() == Kind::kCidr) return Value::String(v.cidr().String());
  return NoSuchOverload();
}

void RegisterNetworkFunctions(Registry& r) {
  r.Add("ip", 1, ToIp);
  r.Add("isIP", 1, IsIp);
  r.Add("ip.isCanonical", 1, IsCanonical);
  r.Add("family", 1, Family);
  r.Add("isUnspecified", 1, IpTest<&IpAddress::IsUnspecified>);
  r.Add("isLoopback", 1, IpTest<&IpAddress::IsLoopback>);
  r.Add("isLinkLocalMulticast", 1, IpTest<&IpAddress::IsLinkLocalMulticast>);
  r.Add("isLinkLocalUnicast", 1, IpTest<&IpAddress::IsLinkLocalUnicast>);
  r.Add("isGlobalUnicast", 1, IpTest<&IpAddress::IsGlobalUnicast>);
  r.Add("cidr", 1, ToCidr);
  r.Add("isCIDR", 1, IsCidr);
  r.Add("containsIP", 2, ContainsIp);
  r.Add("containsCIDR", 2, ContainsCidr);
  r.Add("masked", 1, Masked);
  r.Add("prefixLength", 1, PrefixLength);
}

}  // namespace draguard::cel
