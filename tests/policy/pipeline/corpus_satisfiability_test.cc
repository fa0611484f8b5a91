// Scenarios from the real-world corpus (/work/shared/corpus): the drivers' own ResourceSlices
// and claim templates, checked with the allocator and the CEL adapter. The corpus has no
// DeviceClass for these drivers, so the test adds one per driver (driver equality only).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "policy/common/source.h"
#include "policy/inventory/inputs.h"
#include "policy/pipeline/satisfiability_stage.h"

namespace draguard::pipeline {
namespace {

constexpr char kClasses[] = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.nvidia.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.nvidia.com"'}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: dranet.net}
spec:
  selectors:
  - cel: {expression: 'device.driver == "dra.net"'}
)";

struct Scenario {
  std::string name;
  std::string folder;  // under the corpus
  std::map<std::string, alloc::VerdictKind> want;  // template name -> verdict
};

class CorpusScenarioTest : public ::testing::TestWithParam<Scenario> {};

TEST_P(CorpusScenarioTest, Verdicts) {
  const Scenario& s = GetParam();
  std::string dir = std::string(DRAGUARD_SHARED_DIR) + "/corpus/" + s.folder;
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "corpus not available at " << dir;
  StatusOr<std::vector<SourceText>> sources =
      inventory::ReadInputs({inventory::Input{dir}}, inventory::InputOptions{});
  ASSERT_TRUE(sources.ok()) << sources.status().message();
  std::vector<k8s::DecodeResult> decoded;
  for (const SourceText& source : *sources) decoded.push_back(k8s::Decode(source));
  decoded.push_back(k8s::Decode(SourceText("classes.yaml", kClasses)));
  inventory::ClusterObjects cluster = MergeClusterObjects(nullptr, decoded);
  std::vector<SatisfiabilityResult> results =
      CheckSatisfiability(decoded, cluster, alloc::AllocatorOptions{});
  std::map<std::string, const SatisfiabilityResult*> by_name;
  for (const auto& r : results) by_name[r.ref.name] = &r;
  for (const auto& [name, want] : s.want) {
    ASSERT_TRUE(by_name.count(name)) << "no result for " << name;
    const alloc::AllocationVerdict& v = by_name[name]->verdict;
    EXPECT_EQ(alloc::VerdictName(v.kind), alloc::VerdictName(want))
        << name << ": " << alloc::RenderVerdict(v);
  }
}

using alloc::VerdictKind;

INSTANTIATE_TEST_SUITE_P(
    Corpus, CorpusScenarioTest,
    ::testing::Values(
        // AWS p5-style node: a GPU and an EFA NIC, with and without the same PCIe root.
        Scenario{.name = "GpuNicOnOnePcieRootAws",
                 .folder = "kubernetes-sigs-dranet/examples/aws_eks_examples/gpu-efa",
                 .want = {{"gpu-efa-unaligned", VerdictKind::kSatisfiable},
                          {"gpu-efa-aligned", VerdictKind::kSatisfiable}}},
        // OCI GB200: NIC/GPU alignment templates; the *-block and gpu-fabric variants select
        // NIC attributes the published slice does not carry, so nothing matches.
        Scenario{.name = "GpuNicAlignmentOciGb200",
                 .folder = "kubernetes-sigs-dranet/examples/oci_oke_examples/BM.GPU.GB200-v3.4",
                 .want = {{"1nic-aligned", VerdictKind::kSatisfiable},
                          {"2nic-aligned", VerdictKind::kSatisfiable},
                          {"4nic-aligned", VerdictKind::kSatisfiable},
                          {"2nic-aligned-local-block", VerdictKind::kUnsatisfiable},
                          {"2nic-aligned-gpu-fabric", VerdictKind::kUnsatisfiable}}},
        // Azure GB300: the folder's allocated ResourceClaim already holds the GPU and NIC the
        // templates pin by name, so they cannot be allocated again.
        Scenario{.name = "AllocatedDevicesAzureGb300",
                 .folder = "kubernetes-sigs-dranet/examples/azure_aks_examples/gb300",
                 .want = {{"1nic-aligned", VerdictKind::kUnsatisfiable},
                          {"ib-same-fabric", VerdictKind::kSatisfiable}}}),
    [](const ::testing::TestParamInfo<Scenario>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace draguard::pipeline
