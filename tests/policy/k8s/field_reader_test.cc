// NodeToJson (policy/k8s/field_reader.h) against a slow, obviously correct reference: the
// nlohmann value built from the same tree and dumped, which is what NodeToJson returned before
// it wrote the common trees directly.
#include "policy/k8s/field_reader.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "policy/k8s/document.h"

namespace draguard::k8s {
namespace {

nlohmann::json Reference(const DocNode& node) {
  switch (node.kind) {
    case NodeKind::kNull: return nullptr;
    case NodeKind::kBool: return node.bool_value;
    case NodeKind::kInt: return node.int_value;
    case NodeKind::kFloat: return node.float_value;
    case NodeKind::kString: return node.text;
    case NodeKind::kSequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const DocNode& item : node.items) array.push_back(Reference(item));
      return array;
    }
    case NodeKind::kMap: {
      nlohmann::json object = nlohmann::json::object();
      for (const MapEntry& e : node.entries) object[e.key.text] = Reference(e.value);
      return object;
    }
  }
  return nullptr;
}

struct JsonCase {
  const char* name;
  std::string text;  // a YAML document (JSON is YAML): the value under "v"
};

class NodeToJsonTest : public testing::TestWithParam<JsonCase> {};

TEST_P(NodeToJsonTest, MatchesNlohmannDump) {
  ParseResult parsed = ParseDocuments(SourceText("in.yaml", "v: " + GetParam().text + "\n"));
  ASSERT_TRUE(parsed.diagnostics.empty()) << GetParam().text;
  ASSERT_EQ(parsed.documents.size(), 1u);
  const DocNode* v = parsed.documents[0].root.Find("v");
  ASSERT_NE(v, nullptr);
  const std::string want =
      Reference(*v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  EXPECT_EQ(NodeToJson(*v), want) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Trees, NodeToJsonTest,
    testing::Values(
        JsonCase{"Scalars", R"([null, true, false, 0, -42, 9223372036854775807, "s", ""])"},
        JsonCase{"KeysSorted", R"({"b": 1, "a": "x", "c": [true, false, null]})"},
        JsonCase{"NestedKeysSorted", R"({"z": {"y": 1, "x": 2}, "a": [{"d": 1, "c": 2}]})"},
        JsonCase{"RepeatedKeyLastWins", R"({"k": 1, "j": 0, "k": 2})"},
        JsonCase{"Empty", R"({"a": {}, "b": [], "c": ""})"},
        JsonCase{"Escapes",
                 R"({"s": "q\" b\\ n\n t\t r\r b\b f\f c\u0001 u\u001f d\u007f /"})"},
        JsonCase{"EscapedKeys", R"({"a\"b": 1, "a\nb": 2, "a": 3})"},
        JsonCase{"NonAsciiLeftToNlohmann", R"({"s": "café", "k": ["ü"]})"},
        JsonCase{"FloatsLeftToNlohmann", R"({"f": 1.5, "g": 1e300, "h": [0.1]})"},
        JsonCase{"YamlScalars", "{a: yes, b: 0x1F, c: ~, d: plain text}"},
        JsonCase{"OpaqueParameters",
                 R"({"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",)"
                 R"( "sharing": {"strategy": "TimeSlicing",)"
                 R"( "timeSlicingConfig": {"interval": "Long"}}})"},
        JsonCase{"ScalarRoot", R"("text")"}),
    [](const testing::TestParamInfo<JsonCase>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace draguard::k8s
