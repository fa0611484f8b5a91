// IP addresses and prefixes with the semantics of Go's net/netip, which Kubernetes' CEL IP
// and CIDR libraries are built on: strict parsing (IPv4 octets without leading zeros,
// IPv6 with at most one "::", an optional trailing dotted IPv4, an optional %zone), the
// canonical text form (RFC 5952 for IPv6) and the address classes.
//
// The parsers are total: any input gives a value or an InvalidArgument status whose
// message is Go's ("ParseAddr(\"x\"): unable to parse IP").
#ifndef DRAGUARD_POLICY_COMMON_IP_ADDRESS_H_
#define DRAGUARD_POLICY_COMMON_IP_ADDRESS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "policy/common/status_or.h"

namespace draguard {

struct IpAddress {
  std::array<uint8_t, 16> bytes{};  // IPv4 in bytes[0..3]
  bool is4 = false;
  std::string zone;  // IPv6 only; Kubernetes rejects addresses with one

  static StatusOr<IpAddress> Parse(std::string_view text);

  int BitLength() const { return is4 ? 32 : 128; }
  // An IPv6 address of the form ::ffff:a.b.c.d.
  bool Is4In6() const;
  bool IsUnspecified() const;
  bool IsLoopback() const;
  bool IsMulticast() const;
  bool IsLinkLocalMulticast() const;
  bool IsLinkLocalUnicast() const;
  bool IsGlobalUnicast() const;
  // Go's Addr.String(): dotted IPv4; IPv6 lower-case with the longest run of two or more
  // zero groups as "::", an IPv4-mapped tail in dotted form, then "%zone".
  std::string String() const;
  // The address with all bits past `bits` cleared.
  IpAddress Masked(int bits) const;

  friend bool operator==(const IpAddress&, const IpAddress&) = default;
};

struct IpPrefix {
  IpAddress addr;  // as written, not masked
  int bits = 0;

  // Go's netip.ParsePrefix: "addr/bits", no zone, bits in decimal without leading zeros.
  static StatusOr<IpPrefix> Parse(std::string_view text);

  bool Contains(const IpAddress& ip) const;
  IpPrefix Masked() const { return {addr.Masked(bits), bits}; }
  std::string String() const { return addr.String() + "/" + std::to_string(bits); }

  friend bool operator==(const IpPrefix&, const IpPrefix&) = default;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_IP_ADDRESS_H_
