#include "webhook/kube/api_objects.h"

#include <string>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/webhook/kube/testdata.h"
#include "webhook/kube/object_store.h"

namespace draguard::webhook::kube {
namespace {

using testing::Testdata;
using testing::TestdataLines;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

ResourceKind Slices(const std::string& version = "v1") {
  return ResourceKind{WatchedKind::kResourceSlice, "resource.k8s.io", version, "resourceslices",
                      "ResourceSlice"};
}
ResourceKind Nodes() { return ResourceKind{WatchedKind::kNode, "", "v1", "nodes", "Node"}; }
ResourceKind Claims() {
  return ResourceKind{WatchedKind::kResourceClaim, "resource.k8s.io", "v1", "resourceclaims",
                      "ResourceClaim"};
}

TEST(ResourceKindTest, CollectionPaths) {
  EXPECT_EQ(Slices().CollectionPath(), "/apis/resource.k8s.io/v1/resourceslices");
  EXPECT_EQ(Nodes().CollectionPath(), "/api/v1/nodes");
  EXPECT_EQ(Slices("v1beta2").ApiVersion(), "resource.k8s.io/v1beta2");
}

TEST(ListPageTest, DecodesItemsWithoutKindAndKeepsContinueToken) {
  StatusOr<ListPage> page = ParseListPage(Testdata("resourceslices-page1.json"), Slices());
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->resource_version, "100");
  EXPECT_EQ(page->continue_token,
            "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6Im5vZGUtMi1ncHUifQ==");
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->undecodable, 0u);
  const auto* slice = std::get_if<k8s::ResourceSlice>(&page->items[0].object);
  ASSERT_NE(slice, nullptr);
  EXPECT_EQ(page->items[0].key, "node-1-gpu.nvidia.com-x7k2p");
  EXPECT_EQ(slice->source_api_version, "resource.k8s.io/v1");
  EXPECT_EQ(slice->spec.devices.size(), 2u);
  EXPECT_EQ(slice->metadata.resource_version, "90");
}

TEST(ListPageTest, NamespacedKeysAndClaimStatus) {
  StatusOr<ListPage> page = ParseListPage(Testdata("resourceclaims.json"), Claims());
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].key, "ml/trainer-0-gpu-8x2lq");
  const auto* claim = std::get_if<k8s::ResourceClaim>(&page->items[0].object);
  ASSERT_NE(claim, nullptr);
  ASSERT_TRUE(claim->status.has_value());
  EXPECT_TRUE(claim->status->allocation.has_value());
}

TEST(ListPageTest, NodesKeepOnlyMetadata) {
  StatusOr<ListPage> page = ParseListPage(Testdata("nodes.json"), Nodes());
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->items.size(), 3u);
  const auto* node = std::get_if<k8s::Node>(&page->items[1].object);
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->metadata.name, "node-2");
  EXPECT_EQ(node->metadata.labels.at("kubernetes.io/hostname"), "node-2");
}

TEST(ListPageTest, CountsUndecodableItems) {
  const std::string body =
      R"({"kind":"ResourceSliceList","apiVersion":"resource.k8s.io/v1","metadata":)"
      R"({"resourceVersion":"7"},"items":[{"metadata":{"name":"a"},"spec":{"devices":"x"}},)"
      R"({"spec":{}},{"metadata":{"name":"b"},"spec":{"driver":"d.example.com",)"
      R"("pool":{"name":"p","generation":1,"resourceSliceCount":1},"allNodes":true}}]})";
  StatusOr<ListPage> page = ParseListPage(body, Slices());
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->items.size(), 2u);  // "a" decodes with a wrong-type diagnostic, kept
  EXPECT_EQ(page->undecodable, 1u);   // no metadata.name
}

struct BadInputCase {
  std::string name;
  std::string text;
};

class ListPageRejectsTest : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(ListPageRejectsTest, IsInvalidArgument) {
  StatusOr<ListPage> page = ParseListPage(GetParam().text, Slices());
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), StatusCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, ListPageRejectsTest,
    ::testing::Values(BadInputCase{"Empty", ""}, BadInputCase{"NotJson", "{items:"},
                      BadInputCase{"Array", "[]"}, BadInputCase{"NoItems", R"({"metadata":{}})"},
                      BadInputCase{"ItemsNotArray", R"({"items":{}})"},
                      BadInputCase{"TooDeep", std::string(500, '[') + std::string(500, ']')}),
    [](const auto& p) { return p.param.name; });

TEST(WatchEventTest, ReplaysRecordedStream) {
  std::vector<EventType> types;
  std::vector<std::string> versions;
  for (const std::string& line : TestdataLines("resourceslices-watch1.jsonl")) {
    StatusOr<WatchEvent> event = ParseWatchEvent(line, Slices());
    ASSERT_TRUE(event.ok()) << event.status();
    EXPECT_FALSE(event->undecodable);
    types.push_back(event->type);
    versions.push_back(event->resource_version);
  }
  EXPECT_THAT(types, ElementsAre(EventType::kAdded, EventType::kModified, EventType::kBookmark));
  EXPECT_THAT(versions, ElementsAre("101", "102", "103"));
}

