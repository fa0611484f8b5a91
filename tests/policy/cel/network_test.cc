// The Kubernetes IP and CIDR libraries: the rejections and error texts Kubernetes adds to
// netip (the cel-spec network_ext file covers the rest through the conformance runner).
#include <gtest/gtest.h>

#include <string>

#include "tests/policy/cel/eval_testing.h"

namespace draguard::cel {
namespace {

struct NetCase {
  const char* expr;
  const char* want;  // DebugString of the result, or the error text
};

class NetworkTest : public testing::TestWithParam<NetCase> {};

TEST_P(NetworkTest, Evaluates) { ExpectEvaluatesTo(GetParam().expr, GetParam().want); }

INSTANTIATE_TEST_SUITE_P(
    Cases, NetworkTest,
    testing::Values(
        NetCase{"ip('fe80::1%en0')", "IP address \"fe80::1%en0\" with zone value is not allowed"},
        NetCase{"ip('::ffff:1.2.3.4')", "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed"},
        NetCase{"ip('1.2.3')",
                "IP Address \"1.2.3\" parse error during conversion from string: "
                "ParseAddr(\"1.2.3\"): IPv4 address too short"},
        NetCase{"isIP('::ffff:1.2.3.4')", "false"},
        NetCase{"ip.isCanonical('2001:db8::68')", "true"},
        NetCase{"ip.isCanonical('2001:0db8::68')", "false"},
        NetCase{"ip('10.0.0.1') == cidr('10.0.0.0/8')", "no such overload"},
        NetCase{"cidr('10.0.0.0/8').containsIP('10.1')",
                "IP Address \"10.1\" parse error during conversion from string: "
                "ParseAddr(\"10.1\"): IPv4 address too short"},
        NetCase{"cidr('10.0.0.0/8').containsCIDR('10.0.0.0/7')", "false"},
        NetCase{"cidr('10.0.0.0/8').containsCIDR('::/0')", "false"},
        NetCase{"cidr('10.1.2.3/8').ip()", "ip(\"10.1.2.3\")"},
        NetCase{"string(cidr('10.1.2.3/8').masked())", "\"10.0.0.0/8\""},
        NetCase{"cidr('::ffff:1.2.3.4/120')",
                "IPv4-mapped IPv6 address \"::ffff:1.2.3.4/120\" is not allowed"},
        NetCase{"isCIDR('10.0.0.0/33')", "false"},
        NetCase{"type(ip('::1')) == net.IP && type(cidr('::/0')) == net.CIDR", "true"}));

}  // namespace
}  // namespace draguard::cel
