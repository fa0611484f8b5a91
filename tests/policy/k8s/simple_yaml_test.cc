// The fast path must give libyaml's trees: every table row and every corpus file is parsed
// both ways and compared node by node (offsets, positions, values, styles), diagnostics too.
#include "policy/k8s/simple_yaml.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "policy/k8s/document.h"

namespace draguard::k8s {
namespace {

// Counts events, to tell whether ScanSimpleYaml read a text.
class CountingYamlSink final : public YamlNodeSink {
 public:
  void OnScalar(size_t, std::string_view, ScalarStyle) override { ++events; }
  void OnOpen(size_t, NodeKind, bool) override { ++events; }
  void OnClose() override { ++events; }
  int events = 0;
};

bool FastPathReads(std::string_view text) {
  CountingYamlSink sink;
  return ScanSimpleYaml(text, sink);
}

// The documents and diagnostics of `text`, parsed with or without the fast path.
std::string DescribeParse(const std::string& text, bool fast) {
  ParseOptions options;
  options.simple_yaml_fast_path = fast;
  return DebugString(ParseDocuments(SourceText("in.yaml", text), options));
}

struct SimpleYamlCase {
  std::string name;
  std::string text;
  bool fast;  // whether the fast path reads it (else libyaml does)
};

class SimpleYamlParityTest : public ::testing::TestWithParam<SimpleYamlCase> {};

TEST_P(SimpleYamlParityTest, SameTreeAsLibyaml) {
  const SimpleYamlCase& c = GetParam();
  EXPECT_EQ(FastPathReads(c.text), c.fast);
  EXPECT_EQ(DescribeParse(c.text, /*fast=*/true), DescribeParse(c.text, /*fast=*/false));
}

const char kKubectlList[] = R"(apiVersion: v1
items:
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata:
    creationTimestamp: "2026-04-22T10:00:00Z"
    generation: 1
    name: node-1-gpu.nvidia.com-x7k2p
    ownerReferences:
    - apiVersion: v1
      controller: true
      kind: Node
      name: node-1
  spec:
    devices:
    - attributes:
        architecture:
          string: Ampere
        cudaComputeCapability:
          version: 8.0.0
        resource.kubernetes.io/pcieRoot:
          string: pci0000:00
        numa:
          int: 0
      capacity:
        memory:
          value: 80Gi
      name: gpu-0
    driver: gpu.nvidia.com
    nodeName: node-1
    pool:
      generation: 1
      name: node-1
      resourceSliceCount: 1
kind: List
metadata:
  resourceVersion: ""
)";

const char kFleetSlice[] = R"(---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: gpu-node-0000-gpu
spec:
  driver: gpu.nvidia.com
  nodeName: gpu-node-0000
  devices:
  - name: gpu-0
    attributes:
      type: {string: gpu}
      uuid: {string: GPU-00000000-4f1e-9c2a-0000-000000000000}
      cudaComputeCapability: {version: 8.0.0}
      resource.kubernetes.io/pciBusID: {string: "0000:07:00.0"}
      resource.kubernetes.io/pcieRoot: {string: pci0000:00}
      resource.kubernetes.io/numaNode: {int: 0}
    capacity:
      memory: {value: 80Gi}
)";

const char kJson[] = R"json({
    "apiVersion": "resource.k8s.io/v1",
    "kind": "DeviceClass",
    "metadata": {"name": "big", "labels": {}, "annotations": {"a": "x\u003ey \u0026\u0026 \"q\" \\ \u00e9\u4e2d"}},
    "spec": {
        "selectors": [
            {"cel": {"expression": "device.capacity['gpu.example.com'].memory \u003e= quantity('40Gi')"}}
        ],
        "numbers": [0, -1, 2.5, 1e3, true, false, null, []],
        "adjacent":{"k":1}
    }
}
)json";

