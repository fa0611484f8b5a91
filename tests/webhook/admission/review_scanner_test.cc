#include "webhook/admission/review_scanner.h"

#include <string>
#include <vector>

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

// Every field of a node, children included, so that a value left over from an earlier scan
// cannot hide: "string/2/flow0:\"x\"/b0/i0/f0{key=value,...}[item,...]".
std::string Describe(const k8s::DocNode& n) {
  std::string out = std::string(k8s::NodeKindName(n.kind)) + "/" +
                    std::to_string(static_cast<int>(n.style)) + "/flow" +
                    std::to_string(n.flow) + std::to_string(n.from_alias) + ":\"" + n.text +
                    "\"/b" + std::to_string(n.bool_value) + "/i" +
                    std::to_string(n.int_value) + "/f" + std::to_string(n.float_value) + "@" +
                    std::to_string(n.offset) + ":" + std::to_string(n.position.line) + "." +
                    std::to_string(n.position.column);
  out += "{";
  for (const k8s::MapEntry& e : n.entries) out += Describe(e.key) + "=" + Describe(e.value) + ",";
  out += "}[";
  for (const k8s::DocNode& item : n.items) out += Describe(item) + ",";
  return out + "]";
}

std::string Describe(const ReviewFields& f) {
  std::string out;
  for (const std::string* s : {&f.api_version, &f.review_kind, &f.uid, &f.group, &f.version,
                               &f.kind, &f.operation, &f.name_space, &f.name}) {
    out += *s + "|";
  }
  out += std::to_string(f.has_request) + std::to_string(f.has_uid) + std::to_string(f.dry_run);
  out += "|" + std::string(f.object) + "|" + std::string(f.old_object) + "|" +
         std::string(f.object_spec) + "|";
  out += f.object_tree ? Describe(*f.object_tree) : "none";
  out += "|";
  out += f.old_object_tree ? Describe(*f.old_object_tree) : "none";
  return out;
}

// object_spec is the exact text of request.object.spec, the spec memo's key: whitespace and
// member order included, nothing of the object's other members or of oldObject.
TEST(ScannerTest, ObjectSpecIsTheSpecsExactText) {
  const std::string head =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)";
  struct Case {
    std::string request;
    std::string spec;
  };
  const std::vector<Case> cases = {
      {R"("object":{"metadata":{"name":"a"},"spec": { "b" : [1, "x"] } ,"status":{}}})",
       R"({ "b" : [1, "x"] })"},
      {R"("object":{"spec":null}})", "null"},
      {R"("object":{"metadata":{"spec":{"x":1}}}})", ""},                  // not the root's
      {R"("object":{"spec":{"a":1},"spec":{"a":2}}})", ""},                // twice: ambiguous
      {R"("object":{"spec":{"a":1}},"object":{"spec":{"a":2}}})", R"({"a":2})"},  // last wins
      {R"("object":{"spec":{"a":1}},"object":null})", ""},
      {R"("oldObject":{"spec":{"a":1}}})", ""},
      {R"("object":[{"spec":1}]})", ""},
  };
  for (const Case& c : cases) {
    const std::string text = head + c.request + "}";  // the fields' views point into it
    StatusOr<ReviewFields> f = ScanAdmissionReview(text);
    ASSERT_TRUE(f.ok()) << c.request << ": " << f.status();
    EXPECT_EQ(f->object_spec, c.spec) << c.request;
  }
}

