// Cross-object reference checks for lint (issue 2 item 6).
#include "policy/validate/references.h"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "tests/policy/validate/builders.h"

namespace draguard::validate {
namespace {

using namespace testing;  // NOLINT: test builders

k8s::Workload Pod() {
  k8s::Workload w;
  w.api_version = "v1";
  w.kind = "Pod";
  w.metadata.name = "p";
  w.metadata.name_space = "ns";
  w.pod.spec_path = "spec";
  w.pod.resource_claims.push_back(
      k8s::PodResourceClaim{.name = "gpus",
                            .resource_claim_name = "c",
                            .resource_claim_template_name = std::nullopt,
                            .uses_removed_source_wrapper = false});
  w.pod.containers.push_back(k8s::ContainerClaims{
      .container_name = "app", .init_container = false, .claims = {{"gpus", "gpu"}}});
  return w;
}

struct RefCase {
  std::string name;
  std::function<void(k8s::Workload&, k8s::ResourceClaim&, k8s::ResourceClaimTemplate&)> mutate;
  std::vector<std::string> want;
  bool with_class = true;
};

void PrintTo(const RefCase& c, std::ostream* os) { *os << c.name; }

class ReferencesTest : public ::testing::TestWithParam<RefCase> {};

TEST_P(ReferencesTest, Findings) {
  const RefCase& c = GetParam();
  k8s::Workload pod = Pod();
  k8s::ResourceClaim claim = Claim();
  k8s::ResourceClaimTemplate tmpl = Template();
  k8s::DeviceClass dc = Class();
  if (c.mutate) c.mutate(pod, claim, tmpl);
  ReferenceInputs in;
  ObjectRef pod_ref{"v1", "Pod", "ns", "p"};
  in.workloads.push_back({&pod, pod_ref});
  in.claims.push_back({&claim, {"resource.k8s.io/v1", "ResourceClaim", "ns", "c"}});
  in.templates.push_back({&tmpl, {"resource.k8s.io/v1", "ResourceClaimTemplate", "ns", "t"}});
  if (c.with_class)
    in.classes.push_back({&dc, {"resource.k8s.io/v1", "DeviceClass", "", "gpu-class"}});
  Diagnostics d;
  CheckReferences(in, d);
  EXPECT_EQ(Findings(d), Sorted(c.want));
  for (const Diagnostic& diag : d) {
    if (diag.code.starts_with("refs.pod") || diag.code.starts_with("refs.container")) {
      EXPECT_EQ(diag.object, pod_ref);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    References, ReferencesTest,
    ::testing::Values(
        RefCase{.name = "AllResolved", .mutate = nullptr, .want = {}},
        RefCase{.name = "ClaimNotAmongInputs",
                .mutate = [](auto& p, auto&,
                             auto&) { p.pod.resource_claims[0].resource_claim_name = "x"; },
                .want = {"W refs.pod.claim.not-found @ spec.resourceClaims[0].resourceClaimName"}},
        RefCase{.name = "ClaimInOtherNamespace",
                .mutate = [](auto&, auto& c, auto&) { c.metadata.name_space = "other"; },
                .want = {"W refs.pod.claim.not-found @ spec.resourceClaims[0].resourceClaimName"}},
        RefCase{.name = "TemplateResolved",
                .mutate =
                    [](auto& p, auto&, auto&) {
                      p.pod.resource_claims[0].resource_claim_name.reset();
                      p.pod.resource_claims[0].resource_claim_template_name = "t";
                    },
                .want = {}},
        // Issue 19 item 22: a name far from every input's may exist in the cluster (info).
        RefCase{.name = "TemplateNotAmongInputs",
                .mutate =
                    [](auto& p, auto&, auto&) {
                      p.pod.resource_claims[0].resource_claim_name.reset();
                      p.pod.resource_claims[0].resource_claim_template_name = "nope";
                    },
                .want = {}},
        RefCase{.name = "TemplateTypo",
                .mutate =
                    [](auto& p, auto&, auto&) {
                      p.pod.resource_claims[0].resource_claim_name.reset();
                      p.pod.resource_claims[0].resource_claim_template_name = "tt";
                    },
                .want = {"W refs.pod.claim-template.not-found @ "
                         "spec.resourceClaims[0].resourceClaimTemplateName"}},
        RefCase{.name = "ContainerClaimUnknown",
                .mutate = [](auto& p, auto&, auto&) { p.pod.containers[0].claims[0].name = "gpu"; },
                .want = {"E refs.container.claim.unknown @ "
                         "spec.containers[0].resources.claims[0].name"}},
        RefCase{.name = "InitContainerIndex",
                .mutate =
                    [](auto& p, auto&, auto&) {
                      p.pod.containers.push_back(k8s::ContainerClaims{
                          .container_name = "init", .init_container = true, .claims = {{"x", ""}}});
                    },
                .want = {"E refs.container.claim.unknown @ "
                         "spec.initContainers[0].resources.claims[0].name"}},
        RefCase{
            .name = "RequestUnknown",
            .mutate = [](auto& p, auto&, auto&) { p.pod.containers[0].claims[0].request = "tpu"; },
            .want = {"E refs.container.claim.request.unknown @ "
                     "spec.containers[0].resources.claims[0].request"}},
        RefCase{.name = "RequestUncheckableWhenClaimMissing",
                .mutate =
                    [](auto& p, auto&, auto&) {
                      p.pod.resource_claims[0].resource_claim_name = "x";
                      p.pod.containers[0].claims[0].request = "tpu";
                    },
                .want = {"W refs.pod.claim.not-found @ spec.resourceClaims[0].resourceClaimName"}},
        RefCase{.name = "ClassMissing",
                .mutate =
                    [](auto&, auto& c, auto& tm) {
                      c.spec.devices.requests[0].exactly->device_class_name = "gpu-clas";
                      tm.spec.devices.requests[0] = FirstAvailable("gpu", {"a"});
                      tm.spec.devices.requests[0].first_available[0].device_class_name = "tpu";
                    },
                // "gpu-clas" is a likely typo of "gpu-class"; "tpu" may be a chart's class.
                .want = {"W refs.device-class.not-found @ "
                         "spec.devices.requests[0].exactly.deviceClassName"}},
        RefCase{
            .name = "ClassesNotCheckedWithoutClassInputs",
            .mutate = [](auto&, auto& c,
                         auto&) { c.spec.devices.requests[0].exactly->device_class_name = "zzz"; },
            .want = {},
            .with_class = false}),
    [](const auto& test_case) { return test_case.param.name; });

// Issue 19 item 22: references to a kind nothing among the inputs (or the inventory) holds
// are one info per run, not a warning per reference.
TEST(ReferencesNoiseTest, AbsentKindsAreOneInfoPerRun) {
  k8s::Workload pod1 = Pod(), pod2 = Pod();
  for (k8s::Workload* p : {&pod1, &pod2}) {
    p->pod.resource_claims[0].resource_claim_name.reset();
    p->pod.resource_claims[0].resource_claim_template_name = "t";
    p->pod.containers[0].claims[0].request = "";
  }
  pod2.metadata.name = "p2";
  k8s::ResourceClaim c1 = Claim(), c2 = Claim();
  c2.spec.devices.requests[0].exactly->device_class_name = "other-class";
  ReferenceInputs in;
  in.workloads.push_back({&pod1, {"v1", "Pod", "ns", "p"}});
  in.workloads.push_back({&pod2, {"v1", "Pod", "ns", "p2"}});
  in.claims.push_back({&c1, {"resource.k8s.io/v1", "ResourceClaim", "ns", "c"}});
  in.claims.push_back({&c2, {"resource.k8s.io/v1", "ResourceClaim", "ns", "c2"}});
  Diagnostics d;
  CheckReferences(in, d);
  std::vector<std::string> all;
  for (const Diagnostic& x : d) {
    all.push_back(std::string(SeverityName(x.severity)) + " " + x.code + " @ " + x.field);
  }
  EXPECT_EQ(all, (std::vector<std::string>{
                     "info refs.pod.claim-template.unchecked @ "
                     "spec.resourceClaims[0].resourceClaimTemplateName",
                     "info refs.device-class.unchecked @ "
                     "spec.devices.requests[0].exactly.deviceClassName"}));
  EXPECT_EQ(d.items()[0].object.name, "p");
  EXPECT_NE(d.items()[1].message.find("2 references"), std::string::npos) << d.items()[1].message;
}

// The inventory's DeviceClasses and ResourceClaims exist as much as the inputs' do; a missing
// name then warns with the closest existing one.
TEST(ReferencesNoiseTest, InventoryObjectsCount) {
  k8s::Workload pod = Pod();
  k8s::ResourceClaim claim = Claim();
  claim.metadata.name = "x";
  claim.spec.devices.requests[0].exactly->device_class_name = "gpu-clas";
  SharedList<k8s::DeviceClass> classes = {Class()};
  k8s::ResourceClaim allocated = Claim();
  allocated.metadata.name = "c";
  SharedList<k8s::ResourceClaim> claims = {allocated};
  ReferenceInputs in;
  in.workloads.push_back({&pod, {"v1", "Pod", "ns", "p"}});
  in.claims.push_back({&claim, {"resource.k8s.io/v1", "ResourceClaim", "ns", "x"}});
  in.cluster_classes = &classes;
  in.cluster_claims = &claims;
  Diagnostics d;
  CheckReferences(in, d);
  ASSERT_EQ(Findings(d), std::vector<std::string>{"W refs.device-class.not-found @ "
                                                  "spec.devices.requests[0].exactly.deviceClassName"});
  EXPECT_EQ(d.items()[0].suggestion, "gpu-class");
}

// Lint's two-pass run checks each file with its own checker and folds them in input order:
// started_summaries() tells which summaries a check started (and first_field where), and a
// merged checker is left empty.
TEST(ReferenceCheckerTest, StartedSummariesAndFoldedCheckers) {
  ReferenceIndex index;
  k8s::ResourceClaimTemplate tmpl = Template();
  k8s::ResourceClaim claim = Claim();
  claim.spec.devices.requests[0].exactly->device_class_name = "absent";
  tmpl.spec.devices.requests[0].exactly->device_class_name = "absent";
  const ObjectRef claim_ref{"resource.k8s.io/v1", "ResourceClaim", "ns", "c"};
  const ObjectRef tmpl_ref{"resource.k8s.io/v1", "ResourceClaimTemplate", "ns", "t"};
  ReferenceChecker first(index), second(index);
  EXPECT_EQ(first.started_summaries(), 0u);
  EXPECT_EQ(first.first_field(2), "");
  Diagnostics d;
  first.CheckTemplate({&tmpl, tmpl_ref}, d);
  EXPECT_EQ(first.started_summaries(), 8u);  // DeviceClasses, from templates
  EXPECT_EQ(first.first_field(3), "spec.spec.devices.requests[0].exactly.deviceClassName");
  second.CheckClaim({&claim, claim_ref}, d);
  EXPECT_EQ(second.started_summaries(), 4u);  // DeviceClasses, from claims
  EXPECT_EQ(second.first_field(2), "spec.devices.requests[0].exactly.deviceClassName");
  EXPECT_TRUE(d.empty());
  first.Merge(std::move(second));
  EXPECT_EQ(first.started_summaries(), 12u);
  EXPECT_EQ(second.started_summaries(), 0u);  // NOLINT(bugprone-use-after-move): left empty
  // One summary for DeviceClasses, on the claim's reference although the template came first.
  first.Report(d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].code, "refs.device-class.unchecked");
  EXPECT_EQ(d.items()[0].field, "spec.devices.requests[0].exactly.deviceClassName");
  EXPECT_EQ(d.items()[0].object, claim_ref);
  EXPECT_NE(d.items()[0].message.find("2 references"), std::string::npos);
}

}  // namespace
}  // namespace draguard::validate
