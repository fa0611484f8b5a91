// The direct decode (direct_decode.h) against the tree route it short-cuts: for every
// ResourceClaim, ResourceClaimTemplate and DeviceClass of the corpus (../shared/corpus, as the
// API server's JSON) and for variants of real and generated objects with one member renamed,
// retyped, nulled, repeated, escaped or deleted, or one object's members reordered, both routes
// give the same model (k8s::ModelDebugString) and the same diagnostics, and the direct route
// must not give up on the corpus's own objects. The same holds through the handler's scan
// (ScanAdmissionReview with a deferred spec and direct metadata, CompleteObjectSpec).
#include "tests/webhook/testing/doc_node_json.h"
#include "webhook/admission/direct_decode.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "policy/k8s/decode.h"
#include "policy/k8s/document.h"
#include "policy/k8s/model_debug.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"
#include "webhook/admission/review_scanner.h"

namespace draguard::webhook::direct_decode_test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string Describe(const k8s::ObjectVariant& object, const Diagnostics& diagnostics) {
  std::string out = k8s::ModelDebugString(object) + "\n";
  for (const Diagnostic& d : diagnostics) {
    out += std::to_string(static_cast<int>(d.severity)) + "|" + d.code + "|" + d.field + "|" +
           d.message + "|" + d.suggestion + "\n";
  }
  return out;
}

struct Outcome {
  std::string text;     // the model and the findings, or "<invalid>"
  bool direct = false;  // the direct route decoded the metadata
  bool spec = false;    // and the spec
};

// The tree route: the whole object into a tree, decoded by the k8s decoders.
Outcome ViaTree(const std::string& json, const std::string& kind, const std::string& version,
                k8s::DecodeScope scope) {
  const std::optional<k8s::DocNode> tree = ParseJsonTree(json);
  if (!tree.has_value()) return {"<invalid>"};
  Diagnostics found;
  const k8s::ObjectVariant object = DecodeAdmissionTree(*tree, kind, version, found, scope);
  return {Describe(object, found)};
}

std::string Review(const std::string& object, const std::string& kind,
                   const std::string& version) {
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
         R"("kind":{"group":"resource.k8s.io","version":")" +
         version + R"(","kind":")" + kind + R"("},"operation":"CREATE","object":)" + object +
         "}}";
}

// The direct route as the handler's scan for /validate takes it: the spec deferred, the
// metadata decoded during the scan, the spec by CompleteObjectSpec.
Outcome ViaDirect(const std::string& json, const std::string& kind, const std::string& version,
                  k8s::DecodeScope scope) {
  const std::string review = Review(json, kind, version);
  ScanOptions options;
  options.max_depth = JsonObjectOptions().max_depth + 2;  // the object's limit inside a review
  options.defer_object_spec = true;
  options.direct_object_metadata = true;
  options.direct_object_spec = true;
  ReviewFields fields;
  if (!ScanAdmissionReview(review, options, fields).ok()) return {"<invalid>"};
  if (!CompleteObjectSpec(review, options, fields).ok()) return {"<invalid>"};
  if (!fields.object_tree.has_value()) return {"<invalid>"};
  const bool metadata = fields.object_metadata.decoded;
  const bool spec = fields.object_spec_direct.decoded;
  Diagnostics found;
  const k8s::ObjectVariant object =
      DecodeAdmissionTree(*fields.object_tree, kind, version, found, scope,
                          &fields.object_metadata, &fields.object_spec_direct);
  return {Describe(object, found), metadata, spec};
}

// Compares both routes in both scopes; returns what the direct route decoded.
Outcome ExpectSameModel(const std::string& json, const std::string& kind,
                        const std::string& version, const std::string& where) {
  Outcome direct;
  for (k8s::DecodeScope scope : {k8s::DecodeScope::kAll, k8s::DecodeScope::kWithoutSpec}) {
    const Outcome tree = ViaTree(json, kind, version, scope);
    direct = ViaDirect(json, kind, version, scope);
    EXPECT_EQ(direct.text, tree.text) << where << "\n" << json;
  }
  return direct;
}

// --- variants --------------------------------------------------------------------------------

// A JSON value as members or items, to be written with one collection changed.
struct Member {
  std::string key;    // the key's JSON text (with quotes); empty for an array item
  std::string value;  // the value's JSON text
};

std::string Write(const Json& node, const Json* target, const std::vector<Member>& replaced);

std::string WriteMembers(bool object, const std::vector<Member>& members) {
  std::string out = object ? "{" : "[";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ",";
    if (object) out += members[i].key + ":";
    out += members[i].value;
  }
  return out + (object ? "}" : "]");
}

