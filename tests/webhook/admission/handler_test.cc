#include "webhook/admission/handler.h"

#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "policy/validate/messages.h"
#include "tests/webhook/testing/fake_checker.h"
#include "webhook/admission/response_budget.h"

namespace draguard::webhook {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;
using testing::FakeChecker;
using testing::MakeReview;
using Json = nlohmann::json;

constexpr std::string_view kUid = "705ab4f5-6393-11e8-b7cc-42010a800002";

std::string Decode64(std::string_view in) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    value = (value << 6) | static_cast<unsigned>(kAlphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xFF);
    }
  }
  return out;
}

HttpAdmissionResponse Post(AdmissionChecker& checker, const std::string& body,
                           AdmissionEndpoint endpoint = AdmissionEndpoint::kValidate,
                           std::string_view query = {}) {
  return HandleAdmission({.endpoint = endpoint,
                          .content_type = "application/json",
                          .query = query,
                          .body = body},
                         checker);
}

// --- Transport and decoding failures: non-200, no checker call. -------------------------------

struct TransportCase {
  std::string name;
  std::string content_type = "application/json";
  std::string body;
  bool truncated = false;
  size_t max_body_bytes = 7 * 1024 * 1024;
  int http_status = 400;
  Verdict verdict = Verdict::kBadRequest;
};

class TransportTest : public ::testing::TestWithParam<TransportCase> {};

TEST_P(TransportTest, AnswersWithoutCallingTheChecker) {
  const TransportCase& c = GetParam();
  FakeChecker checker;
  HandlerOptions options;
  options.max_body_bytes = c.max_body_bytes;
  HttpAdmissionResponse r = HandleAdmission({.content_type = c.content_type,
                                             .body = c.body,
                                             .body_truncated = c.truncated},
                                            checker, options);
  EXPECT_EQ(r.http_status, c.http_status);
  EXPECT_EQ(r.verdict, c.verdict);
  EXPECT_EQ(checker.calls(), c.verdict == Verdict::kBadRequest ? 0 : 1);
  Json body = Json::parse(r.body);  // always a well-formed AdmissionReview
  EXPECT_EQ(body["kind"], "AdmissionReview");
  if (c.http_status != 200) {
    EXPECT_EQ(body["response"]["status"]["code"], c.http_status);
  }
}

std::string Nested(int depth) {
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","x":)" +
         std::string(depth, '[') + std::string(depth, ']') + "}";
}

INSTANTIATE_TEST_SUITE_P(
    Handler, TransportTest,
    ::testing::Values(
        TransportCase{.name = "EmptyBody", .body = ""},
        TransportCase{.name = "TruncatedBody", .body = "{", .truncated = true, .http_status = 413},
        TransportCase{.name = "OversizedBody", .body = MakeReview().dump(), .max_body_bytes = 100,
                      .http_status = 413},
        TransportCase{.name = "WrongContentType", .content_type = "text/plain",
                      .body = MakeReview().dump()},
        TransportCase{.name = "MissingContentType", .content_type = "",
                      .body = MakeReview().dump()},
        TransportCase{.name = "ContentTypeWithCharset",
                      .content_type = "Application/JSON; charset=utf-8",
                      .body = MakeReview().dump(), .http_status = 200,
                      .verdict = Verdict::kAllowed},
        TransportCase{.name = "InvalidJson", .body = R"({"apiVersion": )"},
        TransportCase{.name = "TrailingGarbage", .body = MakeReview().dump() + "x"},
        TransportCase{.name = "NotAnObject", .body = "[1,2]"},
        TransportCase{.name = "DeepNesting", .body = Nested(10000)},
        TransportCase{.name = "UidOfWrongType",
                      .body = [] { Json j = MakeReview(); j["request"]["uid"] = 7; return j.dump(); }()},
        TransportCase{.name = "WrongReviewKind",
                      .body = [] { Json j = MakeReview(); j["kind"] = "Pod"; return j.dump(); }()},
        TransportCase{.name = "WrongReviewVersion",
                      .body = [] { Json j = MakeReview(); j["apiVersion"] = "v1"; return j.dump(); }()},
        TransportCase{.name = "MissingRequest",
                      .body = [] { Json j = MakeReview(); j.erase("request"); return j.dump(); }()},
        TransportCase{.name = "MissingUid",
                      .body = [] { Json j = MakeReview(); j["request"].erase("uid"); return j.dump(); }()},
        TransportCase{.name = "EmptyUid", .body = MakeReview("ResourceClaim", "v1", "CREATE", "").dump()}),
    [](const auto& p) { return p.param.name; });

