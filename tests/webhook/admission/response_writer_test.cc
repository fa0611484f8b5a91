#include "webhook/admission/response_writer.h"

#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace draguard::webhook {
namespace {

struct Base64Case {
  std::string in, out;
};

class Base64Test : public ::testing::TestWithParam<Base64Case> {};

// RFC 4648 §10 test vectors.
TEST_P(Base64Test, MatchesRfc4648) { EXPECT_EQ(Base64Encode(GetParam().in), GetParam().out); }

INSTANTIATE_TEST_SUITE_P(Writer, Base64Test,
                         ::testing::Values(Base64Case{"", ""}, Base64Case{"f", "Zg=="},
                                           Base64Case{"fo", "Zm8="}, Base64Case{"foo", "Zm9v"},
                                           Base64Case{"foob", "Zm9vYg=="},
                                           Base64Case{"fooba", "Zm9vYmE="},
                                           Base64Case{"foobar", "Zm9vYmFy"}));

TEST(WriterTest, WritesAParseableReview) {
  AdmissionResponseFields f{.uid = "u",
                            .allowed = false,
                            .code = 403,
                            .reason = "Forbidden",
                            .message = "m",
                            .causes = {{.field = "spec", .message = "bad"}},
                            .warnings = {"w1", "w2"},
                            .patch_json = "[]"};
  nlohmann::json j = nlohmann::json::parse(WriteAdmissionReview(f));
  EXPECT_EQ(j["apiVersion"], "admission.k8s.io/v1");
  EXPECT_EQ(j["kind"], "AdmissionReview");
  EXPECT_EQ(j["response"]["uid"], "u");
  EXPECT_EQ(j["response"]["allowed"], false);
  EXPECT_EQ(j["response"]["status"]["code"], 403);
  EXPECT_EQ(j["response"]["status"]["status"], "Failure");
  EXPECT_EQ(j["response"]["status"]["details"]["causes"][0]["field"], "spec");
  EXPECT_EQ(j["response"]["warnings"].size(), 2u);
  EXPECT_EQ(j["response"]["patch"], "W10=");
}

TEST(WriterTest, PatchOperations) {
  std::string patch = WriteJsonPatch({{.op = "remove", .path = "/a"},
                                      {.op = "move", .path = "/b", .from = "/c"},
                                      {.op = "add", .path = "/d", .value_json = R"({"x":[1]})"}});
  EXPECT_EQ(nlohmann::json::parse(patch), nlohmann::json::parse(R"([
      {"op":"remove","path":"/a"},{"op":"move","from":"/c","path":"/b"},
      {"op":"add","path":"/d","value":{"x":[1]}}])"));
  EXPECT_EQ(WriteJsonPatch({}), "[]");
}

}  // namespace
}  // namespace draguard::webhook
