// The list/watch client against a local server replaying recorded API-server responses:
// paged lists, events, bookmarks, a dropped stream, an ERROR 410 event and an HTTP 410.
#include "webhook/kube/kube_inventory_source.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/webhook/kube/fake_api_server.h"
#include "tests/webhook/kube/scripted_api.h"
#include "tests/webhook/kube/testdata.h"

namespace draguard::webhook::kube {
namespace {

using testing::Eventually;
using testing::FakeApiServer;
using testing::Reply;
using testing::ScriptedApi;
using testing::Testdata;
using testing::TestdataLines;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kSlices[] = "/apis/resource.k8s.io/v1/resourceslices";
constexpr char kClasses[] = "/apis/resource.k8s.io/v1/deviceclasses";
constexpr char kClaims[] = "/apis/resource.k8s.io/v1/resourceclaims";
constexpr char kNodes[] = "/api/v1/nodes";

ClusterConfig LocalConfig(uint16_t port) {
  ClusterConfig config;
  config.scheme = "http";
  config.host = "127.0.0.1";
  config.port = port;
  config.token = "test-token";
  config.origin = "test";
  return config;
}

KubeInventoryOptions FastOptions() {
  KubeInventoryOptions options;
  options.reflector.page_size = 2;
  options.reflector.watch_timeout_seconds = 60;
  options.reflector.backoff_initial = std::chrono::milliseconds(5);
  options.reflector.backoff_max = std::chrono::milliseconds(20);
  options.publish_interval = std::chrono::milliseconds(5);
  options.client.connect_timeout = std::chrono::milliseconds(5'000);
  options.client.request_timeout = std::chrono::milliseconds(5'000);
  return options;
}

std::set<std::string> SliceNodes(const inventory::ClusterObjects& objects) {
  std::set<std::string> nodes;
  for (const k8s::ResourceSlice& s : objects.slices) nodes.insert(s.spec.node_name.value_or(""));
  return nodes;
}

// The part of a target after "?".
std::string Query(const std::string& target) { return target.substr(target.find('?') + 1); }

TEST(KubeInventorySourceTest, ConvergesThroughPagesEventsBookmarksDropsAndGone) {
  ScriptedApi api;
  api.List(kSlices, Reply::Json(Testdata("resourceslices-page1.json")));
  api.List(kSlices, Reply::Json(Testdata("resourceslices-page2.json")));
  // ADDED node-4, MODIFIED node-1, BOOKMARK 103, then the connection drops.
  api.Watch(kSlices, Reply::Stream(TestdataLines("resourceslices-watch1.jsonl"),
                                   Reply::End::kDrop));
  // Resumed from 103: DELETED node-2, then ERROR 410 (compacted): relist.
  api.Watch(kSlices, Reply::Stream(TestdataLines("resourceslices-watch2.jsonl"),
                                   Reply::End::kHold));
  api.List(kSlices, Reply::Json(Testdata("resourceslices-relist.json")));
  // The watch from the relist's version is refused with HTTP 410: relist again.
  api.Watch(kSlices, Reply::Json(Testdata("status-410-expired.json"), 410));
  api.List(kSlices, Reply::Json(Testdata("resourceslices-relist2.json")));
  api.Watch(kSlices, Reply::Stream(TestdataLines("resourceslices-watch3.jsonl"),
                                   Reply::End::kHold));
  api.List(kClasses, Reply::Json(Testdata("deviceclasses.json")));
  api.List(kClaims, Reply::Json(Testdata("resourceclaims.json")));
  api.List(kNodes, Reply::Json(Testdata("nodes.json")));
  FakeApiServer server(api.handler());

  KubeInventorySource source(LocalConfig(server.port()), FastOptions());
  ASSERT_TRUE(source.Start().ok());
  ASSERT_TRUE(Eventually([&] {
    auto current = source.Current();
    return current != nullptr && SliceNodes(*current).count("node-6") == 1;
  }));
  auto current = source.Current();
  EXPECT_EQ(SliceNodes(*current), (std::set<std::string>{"node-1", "node-3", "node-5", "node-6"}));
  EXPECT_EQ(current->DeviceCount(), 10u);
  EXPECT_EQ(current->classes.size(), 2u);
  EXPECT_EQ(current->claims.size(), 1u);
  EXPECT_EQ(current->nodes.size(), 3u);
  EXPECT_TRUE(current->taint_rules.empty());
  EXPECT_THAT(current->source, HasSubstr("kubernetes API"));

  InventorySourceState state = source.State();
  EXPECT_TRUE(state.synced);
  EXPECT_EQ(state.objects, 4u + 2u + 1u + 3u);
  EXPECT_NE(state.confirmed_at, std::chrono::system_clock::time_point{});

  std::vector<std::string> queries;
  for (const std::string& t : server.TargetsStartingWith(std::string(kSlices) + "?")) {
    queries.push_back(Query(t));
  }
  const std::string watch = "watch=true&allowWatchBookmarks=true&resourceVersion=";
  EXPECT_THAT(queries,
              ElementsAre("limit=2",
                          "limit=2&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTAwLCJzdGFydCI6"
                          "Im5vZGUtMi1ncHUifQ%3D%3D",
                          watch + "100&timeoutSeconds=60",  // from the list
                          watch + "103&timeoutSeconds=60",  // resumed after the drop (bookmark)
                          "limit=2",                        // relist after ERROR 410
                          watch + "200&timeoutSeconds=60",  // answered HTTP 410
                          "limit=2",                        // relist again
                          watch + "300&timeoutSeconds=60"));

  const std::vector<ReflectorState> states = source.ReflectorStates();
  ASSERT_EQ(states.size(), 5u);
  EXPECT_EQ(states[0].lists, 3u);
  EXPECT_EQ(states[0].events, 4u);  // ADDED, MODIFIED, DELETED, ADDED
  EXPECT_EQ(states[0].api_version, "resource.k8s.io/v1");
  EXPECT_FALSE(states[4].served);  // DeviceTaintRules: not in discovery
  EXPECT_TRUE(states[4].synced);
  for (const testing::SeenRequest& r : server.requests()) {
    EXPECT_EQ(r.authorization, "Bearer test-token") << r.target;
  }
  source.Stop();
  server.Stop();
}

TEST(KubeInventorySourceTest, NotSyncedUntilEveryKindListed) {
  ScriptedApi api;
  api.List(kSlices, Reply::Json(Testdata("resourceslices-page2.json")));
  // Nodes answer 403 (RBAC missing): the inventory never syncs and says why.
  api.Static(kNodes, Reply::Json(Testdata("status-403-forbidden.json"), 403));
  FakeApiServer server(api.handler());
  KubeInventoryOptions options = FastOptions();
  options.kinds = {WatchedKind::kResourceSlice, WatchedKind::kNode};
  KubeInventorySource source(LocalConfig(server.port()), options);
  ASSERT_TRUE(source.Start().ok());
  ASSERT_TRUE(Eventually([&] {
    return source.ReflectorStates()[0].synced &&
           source.State().problem.find("HTTP 403") != std::string::npos;
  }));
  EXPECT_FALSE(source.Synced());
  EXPECT_EQ(source.Current(), nullptr);
  EXPECT_THAT(source.State().problem, HasSubstr("Node: list /api/v1/nodes: HTTP 403 Forbidden"));
  // Retried with back-off, not given up.
  EXPECT_TRUE(Eventually([&] { return server.TargetsStartingWith(kNodes).size() >= 3; }));
  source.Stop();
  EXPECT_EQ(source.Publications(), 0u);
}

TEST(KubeInventorySourceTest, FallsBackToV1beta2) {
  ScriptedApi api;
  api.Static("/apis/resource.k8s.io",
             Reply::Json(R"({"kind":"APIGroup","apiVersion":"v1","name":"resource.k8s.io",)"
                         R"("versions":[{"groupVersion":"resource.k8s.io/v1beta2",)"
                         R"("version":"v1beta2"}]})"));
  api.List("/apis/resource.k8s.io/v1beta2/resourceslices",
           Reply::Json(Testdata("resourceslices-page2.json")));
  FakeApiServer server(api.handler());
  KubeInventoryOptions options = FastOptions();
  options.kinds = {WatchedKind::kResourceSlice};
  KubeInventorySource source(LocalConfig(server.port()), options);
  ASSERT_TRUE(source.Start().ok());
  ASSERT_TRUE(Eventually([&] { return source.Synced(); }));
  ASSERT_EQ(source.Current()->slices.size(), 1u);
  EXPECT_EQ(source.Current()->slices[0].source_api_version, "resource.k8s.io/v1beta2");
  EXPECT_EQ(source.ReflectorStates()[0].api_version, "resource.k8s.io/v1beta2");
  source.Stop();
}

TEST(KubeInventorySourceTest, GroupNotServedSyncsEmpty) {
  ScriptedApi api;
  api.Static("/apis/resource.k8s.io", Reply::Json(R"({"kind":"Status","code":404})", 404));
  api.List(kNodes, Reply::Json(Testdata("nodes.json")));
  FakeApiServer server(api.handler());
  KubeInventoryOptions options = FastOptions();
  options.kinds = {WatchedKind::kResourceSlice, WatchedKind::kNode};
  KubeInventorySource source(LocalConfig(server.port()), options);
  ASSERT_TRUE(source.Start().ok());
  ASSERT_TRUE(Eventually([&] { return source.Synced(); }));
  EXPECT_TRUE(source.Current()->slices.empty());
  EXPECT_EQ(source.Current()->nodes.size(), 3u);
  EXPECT_FALSE(source.ReflectorStates()[0].served);
  source.Stop();
}

TEST(KubeInventorySourceTest, UnreachableServerReportsProblemAndStopsPromptly) {
  uint16_t port;
  {
    FakeApiServer closed([](const std::string&) { return Reply(); });
    port = closed.port();
  }  // nothing listens there any more
  KubeInventoryOptions options = FastOptions();
  options.kinds = {WatchedKind::kNode};
  KubeInventorySource source(LocalConfig(port), options);
  ASSERT_TRUE(source.Start().ok());
  ASSERT_TRUE(Eventually([&] { return !source.State().problem.empty(); }));
  EXPECT_THAT(source.State().problem, HasSubstr("127.0.0.1"));
  EXPECT_FALSE(source.Synced());
  source.Stop();
  source.Stop();  // idempotent
}

TEST(KubeInventorySourceTest, RejectsConfigurationWithoutHost) {
  KubeInventorySource source(ClusterConfig{}, FastOptions());
  EXPECT_EQ(source.Start().code(), StatusCode::kInvalidArgument);
}

TEST(BackoffTest, DoublesWithJitterUpToMax) {
  Backoff backoff(std::chrono::milliseconds(100), std::chrono::milliseconds(1000));
  const long bounds[] = {100, 200, 400, 800, 1000, 1000};
  for (long bound : bounds) {
    const long wait = backoff.Next().count();
    EXPECT_GE(wait, bound / 2);
    EXPECT_LE(wait, bound);
  }
  backoff.Reset();
  EXPECT_LE(backoff.Next().count(), 100);
}

TEST(EncodeQueryValueTest, KeepsUnreservedOnly) {
  EXPECT_EQ(EncodeQueryValue("a-Z_0.~"), "a-Z_0.~");
  EXPECT_EQ(EncodeQueryValue("ey+/=&?"), "ey%2B%2F%3D%26%3F");
}

}  // namespace
}  // namespace draguard::webhook::kube
