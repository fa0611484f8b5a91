// The JSON fast path gives the DocNode tree the YAML decoder gives the same JSON (kinds, texts,
// order), minus metadata.managedFields; invalid or too deep JSON is refused.
#include "webhook/admission/json_object.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace draguard::webhook {
namespace {

// Kind and text of every node, in document order: "map{key:string(x),...}".
std::string Dump(const k8s::DocNode& n) {
  std::string out(k8s::NodeKindName(n.kind));
  if (n.kind == k8s::NodeKind::kMap) {
    out += "{";
    for (const k8s::MapEntry& e : n.entries) out += e.key.text + ":" + Dump(e.value) + ",";
    return out + "}";
  }
  if (n.kind == k8s::NodeKind::kSequence) {
    out += "[";
    for (const k8s::DocNode& item : n.items) out += Dump(item) + ",";
    return out + "]";
  }
  return out + "(" + n.text + ")";
}

std::string ViaYaml(const std::string& json) {
  k8s::ParseResult parsed = k8s::ParseDocuments(SourceText("x.json", json));
  if (parsed.documents.empty() || !parsed.diagnostics.empty()) return "<error>";
  return Dump(parsed.documents.front().root);
}

std::string ViaFastPath(const std::string& json) {
  std::optional<k8s::DocNode> tree = ParseJsonTree(json);
  return tree.has_value() ? Dump(*tree) : "<error>";
}

class JsonTreeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(JsonTreeTest, MatchesTheYamlDecoder) { EXPECT_EQ(ViaFastPath(GetParam()), ViaYaml(GetParam())); }

INSTANTIATE_TEST_SUITE_P(
    JsonObject, JsonTreeTest,
    ::testing::Values(
        R"({"a":"x","b":1,"c":-2,"d":1.5,"e":true,"f":false,"g":null})",
        R"({"list":[1,"two",[3],{"four":4}],"empty":{},"none":[]})",
        R"({"unicode":"caf\u00e9","escapes":"a\"b\\c\n"})",
        R"({"big":9223372036854775807,"exp":1e3,"neg":-0.5})",
        R"({"dup":1,"dup":2})",
        R"({"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"count":2}}]}}})"));

TEST(JsonObjectTest, DropsManagedFieldsOnlyUnderMetadata) {
  std::optional<k8s::DocNode> tree = ParseJsonTree(
      R"({"metadata":{"name":"n","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}],)"
      R"("labels":{"a":"b"}},"spec":{"managedFields":1}})");
  ASSERT_TRUE(tree.has_value());
  EXPECT_EQ(Dump(*tree),
            "object{metadata:object{name:string(n),labels:object{a:string(b),},},"
            "spec:object{managedFields:integer(1),},}");
  // Metadata's keys are read as views before their slot is taken (json_object.cc): the
  // member left out may come last or first, its key may be escaped, and an escaped key that
  // is kept is decoded.
  const struct {
    const char* json;
    const char* dump;
  } cases[] = {
      {R"({"metadata":{"name":"n","managedFields":[]}})", "object{metadata:object{name:string(n),},}"},
      {R"({"metadata":{"managedFields":{},"name":"n"}})", "object{metadata:object{name:string(n),},}"},
      {R"({"metadata":{"managed\u0046ields":1,"na\u006de":"n"}})",
       "object{metadata:object{name:string(n),},}"},
      {R"({"metadata":{"managedFields":1,"managedFields":2}})", "object{metadata:object{},}"},
      {R"({"metadata":{"a\"b":"x","managedFieldsX":1}})",
       "object{metadata:object{a\"b:string(x),managedFieldsX:integer(1),},}"},
  };
  for (const auto& c : cases) {
    std::optional<k8s::DocNode> parsed = ParseJsonTree(c.json);
    ASSERT_TRUE(parsed.has_value()) << c.json;
    EXPECT_EQ(Dump(*parsed), c.dump) << c.json;
  }
  for (const char* bad : {R"({"metadata":{"a\x":1}})", R"({"metadata":{"a)" "\x01" R"(":1}})",
                          R"({"metadata":{"managedFields":})", R"({"metadata":{"name"})"}) {
    EXPECT_FALSE(ParseJsonTree(bad).has_value()) << bad;
  }
}

