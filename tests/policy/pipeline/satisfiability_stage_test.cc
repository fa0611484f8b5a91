// Satisfiability subjects among decoded inputs: claims, templates and pods, checked against
// the inventory plus the cluster objects among the inputs; lint diagnostics from verdicts.
#include "policy/pipeline/satisfiability_stage.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "policy/common/source.h"
#include "tests/policy/pipeline/decode_inputs.h"
#include "policy/lint/linter.h"
#include "policy/pipeline/pipeline.h"

namespace draguard::pipeline {
namespace {

using testing::DecodeInputs;

// node-1 and node-2 with two GPUs each; one class.
constexpr char kSatisfiabilityCluster[] = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes: {model: {string: h100}}
  - name: gpu-1
    attributes: {model: {string: h100}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-2
  pool: {name: node-2, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes: {model: {string: a100}}
  - name: gpu-1
    attributes: {model: {string: a100}}
)";

std::string Claim(const std::string& kind, const std::string& name, int count,
                  const std::string& selector = "") {
  std::string prefix = kind == "ResourceClaimTemplate" ? "  spec:\n    devices:\n" : "  devices:\n";
  std::string indent = kind == "ResourceClaimTemplate" ? "  " : "";
  std::string out = "apiVersion: resource.k8s.io/v1\nkind: " + kind + "\nmetadata: {name: " + name +
                    ", namespace: ml}\nspec:\n" + prefix + indent + "    requests:\n" + indent +
                    "    - name: gpu\n" + indent + "      exactly:\n" + indent +
                    "        deviceClassName: gpu.example.com\n" + indent +
                    "        count: " + std::to_string(count) + "\n";
  if (!selector.empty()) {
    out += indent + "        selectors:\n" + indent + "        - cel: {expression: '" + selector + "'}\n";
  }
  return out;
}

std::string Pod(const std::string& name, const std::vector<std::string>& templates) {
  std::string out = "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
                    ", namespace: ml}\nspec:\n  containers:\n  - name: c\n    image: x\n"
                    "  resourceClaims:\n";
  for (size_t i = 0; i < templates.size(); ++i) {
    out += "  - name: claim-" + std::to_string(i) + "\n    resourceClaimTemplateName: " +
           templates[i] + "\n";
  }
  return out;
}

struct SubjectCase {
  std::string name;
  std::vector<std::string> inputs;  // besides kSatisfiabilityCluster
  std::string subject;              // "Kind/name" whose verdict is checked
  alloc::VerdictKind want;
  std::string code = "";  // a reason code that must be present
};

class SatisfiabilityTest : public ::testing::TestWithParam<SubjectCase> {};

TEST_P(SatisfiabilityTest, Verdict) {
  const SubjectCase& c = GetParam();
  std::vector<std::string> docs = c.inputs;
  docs.push_back(kSatisfiabilityCluster);
  std::vector<k8s::DecodeResult> decoded = DecodeInputs(docs);
  inventory::ClusterObjects cluster = MergeClusterObjects(nullptr, decoded);
  std::vector<SatisfiabilityResult> results =
      CheckSatisfiability(decoded, cluster, alloc::AllocatorOptions{});
  const SatisfiabilityResult* found = nullptr;
  for (const auto& r : results) {
    if (r.ref.kind + "/" + r.ref.name == c.subject) found = &r;
  }
  ASSERT_NE(found, nullptr) << "no result for " << c.subject;
  EXPECT_EQ(alloc::VerdictName(found->verdict.kind), alloc::VerdictName(c.want))
      << alloc::RenderVerdict(found->verdict);
  if (!c.code.empty()) {
    bool has = false;
    for (const auto& reason : found->verdict.reasons) has = has || reason.code == c.code;
    EXPECT_TRUE(has) << "missing " << c.code << "\n" << alloc::RenderVerdict(found->verdict);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Subjects, SatisfiabilityTest,
    ::testing::Values(
        SubjectCase{.name = "ClaimFits", .inputs = {Claim("ResourceClaim", "two", 2)},
                    .subject = "ResourceClaim/two", .want = alloc::VerdictKind::kSatisfiable},
        SubjectCase{.name = "ClaimTooLarge", .inputs = {Claim("ResourceClaim", "three", 3)},
                    .subject = "ResourceClaim/three", .want = alloc::VerdictKind::kUnsatisfiable,
                    .code = "alloc.request.insufficient-devices"},
        SubjectCase{.name = "TemplateWithCelSelector",
                    .inputs = {Claim("ResourceClaimTemplate", "h100", 2,
                                     "device.attributes[\"gpu.example.com\"].model == \"h100\"")},
                    .subject = "ResourceClaimTemplate/h100",
                    .want = alloc::VerdictKind::kSatisfiable},
        SubjectCase{.name = "TemplateSelectorMatchesNothing",
                    .inputs = {Claim("ResourceClaimTemplate", "b200", 1,
                                     "device.attributes[\"gpu.example.com\"].model == \"b200\"")},
                    .subject = "ResourceClaimTemplate/b200",
                    .want = alloc::VerdictKind::kUnsatisfiable},
        SubjectCase{.name = "CelRuntimeErrorIsError",
                    .inputs = {Claim("ResourceClaim", "ecc", 1,
                                     "device.attributes[\"gpu.example.com\"].ecc")},
                    .subject = "ResourceClaim/ecc", .want = alloc::VerdictKind::kError,
                    .code = "alloc.selector.error"},
        SubjectCase{.name = "PodClaimsFitTogether",
                    .inputs = {Claim("ResourceClaimTemplate", "one", 1), Pod("p", {"one", "one"})},
                    .subject = "Pod/p", .want = alloc::VerdictKind::kSatisfiable},
        // Each claim fits alone (two GPUs per node) but not together on one node.
        SubjectCase{.name = "PodClaimsDoNotFitTogether",
                    .inputs = {Claim("ResourceClaimTemplate", "one", 1),
                               Claim("ResourceClaimTemplate", "two", 2), Pod("p", {"two", "one"})},
                    .subject = "Pod/p", .want = alloc::VerdictKind::kUnsatisfiable},
        SubjectCase{.name = "PodTemplateMissing", .inputs = {Pod("p", {"nowhere"})},
                    .subject = "Pod/p", .want = alloc::VerdictKind::kError,
                    .code = "alloc.claim.not-found"}),
    [](const ::testing::TestParamInfo<SubjectCase>& param_info) { return param_info.param.name; });

TEST(SatisfiabilityTest, AllocatedClaimsAreInventoryNotSubjects) {
  std::string allocated = Claim("ResourceClaim", "taken", 2) +
                          "status:\n  allocation:\n    devices:\n      results:\n"
                          "      - {request: gpu, driver: gpu.example.com, pool: node-1, device: gpu-0}\n"
                          "      - {request: gpu, driver: gpu.example.com, pool: node-1, device: gpu-1}\n";
  std::vector<k8s::DecodeResult> decoded =
      DecodeInputs({allocated, Claim("ResourceClaim", "two", 2), kSatisfiabilityCluster});
  inventory::ClusterObjects cluster = MergeClusterObjects(nullptr, decoded);
  std::vector<SatisfiabilityResult> results =
      CheckSatisfiability(decoded, cluster, alloc::AllocatorOptions{});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].ref.name, "two");
  EXPECT_EQ(results[0].verdict.feasible_nodes, std::vector<std::string>{"node-2"});
}

// explain's text output keeps only the number of feasible nodes; RunBatch may take the
// snapshot over (no copy) and answers as with a pointer to it.
TEST(SatisfiabilityTest, FeasibleNodeNamesCanBeDroppedAndTheSnapshotTakenOver) {
  std::vector<k8s::DecodeResult> inventory_files = DecodeInputs({kSatisfiabilityCluster});
  inventory::ClusterObjects inventory = MergeClusterObjects(nullptr, inventory_files);
  std::vector<k8s::DecodeResult> inputs = DecodeInputs({Claim("ResourceClaim", "one", 1)});
  PipelineOptions options;
  options.stages = {.references = false, .schema = false, .satisfiability = true};
  Timings timings;
  options.satisfiability.timings = &timings;
  BatchResult kept = RunBatch(inputs, &inventory, options);
  ASSERT_EQ(kept.satisfiability.size(), 1u);
  EXPECT_EQ(kept.satisfiability[0].verdict.feasible_nodes,
            (std::vector<std::string>{"node-1", "node-2"}));
  EXPECT_EQ(kept.satisfiability[0].verdict.feasible_node_count, 2u);
  EXPECT_EQ(timings.phases().size(), 3u);  // merge, inventory build, checks

  options.satisfiability.feasible_node_names = false;
  BatchResult counted = RunBatch(inputs, std::move(inventory), options);
  ASSERT_EQ(counted.satisfiability.size(), 1u);
  const alloc::AllocationVerdict& v = counted.satisfiability[0].verdict;
  EXPECT_EQ(v.kind, alloc::VerdictKind::kSatisfiable);
  EXPECT_TRUE(v.feasible_nodes.empty());
  EXPECT_EQ(v.feasible_node_count, 2u);
  EXPECT_EQ(v.node, "node-1");
}

TEST(SatisfiabilityTest, InputObjectsReplaceInventoryObjects) {
  std::vector<k8s::DecodeResult> inventory_files = DecodeInputs({kSatisfiabilityCluster});
  inventory::ClusterObjects inventory = MergeClusterObjects(nullptr, inventory_files);
  std::vector<k8s::DecodeResult> inputs = DecodeInputs({kSatisfiabilityCluster});
  inventory::ClusterObjects merged = MergeClusterObjects(&inventory, inputs);
  EXPECT_EQ(merged.slices.size(), 2u);
  EXPECT_EQ(merged.classes.size(), 1u);
}

// Objects are matched by namespace (empty is "default") and name: a match is replaced where it
// stands, anything else appended, and a later input replaces an earlier one.
TEST(SatisfiabilityTest, MergeReplacesByNamespaceAndName) {
  auto claim = [](const std::string& name, const std::string& ns, const std::string& request) {
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
           (ns.empty() ? "" : ", namespace: " + ns) + "}\nspec:\n  devices:\n    requests:\n" +
           "    - name: " + request + "\n      exactly: {deviceClassName: gpu.example.com}\n";
  };
  std::vector<k8s::DecodeResult> inventory_files =
      DecodeInputs({claim("a", "", "inv-a") + "---\n" + claim("b", "team", "inv-b")});
  inventory::ClusterObjects inventory = MergeClusterObjects(nullptr, inventory_files);
  std::vector<k8s::DecodeResult> inputs = DecodeInputs(
      {claim("b", "team", "new-b"), claim("a", "default", "new-a"), claim("a", "other", "other-a"),
       claim("c", "", "first-c") + "---\n" + claim("c", "default", "second-c")});
  inventory::ClusterObjects merged = MergeClusterObjects(&inventory, inputs);
  std::vector<std::string> got;
  for (const k8s::ResourceClaim& c : merged.claims) {
    got.push_back(c.metadata.name_space + "/" + c.metadata.name + ":" +
                  c.spec.devices.requests.at(0).name);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"default/a:new-a", "team/b:new-b", "other/a:other-a",
                                           "default/c:second-c"}));
}

