// The upgrade check (issue 14 item 5): two lint runs diffed per object by (code, field path)
// and severity. Constructed inputs with a known change from 1.35 to 1.36 (docs/k8s-releases.md
// C.9: V1, V8, D3, V5/A1, A3), the pure diff rules, and a run over the corpus when
// ../shared is present.
#include "policy/lint/upgrade.h"

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "policy/pipeline/satisfiability_stage.h"

namespace draguard::lint {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAreArray;

LintOptions OptionsFor(KubernetesVersion version) {
  LintOptions options;
  options.validation = validate::ValidationOptions::ForVersion(version);
  options.satisfiability.allocator.version = version;
  options.satisfiability.allocator.gates = FeatureGates(version);
  options.jobs = 1;
  return options;
}

UpgradeOptions Upgrade(KubernetesVersion from, KubernetesVersion to) {
  return {.from = OptionsFor(from), .to = OptionsFor(to)};
}

// code, field, and the original code quoted in the message.
using Change = std::tuple<std::string, std::string, Severity>;

std::vector<Change> Changes(const LintReport& report) {
  std::vector<Change> out;
  for (const Diagnostic& d : report.diagnostics) out.emplace_back(d.code, d.field, d.severity);
  return out;
}

constexpr char kClass[] = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
)";

// V1: a request policy without allowMultipleAllocations: dropped by 1.35, Forbidden in 1.36.
constexpr char kRequestPolicySlice[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices:
  - name: d0
    capacity:
      memory:
        value: 8Gi
        requestPolicy:
          default: 1Gi
          validRange: {min: 1Gi}
)";

// V8: a toleration with an unsupported operator: dropped by 1.35, NotSupported in 1.36.
constexpr char kBogusTolerationClaim[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        tolerations:
        - {key: k, operator: Bogus, effect: NoSchedule}
)";

// D3: v1beta2 is deprecated from 1.36.
constexpr char kBeta2Class[] = R"(apiVersion: resource.k8s.io/v1beta2
kind: DeviceClass
metadata: {name: old}
spec: {}
)";

constexpr char kPlainClaim[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: plain, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu}
)";

TEST(UpgradeTest, ObjectsThatBecomeInvalid) {
  LintReport r = LintUpgradeSources({SourceText("class.yaml", kClass),
                                     SourceText("slice.yaml", kRequestPolicySlice),
                                     SourceText("claim.yaml", kBogusTolerationClaim)},
                                    Upgrade(KubernetesVersion::k1_35, KubernetesVersion::k1_36));
  EXPECT_THAT(
      Changes(r),
      UnorderedElementsAreArray(std::vector<Change>{
          {"upgrade.field.kept", "spec.devices[0].capacity[memory].requestPolicy",
           Severity::kInfo},
          {"upgrade.object.invalid", "spec.devices[0].capacity[memory].requestPolicy",
           Severity::kError},
          {"upgrade.field.kept", "spec.devices.requests[0].exactly.tolerations", Severity::kInfo},
          {"upgrade.object.invalid", "spec.devices.requests[0].exactly.tolerations[0].operator",
           Severity::kError}}))
      << ::testing::PrintToString(Changes(r));
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_THAT(d.message, HasSubstr("Kubernetes 1.35 -> 1.36"));
    EXPECT_GT(d.position.line, 0) << d.code;
  }
}

TEST(UpgradeTest, DowngradeMakesThemValid) {
  LintReport r = LintUpgradeSources({SourceText("class.yaml", kClass),
                                     SourceText("claim.yaml", kBogusTolerationClaim)},
                                    Upgrade(KubernetesVersion::k1_36, KubernetesVersion::k1_35));
  EXPECT_THAT(Changes(r),
              UnorderedElementsAreArray(std::vector<Change>{
                  {"upgrade.field.dropped", "spec.devices.requests[0].exactly.tolerations",
                   Severity::kWarning},
                  {"upgrade.object.valid",
                   "spec.devices.requests[0].exactly.tolerations[0].operator", Severity::kInfo}}))
      << ::testing::PrintToString(Changes(r));
}

