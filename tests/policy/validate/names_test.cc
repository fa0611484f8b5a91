// Name formats (the name validators of validation.go), checked against apimachinery's texts.
#include "policy/validate/names.h"

#include <gtest/gtest.h>

#include <ostream>

namespace draguard::validate {
namespace {

struct NameCase {
  std::string value;
  size_t label_errors;
  size_t subdomain_errors;
  size_t qualified_errors;
  size_t label_value_errors;
  size_t c_identifier_errors;
};

void PrintTo(const NameCase& c, std::ostream* os) { *os << c.value; }

class NamesTest : public ::testing::TestWithParam<NameCase> {};

TEST_P(NamesTest, ErrorCounts) {
  const NameCase& c = GetParam();
  EXPECT_EQ(IsDNS1123Label(c.value).size(), c.label_errors);
  EXPECT_EQ(IsDNS1123Subdomain(c.value).size(), c.subdomain_errors);
  EXPECT_EQ(IsQualifiedName(c.value).size(), c.qualified_errors);
  EXPECT_EQ(IsValidLabelValue(c.value).size(), c.label_value_errors);
  EXPECT_EQ(IsCIdentifier(c.value).size(), c.c_identifier_errors);
}

INSTANTIATE_TEST_SUITE_P(Formats, NamesTest,
                         ::testing::Values(NameCase{.value = "gpu",
                                                    .label_errors = 0,
                                                    .subdomain_errors = 0,
                                                    .qualified_errors = 0,
                                                    .label_value_errors = 0,
                                                    .c_identifier_errors = 0},
                                           NameCase{.value = "",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 2,
                                                    .label_value_errors = 0,
                                                    .c_identifier_errors = 1},
                                           NameCase{.value = "a.b",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 0,
                                                    .qualified_errors = 0,
                                                    .label_value_errors = 0,
                                                    .c_identifier_errors = 1},
                                           NameCase{.value = "-a",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 1,
                                                    .label_value_errors = 1,
                                                    .c_identifier_errors = 1},
                                           NameCase{.value = "My_Name",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 0,
                                                    .label_value_errors = 0,
                                                    .c_identifier_errors = 0},
                                           NameCase{.value = "example.com/Key",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 0,
                                                    .label_value_errors = 1,
                                                    .c_identifier_errors = 1},
                                           NameCase{.value = "/k",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 1,
                                                    .label_value_errors = 1,
                                                    .c_identifier_errors = 1},
                                           NameCase{.value = "a/b/c",
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 1,
                                                    .label_value_errors = 1,
                                                    .c_identifier_errors = 1},
                                           NameCase{.value = std::string(63, 'a'),
                                                    .label_errors = 0,
                                                    .subdomain_errors = 0,
                                                    .qualified_errors = 0,
                                                    .label_value_errors = 0,
                                                    .c_identifier_errors = 0},
                                           NameCase{.value = std::string(64, 'a'),
                                                    .label_errors = 1,
                                                    .subdomain_errors = 0,
                                                    .qualified_errors = 1,
                                                    .label_value_errors = 1,
                                                    .c_identifier_errors = 0},
                                           NameCase{.value = std::string(254, 'a'),
                                                    .label_errors = 1,
                                                    .subdomain_errors = 1,
                                                    .qualified_errors = 1,
                                                    .label_value_errors = 1,
                                                    .c_identifier_errors = 0}));

TEST(NamesTest, ApimachineryTexts) {
  EXPECT_EQ(IsDNS1123Label("GPU")[0],
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
            "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  EXPECT_EQ(IsDNS1123Label(std::string(64, 'a'))[0], "must be no more than 63 characters");
  EXPECT_EQ(IsQualifiedName("/k")[0], "prefix part must be non-empty");
}

TEST(NamesTest, ExtendedResourceNames) {
  EXPECT_TRUE(IsExtendedResourceName("example.com/gpu"));
  EXPECT_FALSE(IsExtendedResourceName("gpu"));
  EXPECT_FALSE(IsExtendedResourceName("kubernetes.io/gpu"));
  EXPECT_FALSE(IsExtendedResourceName("requests.example.com/gpu"));
  EXPECT_FALSE(IsExtendedResourceName("example.com/" + std::string(64, 'a')));
}

}  // namespace
}  // namespace draguard::validate