// The lint phase: alloc.unsatisfiable on the claim's spec.devices, warning by default.
TEST(SatisfiabilityLintTest, ReportsUnsatisfiableClaimsOnlyWithAnInventory) {
  std::vector<k8s::DecodeResult> inventory_files = DecodeInputs({kSatisfiabilityCluster});
  auto inventory = std::make_shared<const inventory::ClusterObjects>(
      MergeClusterObjects(nullptr, inventory_files));
  for (Severity severity : {Severity::kWarning, Severity::kError}) {
    lint::LintOptions options;
    options.inventory = inventory;
    options.satisfiability.unsatisfiable_severity = severity;
    lint::LintReport report = lint::LintSources(
        {SourceText("claims.yaml", Claim("ResourceClaim", "three", 3) + "---\n" +
                                       Claim("ResourceClaim", "two", 2))},
        options);
    std::vector<const Diagnostic*> found;
    for (const Diagnostic& d : report.diagnostics) {
      if (d.code == "alloc.unsatisfiable") found.push_back(&d);
    }
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0]->field, "spec.devices");
    EXPECT_EQ(found[0]->object.name, "three");
    EXPECT_EQ(found[0]->severity, severity);
    EXPECT_EQ(found[0]->position.line, 5) << "spec.devices of the first document";
  }
  lint::LintReport without =
      lint::LintSources({SourceText("c.yaml", Claim("ResourceClaim", "three", 3))}, {});
  for (const Diagnostic& d : without.diagnostics) EXPECT_NE(d.code, "alloc.unsatisfiable");
}

// Issue #19 item 23: a claim the scheduler fails with an error (33 devices, over the claim
// limit of 32) is alloc.scheduler-error, not alloc.unsatisfiable.
TEST(SatisfiabilityLintTest, SchedulerErrorIsItsOwnCode) {
  std::vector<k8s::DecodeResult> inventory_files = DecodeInputs({kSatisfiabilityCluster});
  lint::LintOptions options;
  options.inventory = std::make_shared<const inventory::ClusterObjects>(
      MergeClusterObjects(nullptr, inventory_files));
  lint::LintReport report =
      lint::LintSources({SourceText("c.yaml", Claim("ResourceClaim", "big", 33))}, options);
  std::vector<std::string> codes;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.code.starts_with("alloc.")) codes.push_back(d.code);
  }
  EXPECT_EQ(codes, std::vector<std::string>{"alloc.scheduler-error"});
}

}  // namespace
}  // namespace draguard::pipeline