// `node` as JSON text, with `target`'s members (a collection within it) written as `replaced`.
std::string Write(const Json& node, const Json* target, const std::vector<Member>& replaced) {
  if (&node == target) return WriteMembers(node.is_object(), replaced);
  if (!node.is_structured()) return node.dump();
  std::vector<Member> members;
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      members.push_back({Json(it.key()).dump(), Write(it.value(), target, replaced)});
    }
  } else {
    for (const Json& item : node) members.push_back({"", Write(item, target, replaced)});
  }
  return WriteMembers(node.is_object(), members);
}

void Collections(const Json& node, std::vector<const Json*>& out) {
  if (!node.is_structured()) return;
  out.push_back(&node);
  for (const Json& child : node) Collections(child, out);
}

// The key with its first character written as a \u escape: the same decoded name.
std::string Escaped(const std::string& key) {
  if (key.size() < 3) return key;
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned char>(key[1]));
  return "\"" + std::string(buffer) + key.substr(2);
}

// Every variant of `root` with one collection changed.
std::vector<std::string> Variants(const Json& root) {
  static const char* const kValues[] = {"null", "1", "-1", "1.5", "1e2", "9223372036854775808",
                                        "\"s\"", "true", "[]", "{}", "[\"a\"]", "{\"a\":\"b\"}"};
  std::vector<const Json*> collections;
  Collections(root, collections);
  std::vector<std::string> out;
  for (const Json* target : collections) {
    std::vector<Member> members;
    if (target->is_object()) {
      for (auto it = target->begin(); it != target->end(); ++it) {
        members.push_back({Json(it.key()).dump(), Write(it.value(), nullptr, {})});
      }
    } else {
      for (const Json& item : *target) members.push_back({"", Write(item, nullptr, {})});
    }
    const auto emit = [&](const std::vector<Member>& changed) {
      out.push_back(Write(root, target, changed));
    };
    for (size_t i = 0; i < members.size(); ++i) {
      std::vector<Member> m = members;
      m.erase(m.begin() + static_cast<std::ptrdiff_t>(i));  // deleted
      emit(m);
      m = members;
      m.insert(m.begin() + static_cast<std::ptrdiff_t>(i) + 1, members[i]);  // repeated
      emit(m);
      for (const char* value : kValues) {  // retyped, nulled
        m = members;
        m[i].value = value;
        emit(m);
      }
      if (target->is_object()) {
        m = members;
        m[i].key = m[i].key.substr(0, m[i].key.size() - 1) + "x\"";  // renamed
        emit(m);
        m = members;
        m[i].key = Escaped(m[i].key);  // escaped
        emit(m);
        m = members;
        m.push_back(members[i]);  // repeated, apart
        emit(m);
      }
    }
    if (members.size() > 1) {  // reordered
      std::vector<Member> m(members.rbegin(), members.rend());
      emit(m);
    }
  }
  return out;
}

// A claim as the API server sends it, with every metadata member the direct route reads.
constexpr char kClaim[] = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
"metadata":{"name":"train-0-gpus","generateName":"train-0-gpus-","namespace":"ml",
"uid":"7c1f3a52-9d4e","resourceVersion":"12","generation":3,
"creationTimestamp":"2026-11-22T23:00:00Z","deletionTimestamp":"2026-11-23T00:00:00Z",
"deletionGracePeriodSeconds":30,"selfLink":"/x",
"labels":{"app.kubernetes.io/name":"train","team":"fm","caf\u00e9":"\u00e9t\u00e9"},
"annotations":{"a/b":"c"},"finalizers":["f/one","f/two"],
"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u","controller":true}],
"managedFields":[{"manager":"m","fieldsV1":{"f:metadata":{"f:labels":{".":{}}}}}]},
"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com",
"count":2,"selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}]}}]}}})";

constexpr char kTemplate[] = R"({"apiVersion":"resource.k8s.io/v1",
"kind":"ResourceClaimTemplate","metadata":{"name":"t","namespace":"ml","labels":{"a":"b"}},
"spec":{"metadata":{"labels":{"c":"d"}},"spec":{"devices":{"requests":[{"name":"r",
"exactly":{"deviceClassName":"c"}}]}}}})";

constexpr char kClass[] = R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",
"metadata":{"name":"gpu.example.com","annotations":{"x":"y"},"generation":1},
"spec":{"selectors":[{"cel":{"expression":"true"}}]}})";

TEST(DirectDecodeTest, DecodesTheMetadataOfEveryKind) {
  for (const auto& [json, kind] : std::vector<std::pair<const char*, const char*>>{
           {kClaim, "ResourceClaim"}, {kTemplate, "ResourceClaimTemplate"},
           {kClass, "DeviceClass"}}) {
    const Outcome direct = ExpectSameModel(json, kind, "v1", kind);
    EXPECT_TRUE(direct.direct) << kind << "'s metadata fell back";
    EXPECT_EQ(direct.spec, std::string(kind) != "DeviceClass") << kind << "'s spec";
  }
}