TEST(UpgradeTest, ApiVersionDeprecation) {
  LintReport r = LintUpgradeSources({SourceText("old.yaml", kBeta2Class)},
                                    Upgrade(KubernetesVersion::k1_35, KubernetesVersion::k1_36));
  // decode.api-version.beta (1.35) becomes decode.api-version.deprecated (1.36).
  EXPECT_THAT(Changes(r), UnorderedElementsAreArray(std::vector<Change>{
                              {"upgrade.api-version", "apiVersion", Severity::kInfo},
                              {"upgrade.api-version", "apiVersion", Severity::kWarning}}))
      << ::testing::PrintToString(Changes(r));
}

TEST(UpgradeTest, NothingChangesForAPlainClaim) {
  LintReport r = LintUpgradeSources(
      {SourceText("class.yaml", kClass), SourceText("claim.yaml", kPlainClaim)},
      Upgrade(KubernetesVersion::k1_35, KubernetesVersion::k1_36));
  EXPECT_THAT(r.diagnostics, IsEmpty());
  EXPECT_EQ(r.objects.size(), 2u);
}

// A3: a NoSchedule taint in the inventory is dropped by 1.35 (DRADeviceTaints off) and
// blocks the claim in 1.36.
TEST(UpgradeTest, ClaimBecomesUnsatisfiable) {
  constexpr char kTaintedSlice[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices:
  - name: d0
    taints:
    - {key: broken, effect: NoSchedule}
)";
  constexpr char kNode[] = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
  std::vector<k8s::DecodeResult> inventory;
  inventory.push_back(k8s::Decode(SourceText("inv.yaml", std::string(kTaintedSlice) + "---\n" +
                                                             kNode + "---\n" + kClass)));
  auto cluster = std::make_shared<const inventory::ClusterObjects>(
      pipeline::MergeClusterObjects(nullptr, inventory));
  UpgradeOptions options = Upgrade(KubernetesVersion::k1_35, KubernetesVersion::k1_36);
  options.from.inventory = cluster;
  options.to.inventory = cluster;
  LintReport r = LintUpgradeSources({SourceText("claim.yaml", kPlainClaim)}, options);
  ASSERT_EQ(r.diagnostics.size(), 1u) << ::testing::PrintToString(Changes(r));
  EXPECT_EQ(r.diagnostics[0].code, "upgrade.claim.satisfiability");
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kError);
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("[alloc.unsatisfiable]"));
}

// Device.nodeAllocatableResourceMappings: an unknown field before 1.36; dropped by 1.36 with
// DRANodeAllocatableResources off (its default), kept but not validated with it on.
constexpr char kMappingSlice[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: cpus}
spec:
  driver: cpu.example.com
  nodeName: n1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices:
  - name: core0
    nodeAllocatableResourceMappings:
      cpu: {allocationMultiplier: "2"}
)";

std::vector<std::string> CodesAndFields(const LintReport& report) {
  std::vector<std::string> out;
  for (const Diagnostic& d : report.diagnostics) out.push_back(d.code + " @ " + d.field);
  return out;
}

TEST(NodeAllocatableMappingsTest, PerRelease) {
  const std::string field = "spec.devices[0].nodeAllocatableResourceMappings";
  LintReport r135 = LintSources({SourceText("s.yaml", kMappingSlice)},
                                OptionsFor(KubernetesVersion::k1_35));
  EXPECT_THAT(CodesAndFields(r135),
              UnorderedElementsAreArray({"decode.unknown-field @ " + field}));
  LintReport r136 = LintSources({SourceText("s.yaml", kMappingSlice)},
                                OptionsFor(KubernetesVersion::k1_36));
  EXPECT_THAT(CodesAndFields(r136),
              UnorderedElementsAreArray({"slice.device.node-allocatable.dropped @ " + field}));
  LintOptions gate_on = OptionsFor(KubernetesVersion::k1_36);
  gate_on.validation.gates.SetEnabled(Gate::kDRANodeAllocatableResources, true);
  LintReport on = LintSources({SourceText("s.yaml", kMappingSlice)}, gate_on);
  EXPECT_THAT(CodesAndFields(on),
              UnorderedElementsAreArray({"slice.device.node-allocatable.unchecked @ " + field}));

  LintReport upgrade = LintUpgradeSources(
      {SourceText("s.yaml", kMappingSlice)},
      Upgrade(KubernetesVersion::k1_35, KubernetesVersion::k1_36));
  EXPECT_THAT(CodesAndFields(upgrade),
              UnorderedElementsAreArray({"upgrade.object.valid @ " + field,
                                         "upgrade.field.dropped @ " + field}));
}