// An API server's list as it arrives: one line of JSON (LineEnd is asked at every key and
// value of it; its answer is remembered, and must stay right on the lines after it).
std::string OneLineJsonList() {
  std::string text = R"({"kind":"ResourceSliceList","items":[)";
  for (int i = 0; i < 150; ++i) {
    if (i > 0) text += ',';
    text += R"({"metadata":{"name":"s)" + std::to_string(i) +
            R"(","labels":{"a":"b"}},"spec":{"devices":[{"name":"gpu-0","attributes":{"index":{"int":)" +
            std::to_string(i % 8) + R"(}}}],"allNodes":true}})";
  }
  return text + "]}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Tables, SimpleYamlParityTest,
    ::testing::Values(
        SimpleYamlCase{"kubectl_list", kKubectlList, true},
        SimpleYamlCase{"fleet_slice_flow_values", kFleetSlice, true},
        SimpleYamlCase{"json_document", kJson, true},
        SimpleYamlCase{"one_line_json_list", OneLineJsonList(), true},
        SimpleYamlCase{"flow_lines_after_a_long_one",
                       "a: {x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], y: {p: q, r: s}}\nb: {z: 1}\nc: "
                       "[k]\n",
                       true},
        SimpleYamlCase{"comments_everywhere",
                       "# head\n---\n# before\na: 1 # one\n\n  # indented comment\nb:\n  # in\n  c: "
                       "x#y # z\n",
                       true},
        SimpleYamlCase{"empty_values", "a:\nb: 1\nc:\n  d:\ne:\n- \n-\n- x\nf:", true},
        SimpleYamlCase{"nested_items", "- - a\n  - b\n- - - c\n- a: b\n  c: d\n-\n  e: f\n", true},
        SimpleYamlCase{"indentless_under_compact_map", "- a:\n  - x\n  b: y\n- k:\n- z\n", true},
        SimpleYamlCase{"quoted_keys_and_values",
                       "\"a b\": 'it''s'\n'c': \"tab\\tnew\\nline\\\" \\/ \\\\\"\nd : e\n\"f\" : g\n",
                       true},
        SimpleYamlCase{"plain_with_indicators_inside",
                       "a: x:y\nb: http://h:80/p?q=1#f\nc: -1\nd: .5\ne: a,b [c] {d}\nf: ...\n",
                       true},
        SimpleYamlCase{"flow_collections",
                       "a: {}\nb: []\nc: [1, 'two', \"3\", {x: y}, [z]]\nd: {k: v, 'q': \"w\"}\n",
                       true},
        SimpleYamlCase{"resolved_scalars", "a: yes\nb: ~\nc: 0x1F\nd: '1'\ne: 1_000\nf: .inf\n",
                       true},
        SimpleYamlCase{"merge_key_without_alias", "a: 1\n<<: {a: 2, b: 3}\n", true},
        // Left to libyaml (valid, but outside the subset):
        SimpleYamlCase{"anchor_and_alias", "a: &x 1\nb: *x\n", false},
        SimpleYamlCase{"tag", "a: !!str 1\n", false},
        SimpleYamlCase{"literal_block", "a: |\n  x\n   y\n\n  z\n\n\nb: 1\n", true},
        SimpleYamlCase{"literal_strip_in_items",
                       "a:\n- |-\n  one\n  two\n- x\n- |\n    deep\n  # after\nb: 1\n", true},
        SimpleYamlCase{"folded_blocks",
                       "a: >-\n  device.x\n  == 1\n\n  && y\n    more\n  last\nb: >\n\n  p\n  q \n",
                       true},
        SimpleYamlCase{"block_at_end_without_newline", "a: |\n  x\n  y", true},
        SimpleYamlCase{"block_with_spaces_only_lines", "a: |\n  x\n     \n  \n  y\nb: >\n   \n  z\n",
                       false},
        SimpleYamlCase{"keep_chomping", "a: |+\n  x\n\nb: 1\n", false},
        SimpleYamlCase{"indentation_indicator", "a: |2\n   x\n", false},
        SimpleYamlCase{"empty_block", "a: |\nb: 1\n", false},
        SimpleYamlCase{"multi_line_plain", "a: one\n  two\nb: 1\n", false},
        SimpleYamlCase{"tab_in_value", "a: x\ty\n", false},
        SimpleYamlCase{"non_ascii", "a: caf\xc3\xa9\n", false},
        SimpleYamlCase{"crlf", "a: 1\r\nb: 2\r\n", false},
        SimpleYamlCase{"scalar_root", "just text\n", false},
        SimpleYamlCase{"document_end_marker", "a: 1\n...\n", false},
        SimpleYamlCase{"directive", "%YAML 1.1\n---\na: 1\n", false},
        SimpleYamlCase{"multi_line_flow_in_block", "a: [1,\n  2]\n", false},
        SimpleYamlCase{"value_on_next_line", "a:\n  text\n", false},
        SimpleYamlCase{"escape_outside_subset", "a: \"\\x41\\U0001F600\"\n", false},
        SimpleYamlCase{"only_comments", "# nothing\n", false},
        // Left to libyaml (invalid: its diagnostics, the same either way):
        SimpleYamlCase{"trailing_comma", "a: [1, 2,]\n", false},
        SimpleYamlCase{"key_without_value_in_flow", "a: {b}\n", false},
        SimpleYamlCase{"sequence_after_key", "a: - b\n", false},
        SimpleYamlCase{"mapping_in_value", "a: b: c\n", false},
        SimpleYamlCase{"bad_indentation", "a:\n    b: 1\n  c: 2\n", false},
        SimpleYamlCase{"item_in_mapping", "a: 1\n- b\n", false},
        SimpleYamlCase{"unclosed_quote", "a: \"x\nb: 1\n", false},
        SimpleYamlCase{"unclosed_flow", "a: {b: c\n", false},
        SimpleYamlCase{"content_after_json_root", "{\"a\": 1}\nb: 2\n", false},
        SimpleYamlCase{"colon_before_flow_indicator", "a: {b:c, d: e:}\n", false}),
    [](const ::testing::TestParamInfo<SimpleYamlCase>& info) { return info.param.name; });

// A stream of documents: some read by the fast path, some by libyaml; indexes and positions
// line up either way.
TEST(SimpleYamlStreamTest, MixedStreamMatchesLibyaml) {
  const std::string text = std::string(kFleetSlice) + "---\na: &x 1\nb: *x\n---\n" +
                           kKubectlList + "---\nbad: [\n---\nc: 1\n";
  EXPECT_EQ(DescribeParse(text, true), DescribeParse(text, false));
}

// Limits hit on the fast path are reported as libyaml's path reports them.
TEST(SimpleYamlStreamTest, LimitsAreLibyamlsEither) {
  ParseOptions options;
  options.max_depth = 3;
  options.max_nodes = 7;
  for (const std::string text : {"a:\n  b:\n    c:\n      d: 1\n", "a: 1\nb: 2\nc: 3\nd: 4\n",
                                 "a: [[[[1]]]]\n"}) {
    std::string fast;
    std::string slow;
    for (bool use_fast : {true, false}) {
      options.simple_yaml_fast_path = use_fast;
      ParseResult r = ParseDocuments(SourceText("in.yaml", text), options);
      std::string& out = use_fast ? fast : slow;
      out += std::to_string(r.documents.size());
      for (const Diagnostic& d : r.diagnostics) {
        out += " " + d.code + "@" + std::to_string(d.position.line) + ":" +
               std::to_string(d.position.column);
      }
    }
    EXPECT_EQ(fast, slow) << text;
    EXPECT_NE(fast.find("decode.too-"), std::string::npos) << text;
  }
}

// The documents of a stream, split where kubectl splits them (a line starting with `---`).
std::vector<std::string> SplitAtDocumentMarkers(const std::string& text) {
  std::vector<std::string> documents(1);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("---") && !documents.back().empty()) documents.emplace_back();
    documents.back() += line + "\n";
  }
  return documents;
}

