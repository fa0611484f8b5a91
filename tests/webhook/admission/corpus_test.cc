// Every ResourceClaim, ResourceClaimTemplate and DeviceClass of the real-world corpus
// (../shared/corpus), in each of resource.k8s.io v1, v1beta2 and v1beta1 it was written in, sent
// as an AdmissionReview through the handler with the real PolicyChecker:
//   - the answer is HTTP 200 and echoes the uid;
//   - the verdict and the error causes equal what `lint` finds in the YAML (the same object
//     decoded from its file, validated and, when valid, schema-checked against the built-in
//     catalog), so the webhook and the linter agree;
//   - on /mutate, applying the patch and sending the result again yields no patch.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "policy/k8s/decode.h"
#include "policy/schema/check.h"
#include "policy/schema/schema.h"
#include "policy/validate/cel_selectors.h"
#include "policy/validate/object.h"
#include "tests/webhook/testing/doc_node_json.h"
#include "webhook/admission/handler.h"
#include "webhook/admission/policy_checker.h"

namespace draguard::webhook {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr char kAdminAccessLabel[] = "resource.kubernetes.io/admin-access";

using testing::DocNodeToJson;

// The JSON body of a decoded object, as the API server would send it: the object's own tree,
// parsed again (decoded objects keep a field index, not the tree). A List's item is found by
// kind and name.
Json BodyOf(const k8s::DecodedObject& object, const SourceText& source) {
  const k8s::ParseResult parsed = k8s::ParseDocuments(source);
  for (const k8s::Document& doc : parsed.documents) {
    if (doc.index != object.document_index) continue;
    const k8s::DocNode* items = doc.root.Find("items");
    if (items == nullptr || items->kind != k8s::NodeKind::kSequence) return DocNodeToJson(doc.root);
    for (const k8s::DocNode& item : items->items) {
      Json body = DocNodeToJson(item);
      if (body.value("kind", "") == object.kind &&
          body["metadata"].value("name", "") == object.ref.name) {
        return body;
      }
    }
  }
  return nullptr;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "code@field" for every error, sorted: what a denial lists.
std::multiset<std::string> ErrorKeys(const Diagnostics& diagnostics) {
  std::multiset<std::string> out;
  for (const Diagnostic& d : diagnostics) {
    if (d.is_error()) out.insert(d.code + "@" + d.field);
  }
  return out;
}

std::multiset<std::string> CauseKeys(const Json& response) {
  std::multiset<std::string> out;
  if (!response.contains("status") || !response["status"].contains("details")) return out;
  for (const Json& cause : response["status"]["details"]["causes"]) {
    out.insert(cause.value("field", ""));
  }
  return out;
}

std::multiset<std::string> FieldsOf(const std::multiset<std::string>& keys) {
  std::multiset<std::string> out;
  for (const std::string& key : keys) out.insert(key.substr(key.find('@') + 1));
  return out;
}

Json Review(const k8s::DecodedObject& object, const std::string& version, const Json& body,
            const std::string& uid) {
  return {{"apiVersion", "admission.k8s.io/v1"},
          {"kind", "AdmissionReview"},
          {"request",
           {{"uid", uid},
            {"kind", {{"group", "resource.k8s.io"}, {"version", version}, {"kind", object.kind}}},
            {"name", object.ref.name},
            {"namespace", object.ref.name_space},
            {"operation", "CREATE"},
            {"object", body},
            {"oldObject", nullptr},
            {"dryRun", false}}}};
}

HttpAdmissionResponse Send(PolicyChecker& checker, AdmissionEndpoint endpoint, const Json& review,
                           bool admin_access) {
  std::string body = review.dump();
  return HandleAdmission({.endpoint = endpoint,
                          .content_type = "application/json",
                          .query = admin_access ? "admin-access=allowed" : "",
                          .body = body},
                         checker);
}

bool IsCheckedVersion(const std::string& api_version) {
  return api_version == "resource.k8s.io/v1" || api_version == "resource.k8s.io/v1beta2" ||
         api_version == "resource.k8s.io/v1beta1";
}

bool IsCheckedKind(const std::string& kind) {
  return kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "DeviceClass";
}

// Namespaces of the file labelled for admin access: the webhook configuration would route
// their objects to the admin-access endpoint.
std::set<std::string> AdminNamespaces(const k8s::DecodeResult& decoded) {
  std::set<std::string> out;
  for (const k8s::DecodedObject& o : decoded.objects) {
    if (const auto* ns = std::get_if<k8s::Namespace>(&o.object)) {
      auto it = ns->metadata.labels.find(kAdminAccessLabel);
      if (it != ns->metadata.labels.end() && it->second == "true") out.insert(ns->metadata.name);
    }
  }
  return out;
}

TEST(CorpusTest, WebhookAgreesWithLintAndMutationIsIdempotent) {
  const fs::path corpus = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no corpus at " << corpus;
  PolicyChecker checker(PolicyCheckerOptions{});
  auto cache = std::make_shared<cel::SelectorCache>();
  StatusOr<schema::BuildResult> built = schema::BuildSchema({});
  ASSERT_TRUE(built.ok()) << built.status();
  const schema::Schema& catalog = built->schema;
  std::map<std::string, int> seen;  // "Kind version" -> objects
  int denied = 0, patched = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    k8s::DecodeOptions options;
    options.strict = false;  // the API server decoded it already; unknown fields are gone
    const SourceText source(entry.path().string(), Read(entry.path()));
    k8s::DecodeResult decoded = k8s::Decode(source, options);
    const std::set<std::string> admin_namespaces = AdminNamespaces(decoded);
    for (const k8s::DecodedObject& object : decoded.objects) {
      if (!IsCheckedKind(object.kind) || !IsCheckedVersion(object.api_version)) continue;
      const std::string version = object.api_version.substr(object.api_version.find('/') + 1);
      const std::string where = entry.path().string() + " " + object.kind + "/" + object.ref.name;
      ++seen[object.kind + " " + version];
      const bool admin = admin_namespaces.count(object.ref.name_space) > 0;

      // What lint finds in the same object.
      validate::ValidationOptions lint_options;
      lint_options.selector_checker = validate::MakeCelSelectorChecker(lint_options, cache);
      if (admin) lint_options.namespace_labels[object.ref.name_space][kAdminAccessLabel] = "true";
      Diagnostics lint;
      validate::ValidateObject(object.object, lint_options, lint);
      if (ErrorKeys(lint).empty()) schema::CheckObject(object.object, catalog, {}, lint);
      std::multiset<std::string> lint_errors = ErrorKeys(lint);
      for (const Diagnostic& d : decoded.diagnostics) {
        if (d.is_error() && d.object.name == object.ref.name && d.object.kind == object.kind) {
          lint_errors.insert(d.code + "@" + d.field);
        }
      }

      const Json body = BodyOf(object, source);
      HttpAdmissionResponse validated =
          Send(checker, AdmissionEndpoint::kValidate, Review(object, version, body, where), admin);
      ASSERT_EQ(validated.http_status, 200) << where << "\n" << validated.body;
      Json response = Json::parse(validated.body)["response"];
      EXPECT_EQ(response["uid"], where);
      EXPECT_EQ(response["allowed"].get<bool>(), lint_errors.empty())
          << where << "\n" << validated.body;
      EXPECT_EQ(CauseKeys(response), FieldsOf(lint_errors)) << where;
      denied += !lint_errors.empty();

      HttpAdmissionResponse mutated =
          Send(checker, AdmissionEndpoint::kMutate, Review(object, version, body, where), admin);
      ASSERT_EQ(mutated.http_status, 200) << where;
      Json mutation = Json::parse(mutated.body)["response"];
      if (!mutation.contains("patch")) continue;
      ++patched;
      std::string decoded_patch;
      {
        // base64 back to JSON through nlohmann's binary-free path: decode by hand.
        static const std::string kAlphabet =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        unsigned value = 0;
        int bits = 0;
        for (char c : mutation["patch"].get<std::string>()) {
          if (c == '=') break;
          value = (value << 6) | static_cast<unsigned>(kAlphabet.find(c));
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            decoded_patch += static_cast<char>((value >> bits) & 0xFF);
          }
        }
      }
      Json again_body = body.patch(Json::parse(decoded_patch));
      HttpAdmissionResponse again = Send(checker, AdmissionEndpoint::kMutate,
                                         Review(object, version, again_body, where), admin);
      EXPECT_FALSE(Json::parse(again.body)["response"].contains("patch"))
          << where << ": reinvocation patched again: " << again.body;
    }
  }
  // Every kind appears in v1, and the beta versions the corpus holds are exercised too.
  for (const char* key : {"ResourceClaim v1", "ResourceClaimTemplate v1", "DeviceClass v1",
                          "ResourceClaimTemplate v1beta1", "ResourceClaim v1beta1"}) {
    EXPECT_GT(seen[key], 0) << key;
  }
  int betas2 = 0;
  for (const auto& [key, n] : seen) betas2 += key.ends_with("v1beta2") ? n : 0;
  EXPECT_GT(betas2, 0) << "no v1beta2 object in the corpus";
  EXPECT_GT(denied, 0) << "the corpus holds upstream mistakes; none was denied";
  EXPECT_GT(patched, 0) << "beta objects without count should have been defaulted";
}


