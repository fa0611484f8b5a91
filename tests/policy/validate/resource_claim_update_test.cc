// ResourceClaimTemplate create validation and the update rules of claims and templates
// (validation.go `ValidateResourceClaimTemplate`, `ValidateResourceClaimUpdate`,
// `ValidateResourceClaimTemplateUpdate`; 1.34 and 1.35).
#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "policy/validate/resource_claim.h"
#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

struct TemplateCase {
  std::string name;
  std::function<void(k8s::ResourceClaimTemplate&)> mutate;
  std::vector<std::string> want;
  NamespaceLabels namespaces = {};
};

void PrintTo(const TemplateCase& c, std::ostream* os) { *os << c.name; }

class ResourceClaimTemplateTest : public ::testing::TestWithParam<TemplateCase> {};

TEST_P(ResourceClaimTemplateTest, Findings) {
  const TemplateCase& c = GetParam();
  k8s::ResourceClaimTemplate t = Template();
  if (c.mutate) c.mutate(t);
  ValidationOptions options = Options();
  options.namespace_labels = c.namespaces;
  Diagnostics d;
  ValidateResourceClaimTemplate(t, options, d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
}

INSTANTIATE_TEST_SUITE_P(
    Template, ResourceClaimTemplateTest,
    ::testing::Values(
        TemplateCase{.name = "Valid", .mutate = nullptr, .want = {}},
        TemplateCase{.name = "LabelsAllowed",
                     .mutate = [](auto& tpl) { tpl.template_metadata.labels["app"] = "x"; },
                     .want = {}},
        TemplateCase{.name = "NameForbidden",
                     .mutate = [](auto& tpl) { tpl.template_metadata.name = "x"; },
                     .want = {"E template.metadata.forbidden @ spec.metadata.name"}},
        TemplateCase{.name = "FinalizersForbidden",
                     .mutate = [](auto& tpl) { tpl.template_metadata.finalizers = {"a/b"}; },
                     .want = {"E template.metadata.forbidden @ spec.metadata.finalizers"}},
        TemplateCase{.name = "SpecPathsHaveTwoSpecs",
                     .mutate = [](auto& tpl) { tpl.spec.devices.requests[0].exactly->count = -1; },
                     .want = {"E claim.request.count.invalid @ "
                              "spec.spec.devices.requests[0].exactly.count"}},
        TemplateCase{
            .name = "AdminPathHasOneSpec",
            .mutate = [](auto& tpl) { tpl.spec.devices.requests[0].exactly->admin_access = true; },
            .want = {"E claim.admin-access.forbidden @ "
                     "spec.devices.requests[0].adminAccess"},
            .namespaces = {{"ns", {}}}}),
    [](const auto& test_case) { return test_case.param.name; });

TEST(ResourceClaimUpdateTest, UnchangedSpecIsAccepted) {
  k8s::ResourceClaim old_claim = Claim();
  k8s::ResourceClaim new_claim = Claim();
  new_claim.metadata.labels["x"] = "y";
  // Defaulting runs on both objects: an explicit default is not a change.
  new_claim.spec.devices.requests[0].exactly->count = 1;
  new_claim.spec.devices.requests[0].exactly->allocation_mode = "ExactCount";
  Diagnostics d;
  ValidateResourceClaimUpdate(old_claim, new_claim, Options(), d);
  EXPECT_EQ(Findings(d), std::vector<std::string>{});
}

TEST(ResourceClaimUpdateTest, IdentityIsImmutable) {
  k8s::ResourceClaim old_claim = Claim();
  old_claim.metadata.uid = "u1";
  k8s::ResourceClaim new_claim = old_claim;
  new_claim.metadata.name = "other";
  new_claim.metadata.uid = "u2";
  Diagnostics d;
  ValidateResourceClaimUpdate(old_claim, new_claim, Options(), d);
  EXPECT_EQ(Findings(d),
            Sorted({"E meta.immutable @ metadata.name", "E meta.immutable @ metadata.uid"}));
}

TEST(ResourceClaimUpdateTest, SpecIsImmutable) {
  k8s::ResourceClaim old_claim = Claim();
  k8s::ResourceClaim new_claim = Claim();
  new_claim.spec.devices.requests[0].exactly->device_class_name = "other";
  Diagnostics d;
  ValidateResourceClaimUpdate(old_claim, new_claim, Options(), d);
  EXPECT_EQ(Findings(d), std::vector<std::string>{"E claim.spec.immutable @ spec"});
  EXPECT_EQ(d.items()[0].message, "Invalid value: {...}: field is immutable");
}

TEST(ResourceClaimUpdateTest, Version134RevalidatesStoredSpec) {
  k8s::ResourceClaim old_claim = Claim();
  old_claim.spec.devices.requests[0].exactly->count = -1;
  k8s::ResourceClaim new_claim = old_claim;
  std::vector<SelectorKind> kinds;
  new_claim.spec.devices.requests[0].exactly->selectors = {Cel("true")};
  old_claim.spec.devices.requests[0].exactly->selectors = {Cel("true")};
  for (KubernetesVersion v : {KubernetesVersion::k1_34, KubernetesVersion::k1_35}) {
    ValidationOptions options = Options(v);
    options.selector_checker = [&](std::string_view, const FieldPath&, SelectorKind kind,
                                   Diagnostics&, cel::CompiledSelectors*) {
      kinds.push_back(kind);
    };
    Diagnostics d;
    ValidateResourceClaimUpdate(old_claim, new_claim, options, d);
    if (v == KubernetesVersion::k1_34) {
      EXPECT_EQ(Findings(d), std::vector<std::string>{"E claim.request.count.invalid @ "
                                                      "spec.devices.requests[0].exactly.count"});
    } else {
      EXPECT_EQ(Findings(d), std::vector<std::string>{});
    }
  }
  EXPECT_EQ(kinds, std::vector<SelectorKind>{SelectorKind::kStoredExpression});
}

TEST(ResourceClaimUpdateTest, GatedFieldKeptWhenOldObjectUsedIt) {
  k8s::ResourceClaim old_claim = Claim();
  old_claim.spec.devices.requests[0].exactly->tolerations = {Toleration("k", "Exists")};
  k8s::ResourceClaim new_claim = old_claim;
  Diagnostics d;
  ValidateResourceClaimUpdate(old_claim, new_claim, Options(), d);
  EXPECT_EQ(Findings(d), std::vector<std::string>{});
}

TEST(ResourceClaimTemplateUpdateTest, SpecAndTemplateMetadataImmutable) {
  k8s::ResourceClaimTemplate old_t = Template();
  k8s::ResourceClaimTemplate new_t = Template();
  new_t.template_metadata.labels["a"] = "b";
  Diagnostics d;
  ValidateResourceClaimTemplateUpdate(old_t, new_t, Options(), d);
  EXPECT_EQ(Findings(d), std::vector<std::string>{"E template.spec.immutable @ spec"});

  Diagnostics same;
  ValidateResourceClaimTemplateUpdate(old_t, old_t, Options(), same);
  EXPECT_EQ(Findings(same), std::vector<std::string>{});
}

}  // namespace
}  // namespace draguard::validate