// --- Which reviews reach the checker. --------------------------------------------------------

struct RoutingCase {
  std::string name;
  std::string group = "resource.k8s.io";
  std::string version = "v1";
  std::string kind = "ResourceClaim";
  std::string operation = "CREATE";
  bool checked = true;
  Verdict verdict = Verdict::kAllowed;
  int result_code = 0;  // response.status.code, 0 when absent
};

class RoutingTest : public ::testing::TestWithParam<RoutingCase> {};

TEST_P(RoutingTest, ChecksOnlyDraKindsOnCreateAndUpdate) {
  const RoutingCase& c = GetParam();
  FakeChecker checker;
  Json review = MakeReview(c.kind, c.version, c.operation);
  review["request"]["kind"]["group"] = c.group;
  HttpAdmissionResponse r = Post(checker, review.dump());
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.verdict, c.verdict);
  EXPECT_EQ(checker.calls(), c.checked ? 1 : 0);
  Json body = Json::parse(r.body);
  EXPECT_EQ(body["response"]["uid"], kUid);
  EXPECT_EQ(body["response"]["allowed"], c.result_code == 0);
  if (c.result_code != 0) {
    EXPECT_EQ(body["response"]["status"]["code"], c.result_code);
  }
  if (c.checked) {
    EXPECT_EQ(checker.last().kind, c.kind);
    EXPECT_EQ(checker.last().version, c.version);
    EXPECT_EQ(Json::parse(checker.last().object), review["request"]["object"]);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Handler, RoutingTest,
    ::testing::Values(
        RoutingCase{.name = "ClaimV1Create"},
        RoutingCase{.name = "ClaimV1beta1Update", .version = "v1beta1", .operation = "UPDATE"},
        RoutingCase{.name = "TemplateV1beta2", .version = "v1beta2",
                    .kind = "ResourceClaimTemplate"},
        RoutingCase{.name = "DeviceClassV1", .kind = "DeviceClass"},
        RoutingCase{.name = "ResourceSliceSkipped", .kind = "ResourceSlice", .checked = false,
                    .verdict = Verdict::kSkipped},
        RoutingCase{.name = "PodSkipped", .group = "", .kind = "Pod", .checked = false,
                    .verdict = Verdict::kSkipped},
        RoutingCase{.name = "AlphaVersionSkipped", .version = "v1alpha3", .checked = false,
                    .verdict = Verdict::kSkipped},
        RoutingCase{.name = "OtherGroupSkipped", .group = "example.com", .checked = false,
                    .verdict = Verdict::kSkipped},
        RoutingCase{.name = "DeleteSkipped", .operation = "DELETE", .checked = false,
                    .verdict = Verdict::kSkipped},
        RoutingCase{.name = "ConnectSkipped", .operation = "CONNECT", .checked = false,
                    .verdict = Verdict::kSkipped},
        RoutingCase{.name = "UnknownOperation", .operation = "PATCH", .checked = false,
                    .verdict = Verdict::kBadRequest, .result_code = 400}),
    [](const auto& p) { return p.param.name; });

// --- Verdicts. ---------------------------------------------------------------------------------