// The webhook scans each review into the fields of the previous one on its thread, reusing
// the trees' storage: whatever the earlier review was (other shapes, kinds at the same
// places, fewer or more members, a failed scan), the result must be a fresh scan's.
TEST(ScannerTest, ReusedFieldsGiveAFreshScansResult) {
  const std::string head =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
      R"("kind":{"group":"resource.k8s.io","version":"v1","kind":"ResourceClaim"},)";
  const std::vector<std::string> reviews = {
      head + R"("operation":"CREATE","object":{"metadata":{"name":"a","managedFields":[{"m":1}],)"
             R"("labels":{"x":"y","z":"w"}},"spec":{"devices":{"requests":[{"name":"gpu",)"
             R"("exactly":{"count":2,"selectors":[{"cel":{"expression":"true"}}]}}]}}}}})",
      head + R"("operation":"UPDATE","dryRun":true,"object":{"metadata":{"name":"b"},)"
             R"("spec":[1,2.5,true,null,"s",{"k":[]}]},"oldObject":{"spec":{"devices":7}}}})",
      head + R"("operation":"CREATE","object":{"spec":{"devices":{"requests":"flat"}},)"
             R"("metadata":{"labels":{"x":"1"}}}}})",
      head + R"("operation":"DELETE","object":null,"oldObject":{"a":{"b":{"c":[[],[{}]]}}}}})",
      head + R"("operation":"CREATE","object":{"n":18446744073709551615,"m":-1e400,"o":"é"}}})",
      head + R"("operation":"CREATE","object":{"metadata":{"name":"trunc",)",  // invalid
      head + R"("operation":"CREATE"}})",
      // The same places holding strings, then other scalars and collections, and back: a
      // string node is reset in part only when it was a string before (json_object.cc).
      head + R"("object":{"metadata":{"name":"s","labels":{"a":"x"}},"k":"v","l":["a","b"]}}})",
      head + R"("object":{"metadata":{"name":1,"labels":{"a":true}},"k":{"v":"w"},"l":[2.5,null]}}})",
      head + R"("object":{"metadata":{"name":""q"","labels":{"a\b":"x\/y"}},"k":[],"l":"s"}}})",
      // managedFields first, last, escaped; metadata keys escaped (read as views first).
      head + R"("object":{"metadata":{"managedFields":[1],"na\u006de":"m","uid":"u"}}}})",
      head + R"("object":{"metadata":{"uid":"u","name":"m","labels":{},"managed\u0046ields":{}}}}})",
  };
  for (const std::string& earlier : reviews) {
    for (const std::string& later : reviews) {
      ReviewFields reused;
      (void)ScanAdmissionReview(earlier, {}, reused);
      const Status status = ScanAdmissionReview(later, {}, reused);
      StatusOr<ReviewFields> fresh = ScanAdmissionReview(later);
      ASSERT_EQ(status.ok(), fresh.ok()) << earlier << "\nthen\n" << later;
      if (fresh.ok()) {
        EXPECT_EQ(Describe(reused), Describe(*fresh)) << earlier << "\nthen\n" << later;
      }
    }
  }
}

