#include "webhook/admission/review_scanner.h"

#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/webhook/testing/fake_checker.h"

namespace draguard::webhook {
namespace {

struct ValidityCase {
  std::string name;
  std::string json;
  bool valid;
};

class ScannerValidityTest : public ::testing::TestWithParam<ValidityCase> {};

// The scanner must accept exactly what RFC 8259 accepts; nlohmann's strict parser is the
// reference for every case.
TEST_P(ScannerValidityTest, AgreesWithRfc8259) {
  const ValidityCase& c = GetParam();
  EXPECT_EQ(ScanAdmissionReview(c.json).ok(), c.valid);
  EXPECT_EQ(nlohmann::json::accept(c.json), c.valid);
}

INSTANTIATE_TEST_SUITE_P(
    Scanner, ScannerValidityTest,
    ::testing::Values(
        ValidityCase{"EmptyObject", "{}", true},
        ValidityCase{"Whitespace", " \n{ \"a\" : [ 1 , -2.5e+3 , true , null ] }\r\n", true},
        ValidityCase{"Escapes", R"({"a":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"})", true},
        ValidityCase{"Empty", "", false},
        ValidityCase{"TrailingComma", R"({"a":1,})", false},
        ValidityCase{"ArrayTrailingComma", R"({"a":[1,]})", false},
        ValidityCase{"LeadingZero", R"({"a":01})", false},
        ValidityCase{"BareDot", R"({"a":1.})", false},
        ValidityCase{"BadExponent", R"({"a":1e})", false},
        ValidityCase{"BadEscape", R"({"a":"\x"})", false},
        ValidityCase{"ShortUnicode", R"({"a":"\u12"})", false},
        ValidityCase{"RawNewlineInString", "{\"a\":\"x\ny\"}", false},
        ValidityCase{"Unterminated", R"({"a":"x)", false},
        ValidityCase{"SingleQuotes", "{'a':1}", false},
        ValidityCase{"BadLiteral", R"({"a":tru})", false},
        ValidityCase{"MissingColon", R"({"a" 1})", false},
        ValidityCase{"TwoValues", "{} {}", false},
        ValidityCase{"Utf8", "{\"a\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"}", true},
        ValidityCase{"InvalidUtf8", "{\"a\":\"\xC3\x28\"}", false},
        ValidityCase{"EncodedSurrogate", "{\"a\":\"\xED\xA0\x80\"}", false},
        ValidityCase{"OverlongUtf8", "{\"a\":\"\xC0\xAF\"}", false}),
    [](const auto& p) { return p.param.name; });

TEST(ScannerTest, ExtractsRequestFields) {
  nlohmann::json review = testing::MakeReview("DeviceClass", "v1beta2", "UPDATE", "u-1");
  review["request"]["oldObject"] = {{"kind", "DeviceClass"}, {"spec", {{"a", "\u00e9"}}}};
  review["request"]["dryRun"] = true;
  std::string text = review.dump(2);
  StatusOr<ReviewFields> f = ScanAdmissionReview(text);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->api_version, "admission.k8s.io/v1");
  EXPECT_EQ(f->review_kind, "AdmissionReview");
  EXPECT_TRUE(f->has_request);
  EXPECT_TRUE(f->has_uid);
  EXPECT_EQ(f->uid, "u-1");
  EXPECT_EQ(f->group, "resource.k8s.io");
  EXPECT_EQ(f->version, "v1beta2");
  EXPECT_EQ(f->kind, "DeviceClass");
  EXPECT_EQ(f->operation, "UPDATE");
  EXPECT_EQ(f->name_space, "team-a");
  EXPECT_EQ(f->name, "gpu-claim");
  EXPECT_TRUE(f->dry_run);
  EXPECT_EQ(nlohmann::json::parse(f->object), review["request"]["object"]);
  EXPECT_EQ(nlohmann::json::parse(f->old_object), review["request"]["oldObject"]);
}

TEST(ScannerTest, NestedKeysWithTheSameNamesAreIgnored) {
  std::string text = R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
    "request":{"uid":"u","object":{"kind":"X","uid":"inner","request":{"uid":"deep"}},
    "userInfo":{"kind":{"kind":"Y"}}}})";
  StatusOr<ReviewFields> f = ScanAdmissionReview(text);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->uid, "u");
  EXPECT_EQ(f->kind, "");
}

TEST(ScannerTest, NullObjectIsEmptyAndNullUidIsAbsent) {
  StatusOr<ReviewFields> f =
      ScanAdmissionReview(R"({"request":{"uid":null,"object":null,"dryRun":null}})");
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->has_uid);
  EXPECT_TRUE(f->object.empty());
  EXPECT_FALSE(f->dry_run);
}

TEST(ScannerTest, DecodesSurrogatePairsAndLoneSurrogates) {
  StatusOr<ReviewFields> f =
      ScanAdmissionReview(R"({"request":{"uid":"\ud83d\ude00-\ud800x"}})");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->uid, "\xF0\x9F\x98\x80-\xEF\xBF\xBDx");
}

TEST(ScannerTest, RejectsWrongTypes) {
  EXPECT_FALSE(ScanAdmissionReview(R"({"request":{"dryRun":"yes"}})").ok());
  EXPECT_FALSE(ScanAdmissionReview(R"({"request":{"kind":"ResourceClaim"}})").ok());
  EXPECT_FALSE(ScanAdmissionReview(R"({"request":[]})").ok());
  EXPECT_FALSE(ScanAdmissionReview(R"({"apiVersion":1})").ok());
}

TEST(ScannerTest, DepthLimit) {
  ScanOptions options;
  options.max_depth = 4;
  EXPECT_TRUE(ScanAdmissionReview(R"({"a":[[{"b":1}]]})", options).ok());
  EXPECT_FALSE(ScanAdmissionReview(R"({"a":[[{"b":[]}]]})", options).ok());
}

}  // namespace
}  // namespace draguard::webhook