TEST(DirectDecodeTest, MetadataIsNotInTheTree) {
  JsonLexer lexer(kClaim);
  k8s::DocNode tree;
  DirectMetadata direct;
  ASSERT_TRUE(ReadJsonTree(lexer, 0, 256, tree, nullptr, nullptr, &direct));
  ASSERT_TRUE(direct.decoded);
  const k8s::DocNode* metadata = tree.Find("metadata");
  ASSERT_NE(metadata, nullptr);
  EXPECT_EQ(metadata->kind, k8s::NodeKind::kMap);
  EXPECT_TRUE(metadata->entries.empty());
  EXPECT_EQ(direct.meta.name, "train-0-gpus");
  EXPECT_EQ(direct.meta.labels.at("caf\u00e9"), "\u00e9t\u00e9");
  EXPECT_EQ(direct.meta.generation, 3);
  EXPECT_TRUE(direct.meta.has_deletion_timestamp);
}

// Each of these gives up (the tree route then decodes), and both routes still agree.
TEST(DirectDecodeTest, GivesUpOnWhatItDoesNotDecodeExactly) {
  const std::string head = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",)";
  for (const char* metadata : {
           R"("metadata":{"name":null})",
           R"("metadata":{"name":1})",
           R"("metadata":{"name":"a","name":"b"})",
           R"("metadata":{"unknownField":"a"})",
           R"("metadata":{"generation":1.0})",
           R"("metadata":{"generation":1e3})",
           R"("metadata":{"generation":9223372036854775808})",
           R"("metadata":{"generation":"1"})",
           R"("metadata":{"labels":{"a":"b","a":"c"}})",
           R"("metadata":{"labels":{"a":1}})",
           R"("metadata":{"labels":[]})",
           R"("metadata":{"finalizers":[1]})",
           R"("metadata":{"finalizers":null})",
           R"("metadata":{"deletionTimestamp":null})",
           R"("metadata":{"name":"a"},"metadata":{"name":"b"})",
           R"("metadata":[])",
           R"("metadata":null)",
       }) {
    const std::string json = head + metadata + "}";
    EXPECT_FALSE(ExpectSameModel(json, "ResourceClaim", "v1", json).direct) << json;
  }
}

TEST(DirectDecodeTest, AgreesOnEveryVariant) {
  size_t variants = 0, direct = 0, spec = 0;
  for (const auto& [text, kind] : std::vector<std::pair<const char*, const char*>>{
           {kClaim, "ResourceClaim"}, {kTemplate, "ResourceClaimTemplate"},
           {kClass, "DeviceClass"}}) {
    for (const std::string& json : Variants(Json::parse(text))) {
      const Outcome outcome = ExpectSameModel(json, kind, "v1", kind);
      direct += outcome.direct;
      spec += outcome.spec;
      ++variants;
    }
  }
  EXPECT_GT(variants, 500u);
  EXPECT_GT(direct, variants / 4);  // most variants change something the direct route skips
  EXPECT_GT(spec, variants / 4);
  std::printf("variants: %zu, metadata decoded directly: %zu, spec: %zu\n", variants, direct,
              spec);
}

TEST(DirectDecodeTest, InvalidOrTooDeepMetadataGivesTheTreeRoutesError) {
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  for (const std::string& metadata : {std::string(R"({"name":"a",})"),
                                      std::string(R"({"name":"a")"),
                                      std::string(R"({"managedFields":)") + deep + "}",
                                      std::string(R"({"labels":{"a":"\ud800"}})"),
                                      std::string(R"({"name":"a\u00"})")}) {
    const std::string json = R"({"kind":"ResourceClaim","metadata":)" + metadata + "}";
    ExpectSameModel(json, "ResourceClaim", "v1", json);
    // And the error at the same byte.
    JsonLexer plain(json), fast(json);
    k8s::DocNode a, b;
    DirectMetadata direct;
    const bool ok_plain = ReadJsonTree(plain, 0, 256, a);
    const bool ok_fast = ReadJsonTree(fast, 0, 256, b, nullptr, nullptr, &direct);
    EXPECT_EQ(ok_fast, ok_plain) << json;
    EXPECT_EQ(fast.pos(), plain.pos()) << json;
    EXPECT_STREQ(fast.error(), plain.error()) << json;
  }
}

// --- the corpus ----------------------------------------------------------------------------

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using testing::DocNodeToJson;

// The corpus's claims, templates and classes of resource.k8s.io as JSON, with their kind and
// version (List items too).
struct CorpusObject {
  std::string where, json, kind, version;
};