TEST(HandlerTest, PolicyErrorsDenyWith403AndOneCausePerError) {
  FakeChecker checker;
  checker.outcome.diagnostics.Error("claim.request.name.invalid",
                                    FieldPath("spec.devices.requests[0].name"), "must be a DNS label");
  checker.outcome.diagnostics.Error("cel.undeclared-reference",
                                    FieldPath("spec.devices.requests[0].exactly.selectors[0].cel.expression"),
                                    "undeclared reference to 'devce'", "device");
  checker.outcome.diagnostics.Warning("claim.unsatisfiable", FieldPath("spec.devices"),
                                      "no node can satisfy this claim");
  HttpAdmissionResponse r = Post(checker, MakeReview().dump());
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.verdict, Verdict::kDenied);
  EXPECT_EQ(r.kind, "ResourceClaim");
  Json resp = Json::parse(r.body)["response"];
  EXPECT_EQ(resp["uid"], kUid);
  EXPECT_EQ(resp["allowed"], false);
  EXPECT_EQ(resp["status"]["code"], 403);
  EXPECT_EQ(resp["status"]["reason"], "Forbidden");
  std::vector<std::string> fields;
  for (const Json& cause : resp["status"]["details"]["causes"]) fields.push_back(cause["field"]);
  EXPECT_THAT(fields, ElementsAre("spec.devices.requests[0].name",
                                  "spec.devices.requests[0].exactly.selectors[0].cel.expression"));
  // The API server's list form: "[field: message, field: message]".
  std::string message = resp["status"]["message"];
  EXPECT_NE(message.find("[spec.devices.requests[0].name: "), std::string::npos);
  EXPECT_NE(message.find(", spec.devices.requests[0].exactly.selectors[0].cel.expression: "),
            std::string::npos);
  ASSERT_EQ(resp["warnings"].size(), 1u);
  EXPECT_THAT(resp["warnings"][0].get<std::string>(), StartsWith("spec.devices: "));
}

TEST(HandlerTest, WarningsAloneAllow) {
  FakeChecker checker;
  checker.outcome.diagnostics.Warning("claim.unsatisfiable", FieldPath("spec"), "risky");
  checker.outcome.diagnostics.Info("claim.note", FieldPath("spec"), "fyi");
  HttpAdmissionResponse r = Post(checker, MakeReview().dump());
  Json resp = Json::parse(r.body)["response"];
  EXPECT_EQ(r.verdict, Verdict::kAllowed);
  EXPECT_EQ(resp["allowed"], true);
  EXPECT_FALSE(resp.contains("status"));
  EXPECT_EQ(resp["warnings"].size(), 1u);
}

// Issue 19 item 10: warnings fit what kube-apiserver passes on (warning.go:
// truncateItemRunes 256, truncateAtTotalRunes 4096), most important first, and the summary of
// those left out fits too.
TEST(HandlerTest, WarningsFitTheApiServersBudget) {
  FakeChecker checker;
  for (int i = 0; i < 1000; ++i) {
    checker.outcome.diagnostics.Warning(
        "schema.attribute.unknown",
        FieldPath("spec.devices.requests[" + std::to_string(i) + "].exactly.selectors[0].cel"),
        std::string(300, 'x'));
  }
  checker.outcome.diagnostics.Warning("claim.request.count.defaulted", FieldPath("spec"),
                                      "count: 0 becomes 1");
  checker.outcome.diagnostics.Warning("schema.attribute.unknown", FieldPath("spec.x"),
                                      std::string(300, '\xE9'));  // invalid UTF-8 bytes
  HttpAdmissionResponse r = Post(checker, MakeReview().dump());
  Json warnings = Json::parse(r.body)["response"]["warnings"];
  ASSERT_GT(warnings.size(), 2u);
  size_t total = 0;
  bool other_code_kept = false;
  for (const Json& w : warnings) {
    const std::string text = w.get<std::string>();
    EXPECT_LE(CountRunes(text), 256u) << text;
    total += CountRunes(text);
    other_code_kept = other_code_kept || text == "spec: count: 0 becomes 1";
  }
  EXPECT_LE(total, 4096u);
  EXPECT_TRUE(other_code_kept) << "the first warning of each code goes first";
  const std::string last = warnings.back().get<std::string>();
  EXPECT_THAT(last, StartsWith(std::to_string(1002 - (warnings.size() - 1)) + " more warnings"));
}

