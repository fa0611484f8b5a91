#include "webhook/kube/admin_access_lookup.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace draguard::webhook::kube {
namespace {

// Records what the inner checker was asked.
class RecordingChecker : public AdmissionChecker {
 public:
  CheckOutcome Check(const AdmissionRequest& request) override {
    seen.push_back(request.admin_access_allowed);
    return {};
  }
  std::vector<bool> seen;
};

class MapLookup : public NamespaceLabelLookup {
 public:
  StatusOr<LabelMap> Labels(std::string_view name) override {
    ++calls;
    if (name == "admins") return LabelMap{{kAdminAccessLabel, "true"}};
    if (name == "plain") return LabelMap{{"team", "a"}};
    if (name == "false-label") return LabelMap{{kAdminAccessLabel, "false"}};
    return UnavailableError("API server unreachable");
  }
  int calls = 0;
};

struct LookupCase {
  std::string name;
  AdmissionEndpoint endpoint = AdmissionEndpoint::kValidate;
  std::string name_space;
  bool routed_allowed = false;
  bool want_allowed = false;
  int want_calls = 1;
};

class AdminAccessLookupTest : public ::testing::TestWithParam<LookupCase> {};

TEST_P(AdminAccessLookupTest, MarksLabelledNamespaces) {
  const LookupCase& c = GetParam();
  RecordingChecker inner;
  MapLookup lookup;
  AdminAccessLookupChecker checker(inner, lookup);
  AdmissionRequest request;
  request.endpoint = c.endpoint;
  request.name_space = c.name_space;
  request.admin_access_allowed = c.routed_allowed;
  checker.Check(request);
  ASSERT_EQ(inner.seen.size(), 1u);
  EXPECT_EQ(inner.seen[0], c.want_allowed);
  EXPECT_EQ(lookup.calls, c.want_calls);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, AdminAccessLookupTest,
    ::testing::Values(
        LookupCase{.name = "LabelledNamespace", .name_space = "admins", .want_allowed = true},
        LookupCase{.name = "UnlabelledNamespace", .name_space = "plain"},
        LookupCase{.name = "LabelNotTrue", .name_space = "false-label"},
        LookupCase{.name = "LookupFailsKeepsRoute", .name_space = "down"},
        LookupCase{.name = "RouteAlreadyAllows", .name_space = "plain", .routed_allowed = true,
                   .want_allowed = true, .want_calls = 0},
        LookupCase{.name = "ClusterScoped", .name_space = "", .want_calls = 0},
        LookupCase{.name = "MutateNotLookedUp", .endpoint = AdmissionEndpoint::kMutate,
                   .name_space = "admins", .want_calls = 0}),
    [](const auto& p) { return p.param.name; });

}  // namespace
}  // namespace draguard::webhook::kube
