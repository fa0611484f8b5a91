// The Kubernetes format library: format.<name>().validate(s) returns none for a valid value
// and apimachinery's / Go's messages otherwise. Cases follow apiserver's
// pkg/cel/library/format_test.go, plus the edges of each format.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "policy/cel/internal/go_text.h"
#include "tests/policy/cel/eval_testing.h"

namespace draguard::cel {
namespace {

// The result as text: the messages of an optional list joined by '|', else DebugString.
std::string EvaluateExpr(const std::string& expr) {
  std::string out;
  EvaluateThen(expr, [&](const Value& v) {
    if (v.kind() != Kind::kOptional || v.optional_value() == nullptr ||
        v.optional_value()->kind() != Kind::kList) {
      out = v.is_error() ? std::string(v.text()) : v.DebugString();
      return;
    }
    for (const Value& m : v.optional_value()->list().elements) {
      if (!out.empty()) out += '|';
      out += m.text();
    }
  });
  return out;
}

struct ValidateCase {
  const char* format;  // the format.<name>() function
  std::string value;
  std::vector<std::string> messages;  // empty: valid
};

void PrintTo(const ValidateCase& c, std::ostream* os) { *os << c.format << ": " << c.value; }

class NamedFormatsTest : public testing::TestWithParam<ValidateCase> {};

TEST_P(NamedFormatsTest, Validate) {
  const ValidateCase& c = GetParam();
  std::string want;
  for (const std::string& m : c.messages) want += (want.empty() ? "" : "|") + m;
  if (want.empty()) want = "optional.none()";
  // Go's quoting of the value is a valid CEL string literal for these values.
  EXPECT_EQ(EvaluateExpr(std::string("format.") + c.format + "().validate(" +
                         internal::GoQuote(c.value) + ")"),
            want);
}

constexpr char kLabelMessage[] =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr char kSubdomainMessage[] =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr char kDns1035Message[] =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

INSTANTIATE_TEST_SUITE_P(
    Names, NamedFormatsTest,
    testing::Values(
        ValidateCase{"dns1123Label", "my-label-name", {}},
        ValidateCase{"dns1123Label", "contains a space", {kLabelMessage}},
        ValidateCase{"dns1123Label", "a.b", {"must not contain dots"}},
        ValidateCase{"dns1123Label", std::string(64, 'a'), {"must be no more than 63 characters"}},
        ValidateCase{"dns1123Subdomain", "apiextensions.k8s.io", {}},
        ValidateCase{"dns1123Subdomain", "contains a space", {kSubdomainMessage}},
        ValidateCase{"dns1035Label", "my-label-name", {}},
        ValidateCase{"dns1035Label", "1abc", {kDns1035Message}},
        ValidateCase{"dns1035Label", "contains a space", {kDns1035Message}},
        ValidateCase{"qualifiedName", "apiextensions.k8s.io/v1beta1", {}},
        ValidateCase{"qualifiedName", "my.name", {}},
        ValidateCase{"qualifiedName",
                     "contains a space",
                     {"name part must consist of alphanumeric characters, '-', '_' or '.', and "
                      "must start and end with an alphanumeric character (e.g. 'MyName',  or "
                      "'my.name',  or '123-abc', regex used for validation is "
                      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
        ValidateCase{"qualifiedName", "/x", {"prefix part must be non-empty"}},
        // *Prefix formats mask a trailing '-' by replacing the last two bytes with "a".
        ValidateCase{"dns1123LabelPrefix", "my-label-prefix-", {}},
        ValidateCase{"dns1123LabelPrefix", "contains a space-", {kLabelMessage}},
        ValidateCase{"dns1123LabelPrefix", "a.-", {}},
        ValidateCase{"dns1123SubdomainPrefix", "mysubdomain.prefix.-", {}},
        ValidateCase{"dns1123SubdomainPrefix", "contains a space-", {kSubdomainMessage}},
        ValidateCase{"dns1035LabelPrefix", "my-label-prefix-", {}},
        ValidateCase{"dns1035LabelPrefix", "contains a space-", {kDns1035Message}},
        ValidateCase{"labelValue", "my-cool-label-Value", {}},
        ValidateCase{"labelValue", "", {}},
        ValidateCase{"labelValue",
                     "my-cool-label-Value!!\n\n!!!",
                     {"a valid label must be an empty string or consist of alphanumeric "
                      "characters, '-', '_' or '.', and must start and end with an alphanumeric "
                      "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                      "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}}));

INSTANTIATE_TEST_SUITE_P(
    Uri, NamedFormatsTest,
    testing::Values(
        ValidateCase{"uri", "http://example.com", {}},
        ValidateCase{"uri", "/just/a/path", {}},
        ValidateCase{"uri", "mailto:someone@example.com", {}},
        ValidateCase{"uri", "*", {}},
        ValidateCase{"uri", "http://user:p@ss@host/", {}},
        ValidateCase{"uri", "http://[fe80::1%25en0]:8080/", {}},
        ValidateCase{"uri", "", {"parse \"\": empty url"}},
        ValidateCase{"uri", "foo", {"parse \"foo\": invalid URI for request"}},
        ValidateCase{"uri", ":foo", {"parse \":foo\": missing protocol scheme"}},
        ValidateCase{"uri", "http://[::1", {"parse \"http://[::1\": missing ']' in host"}},
        ValidateCase{"uri",
                     "http://host:port/",
                     {"parse \"http://host:port/\": invalid port \":port\" after host"}},
        ValidateCase{"uri",
                     "http://a b.com/",
                     {"parse \"http://a b.com/\": invalid character \" \" in host name"}},
        ValidateCase{"uri", "http://x/%zz", {"parse \"http://x/%zz\": invalid URL escape \"%zz\""}},
        ValidateCase{"uri", "http://x/%4", {"parse \"http://x/%4\": invalid URL escape \"%4\""}},
        ValidateCase{"uri", "http://%41.com/", {"parse \"http://%41.com/\": invalid URL escape \"%41\""}},
        ValidateCase{"uri",
                     "http://[fe80::1%en0]/",
                     {"parse \"http://[fe80::1%en0]/\": invalid URL escape \"%en\""}},
        ValidateCase{"uri",
                     "http://us er@host/",
                     {"parse \"http://us er@host/\": net/url: invalid userinfo"}},
        ValidateCase{"uri",
                     "http://x/\x7f",
                     {"parse \"http://x/\\x7f\": net/url: invalid control character in URL"}}));

INSTANTIATE_TEST_SUITE_P(
    CrdFormats, NamedFormatsTest,
    testing::Values(
        ValidateCase{"uuid", "123e4567-e89b-12d3-a456-426614174000", {}},
        ValidateCase{"uuid", "123E4567E89B12D3A456426614174000", {}},
        ValidateCase{"uuid", "123e4567-e89b-12d3-a456-42661417400", {"does not match the UUID format"}},
        ValidateCase{"uuid", "123e4567--e89b-12d3-a456-426614174000", {"does not match the UUID format"}},
        ValidateCase{"byte", "aGVsbG8=", {}},
        ValidateCase{"byte", "aGVsbA==", {}},
        ValidateCase{"byte", "aGVsbG8", {"invalid base64"}},
        ValidateCase{"byte", "", {"invalid base64"}},
        ValidateCase{"byte", "aG=sbG8=", {"invalid base64"}},
        ValidateCase{"date", "2020-01-01", {}},
        ValidateCase{"date", "2024-02-29", {}},
        ValidateCase{"date", "0000-02-29", {}},
        ValidateCase{"date", "2023-02-29", {"invalid date"}},
        ValidateCase{"date", "2020-01-32", {"invalid date"}},
        ValidateCase{"date", "2020-1-01", {"invalid date"}},
        ValidateCase{"datetime", "2020-01-01T00:00:00Z", {}},
        ValidateCase{"datetime", "2020-01-01t23:59:59.123+05:30", {}},
        ValidateCase{"datetime", "2020-01-01T12:00:00,5z", {}},
        ValidateCase{"datetime", "2020-01-01T00:00:00Zt anything", {}},
        ValidateCase{"datetime", "2020-01-32T00:00:00Z", {"invalid datetime"}},
        ValidateCase{"datetime", "2020-01-01T24:00:00Z", {"invalid datetime"}},
        ValidateCase{"datetime", "2020-01-01T00:00:00", {"invalid datetime"}},
        ValidateCase{"datetime", "2020-01-01 00:00:00Z", {"invalid datetime"}}));

TEST(NamedFormatsTest, NamedLooksUpEveryFormat) {
  for (const char* name : {"dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName",
                           "dns1123LabelPrefix", "dns1123SubdomainPrefix", "dns1035LabelPrefix",
                           "labelValue", "uri", "uuid", "byte", "date", "datetime"}) {
    const std::string n(name);
    EXPECT_EQ(EvaluateExpr("format.named('" + n + "').value() == format." + n + "()"), "true");
    EXPECT_EQ(EvaluateExpr("format." + n + "() == format.uuid()"), n == "uuid" ? "true" : "false");
  }
  EXPECT_EQ(EvaluateExpr("format.named('unknown').hasValue()"), "false");
  EXPECT_EQ(EvaluateExpr("type(format.uuid())"), "kubernetes.NamedFormat");
  EXPECT_EQ(EvaluateExpr("format.uuid() == dyn('uuid')"), "no such overload");
}

}  // namespace
}  // namespace draguard::cel