// BudgetWarnings orders and de-duplicates without sets up to 16 warnings and with hash sets
// beyond: against the definition (the first warning of each code, then the rest, each in the
// checker's order, identical texts once, through ordered sets) on random lists of 0-60
// warnings whose fields, codes and messages repeat, some with invalid UTF-8, some long
// enough to be cut; errors mixed in are not warnings.
TEST(BudgetWarningsTest, OrderAndRepeatsAreTheDefinitionsForEveryCount) {
  auto reference = [](const Diagnostics& diagnostics, size_t max_runes) {
    std::vector<std::string> first, rest;
    std::set<std::string> codes, seen;
    for (const Diagnostic& d : diagnostics) {
      if (d.severity != Severity::kWarning) continue;
      std::string text = d.field.empty() ? d.message : d.field + ": " + d.message;
      if (!d.suggestion.empty()) text += " (suggestion: " + d.suggestion + ")";
      text = ClipRunes(text, max_runes);
      if (!seen.insert(text).second) continue;
      (codes.insert(d.code).second ? first : rest).push_back(text);
    }
    first.insert(first.end(), rest.begin(), rest.end());
    return first;
  };
  std::mt19937 random(16);
  const std::string messages[] = {"risky", "a\xFF" "b", std::string(300, 'm'),
                                  "\xC3\xA9t\xC3\xA9", ""};
  ResponseLimits unlimited;
  unlimited.max_warnings_runes = std::numeric_limits<size_t>::max();
  for (int round = 0; round < 300; ++round) {
    Diagnostics diagnostics;
    const size_t n = random() % 61;
    for (size_t i = 0; i < n; ++i) {
      const std::string code = "code." + std::to_string(random() % 4);
      const std::string field = random() % 5 == 0 ? "" : "spec.f" + std::to_string(random() % 6);
      const std::string& message = messages[random() % std::size(messages)];
      if (random() % 7 == 0) {
        diagnostics.Error(code, FieldPath(field), message);
      } else {
        diagnostics.Warning(code, FieldPath(field), message,
                            random() % 3 == 0 ? "do x" : "");
      }
    }
    EXPECT_EQ(BudgetWarnings(diagnostics, unlimited),
              reference(diagnostics, unlimited.max_warning_runes))
        << "round " << round << ", " << n << " diagnostics";
  }
}

TEST(ClipRunesTest, CountsRunesNotBytesAndReplacesInvalidBytes) {
  const std::string e_acute = "\xC3\xA9";
  std::string many;
  for (int i = 0; i < 300; ++i) many += e_acute;
  std::string clipped = ClipRunes(many, 256);
  EXPECT_EQ(CountRunes(clipped), 256u);
  EXPECT_THAT(clipped, ::testing::EndsWith("\xE2\x80\xA6"));
  EXPECT_EQ(ClipRunes("a\xFF" "b", 10), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(ClipRunes("abc", 3), "abc");
  // Invalid bytes anywhere, alone or in a row, between valid multi-byte runes; each one
  // byte becomes one U+FFFD, and the valid runes around them are kept whole.
  const std::string fffd = "\xEF\xBF\xBD";
  const struct {
    std::string in, out;
  } kSanitizeRows[] = {
      {"\xFF", fffd},
      {"\xFF\xFE" "x", fffd + fffd + "x"},
      {"x\xC3", "x" + fffd},                                 // truncated sequence at the end
      {"\xC3\xA9\x80\xC3\xA9", "\xC3\xA9" + fffd + "\xC3\xA9"},  // stray continuation
      {"\xE2\x82\xAC" "ab\xED\xA0\x80", "\xE2\x82\xAC" "ab" + fffd + fffd + fffd},  // surrogate
      {"\xF0\x9F\x98\x80\xF8", "\xF0\x9F\x98\x80" + fffd},
      {"", ""},
  };
  for (const auto& row : kSanitizeRows) {
    EXPECT_EQ(ClipRunes(row.in, 100), row.out) << ::testing::PrintToString(row.in);
  }
  // The same rows inside ASCII runs of every length around a word, so that the eight-byte
  // ASCII steps stop on each byte of a row, against the rows' answers and a byte-by-byte
  // rune count (the general path).
  for (size_t pad = 0; pad <= 17; ++pad) {
    const std::string ascii(pad, 'a');
    for (const auto& row : kSanitizeRows) {
      const std::string in = ascii + row.in + ascii + row.in;
      EXPECT_EQ(ClipRunes(in, 1000), ascii + row.out + ascii + row.out)
          << ::testing::PrintToString(in);
      size_t runes = 0;
      for (char c : in) runes += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      EXPECT_EQ(CountRunes(in), runes) << ::testing::PrintToString(in);
    }
  }
  EXPECT_EQ(ClipRunes("abcd", 3), "ab\xE2\x80\xA6") << "ASCII longer than the limit is cut";
}

// The cut of a long text starts after its ASCII prefix, found eight bytes at a time: against
// a rune-by-rune cut (the general path), for every limit around the prefix's end and texts
// whose first non-ASCII rune falls on each byte of an eight-byte step.
TEST(ClipRunesTest, CutAfterAnAsciiPrefixIsTheRuneByRuneCut) {
  auto reference = [](const std::string& valid, size_t max_runes) {
    if (CountRunes(valid) <= max_runes) return valid;
    size_t runes = 0, at = 0;
    for (; at < valid.size(); ++at) {
      if ((static_cast<unsigned char>(valid[at]) & 0xC0) == 0x80) continue;
      if (runes == max_runes - 1) break;
      ++runes;
    }
    return valid.substr(0, at) + "\xE2\x80\xA6";
  };
  for (size_t prefix = 0; prefix <= 20; ++prefix) {
    for (const std::string rune : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "z"}) {
      const std::string text = std::string(prefix, 'a') + rune + rune + "bc" + rune;
      for (size_t max_runes = 1; max_runes <= CountRunes(text) + 1; ++max_runes) {
        EXPECT_EQ(ClipRunes(text, max_runes), reference(text, max_runes))
            << ::testing::PrintToString(text) << " within " << max_runes;
      }
    }
  }
}

