#include "webhook/admission/handler.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/webhook/testing/fake_checker.h"

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

TEST(HandlerTest, ErrorsDenyWith403AndOneCausePerError) {
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

TEST(HandlerTest, WarningsAreCapped) {
  FakeChecker checker;
  for (int i = 0; i < 10; ++i) {
    checker.outcome.diagnostics.Warning("w", FieldPath("spec"), std::string(1000, 'x'));
  }
  HandlerOptions options;
  options.max_warnings = 3;
  options.max_warning_bytes = 64;
  HttpAdmissionResponse r = HandleAdmission(
      {.content_type = "application/json", .body = MakeReview().dump()}, checker, options);
  Json warnings = Json::parse(r.body)["response"]["warnings"];
  ASSERT_EQ(warnings.size(), 4u);  // three plus the summary
  EXPECT_LE(warnings[0].get<std::string>().size(), 64u);
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