std::vector<CorpusObject> CorpusObjects(const fs::path& corpus) {
  std::vector<CorpusObject> out;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    const k8s::ParseResult parsed =
        k8s::ParseDocuments(SourceText(entry.path().string(), Read(entry.path())));
    const auto add = [&](const k8s::DocNode& root) {
      if (root.kind != k8s::NodeKind::kMap) return;
      const k8s::DocNode* api = root.Find("apiVersion");
      const k8s::DocNode* kind = root.Find("kind");
      if (api == nullptr || kind == nullptr || !api->text.starts_with("resource.k8s.io/")) return;
      if (kind->text != "ResourceClaim" && kind->text != "ResourceClaimTemplate" &&
          kind->text != "DeviceClass") {
        return;
      }
      out.push_back({entry.path().string() + " " + kind->text, DocNodeToJson(root).dump(), kind->text,
                     api->text.substr(api->text.find('/') + 1)});
    };
    for (const k8s::Document& doc : parsed.documents) {
      add(doc.root);
      if (const k8s::DocNode* items = doc.root.Find("items");
          items != nullptr && items->kind == k8s::NodeKind::kSequence) {
        for (const k8s::DocNode& item : items->items) add(item);
      }
    }
  }
  return out;
}

TEST(DirectDecodeTest, AgreesOnTheCorpus) {
  const fs::path corpus = fs::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no corpus at " << corpus << ": not compared";
  size_t objects = 0, direct = 0, variants = 0, v1_specs = 0, spec = 0;
  for (const CorpusObject& object : CorpusObjects(corpus)) {
    ++objects;
    const Outcome outcome =
        ExpectSameModel(object.json, object.kind, object.version, object.where);
    direct += outcome.direct;
    spec += outcome.spec;
    v1_specs += object.version == "v1" && object.kind != "DeviceClass";
    // Variants of the first objects of each kind (all of them would take minutes).
    if (objects % 25 == 1) {
      for (const std::string& json : Variants(Json::parse(object.json))) {
        ExpectSameModel(json, object.kind, object.version, object.where + " (variant)");
        ++variants;
      }
    }
  }
  EXPECT_GT(objects, 200u);
  // The corpus is written by people, not re-encoded by an API server: what falls back there
  // (creationTimestamp: null, say) is counted, and nearly all must not.
  EXPECT_GT(direct, objects * 9 / 10) << direct << " of " << objects;
  EXPECT_GT(spec, v1_specs * 9 / 10) << spec << " of " << v1_specs;
  std::printf(
      "corpus: %zu objects, metadata decoded directly: %zu; v1 claim/template specs: %zu, "
      "decoded directly: %zu; %zu variants\n",
      objects, direct, v1_specs, spec, variants);
}

// Through the handler's scan: deferred spec, direct metadata, the spec completed afterwards.
TEST(DirectDecodeTest, TheScansRouteAgrees) {
  for (const auto& [text, kind] : std::vector<std::pair<const char*, const char*>>{
           {kClaim, "ResourceClaim"}, {kTemplate, "ResourceClaimTemplate"},
           {kClass, "DeviceClass"}}) {
    for (const std::string& object : Variants(Json::parse(text))) {
      const std::string review =
          R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",)"
          R"("kind":{"group":"resource.k8s.io","version":"v1","kind":")" +
          std::string(kind) + R"("},"operation":"CREATE","object":)" + object + "}}";
      ScanOptions handler_scan;
      handler_scan.defer_object_spec = true;
      handler_scan.direct_object_metadata = true;
      ReviewFields fast;
      Status scanned = ScanAdmissionReview(review, handler_scan, fast);
      if (scanned.ok()) scanned = CompleteObjectSpec(review, handler_scan, fast);
      const StatusOr<ReviewFields> plain = ScanAdmissionReview(review);
      ASSERT_EQ(scanned.ok(), plain.ok()) << object;
      if (!plain.ok()) {
        EXPECT_EQ(scanned.message(), plain.status().message());
        continue;
      }
      ASSERT_TRUE(fast.object_tree.has_value() && plain->object_tree.has_value());
      Diagnostics a, b;
      const k8s::ObjectVariant via_tree = DecodeAdmissionTree(*plain->object_tree, kind, "v1", a);
      const k8s::ObjectVariant via_direct = DecodeAdmissionTree(
          *fast.object_tree, kind, "v1", b, k8s::DecodeScope::kAll, &fast.object_metadata);
      EXPECT_EQ(Describe(via_direct, b), Describe(via_tree, a)) << object;
    }
  }
}

}  // namespace
}  // namespace draguard::webhook::direct_decode_test