TEST(HandlerTest, DenialMessageIsBoundedAndCausesCapped) {
  FakeChecker checker;
  for (int i = 0; i < 1000; ++i) {
    checker.outcome.diagnostics.Error(
        "claim.request.name.invalid", FieldPath("spec.devices.requests[" + std::to_string(i) + "].name"),
        validate::InvalidMessage(validate::FieldValue::String(std::string(200, 'n')),
                                 "must be no more than 63 characters"));
  }
  HttpAdmissionResponse r = Post(checker, MakeReview().dump());
  EXPECT_LT(r.body.size(), 256u * 1024);
  Json status = Json::parse(r.body)["response"]["status"];
  const std::string message = status["message"];
  EXPECT_LE(message.size(), 8u * 1024);
  EXPECT_THAT(message, ::testing::HasSubstr("more errors (status.details.causes lists up to 100)]"));
  EXPECT_EQ(status["details"]["causes"].size(), 100u);
}

// Issue 19 item 11: denials answer as the API server would for the same errors: 422 Invalid
// with a cause type per error when they are all API-server validation errors, 403 Forbidden
// when one comes from draguard's own checks.
struct DenialCase {
  std::string name;
  std::vector<std::pair<std::string, std::string>> errors;  // code, message
  int code;
  std::string reason;
  std::vector<std::string> types;
};

class DenialTest : public ::testing::TestWithParam<DenialCase> {};

TEST_P(DenialTest, CodeReasonAndCauseTypes) {
  const DenialCase& c = GetParam();
  FakeChecker checker;
  for (size_t i = 0; i < c.errors.size(); ++i) {
    checker.outcome.diagnostics.Error(c.errors[i].first, FieldPath("spec.f" + std::to_string(i)),
                                      c.errors[i].second);
  }
  Json status = Json::parse(Post(checker, MakeReview().dump()).body)["response"]["status"];
  EXPECT_EQ(status["code"], c.code);
  EXPECT_EQ(status["reason"], c.reason);
  std::vector<std::string> types, fields;
  for (const Json& cause : status["details"]["causes"]) {
    types.push_back(cause["reason"]);
    fields.push_back(cause["field"]);
  }
  EXPECT_EQ(types, c.types);
  ASSERT_EQ(fields.size(), c.errors.size());
  EXPECT_EQ(fields[0], "spec.f0");
}

using validate::FieldValue;

