// The batch pipeline (pipeline.h): the stage table, which stages run for which options, and
// the short-circuits around objects the API server rejects.
#include "policy/pipeline/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "policy/common/source.h"
#include "policy/pipeline/gated_fields.h"
#include "tests/policy/pipeline/decode_inputs.h"

namespace draguard::pipeline {
namespace {

using testing::DecodeInputs;

using ::testing::Contains;
using ::testing::Not;

// node-1 with two GPUs of gpu.example.com; the class.
constexpr char kCluster[] = R"(apiVersion: resource.k8s.io/v1
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
  - name: gpu-1
)";

std::string Claim(const std::string& name, int count, const std::string& device_class,
                  const std::string& selector = "") {
  std::string out = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " +
                    name + ", namespace: ml}\nspec:\n  devices:\n    requests:\n    - name: gpu\n" +
                    "      exactly:\n        deviceClassName: " + device_class +
                    "\n        count: " + std::to_string(count) + "\n";
  if (!selector.empty()) {
    out += "        selectors:\n        - cel: {expression: '" + selector + "'}\n";
  }
  return out;
}

// A claim the API server accepts, but the cluster cannot serve (3 of 2 GPUs).
const std::string kTooBig = Claim("too-big", 3, "gpu.example.com");
// A claim the API server rejects (count -2), which also asks for more GPUs than exist.
const std::string kRejected = Claim("rejected", -2, "gpu.example.com");
// A valid claim whose selector reads an attribute NVIDIA's driver removed (schema warning or
// error, policy/schema's catalog), under a class that is not among the inputs.
const std::string kSchema =
    Claim("schema", 1, "gpu.nvidia.com", R"(device.attributes["gpu.nvidia.com"].index == 0)");

std::vector<std::string> Codes(const BatchResult& result) {
  std::vector<std::string> out;
  for (const auto& file : result.per_file) {
    for (const Diagnostic& d : file) out.push_back(d.code);
  }
  for (const Diagnostic& d : result.cross_object) out.push_back(d.code);
  return out;
}

bool AnyStartsWith(const std::vector<std::string>& codes, const std::string& prefix) {
  return std::any_of(codes.begin(), codes.end(),
                     [&](const std::string& c) { return c.rfind(prefix, 0) == 0; });
}

TEST(StageTableTest, FixedOrderAndSingleObjectRules) {
  std::vector<Stage> order;
  for (const StageInfo& s : kStages) order.push_back(s.stage);
  EXPECT_EQ(order, (std::vector<Stage>{Stage::kDecode, Stage::kValidate, Stage::kReferences,
                                       Stage::kSchema, Stage::kSatisfiability, Stage::kPolicy}));
  EXPECT_FALSE(InfoOf(Stage::kReferences).single);
  EXPECT_TRUE(InfoOf(Stage::kSchema).batch_after_errors);
  EXPECT_FALSE(InfoOf(Stage::kSchema).single_after_errors);
  EXPECT_FALSE(InfoOf(Stage::kSatisfiability).batch_after_errors);
  EXPECT_EQ(InfoOf(Stage::kSatisfiability).name, "satisfiability");
}

struct BatchCase {
  std::string name;
  std::vector<std::string> inputs;
  StageSelection stages;
  bool snapshot = true;
  std::vector<std::string> want_prefixes;     // some code starts with each
  std::vector<std::string> absent_prefixes;   // no code starts with any
  size_t want_satisfiability_results = 0;
};

class BatchTest : public ::testing::TestWithParam<BatchCase> {};

TEST_P(BatchTest, RunsTheSelectedStages) {
  const BatchCase& c = GetParam();
  std::vector<k8s::DecodeResult> cluster_files = DecodeInputs({kCluster});
  inventory::ClusterObjects snapshot;
  for (const k8s::DecodeResult& file : cluster_files) {
    inventory::CollectClusterObjects(file, snapshot);
  }
  std::vector<k8s::DecodeResult> decoded = DecodeInputs(c.inputs);
  PipelineOptions options;
  options.stages = c.stages;
  BatchResult result = RunBatch(decoded, c.snapshot ? &snapshot : nullptr, options);
  std::vector<std::string> codes = Codes(result);
  ASSERT_EQ(result.per_file.size(), c.inputs.size());
  for (const std::string& p : c.want_prefixes) {
    EXPECT_TRUE(AnyStartsWith(codes, p)) << p << " missing: " << ::testing::PrintToString(codes);
  }
  for (const std::string& p : c.absent_prefixes) {
    EXPECT_FALSE(AnyStartsWith(codes, p)) << p << " present: " << ::testing::PrintToString(codes);
  }
  EXPECT_EQ(result.satisfiability.size(), c.want_satisfiability_results);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BatchTest,
    ::testing::Values(
        BatchCase{.name = "AllStages",
                  .inputs = {kTooBig, kSchema},
                  .want_prefixes = {"alloc.unsatisfiable", "schema.", "refs.device-class"},
                  .want_satisfiability_results = 2},
        BatchCase{.name = "NoSnapshotNoSatisfiability",
                  .inputs = {kTooBig},
                  .snapshot = false,
                  .absent_prefixes = {"alloc."}},
        BatchCase{.name = "SatisfiabilityOff",
                  .inputs = {kTooBig},
                  .stages = {.satisfiability = false},
                  .absent_prefixes = {"alloc."}},
        BatchCase{.name = "SchemaOff",
                  .inputs = {kSchema},
                  .stages = {.schema = false},
                  .absent_prefixes = {"schema."},
                  .want_satisfiability_results = 1},
        BatchCase{.name = "ReferencesOff",
                  .inputs = {kSchema},
                  .stages = {.references = false},
                  .want_prefixes = {"schema."},
                  .absent_prefixes = {"refs."},
                  .want_satisfiability_results = 1},
        // Rejected by validation: its errors stand, nothing is allocated (one result, with
        // the errors, and no alloc.* diagnostic), as the API server never stores it.
        BatchCase{.name = "RejectedIsNotAllocated",
                  .inputs = {kRejected},
                  .want_prefixes = {"claim."},
                  .absent_prefixes = {"alloc."},
                  .want_satisfiability_results = 1}),
    [](const ::testing::TestParamInfo<BatchCase>& param) { return param.param.name; });

// In a batch the schema stage checks rejected objects too (lint reports every finding at
// once): kStages says batch_after_errors.
TEST(BatchTest, SchemaChecksRejectedObjectsInABatch) {
  const std::string rejected_with_schema =
      Claim("both", -2, "gpu.nvidia.com", R"(device.attributes["gpu.nvidia.com"].index == 0)");
  std::vector<k8s::DecodeResult> decoded = DecodeInputs({rejected_with_schema});
  BatchResult result = RunBatch(decoded, nullptr, {});
  std::vector<std::string> codes = Codes(result);
  EXPECT_TRUE(AnyStartsWith(codes, "claim.")) << ::testing::PrintToString(codes);
  EXPECT_TRUE(AnyStartsWith(codes, "schema.")) << ::testing::PrintToString(codes);
}

TEST(BatchTest, RejectedObjectsResultCarriesTheirErrors) {
  std::vector<k8s::DecodeResult> cluster_files = DecodeInputs({kCluster});
  inventory::ClusterObjects snapshot;
  inventory::CollectClusterObjects(cluster_files[0], snapshot);
  std::vector<k8s::DecodeResult> decoded = DecodeInputs({kRejected});
  BatchResult result = RunBatch(decoded, &snapshot, {});
  ASSERT_EQ(result.satisfiability.size(), 1u);
  EXPECT_EQ(result.satisfiability[0].verdict.kind, alloc::VerdictKind::kError);
  EXPECT_FALSE(result.satisfiability[0].errors.empty());
  EXPECT_THAT(Codes(result), Not(Contains("alloc.unsatisfiable")));
}

// A namespace the options name without labels is known to carry none: adminAccess there is
// forbidden, as the API server (and the webhook, which learns it from its route) decides,
// not "unverified" as for a namespace nobody described.
TEST(BatchTest, NamespaceGivenWithoutLabelsIsKnown) {
  const std::string admin =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: a, namespace: ml}\n"
      "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
      "        deviceClassName: gpu.example.com\n        adminAccess: true\n";
  std::vector<k8s::DecodeResult> decoded = DecodeInputs({admin});
  PipelineOptions options;
  options.stages = {.references = false, .schema = false, .satisfiability = false};
  EXPECT_THAT(Codes(RunBatch(decoded, nullptr, options)),
              Contains("claim.admin-access.unverified"));
  options.validation.namespace_labels["ml"] = {};
  std::vector<std::string> codes = Codes(RunBatch(decoded, nullptr, options));
  EXPECT_THAT(codes, Contains("claim.admin-access.forbidden"));
  EXPECT_THAT(codes, Not(Contains("claim.admin-access.unverified")));
}

