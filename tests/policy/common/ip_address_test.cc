// IP addresses and prefixes against Go's net/netip behaviour.
#include "policy/common/ip_address.h"

#include <gtest/gtest.h>

#include <string>

namespace draguard {
namespace {

struct AddrCase {
  const char* text;
  const char* canonical;  // nullptr: parse error
  const char* error = "";  // substring of the error
};

class IpAddressParseTest : public testing::TestWithParam<AddrCase> {};

TEST_P(IpAddressParseTest, ParsesLikeNetip) {
  const AddrCase& c = GetParam();
  StatusOr<IpAddress> ip = IpAddress::Parse(c.text);
  if (c.canonical == nullptr) {
    ASSERT_FALSE(ip.ok()) << c.text << " -> " << ip->String();
    EXPECT_NE(std::string(ip.status().message()).find(c.error), std::string::npos)
        << ip.status().message();
    return;
  }
  ASSERT_TRUE(ip.ok()) << c.text << ": " << ip.status().message();
  EXPECT_EQ(ip->String(), c.canonical);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, IpAddressParseTest,
    testing::Values(AddrCase{"192.168.0.1", "192.168.0.1"}, AddrCase{"0.0.0.0", "0.0.0.0"},
                    AddrCase{"255.255.255.255", "255.255.255.255"},
                    AddrCase{"2001:DB8::68", "2001:db8::68"}, AddrCase{"::", "::"},
                    AddrCase{"::1", "::1"}, AddrCase{"1::", "1::"},
                    AddrCase{"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},
                    AddrCase{"2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"},
                    AddrCase{"0:0:0:0:0:0:0:0", "::"}, AddrCase{"1:0:1:0:1:0:1:0", "1:0:1:0:1:0:1:0"},
                    AddrCase{"::ffff:192.168.0.1", "::ffff:192.168.0.1"},
                    AddrCase{"64:ff9b::1.2.3.4", "64:ff9b::102:304"},
                    AddrCase{"fe80::1%en0", "fe80::1%en0"},
                    AddrCase{"", nullptr, "unable to parse IP"},
                    AddrCase{"abc", nullptr, "unable to parse IP"},
                    AddrCase{"192.168.0.1.0", nullptr, "IPv4 address too long"},
                    AddrCase{"192.168.0", nullptr, "IPv4 address too short"},
                    AddrCase{"192.168.00.1", nullptr, "leading zero"},
                    AddrCase{"256.0.0.1", nullptr, "value >255"},
                    AddrCase{"1..2.3", nullptr, "at least one digit"},
                    AddrCase{"2001:db8:::68", nullptr, "at least one digit"},
                    AddrCase{"1::2::3", nullptr, "multiple ::"},
                    AddrCase{"1:2:3:4:5:6:7", nullptr, "too short"},
                    AddrCase{"1:2:3:4:5:6:7:8:9", nullptr, "trailing garbage"},
                    AddrCase{"12345::", nullptr, ">=2^16"},
                    AddrCase{"1:2:3:4:5:6:7:8::", nullptr, ""},
                    AddrCase{"fe80::1%", nullptr, "zone must be a non-empty string"},
                    AddrCase{"%en0", nullptr, "missing IPv6 address"},
                    AddrCase{"1:2:3:4:1.2.3.4", nullptr, "embedded IPv4"}));

TEST(IpAddressTest, Classes) {
  auto ip = [](const char* s) { return *IpAddress::Parse(s); };
  EXPECT_TRUE(ip("0.0.0.0").IsUnspecified());
  EXPECT_TRUE(ip("::").IsUnspecified());
  EXPECT_TRUE(ip("127.1.2.3").IsLoopback());
  EXPECT_TRUE(ip("::1").IsLoopback());
  EXPECT_TRUE(ip("224.0.0.251").IsLinkLocalMulticast());
  EXPECT_FALSE(ip("224.0.1.1").IsLinkLocalMulticast());
  EXPECT_TRUE(ip("ff02::fb").IsLinkLocalMulticast());
  EXPECT_TRUE(ip("169.254.1.1").IsLinkLocalUnicast());
  EXPECT_TRUE(ip("febf::1").IsLinkLocalUnicast());
  EXPECT_FALSE(ip("fec0::1").IsLinkLocalUnicast());
  EXPECT_TRUE(ip("10.0.0.1").IsGlobalUnicast());  // private counts, as in Go
  EXPECT_TRUE(ip("fd00::1").IsGlobalUnicast());
  EXPECT_FALSE(ip("255.255.255.255").IsGlobalUnicast());
  EXPECT_FALSE(ip("239.1.1.1").IsGlobalUnicast());
  EXPECT_TRUE(ip("::ffff:1.2.3.4").Is4In6());
  EXPECT_FALSE(ip("1.2.3.4").Is4In6());
}

TEST(IpPrefixTest, ParseContainsMask) {
  StatusOr<IpPrefix> p = IpPrefix::Parse("192.168.0.1/24");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->String(), "192.168.0.1/24");
  EXPECT_EQ(p->Masked().String(), "192.168.0.0/24");
  EXPECT_TRUE(p->Contains(*IpAddress::Parse("192.168.0.200")));
  EXPECT_FALSE(p->Contains(*IpAddress::Parse("192.168.1.1")));
  EXPECT_FALSE(p->Contains(*IpAddress::Parse("::1")));
  StatusOr<IpPrefix> v6 = IpPrefix::Parse("2001:db8::/33");
  ASSERT_TRUE(v6.ok());
  EXPECT_TRUE(v6->Contains(*IpAddress::Parse("2001:db8:7fff::1")));
  EXPECT_FALSE(v6->Contains(*IpAddress::Parse("2001:db8:8000::1")));
  for (const char* bad : {"192.168.0.0/", "192.168.0.0/33", "192.168.0.0/024", "10.0.0.0",
                          "fe80::1%en0/64", "::/129", "x/8", "1.2.3.4/-1"}) {
    EXPECT_FALSE(IpPrefix::Parse(bad).ok()) << bad;
  }
  EXPECT_TRUE(IpPrefix::Parse("0.0.0.0/0").ok());
  EXPECT_TRUE(IpPrefix::Parse("::/128").ok());
}

}  // namespace
}  // namespace draguard