// The handler's scan leaves request.object's spec unread (ScanOptions::defer_object_spec)
// and reads it only for a spec the checker does not know (CompleteObjectSpec). Scanning so and
// then completing must give what a plain scan gives: the same fields and trees, or the same
// error, whatever is wrong and where (in the spec, after it, both), into fresh or reused
// fields.
TEST(ScannerTest, DeferredSpecCompletedIsAPlainScan) {
  const std::string head =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
      R"("kind":{"group":"resource.k8s.io","version":"v1","kind":"ResourceClaim"},)";
  const std::string deep = std::string(140, '[') + std::string(140, ']');
  const std::vector<std::string> requests = {
      R"("operation":"CREATE","object":{"metadata":{"name":"a","managedFields":[{"m":1}]},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","exactly":{"count":2,"selectors":)"
      R"([{"cel":{"expression":"device.attributes[\"x\"].s == \"}]{[\\\"\""}}]}}]}}}}})",
      R"("operation":"CREATE","object":{"spec": { "b" : [1, "x"] } ,"status":{}}})",
      R"("operation":"CREATE","object":{"spec":{"a":1},"spec":{"a":2}}})",
      R"("operation":"CREATE","object":{"spec":null,"metadata":{}}})",
      R"("operation":"CREATE","object":{"spec":[1,{"a":2}]}})",
      R"("operation":"CREATE","object":{"spec":{"a":"x\"}"},"b":"\\"}})",  // escapes end no string
      R"("operation":"CREATE","object":{"spec":{}}},"oldObject":{"spec":{"a":1}}})",
      R"("operation":"CREATE","object":{"metadata":{"spec":{"x":1}},"spec":{"é":"\u00e9"}}})",
      // Invalid in the spec only, in the spec and after it, after it only.
      R"("operation":"CREATE","object":{"spec":{"a":01}}})",
      R"("operation":"CREATE","object":{"spec":{"a":[1,]},"status":tru}})",
      R"("operation":"CREATE","object":{"spec":{"a":"x)" "\n" R"("}},"x":}})",
      R"("operation":"CREATE","object":{"spec":{"a":"\x"}}})",
      R"("operation":"CREATE","object":{"spec":{"a":1}},"status":tru}})",
      R"("operation":"CREATE","object":{"spec":{"a":1},"b":}})",
      R"("operation":"CREATE","object":{"spec":{"a":)" + deep + "}}}",
      R"("operation":"CREATE","object":{"spec":{"a":)" + deep + R"(},"b":}}})",
      R"("operation":"CREATE","object":{"spec":{"a":[}]}}})",
      R"("operation":"CREATE","object":{"spec":{"a":1}}})",   // the review unterminated
      R"("operation":"CREATE","object":{"spec":{"a":"\"})",   // the spec unterminated
      "\"operation\":\"CREATE\",\"object\":{\"spec\":{\"a\":\"\xC3\x28\"}}}}",
  };
  const ScanOptions plain;
  const ScanOptions deferred{.defer_object_spec = true};
  for (const std::string& earlier : requests) {
    for (const std::string& request : requests) {
      const std::string text = head + request;
      SCOPED_TRACE(earlier + "\nthen\n" + request);
      StatusOr<ReviewFields> expected = ScanAdmissionReview(text, plain);
      ReviewFields fields;
      (void)ScanAdmissionReview(head + earlier, deferred, fields);
      Status status = ScanAdmissionReview(text, deferred, fields);
      if (status.ok()) status = CompleteObjectSpec(text, deferred, fields);
      ASSERT_EQ(status.ok(), expected.ok()) << status;
      if (!expected.ok()) {
        EXPECT_EQ(status.message(), expected.status().message());
        continue;
      }
      EXPECT_FALSE(fields.object_spec_deferred.deferred);
      EXPECT_EQ(Describe(fields), Describe(*expected));
    }
  }
}

// What is deferred: the root's first spec when it is an object, nothing else.
TEST(ScannerTest, DefersOnlyTheObjectsSpecObject) {
  const std::string head =
      R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)";
  struct Case {
    std::string request;
    bool deferred;
  };
  const std::vector<Case> cases = {
      {R"("object":{"metadata":{"name":"a"},"spec":{"b":[1,"x"]}}})", true},
      {R"("object":{"spec":null}})", false},
      {R"("object":{"spec":[{"a":1}]}})", false},
      {R"("object":{"metadata":{"spec":{"x":1}}}})", false},
      {R"("oldObject":{"spec":{"a":1}}})", false},
  };
  for (const Case& c : cases) {
    const std::string text = head + c.request + "}";
    ReviewFields fields;
    ASSERT_TRUE(ScanAdmissionReview(text, {.defer_object_spec = true}, fields).ok()) << c.request;
    EXPECT_EQ(fields.object_spec_deferred.deferred, c.deferred) << c.request;
    if (!c.deferred) continue;
    // Left unread: a null node, the spec's text kept.
    const k8s::DocNode* spec = fields.object_tree->Find("spec");
    ASSERT_NE(spec, nullptr);
    EXPECT_EQ(spec->kind, k8s::NodeKind::kNull);
    EXPECT_EQ(fields.object_spec, R"({"b":[1,"x"]})");
  }
}