INSTANTIATE_TEST_SUITE_P(
    Handler, DenialTest,
    ::testing::Values(
        DenialCase{"Required", {{"claim.request.device-class-name.required",
                                 validate::RequiredMessage()}},
                   422, "Invalid", {"FieldValueRequired"}},
        DenialCase{"NotSupported",
                   {{"claim.request.allocation-mode.unsupported",
                     validate::NotSupportedMessage(FieldValue::String("all"),
                                                   {"All", "ExactCount"})}},
                   422, "Invalid", {"FieldValueNotSupported"}},
        DenialCase{"TooManyTooLongDuplicate",
                   {{"claim.requests.too-many", validate::TooManyMessage(33, 32)},
                    {"x.too-long", validate::TooLongMessage(10240)},
                    {"claim.request.name.duplicate",
                     validate::DuplicateMessage(FieldValue::String("gpu"))}},
                   422, "Invalid", {"FieldValueTooMany", "FieldValueTooLong", "FieldValueDuplicate"}},
        DenialCase{"ForbiddenAndInvalid",
                   {{"claim.admin-access.forbidden", validate::ForbiddenMessage("admin access")},
                    {"claim.request.count.invalid",
                     validate::InvalidMessage(FieldValue::Int(-2), "must be greater than zero")}},
                   422, "Invalid", {"FieldValueForbidden", "FieldValueInvalid"}},
        DenialCase{"CelSelectors",
                   {{"cel.undeclared-reference", "compilation failed: undeclared reference"},
                    {"cel.cost-exceeded", "too complex, exceeds cost limit"},
                    {"cel.expression-too-long", "may not be more than 10240 bytes"}},
                   422, "Invalid", {"FieldValueInvalid", "FieldValueForbidden", "FieldValueTooLong"}},
        DenialCase{"DraguardPolicyIsForbidden",
                   {{"schema.type.mismatch", "a version compared with a string"}},
                   403, "Forbidden", {"FieldValueForbidden"}},
        DenialCase{"MixedIsForbidden",
                   {{"claim.request.device-class-name.required", validate::RequiredMessage()},
                    {"alloc.unsatisfiable", "no node can allocate this claim"}},
                   403, "Forbidden", {"FieldValueRequired", "FieldValueForbidden"}}),
    [](const auto& p) { return p.param.name; });

// Issue 19 item 14: an UPDATE without oldObject is a bad request, as docs/webhook.md says.
TEST(HandlerTest, UpdateWithoutOldObjectIs400WithUid) {
  FakeChecker checker;
  Json review = MakeReview("ResourceClaim", "v1", "UPDATE");
  review["request"]["oldObject"] = nullptr;
  HttpAdmissionResponse r = Post(checker, review.dump());
  EXPECT_EQ(r.verdict, Verdict::kBadRequest);
  Json resp = Json::parse(r.body)["response"];
  EXPECT_EQ(resp["uid"], kUid);
  EXPECT_EQ(resp["allowed"], false);
  EXPECT_EQ(resp["status"]["code"], 400);
  EXPECT_EQ(checker.calls(), 0);
}

TEST(HandlerTest, CheckerExceptionIs500AndEchoesUid) {
  FakeChecker checker;
  checker.throw_message = "boom";
  HttpAdmissionResponse r = Post(checker, MakeReview().dump());
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.verdict, Verdict::kError);
  Json resp = Json::parse(r.body)["response"];
  EXPECT_EQ(resp["uid"], kUid);
  EXPECT_EQ(resp["allowed"], false);
  EXPECT_EQ(resp["status"]["code"], 500);
}

TEST(HandlerTest, MissingObjectOnCreateIs400WithUid) {
  FakeChecker checker;
  Json review = MakeReview();
  review["request"]["object"] = nullptr;
  Json resp = Json::parse(Post(checker, review.dump()).body)["response"];
  EXPECT_EQ(resp["uid"], kUid);
  EXPECT_EQ(resp["status"]["code"], 400);
  EXPECT_EQ(checker.calls(), 0);
}

TEST(HandlerTest, DryRunIsPassedOnAndAnsweredTheSameWay) {
  FakeChecker checker;
  checker.outcome.diagnostics.Error("x", FieldPath("spec"), "bad");
  Json review = MakeReview();
  std::string normal = Post(checker, review.dump()).body;
  EXPECT_FALSE(checker.last().dry_run);
  review["request"]["dryRun"] = true;
  std::string dry = Post(checker, review.dump()).body;
  EXPECT_TRUE(checker.last().dry_run);
  EXPECT_EQ(normal, dry);
}