// The spec memo (spec_memo.h) on real objects: every claim and template of the corpus, sent
// three times to one long-lived checker with the memo (it keeps a spec from its second miss:
// the third answer comes from it, and entries of other objects are around) and once to a
// checker without, gets the same response bytes, in both the namespace with and the one
// without admin access.
TEST(CorpusTest, SpecMemoGivesTheAnswersOfAFreshCheck) {
  const fs::path corpus = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no corpus at " << corpus;
  PolicyCheckerOptions without_memo;
  without_memo.spec_memo.entries = 0;
  PolicyChecker fresh(without_memo);
  PolicyChecker memo(PolicyCheckerOptions{});
  int compared = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    k8s::DecodeOptions options;
    options.strict = false;
    const SourceText source(entry.path().string(), Read(entry.path()));
    k8s::DecodeResult decoded = k8s::Decode(source, options);
    for (const k8s::DecodedObject& object : decoded.objects) {
      if (object.kind == "DeviceClass" || !IsCheckedKind(object.kind) ||
          !IsCheckedVersion(object.api_version)) {
        continue;
      }
      const std::string version = object.api_version.substr(object.api_version.find('/') + 1);
      const std::string where = entry.path().string() + " " + object.kind + "/" + object.ref.name;
      const Json review = Review(object, version, BodyOf(object, source), where);
      for (bool admin : {false, true}) {
        const std::string expected =
            Send(fresh, AdmissionEndpoint::kValidate, review, admin).body;
        EXPECT_EQ(Send(memo, AdmissionEndpoint::kValidate, review, admin).body, expected)
            << where;
        EXPECT_EQ(Send(memo, AdmissionEndpoint::kValidate, review, admin).body, expected)
            << where << " (seen again: remembered)";
        EXPECT_EQ(Send(memo, AdmissionEndpoint::kValidate, review, admin).body, expected)
            << where << " (from the memo)";
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 100);
  EXPECT_GT(memo.remembered_specs(), 50u);
}

}  // namespace
}  // namespace draguard::webhook
