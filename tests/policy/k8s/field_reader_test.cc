// NodeToJson (policy/k8s/field_reader.h): compact JSON with the members of each object sorted
// by key and, of repeated keys, the last one's value (how nlohmann's std::map holds an
// object, which the checks compare opaque parameters by); strings escaped as nlohmann's dump
// escapes them. The expected texts are written from those rules, for trees the direct writer
// handles and for those it leaves to nlohmann (floats, non-ASCII text).
#include "policy/k8s/field_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "policy/k8s/document.h"

namespace draguard::k8s {
namespace {

struct JsonCase {
  const char* name;
  std::string text;  // a YAML document (JSON is YAML): the value under "v"
  std::string want;
};

class NodeToJsonTest : public testing::TestWithParam<JsonCase> {};

TEST_P(NodeToJsonTest, WritesSortedCompactJson) {
  ParseResult parsed = ParseDocuments(SourceText("in.yaml", "v: " + GetParam().text + "\n"));
  ASSERT_TRUE(parsed.diagnostics.empty()) << GetParam().text;
  ASSERT_EQ(parsed.documents.size(), 1u);
  const DocNode* v = parsed.documents[0].root.Find("v");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(NodeToJson(*v), GetParam().want) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Trees, NodeToJsonTest,
    testing::Values(
        JsonCase{"Scalars", R"([null, true, false, 0, -42, 9223372036854775807, "s", ""])",
                 R"([null,true,false,0,-42,9223372036854775807,"s",""])"},
        JsonCase{"KeysSorted", R"({"b": 1, "a": "x", "c": [true, false, null]})",
                 R"({"a":"x","b":1,"c":[true,false,null]})"},
        JsonCase{"NestedKeysSorted", R"({"z": {"y": 1, "x": 2}, "a": [{"d": 1, "c": 2}]})",
                 R"({"a":[{"c":2,"d":1}],"z":{"x":2,"y":1}})"},
        JsonCase{"RepeatedKeyLastWins", R"({"k": 1, "j": 0, "k": 2})", R"({"j":0,"k":2})"},
        JsonCase{"Empty", R"({"a": {}, "b": [], "c": ""})", R"({"a":{},"b":[],"c":""})"},
        // Two-character escapes where JSON has them, \u00xx for other control bytes, DEL as is.
        JsonCase{"Escapes",
                 R"({"s": "q\" b\\ n\n t\t r\r b\b f\f c\u0001 u\u001f d\u007f /"})",
                 R"({"s":"q\" b\\ n\n t\t r\r b\b f\f c\u0001 u\u001f d)" "\x7f" R"( /"})"},
        // Keys sort by bytes: '\n' (0x0a) before '"' (0x22).
        JsonCase{"EscapedKeys", R"({"a\"b": 1, "a\nb": 2, "a": 3})",
                 R"({"a":3,"a\nb":2,"a\"b":1})"},
        JsonCase{"NonAsciiLeftToNlohmann", R"({"s": "café", "k": ["ü"]})",
                 R"({"k":["ü"],"s":"café"})"},
        JsonCase{"FloatsLeftToNlohmann", R"({"f": 1.5, "g": 1e300, "h": [0.1]})",
                 R"({"f":1.5,"g":1e+300,"h":[0.1]})"},
        // YAML 1.1 scalars as the decoder resolves them (Kubernetes' go-yaml v2 rules).
        JsonCase{"YamlScalars", "{a: yes, b: 0x1F, c: ~, d: plain text}",
                 R"({"a":true,"b":31,"c":null,"d":"plain text"})"},
        JsonCase{"OpaqueParameters",
                 R"({"apiVersion": "resource.nvidia.com/v1beta1", "kind": "GpuConfig",)"
                 R"( "sharing": {"strategy": "TimeSlicing",)"
                 R"( "timeSlicingConfig": {"interval": "Long"}}})",
                 R"({"apiVersion":"resource.nvidia.com/v1beta1","kind":"GpuConfig",)"
                 R"("sharing":{"strategy":"TimeSlicing","timeSlicingConfig":{"interval":"Long"}}})"},
        // Keys already in order are written in place; any key out of order, or a repeat
        // (even next to its first), takes the sorting path.
        JsonCase{"KeysInOrder", R"({"a": 1, "b": {"c": 2, "d": 3}, "e": [{"f": 4}]})",
                 R"({"a":1,"b":{"c":2,"d":3},"e":[{"f":4}]})"},
        JsonCase{"LastKeyOutOfOrder", R"({"a": 1, "c": 2, "b": 3})",
                 R"({"a":1,"b":3,"c":2})"},
        JsonCase{"AdjacentRepeatLastWins", R"({"a": 1, "b": 2, "b": 3})", R"({"a":1,"b":3})"},
        JsonCase{"ScalarRoot", R"("text")", R"("text")"}),
    [](const testing::TestParamInfo<JsonCase>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace draguard::k8s