TEST(HandlerTest, PassesRequestFieldsAndAdminAccess) {
  FakeChecker checker;
  Json review = MakeReview("ResourceClaim", "v1", "UPDATE");
  review["request"]["oldObject"] = {{"kind", "ResourceClaim"}};
  Post(checker, review.dump(), AdmissionEndpoint::kValidate, "timeout=10s&admin-access=allowed");
  testing::SeenRequest seen = checker.last();
  EXPECT_TRUE(seen.admin_access_allowed);
  EXPECT_EQ(seen.operation, "UPDATE");
  EXPECT_EQ(seen.name_space, "team-a");
  EXPECT_EQ(seen.name, "gpu-claim");
  EXPECT_EQ(Json::parse(seen.old_object), review["request"]["oldObject"]);
  Post(checker, review.dump(), AdmissionEndpoint::kValidate, "admin-access=allowedx");
  EXPECT_FALSE(checker.last().admin_access_allowed);
}

TEST(HandlerTest, MutateReturnsBase64JsonPatch) {
  FakeChecker checker;
  checker.outcome.patch = {
      {.op = "add", .path = "/spec/devices/requests/0/exactly/count", .value_json = "1"},
      {.op = "add", .path = "/metadata/annotations/draguard.dev~1satisfiable",
       .value_json = R"("true; feasible-nodes=3")"}};
  HttpAdmissionResponse r = Post(checker, MakeReview().dump(), AdmissionEndpoint::kMutate);
  EXPECT_EQ(r.verdict, Verdict::kPatched);
  Json resp = Json::parse(r.body)["response"];
  EXPECT_EQ(resp["allowed"], true);
  EXPECT_EQ(resp["patchType"], "JSONPatch");
  Json patch = Json::parse(Decode64(resp["patch"].get<std::string>()));
  EXPECT_EQ(patch, Json::parse(R"([
      {"op":"add","path":"/spec/devices/requests/0/exactly/count","value":1},
      {"op":"add","path":"/metadata/annotations/draguard.dev~1satisfiable",
       "value":"true; feasible-nodes=3"}])"));
  EXPECT_EQ(checker.last().endpoint, AdmissionEndpoint::kMutate);
}

TEST(HandlerTest, ValidateNeverReturnsAPatch) {
  FakeChecker checker;
  checker.outcome.patch = {{.op = "remove", .path = "/spec/x"}};
  Json resp = Json::parse(Post(checker, MakeReview().dump()).body)["response"];
  EXPECT_FALSE(resp.contains("patch"));
  EXPECT_FALSE(resp.contains("patchType"));
}

TEST(HandlerTest, EmptyPatchMeansNoPatch) {
  FakeChecker checker;
  HttpAdmissionResponse r = Post(checker, MakeReview().dump(), AdmissionEndpoint::kMutate);
  EXPECT_EQ(r.verdict, Verdict::kAllowed);
  EXPECT_FALSE(Json::parse(r.body)["response"].contains("patch"));
}

TEST(HandlerTest, EchoesV1beta1ReviewVersion) {
  FakeChecker checker;
  Json review = MakeReview();
  review["apiVersion"] = "admission.k8s.io/v1beta1";
  EXPECT_EQ(Json::parse(Post(checker, review.dump()).body)["apiVersion"],
            "admission.k8s.io/v1beta1");
}

TEST(HandlerTest, EchoesEscapedUid) {
  FakeChecker checker;
  std::string body = MakeReview("ResourceClaim", "v1", "CREATE", "a\"b\\c\u00e9").dump();
  Json resp = Json::parse(Post(checker, body).body)["response"];
  EXPECT_EQ(resp["uid"], "a\"b\\c\u00e9");
}

TEST(QueryTest, FindsAdminAccess) {
  EXPECT_TRUE(QueryAllowsAdminAccess("admin-access=allowed"));
  EXPECT_TRUE(QueryAllowsAdminAccess("a=b&admin-access=allowed&c"));
  EXPECT_FALSE(QueryAllowsAdminAccess(""));
  EXPECT_FALSE(QueryAllowsAdminAccess("admin-access=denied"));
  EXPECT_FALSE(QueryAllowsAdminAccess("xadmin-access=allowed"));
}

}  // namespace
}  // namespace draguard::webhook