TEST(WatchEventTest, ErrorEventCarriesCode) {
  const std::vector<std::string> lines = TestdataLines("resourceslices-watch2.jsonl");
  ASSERT_EQ(lines.size(), 2u);
  StatusOr<WatchEvent> deleted = ParseWatchEvent(lines[0], Slices());
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(deleted->type, EventType::kDeleted);
  EXPECT_EQ(deleted->object.key, "node-2-gpu.nvidia.com-x7k2p");
  StatusOr<WatchEvent> error = ParseWatchEvent(lines[1], Slices());
  ASSERT_TRUE(error.ok()) << error.status();
  EXPECT_EQ(error->type, EventType::kError);
  EXPECT_EQ(error->error_code, 410);
  EXPECT_THAT(error->error_message, ::testing::HasSubstr("too old resource version"));
}

class WatchEventRejectsTest : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(WatchEventRejectsTest, IsInvalidArgument) {
  StatusOr<WatchEvent> event = ParseWatchEvent(GetParam().text, Slices());
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.status().code(), StatusCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, WatchEventRejectsTest,
    ::testing::Values(
        BadInputCase{"NotJson", "ADDED"},
        BadInputCase{"UnknownType", R"({"type":"SYNC","object":{"metadata":{"name":"a"}}})"},
        BadInputCase{"NoObject", R"({"type":"ADDED"})"},
        BadInputCase{"ObjectNotMap", R"({"type":"ADDED","object":[1]})"},
        BadInputCase{"NoName", R"({"type":"MODIFIED","object":{"metadata":{}}})"},
        BadInputCase{"BookmarkWithoutVersion",
                     R"({"type":"BOOKMARK","object":{"metadata":{}}})"},
        BadInputCase{"NameNotString", R"({"type":"ADDED","object":{"metadata":{"name":3}}})"}),
    [](const auto& p) { return p.param.name; });

TEST(WatchEventTest, UndecodableObjectStillHasKeyAndVersion) {
  const std::string line =
      R"({"type":"MODIFIED","object":{"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v9",)"
      R"("metadata":{"name":"s","resourceVersion":"55"},"spec":{}}})";
  StatusOr<WatchEvent> event = ParseWatchEvent(line, Slices());
  ASSERT_TRUE(event.ok()) << event.status();
  EXPECT_TRUE(event->undecodable);
  EXPECT_EQ(event->object.key, "s");
  EXPECT_EQ(event->resource_version, "55");
}

TEST(ApiErrorTest, ReadsStatusAndFallsBackToBody) {
  ApiError gone = ParseApiError(410, Testdata("status-410-expired.json"));
  EXPECT_EQ(gone.code, 410);
  EXPECT_EQ(gone.reason, "Expired");
  ApiError forbidden = ParseApiError(403, Testdata("status-403-forbidden.json"));
  EXPECT_EQ(forbidden.reason, "Forbidden");
  ApiError plain = ParseApiError(502, "<html>Bad Gateway</html>");
  EXPECT_EQ(plain.code, 502);
  EXPECT_EQ(plain.message, "<html>Bad Gateway</html>");
}

TEST(DiscoveryTest, GroupVersionsAndResourceNames) {
  StatusOr<std::vector<std::string>> versions =
      ParseGroupVersions(Testdata("apis-resource.k8s.io.json"));
  ASSERT_TRUE(versions.ok()) << versions.status();
  EXPECT_THAT(*versions, ElementsAre("v1", "v1beta2"));
  StatusOr<std::vector<std::string>> names =
      ParseResourceNames(Testdata("apis-resource.k8s.io-v1.json"));
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, UnorderedElementsAre("deviceclasses", "resourceclaims",
                                           "resourceclaimtemplates", "resourceslices"));
}

TEST(NamespaceTest, ReadsLabels) {
  StatusOr<k8s::Namespace> ns = ParseNamespace(Testdata("namespace-ml.json"));
  ASSERT_TRUE(ns.ok()) << ns.status();
  EXPECT_EQ(ns->metadata.labels.at("resource.kubernetes.io/admin-access"), "true");
  EXPECT_FALSE(ParseNamespace("{}").ok());
}

TEST(ObjectStoreTest, AppliesEventsAndSnapshots) {
  ObjectStore store;
  StatusOr<ListPage> page = ParseListPage(Testdata("resourceslices-page1.json"), Slices());
  ASSERT_TRUE(page.ok());
  store.Replace(WatchedKind::kResourceSlice, page->items);
  const uint64_t before = store.generation();
  auto listed = store.Snapshot("list");
  for (const std::string& line : TestdataLines("resourceslices-watch1.jsonl")) {
    StatusOr<WatchEvent> event = ParseWatchEvent(line, Slices());
    ASSERT_TRUE(event.ok());
    store.Apply(WatchedKind::kResourceSlice, *event);
  }
  EXPECT_GT(store.generation(), before);
  EXPECT_EQ(store.Size(WatchedKind::kResourceSlice), 3u);
  auto snapshot = store.Snapshot("test");
  ASSERT_EQ(snapshot->slices.size(), 3u);
  EXPECT_EQ(snapshot->slices[0].spec.devices.size(), 4u);  // node-1 after MODIFIED
  EXPECT_EQ(snapshot->DeviceCount(), 8u);
  // Issue 17 item 3: consecutive snapshots share the objects no event touched (the same
  // objects, not copies): node-1 was MODIFIED and node-4 ADDED, the other slice is shared.
  size_t shared = 0;
  for (const auto& ptr : snapshot->slices.ptrs()) {
    for (const auto& old : listed->slices.ptrs()) shared += ptr == old;
  }
  EXPECT_EQ(shared, 1u);
  EXPECT_EQ(store.Snapshot("again")->slices.ptrs(), snapshot->slices.ptrs());
}

}  // namespace
}  // namespace draguard::webhook::kube