// Dropping disabled fields from a cluster that shares its objects with another (a live
// cluster's snapshot): objects without such fields stay shared, an object with one is
// replaced by a copy without it, and the other list never changes.
TEST(GatedFieldsTest, SharedObjectsAreCopiedOnlyWhenAFieldIsDropped) {
  auto slice = [](const std::string& name, bool tainted) {
    k8s::ResourceSlice s;
    s.metadata.name = name;
    s.spec.devices.emplace_back().name = "gpu-0";
    if (tainted) s.spec.devices[0].taints.push_back({"k", "v", "NoSchedule", ""});
    return s;
  };
  inventory::ClusterObjects live;
  live.slices.push_back(slice("plain", false));
  live.slices.push_back(slice("tainted", true));
  validate::ValidationOptions options;
  options.gates.SetEnabled(Gate::kDRADeviceTaints, false);
  for (bool shared : {true, false}) {
    SCOPED_TRACE(shared ? "shared with the live snapshot" : "owned");
    inventory::ClusterObjects cluster;
    if (shared) {
      cluster = live;
    } else {
      cluster.slices.push_back(slice("plain", false));
      cluster.slices.push_back(slice("tainted", true));
    }
    const k8s::ResourceSlice* plain_before = &cluster.slices[0];
    const k8s::ResourceSlice* tainted_before = &cluster.slices[1];
    DropDisabledFields(cluster, options);
    EXPECT_EQ(&cluster.slices[0], plain_before);  // nothing to drop: never copied
    EXPECT_TRUE(cluster.slices[1].spec.devices[0].taints.empty());
    EXPECT_EQ(&cluster.slices[1] != tainted_before, shared);  // copied only when shared
  }
  EXPECT_EQ(live.slices[1].spec.devices[0].taints.size(), 1u);  // the live snapshot unchanged
}

}  // namespace
}  // namespace draguard::pipeline
