// FieldIndex against the obvious reference: the same walk over the DocNode tree it replaces,
// on every path of real-shaped documents, on paths that go past the document, and on the
// v1beta1 fallbacks (`exactly` skipped, `basic` entered).
#include "policy/k8s/field_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "policy/common/field_path.h"
#include "policy/common/source.h"

namespace draguard::k8s {
namespace {

struct ReferenceStep {
  const DocNode* value = nullptr;
  const DocNode* key = nullptr;
};

const MapEntry* ReferenceFind(const DocNode& map, std::string_view key) {
  if (map.kind != NodeKind::kMap) return nullptr;
  for (const MapEntry& e : map.entries) {
    if (e.key.text == key) return &e;
  }
  return nullptr;
}

bool ReferenceAdvance(const FieldPathSegment& seg, ReferenceStep* at) {
  const DocNode& node = *at->value;
  if (seg.kind == FieldPathSegment::Kind::kIndex) {
    if (node.kind != NodeKind::kSequence || seg.index >= node.items.size()) return false;
    *at = ReferenceStep{&node.items[seg.index], nullptr};
    return true;
  }
  if (const MapEntry* e = ReferenceFind(node, seg.name)) {
    *at = ReferenceStep{&e->value, &e->key};
    return true;
  }
  if (seg.kind != FieldPathSegment::Kind::kField) return false;
  if (seg.name == "exactly" && node.kind == NodeKind::kMap) return true;
  if (const MapEntry* basic = ReferenceFind(node, "basic")) {
    if (const MapEntry* e = ReferenceFind(basic->value, seg.name)) {
      *at = ReferenceStep{&e->value, &e->key};
      return true;
    }
  }
  return false;
}

// The tree walk DecodedObject::Locate did before the index: the node found and whether the
// whole path exists.
std::pair<const DocNode*, bool> ReferenceResolve(const DocNode& root, const std::string& field) {
  ReferenceStep at{&root, nullptr};
  bool exact = true;
  for (const FieldPathSegment& seg : SplitFieldPath(field)) {
    if (!ReferenceAdvance(seg, &at)) {
      exact = false;
      break;
    }
  }
  if (exact && at.value->is_scalar()) return {at.value, true};
  return {at.key != nullptr ? at.key : at.value, exact};
}

// Every path in the tree, plus, below each node, a field and an index that do not exist.
void AllPaths(const DocNode& node, const std::string& path, std::vector<std::string>& out) {
  out.push_back(path);
  const std::string dot = path.empty() ? "" : ".";
  out.push_back(path + dot + "missing");
  out.push_back(path + "[7]");
  for (size_t i = 0; i < node.items.size(); ++i) {
    AllPaths(node.items[i], path + "[" + std::to_string(i) + "]", out);
  }
  for (const MapEntry& e : node.entries) AllPaths(e.value, path + dot + e.key.text, out);
}

const char* const kFieldIndexDocuments[] = {
    R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: "team-a"}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
        count: 2
        selectors:
        - cel:
            expression: |-
              device.attributes["gpu.nvidia.com"].productName == 'A100'
    - name: mig
      firstAvailable:
      - {name: small, deviceClassName: mig.nvidia.com}
    constraints:
    - requests: [gpu, mig]
      matchAttribute: resource.kubernetes.io/pcieRoot
)",
    // v1beta1: request fields without `exactly`, slice devices under `basic`, an anchor.
    R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: &d gpu.nvidia.com
  devices:
  - name: gpu-0
    basic:
      attributes:
        model: {string: "A100 \"SXM\""}
      capacity:
        memory: {value: 80Gi}
  - name: gpu-1
    basic: {attributes: {driver: {string: *d}}}
)",
    // Keys repeated: the first entry wins, as before.
    "a: 1\nb: {c: 2}\na: 3\n",
};

class FieldIndexTest : public ::testing::TestWithParam<const char*> {};

TEST_P(FieldIndexTest, ResolvesEveryPathAsTheTreeWalk) {
  const ParseResult parsed = ParseDocuments(SourceText("in.yaml", GetParam()));
  ASSERT_TRUE(parsed.diagnostics.empty());
  ASSERT_EQ(parsed.documents.size(), 1u);
  const DocNode& root = parsed.documents[0].root;
  const FieldIndex index(root);
  std::vector<std::string> paths;
  AllPaths(root, "", paths);
  // The v1beta1 fallbacks, written in v1 shape.
  paths.push_back("spec.devices.requests[0].exactly.count");
  paths.push_back("spec.devices[0].attributes.model.string");
  paths.push_back("spec.devices[0].capacity.memory");
  paths.push_back("spec.devices[1].attributes.driver");
  paths.push_back("spec.devices[0].basic.missing[2]");
  for (const std::string& path : paths) {
    const auto [want, want_exact] = ReferenceResolve(root, path);
    const FieldIndex::Found got = index.Resolve(path);
    EXPECT_EQ(got.exact, want_exact) << path;
    EXPECT_EQ(got.node.offset, want->offset) << path;
    EXPECT_EQ(got.node.kind, want->kind) << path;
    EXPECT_EQ(got.node.style, want->style) << path;
    EXPECT_EQ(got.node.from_alias, want->from_alias) << path;
  }
}

INSTANTIATE_TEST_SUITE_P(Documents, FieldIndexTest, ::testing::ValuesIn(kFieldIndexDocuments));

TEST(FieldIndexEmptyTest, ResolvesToTheStart) {
  const FieldIndex index;
  const FieldIndex::Found found = index.Resolve("spec.devices");
  EXPECT_FALSE(found.exact);
  EXPECT_EQ(found.node.offset, 0u);
}

}  // namespace
}  // namespace draguard::k8s