TEST(JsonObjectTest, RefusesInvalidAndTooDeep) {
  for (const char* bad : {"", "{", "{\"a\":}", "[1,]", "{} {}", "nul", "{\"a\":1}x"}) {
    EXPECT_FALSE(ParseJsonTree(bad).has_value()) << bad;
  }
  std::string deep = std::string(300, '[') + std::string(300, ']');
  EXPECT_FALSE(ParseJsonTree(deep).has_value());
  EXPECT_TRUE(ParseJsonTree(deep, {.max_depth = 400}).has_value());
}

TEST(JsonObjectTest, DecodesTheCheckedKindsAndReportsBadObjects) {
  Diagnostics out;
  k8s::ObjectVariant claim = DecodeAdmissionObject(
      R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","metadata":{"name":"c"},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","deviceClassName":"x","count":2}]}},)"
      R"("unknownField":1})",
      "ResourceClaim", "v1beta1", out);
  ASSERT_TRUE(std::holds_alternative<k8s::ResourceClaim>(claim));
  const auto& c = std::get<k8s::ResourceClaim>(claim);
  ASSERT_EQ(c.spec.devices.requests.size(), 1u);
  ASSERT_TRUE(c.spec.devices.requests[0].exactly.has_value()) << "v1beta1 shape read as v1";
  EXPECT_EQ(c.spec.devices.requests[0].exactly->count, 2);
  EXPECT_EQ(c.source_api_version, "resource.k8s.io/v1beta1");
  for (const Diagnostic& d : out) EXPECT_NE(d.code, "decode.unknown-field");

  Diagnostics bad;
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
      DecodeAdmissionObject("[1]", "ResourceClaim", "v1", bad)));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad.items()[0].code, "webhook.object.invalid");

  // The same from a tree the review scanner read: an array is not an object.
  std::optional<k8s::DocNode> array = ParseJsonTree("[1]");
  ASSERT_TRUE(array.has_value());
  Diagnostics from_tree;
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
      DecodeAdmissionTree(*array, "ResourceClaim", "v1", from_tree)));
  ASSERT_EQ(from_tree.size(), 1u);
  EXPECT_EQ(from_tree.items()[0].code, "webhook.object.invalid");
}

// DecodeScope::kWithoutSpec (the spec memo's route): the spec is neither read nor reported,
// whatever it holds; the rest of the object is decoded as with kAll.
TEST(JsonObjectTest, WithoutSpecDecodesOnlyTheRest) {
  struct Case {
    std::string kind;
    std::string json;
  };
  const std::vector<Case> cases = {
      {"ResourceClaim",
       R"({"metadata":{"name":"c","labels":{"a":"b"}},"spec":{"devices":{"requests":"flat"}},)"
       R"("status":{"reservedFor":[{"name":"p"}]}})"},
      {"ResourceClaimTemplate",
       R"({"metadata":{"name":"t"},"spec":{"metadata":{"labels":7},"spec":{"devices":[]}}})"},
  };
  for (const Case& c : cases) {
    std::optional<k8s::DocNode> tree = ParseJsonTree(c.json);
    ASSERT_TRUE(tree.has_value()) << c.json;
    Diagnostics all, rest;
    k8s::ObjectVariant full = DecodeAdmissionTree(*tree, c.kind, "v1", all);
    k8s::ObjectVariant partial =
        DecodeAdmissionTree(*tree, c.kind, "v1", rest, k8s::DecodeScope::kWithoutSpec);
    EXPECT_FALSE(all.empty()) << c.kind << ": the spec's wrong types are reported with kAll";
    EXPECT_TRUE(rest.empty()) << c.kind << ": " << rest.items().front().field;
    if (const auto* claim = std::get_if<k8s::ResourceClaim>(&partial)) {
      EXPECT_TRUE(claim->spec.devices.requests.empty());
      EXPECT_EQ(claim->metadata.labels, std::get<k8s::ResourceClaim>(full).metadata.labels);
      EXPECT_TRUE(claim->status.has_value()) << "status is outside the spec";
    } else {
      const auto& tmpl = std::get<k8s::ResourceClaimTemplate>(partial);
      EXPECT_EQ(tmpl.metadata.name, "t");
      EXPECT_TRUE(tmpl.template_metadata.labels.empty());
    }
  }
}

}  // namespace
}  // namespace draguard::webhook