// The diff rules on hand-built reports: equal findings cancel, a severity change pairs up,
// file-level findings count.
TEST(UpgradeDiffTest, PairsBySeverityAndKey) {
  auto finding = [](std::string code, std::string field, Severity severity) {
    Diagnostic d;
    d.code = std::move(code);
    d.field = std::move(field);
    d.severity = severity;
    d.file = "a.yaml";
    d.object = {.api_version = "resource.k8s.io/v1", .kind = "ResourceClaim", .name = "c"};
    return d;
  };
  LintReport from, to;
  from.files = to.files = {"a.yaml"};
  from.diagnostics = {finding("x.same", "f", Severity::kWarning),
                      finding("x.level", "g", Severity::kWarning),
                      finding("x.gone", "h", Severity::kWarning)};
  to.diagnostics = {finding("x.same", "f", Severity::kWarning),
                    finding("x.level", "g", Severity::kError),
                    finding("x.new", "i", Severity::kInfo)};
  LintReport r = DiffReports(from, to, "1.35", "1.36");
  EXPECT_THAT(Changes(r), UnorderedElementsAreArray(std::vector<Change>{
                              {"upgrade.object.invalid", "g", Severity::kError},
                              {"upgrade.finding.gone", "h", Severity::kInfo},
                              {"upgrade.finding.new", "i", Severity::kInfo}}));
}

// Over the corpus: the upgrade check runs over every file, and the objects written as
// resource.k8s.io/v1beta2 (deprecated from 1.36) each get an upgrade.api-version warning, while
// the constructed files beside them show their known changes.
TEST(UpgradeCorpusTest, RunsOverTheCorpus) {
  const std::string dir = std::string(DRAGUARD_SHARED_DIR) + "/corpus";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "corpus not available at " << dir;
  StatusOr<std::vector<SourceText>> sources =
      inventory::ReadInputs({inventory::Input{dir}}, inventory::InputOptions{});
  ASSERT_TRUE(sources.ok()) << sources.status().message();
  const size_t corpus_files = sources->size();
  sources->push_back(SourceText("constructed/class.yaml", kClass));
  sources->push_back(SourceText("constructed/slice.yaml", kRequestPolicySlice));
  sources->push_back(SourceText("constructed/claim.yaml", kBogusTolerationClaim));
  UpgradeOptions options = Upgrade(KubernetesVersion::k1_35, KubernetesVersion::k1_36);
  options.from.jobs = options.to.jobs = 0;
  LintReport r = LintUpgradeSources(std::move(sources).value(), options);
  EXPECT_EQ(r.files.size(), corpus_files + 3);

  std::set<std::string> deprecated_beta2;  // "file kind name" with an upgrade.api-version warning
  std::set<std::string> constructed;
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_TRUE(d.code.starts_with("upgrade.")) << d.code;
    if (d.file.starts_with("constructed/")) constructed.insert(d.code + " " + d.field);
    if (d.code == "upgrade.api-version" && d.severity == Severity::kWarning &&
        d.object.api_version == "resource.k8s.io/v1beta2") {
      deprecated_beta2.insert(d.file + " " + d.object.kind + " " + d.object.name);
    }
  }
  size_t beta2_objects = 0;
  for (const LintedObject& o : r.objects) {
    if (o.ref.api_version != "resource.k8s.io/v1beta2" || o.ref.kind == "DeviceTaintRule") {
      continue;
    }
    ++beta2_objects;
    EXPECT_EQ(deprecated_beta2.count(o.file + " " + o.ref.kind + " " + o.ref.name), 1u)
        << o.file << " " << o.ref.kind << " " << o.ref.name;
  }
  EXPECT_GT(beta2_objects, 0u);
  EXPECT_THAT(constructed,
              UnorderedElementsAreArray(std::vector<std::string>{
                  "upgrade.field.kept spec.devices[0].capacity[memory].requestPolicy",
                  "upgrade.object.invalid spec.devices[0].capacity[memory].requestPolicy",
                  "upgrade.field.kept spec.devices.requests[0].exactly.tolerations",
                  "upgrade.object.invalid spec.devices.requests[0].exactly.tolerations[0].operator"}));
}

}  // namespace
}  // namespace draguard::lint
