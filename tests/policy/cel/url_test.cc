// The Kubernetes URL library, with the examples of Kubernetes' own documentation of it
// (apiserver/pkg/cel/library/urls.go) and the Go net/url corners it inherits.
#include <gtest/gtest.h>

#include <string>

#include "tests/policy/cel/eval_testing.h"

namespace draguard::cel {
namespace {

struct UrlCase {
  const char* expr;
  const char* want;  // DebugString of the result, or the error text
};

class UrlTest : public testing::TestWithParam<UrlCase> {};

TEST_P(UrlTest, Evaluates) { ExpectEvaluatesTo(GetParam().expr, GetParam().want); }

INSTANTIATE_TEST_SUITE_P(
    Cases, UrlTest,
    testing::Values(
        UrlCase{"url('https://example.com:80/').getHost()", "\"example.com:80\""},
        UrlCase{"url('https://[::1]:80/').getHost()", "\"[::1]:80\""},
        UrlCase{"url('https://user:pw@example.com/').getHost()", "\"example.com\""},
        UrlCase{"url('https://example.com/').getHostname()", "\"example.com\""},
        UrlCase{"url('https://[::1]:80/').getHostname()", "\"::1\""},
        UrlCase{"url('https://example.com:80/').getPort()", "\"80\""},
        UrlCase{"url('https://example.com/').getPort()", "\"\""},
        UrlCase{"url('HTTPS://example.com/').getScheme()", "\"https\""},
        UrlCase{"url('/absolute-path').getScheme()", "\"\""},
        UrlCase{"url('https://example.com/path').getEscapedPath()", "\"/path\""},
        UrlCase{"url('https://example.com/path with spaces/').getEscapedPath()",
                "\"/path%20with%20spaces/\""},
        UrlCase{"url('https://example.com/a%2Fb').getEscapedPath()", "\"/a%2Fb\""},
        UrlCase{"url('https://example.com').getEscapedPath()", "\"\""},
        UrlCase{"url('https://example.com/path#frag').getEscapedPath()", "\"/path\""},
        UrlCase{"url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()",
                "{\"k1\": [\"a\"], \"k2\": [\"b\", \"c\"]}"},
        UrlCase{"url('https://example.com/path?key with spaces=value+with%20spaces').getQuery()",
                "{\"key with spaces\": [\"value with spaces\"]}"},
        UrlCase{"url('https://example.com/path?a=1;b=2&c=%zz&d=4').getQuery()",
                "{\"d\": [\"4\"]}"},
        UrlCase{"url('https://example.com/path?').getQuery()", "{}"},
        UrlCase{"url('https://example.com/path?q=1#frag').getQuery()", "{\"q\": [\"1\"]}"},
        UrlCase{"isURL('https://example.com/')", "true"},
        UrlCase{"isURL('/absolute-path')", "true"},
        UrlCase{"isURL('example.com')", "false"},
        UrlCase{"isURL('')", "false"},
        UrlCase{"url('../relative')",
                "URL parse error during conversion from string: parse \"../relative\": invalid URI "
                "for request"},
        UrlCase{"url('https://example.com/') == url('https://example.com/')", "true"},
        UrlCase{"url('https://example.com/') == 'https://example.com/'", "no such overload"},
        UrlCase{"type(url('https://example.com/'))", "kubernetes.URL"}));

}  // namespace
}  // namespace draguard::cel
