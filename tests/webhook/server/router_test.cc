#include "webhook/server/router.h"

#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/webhook/testing/fake_checker.h"

namespace draguard::webhook {
namespace {

using testing::FakeChecker;
using testing::MakeReview;

struct RouteCase {
  std::string name;
  std::string method;
  std::string target;
  int status;
};

class RouterFixture {
 protected:
  RouterFixture() { state_.cert_loaded = true; }
  RouterResponse Get(std::string_view target) const {
    return router_.Handle({.method = "GET", .target = target});
  }

  FakeChecker checker_;
  HandlerOptions options_;
  Metrics metrics_;
  ServerHooks hooks_;
  RouterState state_;
  Router router_{checker_, options_, metrics_, hooks_, state_};
};

class RouteTest : public RouterFixture, public ::testing::TestWithParam<RouteCase> {};

TEST_P(RouteTest, Status) {
  const RouteCase& c = GetParam();
  std::string body = MakeReview().dump();
  RouterResponse r = router_.Handle({.method = c.method,
                                     .target = c.target,
                                     .content_type = "application/json",
                                     .body = body});
  EXPECT_EQ(r.status, c.status);
}

INSTANTIATE_TEST_SUITE_P(
    Router, RouteTest,
    ::testing::Values(RouteCase{"Validate", "POST", "/validate", 200},
                      RouteCase{"ValidateAdmin", "POST", "/validate?admin-access=allowed", 200},
                      RouteCase{"ValidateAdminPath", "POST", "/validate/admin-access-allowed", 200},
                      RouteCase{"Mutate", "POST", "/mutate", 200},
                      RouteCase{"ValidateGet", "GET", "/validate", 405},
                      RouteCase{"Healthz", "GET", "/healthz", 200},
                      RouteCase{"HealthzPost", "POST", "/healthz", 405},
                      RouteCase{"Readyz", "GET", "/readyz", 200},
                      RouteCase{"Metrics", "GET", "/metrics", 200},
                      RouteCase{"Unknown", "GET", "/", 404},
                      RouteCase{"PrefixIsNotARoute", "POST", "/validatex", 404}),
    [](const auto& p) { return p.param.name; });

class RouterTest : public RouterFixture, public ::testing::Test {};

TEST_F(RouterTest, AdminAccessQueryReachesTheChecker) {
  std::string body = MakeReview().dump();
  router_.Handle({.method = "POST", .target = "/validate?admin-access=allowed",
                  .content_type = "application/json", .body = body});
  EXPECT_TRUE(checker_.last().admin_access_allowed);
  router_.Handle({.method = "POST", .target = "/validate", .content_type = "application/json",
                  .body = body});
  EXPECT_FALSE(checker_.last().admin_access_allowed);
  router_.Handle({.method = "POST", .target = "/validate/admin-access-allowed",
                  .content_type = "application/json", .body = body});
  EXPECT_TRUE(checker_.last().admin_access_allowed);
}

TEST_F(RouterTest, TruncatedBodyIs413) {
  RouterResponse r = router_.Handle({.method = "POST", .target = "/validate",
                                     .content_type = "application/json", .body_truncated = true});
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.content_type, "application/json");
}

TEST_F(RouterTest, ReadinessFollowsCertificateHookAndDrain) {
  EXPECT_EQ(Get("/readyz").status, 200);
  bool inventory_synced = false;
  hooks_.ready = [&] { return inventory_synced; };
  EXPECT_EQ(Get("/readyz").status, 503);
  inventory_synced = true;
  EXPECT_EQ(Get("/readyz").status, 200);
  state_.draining = true;
  EXPECT_EQ(Get("/readyz").status, 503);
  EXPECT_EQ(Get("/healthz").status, 200);
  state_.draining = false;
  state_.cert_loaded = false;
  EXPECT_EQ(Get("/readyz").status, 503);
}

TEST_F(RouterTest, MetricsCountRequestsByEndpointKindAndVerdict) {
  checker_.outcome.diagnostics.Error("x", FieldPath("spec"), "bad");
  std::string body = MakeReview("DeviceClass").dump();
  for (int i = 0; i < 2; ++i) {
    router_.Handle({.method = "POST", .target = "/validate", .content_type = "application/json",
                    .body = body});
  }
  router_.Handle({.method = "POST", .target = "/mutate", .content_type = "text/plain",
                  .body = body});
  state_.cert_not_after_unix = 4102444800;  // 2100-01-01
  hooks_.inventory = [] {
    return InventoryStats{.configured = true, .synced = true, .objects = 42, .age_seconds = 3};
  };
  std::string text = Get("/metrics").body;
  EXPECT_NE(text.find("draguard_admission_requests_total{endpoint=\"validate\",kind=\"DeviceClass\","
                      "verdict=\"denied\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("draguard_admission_requests_total{endpoint=\"mutate\",kind=\"\","
                      "verdict=\"bad_request\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("draguard_admission_request_duration_seconds_count{endpoint=\"validate\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("draguard_admission_request_duration_seconds_bucket{endpoint=\"validate\","
                      "le=\"+Inf\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("draguard_inventory_objects 42\n"), std::string::npos);
  EXPECT_NE(text.find("draguard_certificate_expiry_seconds "), std::string::npos);
  EXPECT_NE(text.find("draguard_ready 1\n"), std::string::npos);
}

}  // namespace
}  // namespace draguard::webhook