// Whether a piece of a stream has a line other than blanks, comments and `---`.
bool HasContent(const std::string& piece) {
  std::istringstream in(piece);
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line[first] != '#' && !line.starts_with("---")) return true;
  }
  return false;
}

// Every corpus manifest: the same trees and diagnostics; most documents take the fast path.
TEST(SimpleYamlCorpusTest, SameTreesAsLibyamlOnTheCorpus) {
  const std::filesystem::path corpus = std::filesystem::path(DRAGUARD_SHARED_DIR) / "corpus";
  if (!std::filesystem::is_directory(corpus)) {
    GTEST_SKIP() << "../shared/corpus is absent: the corpus parity check is skipped";
  }
  int files = 0;
  int documents = 0;
  int fast_documents = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml" && ext != ".json")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    for (const std::string& doc : SplitAtDocumentMarkers(text)) {
      if (!HasContent(doc)) continue;
      ++documents;
      if (FastPathReads(doc)) ++fast_documents;
    }
    ++files;
    EXPECT_EQ(DescribeParse(text, true), DescribeParse(text, false)) << entry.path();
  }
  ASSERT_GT(files, 100);
  // Most documents are in the subset: 650 of 698 (the others: Helm templates, multi-line
  // plain scalars, flow collections over several lines in block context, ...).
  EXPECT_GT(fast_documents * 2, documents) << fast_documents << " of " << documents;
}

}  // namespace
}  // namespace draguard::k8s
