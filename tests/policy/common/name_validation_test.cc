// apimachinery's name formats (policy/common/name_validation.h); the per-format error counts
// of the older formats are in tests/policy/validate/names_test.cc.
#include "policy/common/name_validation.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "policy/common/ascii.h"

namespace draguard {
namespace {

struct MessageCase {
  std::vector<std::string> (*validate)(std::string_view);
  std::string value;
  std::vector<std::string> want;
};

class NameValidationTest : public testing::TestWithParam<MessageCase> {};

TEST_P(NameValidationTest, Messages) {
  EXPECT_EQ(GetParam().validate(GetParam().value), GetParam().want) << GetParam().value;
}

const std::string kDns1035 =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const std::string kDns1123Subdomain =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const std::string kDns1123Label =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

INSTANTIATE_TEST_SUITE_P(
    Apimachinery, NameValidationTest,
    testing::Values(
        MessageCase{IsDNS1123Label, "a.b", {"must not contain dots"}},
        MessageCase{IsDNS1123Label,
                    std::string(62, 'a') + ".b",
                    {"must be no more than 63 characters", "must not contain dots"}},
        // Subdomains are matched label by label, in place; empty labels are refused.
        MessageCase{IsDNS1123Subdomain, "gpu.example.com", {}},
        MessageCase{IsDNS1123Subdomain, "a", {}},
        MessageCase{IsDNS1123Subdomain, "a..b", {kDns1123Subdomain}},
        MessageCase{IsDNS1123Subdomain, ".a", {kDns1123Subdomain}},
        MessageCase{IsDNS1123Subdomain, "a.", {kDns1123Subdomain}},
        MessageCase{IsDNS1123Subdomain, "", {kDns1123Subdomain}},
        MessageCase{IsDNS1123Subdomain, "a.B", {kDns1123Subdomain}},
        MessageCase{IsDNS1123Label, "a..b", {kDns1123Label}},
        MessageCase{IsDNS1035Label, "abc-123", {}},
        MessageCase{IsDNS1035Label, "123-abc", {kDns1035}},
        MessageCase{IsDNS1035Label, "abc-", {kDns1035}},
        MessageCase{IsDNS1035Label, std::string(64, 'a'), {"must be no more than 63 characters"}}));

TEST(NameValidationTest, MaskTrailingDashReplacesTwoBytes) {
  EXPECT_EQ(MaskTrailingDash("abc-"), "aba");
  EXPECT_EQ(MaskTrailingDash("-"), "-");
  EXPECT_EQ(MaskTrailingDash("ab"), "ab");
}

TEST(NameValidationTest, SplitStringKeepsEmptyParts) {
  EXPECT_EQ(SplitString("/a//", '/'), (std::vector<std::string_view>{"", "a", "", ""}));
  EXPECT_EQ(SplitString("", '/'), (std::vector<std::string_view>{""}));
  EXPECT_EQ(SplitString("a/b", '/'), (std::vector<std::string_view>{"a", "b"}));
}

// ForEachSplitPart against SplitString, the parts it must give without the vector.
TEST(NameValidationTest, ForEachSplitPartGivesSplitStringsParts) {
  for (std::string_view s : {"", "/", "a", "a/b", "/a//", "a/b/c", "ab//cd/", "//"}) {
    std::vector<std::string_view> parts;
    ForEachSplitPart(s, '/', [&](std::string_view part) { parts.push_back(part); });
    EXPECT_EQ(parts, SplitString(s, '/')) << s;
  }
}

// The hand-written matchers against apimachinery's regular expressions, over every string of
// up to four characters from an alphabet of each class (lower, upper, digit, '-', '.', '_',
// '/', a non-ASCII byte): the lengths stay far below the limits, so a value is valid exactly
// when the expression matches it.
std::vector<std::string> ShortStrings() {
  const std::string alphabet = "aZ0-._/\xc3";
  std::vector<std::string> out = {""};
  for (size_t begin = 0, length = 0; length < 4; ++length) {
    const size_t end = out.size();
    for (size_t i = begin; i < end; ++i) {
      for (char c : alphabet) out.push_back(out[i] + c);
    }
    begin = end;
  }
  return out;
}

TEST(NameValidationTest, FormatsAgreeWithApimachineryExpressions) {
  const std::string label = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  const std::string subdomain = label + "(\\." + label + ")*";
  const std::string name_part = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  const struct {
    std::vector<std::string> (*validate)(std::string_view);
    std::regex format;
  } formats[] = {
      {IsDNS1123Label, std::regex(label)},
      {IsDNS1123Subdomain, std::regex(subdomain)},
      {IsQualifiedName, std::regex("(" + subdomain + "/)?" + name_part)},
      {IsValidLabelValue, std::regex("(" + name_part + ")?")},
  };
  size_t checked = 0;
  for (const std::string& value : ShortStrings()) {
    for (const auto& f : formats) {
      EXPECT_EQ(f.validate(value).empty(), std::regex_match(value, f.format)) << value;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4u * (1 + 8 + 64 + 512 + 4096));  // 4 formats, 8 characters
}

// The predicates the validators ask first must agree with the message-building functions on
// every input: over every short string of the formats' bytes, and over lengths around each
// limit (the short strings reach no limit).
TEST(NameValidationTest, PredicatesAgreeWithMessages) {
  std::vector<std::string> values = ShortStrings();
  for (const std::string& value : ShortStrings()) {
    values.push_back("A" + value);
    values.push_back(value + "/" + value);
    values.push_back("Ab.c/" + value);
    values.push_back(value + "-");
    values.push_back(value + "a-");
  }
  for (size_t n : {62u, 63u, 64u, 252u, 253u, 254u, 255u}) {
    values.push_back(std::string(n, 'a'));
    values.push_back(std::string(n, 'a') + "-");
    values.push_back(std::string(n, 'a') + "/x");
    values.push_back("x/" + std::string(n, 'a'));
    values.push_back(std::string(n / 2, 'a') + "." + std::string(n - n / 2, 'b'));
  }
  for (const std::string& value : values) {
    EXPECT_EQ(IsDNS1123LabelValid(value), IsDNS1123Label(value).empty()) << value;
    EXPECT_EQ(IsDNS1123SubdomainValid(value), IsDNS1123Subdomain(value).empty()) << value;
    EXPECT_EQ(IsDNS1123SubdomainValid(value, /*fold_case=*/true),
              IsDNS1123Subdomain(AsciiLower(value)).empty())
        << value;
    EXPECT_EQ(IsMaskedDNS1123SubdomainValid(value),
              IsDNS1123Subdomain(MaskTrailingDash(value)).empty())
        << value;
    EXPECT_EQ(IsQualifiedNameValid(value), IsQualifiedName(value).empty()) << value;
    EXPECT_EQ(IsQualifiedNameValid(value, /*fold_case=*/true),
              IsQualifiedName(AsciiLower(value)).empty())
        << value;
    EXPECT_EQ(IsLabelValueValid(value), IsValidLabelValue(value).empty()) << value;
  }
}

}  // namespace
}  // namespace draguard