// Values nothing is read from are checked by their own path (Scanner::SkipValue): each error
// keeps its message and byte offset, as the scanner gave them before that path (these
// expectations are the earlier scanner's output, compared case by case).
TEST(ScannerTest, ErrorsInIgnoredValuesKeepTheirMessageAndOffset) {
  struct Case {
    std::string json;
    size_t max_depth;
    std::string message;
  };
  const Case cases[] = {
      {R"({"request":{"userInfo":{"groups":["a" "b"]}}})", 128,
       "invalid JSON at byte 39: expected ',' or ']' in array"},
      {R"({"request":{"userInfo":{"a":1 "b":2}}})", 128,
       "invalid JSON at byte 31: expected ',' or '}' in object"},
      {R"({"request":{"userInfo":{"a" 1}}})", 128,
       "invalid JSON at byte 28: expected ':' after a member name"},
      {R"({"request":{"userInfo":{1:2}}})", 128, "invalid JSON at byte 24: expected a member name"},
      {R"({"request":{"userInfo":{"a":tru}}})", 128, "invalid JSON at byte 28: invalid literal"},
      {R"({"request":{"userInfo":{"a":-}}})", 128, "invalid JSON at byte 29: invalid number"},
      {R"({"request":{"userInfo":{"a":+1}}})", 128,
       "invalid JSON at byte 28: unexpected character"},
      {R"({"request":{"userInfo":{"a":"\q"}}})", 128, "invalid JSON at byte 30: invalid escape"},
      {R"({"request":{"userInfo":{"a":"x)", 128, "invalid JSON at byte 30: unterminated string"},
      {R"({"request":{"userInfo":{"a":[)", 128,
       "invalid JSON at byte 29: unexpected end of input"},
      {R"({"request":{"userInfo":{"a":[1,]}}})", 128,
       "invalid JSON at byte 31: unexpected character"},
      {R"({"request":{"userInfo":{"a":{,}}}})", 128,
       "invalid JSON at byte 29: expected a member name"},
      {R"({"request":{"userInfo":{"a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}}})", 5,
       "invalid JSON at byte 30: nesting too deep"},
      {R"({"request":{"options":{"a":{"b":{"c":[{"d":[true,false,null,1.5e3,"x"]}]}}}},"extra":[{"k":{}} x]})",
       128, "invalid JSON at byte 96: expected ',' or ']' in array"},
      {"{\"request\":{\"userInfo\":{\"a\":\"\x01\"}}}", 128,
       "invalid JSON at byte 29: control character in string"},
      {"{\"request\":{\"userInfo\":{\"a\":\"\xff\"}}}", 128,
       "invalid JSON at byte 29: invalid UTF-8 in string"},
      {R"({"x":[] ,})", 128, "invalid JSON at byte 9: expected a member name"},
      // Fields with a target keep their type errors.
      {R"({"request":{"dryRun":1}})", 128,
       "invalid JSON at byte 21: expected a different type than a number"},
      {R"({"request":{"uid":[1]}})", 128,
       "invalid JSON at byte 18: expected a different type than an array"},
      {R"({"request":{"name":true}})", 128,
       "invalid JSON at byte 23: expected a different type than a boolean"},
      {R"({"kind":{"a":1}})", 128,
       "invalid JSON at byte 8: expected a different type than an object"},
  };
  for (const Case& c : cases) {
    ScanOptions options;
    options.max_depth = c.max_depth;
    const StatusOr<ReviewFields> scanned = ScanAdmissionReview(c.json, options);
    ASSERT_FALSE(scanned.ok()) << c.json;
    EXPECT_EQ(scanned.status().message(), c.message) << c.json;
  }
  // Ignored values of every kind, nested, are accepted.
  EXPECT_TRUE(ScanAdmissionReview(
                  R"({"request":{"kind":{"kind":"K","extra":[1,2,{"x":null}]},"options":{"a":{"b":[true,false,null,-1.5e3,"x\u00e9",[],{}]}}},"extra":[{"k":{}}]})")
                  .ok());
}

}  // namespace
}  // namespace draguard::webhook
