#include "policy/k8s/decode.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "policy/k8s/served_version.h"

namespace draguard::k8s {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

struct Expect {
  std::string code;
  std::string field;
  friend bool operator==(const Expect&, const Expect&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Expect& e) {
    return os << e.code << " @ " << e.field;
  }
};

std::vector<Expect> Codes(const DecodeResult& r) {
  std::vector<Expect> out;
  for (const Diagnostic& d : r.diagnostics) out.push_back({d.code, d.field});
  return out;
}

DecodeResult DecodeText(const std::string& text) {
  return Decode(SourceText("in.yaml", text));
}

constexpr char kClaimV1[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpu
  namespace: ml
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        count: 2
        selectors:
        - cel:
            expression: device.driver == "gpu.example.com"
)";

// --- table: which diagnostics a document draws ---

struct DiagCase {
  std::string name;
  std::string yaml;
  std::vector<Expect> want;
  size_t objects = 1;
};

// A Namespace with 200 labels (past the scan's 32: the set path), the last repeating k7.
std::string ManyLabels(bool repeat) {
  std::string text = R"({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n", "labels": {)";
  for (int i = 0; i < 200; ++i) text += "\"k" + std::to_string(i) + "\": \"v\", ";
  text += repeat ? R"("k7": "w"}}})" : R"("last": "w"}}})";
  return text;
}

// A Namespace whose metadata repeats a field after the field was read and sets an unknown one
// between, then, with `padding` > 0, repeats "uid" `padding` more times: past 32 entries a
// MapReader finds repeats with RepeatedKeys instead of checking the entries Get did not find
// against the earlier ones, and both report the same findings in entry order.
std::string RepeatedMetadataField(int padding) {
  std::string text =
      R"({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n", "bogus": 1, )"
      R"("name": "m", "uid": "u")";
  for (int i = 0; i < padding; ++i) text += R"(, "uid": "u")";
  return text + "}}";
}

std::vector<Expect> RepeatedMetadataFieldFindings(int padding) {
  std::vector<Expect> want = {{"decode.unknown-field", "metadata.bogus"},
                              {"decode.duplicate-field", "metadata.name"}};
  for (int i = 0; i < padding; ++i) want.push_back({"decode.duplicate-field", "metadata.uid"});
  return want;
}

class DecodeDiagnosticsTest : public testing::TestWithParam<DiagCase> {};

TEST_P(DecodeDiagnosticsTest, ReportsExactly) {
  const DiagCase& c = GetParam();
  DecodeResult r = DecodeText(c.yaml);
  EXPECT_THAT(Codes(r), ElementsAreArray(c.want));
  EXPECT_EQ(r.objects.size(), c.objects);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.file, "in.yaml");
    EXPECT_TRUE(d.position.known()) << d.code;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeDiagnosticsTest,
    testing::Values(
        DiagCase{.name = "ValidV1Claim", .yaml = kClaimV1, .want = {}},
        DiagCase{.name = "CountAsString",
                 .yaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      exactly: {deviceClassName: c, count: "2"}
)",
                 .want = {{"decode.wrong-type", "spec.devices.requests[0].exactly.count"}}},
        DiagCase{.name = "InvalidQuantity",
                 .yaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      exactly:
        deviceClassName: c
        capacity: {requests: {memory: 10GB, cores: 2, bw: 1.5Gi}}
)",
                 .want = {{"decode.invalid-quantity",
                           "spec.devices.requests[0].exactly.capacity.requests[memory]"}}},
        DiagCase{.name = "SelectorsAsMap",
                 .yaml = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: c}
spec:
  selectors: {}
)",
                 .want = {{"decode.wrong-type", "spec.selectors"}}},
        DiagCase{.name = "ExpressionSiblingOfCel",
                 .yaml = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: c}
spec:
  selectors:
  - cel:
    expression: "true"
)",
                 .want = {{"decode.unknown-field", "spec.selectors[0].expression"}}},
        DiagCase{.name = "MisspelledField",
                 .yaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
spec:
  devices:
    request: []
)",
                 .want = {{"decode.unknown-field", "spec.devices.request"}}},
        DiagCase{.name = "DuplicateField",
                 .yaml = R"({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
 "metadata": {"name": "a", "name": "b"}})",
                 .want = {{"decode.duplicate-field", "metadata.name"}}},
        // Keys repeated in maps keyed by name: the API server's strict decoding rejects them
        // as it does repeated fields (kubernetes-sigs/json decode.go, object(), reflect.Map).
        DiagCase{.name = "RepeatedAttributeName",
                 .yaml = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
 "metadata": {"name": "s"},
 "spec": {"devices": [{"name": "gpu-0",
   "attributes": {"model": {"string": "a"}, "index": {"int": 0}, "model": {"string": "b"}},
   "capacity": {"memory": {"value": "1Gi"}, "memory": {"value": "2Gi"}}}]}})",
                 .want = {{"decode.duplicate-field", "spec.devices[0].attributes[model]"},
                          {"decode.duplicate-field", "spec.devices[0].capacity[memory]"}}},
        DiagCase{.name = "RepeatedLabelAndRequestKeys",
                 .yaml = R"({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
 "metadata": {"name": "c", "labels": {"a": "x", "a": "y"}},
 "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "g",
   "capacity": {"requests": {"memory": "1Gi", "memory": "2Gi"}}}}]}}})",
                 .want = {{"decode.duplicate-field", "metadata.labels[a]"},
                          {"decode.duplicate-field",
                           "spec.devices.requests[0].exactly.capacity.requests[memory]"}}},
        DiagCase{.name = "RepeatedKeyInAMapOfManyKeys", .yaml = ManyLabels(/*repeat=*/true),
                 .want = {{"decode.duplicate-field", "metadata.labels[k7]"}}},
        DiagCase{.name = "ManyDistinctKeys", .yaml = ManyLabels(/*repeat=*/false), .want = {}},
        DiagCase{.name = "FieldRepeatedAfterItWasRead", .yaml = RepeatedMetadataField(0),
                 .want = RepeatedMetadataFieldFindings(0)},
        DiagCase{.name = "FieldRepeatedInAnObjectOfManyKeys", .yaml = RepeatedMetadataField(40),
                 .want = RepeatedMetadataFieldFindings(40)},
        // A null reads as absent, but its key was set: a second entry repeats it.
        DiagCase{.name = "FieldRepeatedAfterNull",
                 .yaml = R"({"apiVersion": "v1", "kind": "Namespace",
 "metadata": {"name": null, "name": "n"}})",
                 .want = {{"decode.duplicate-field", "metadata.name"}}},
        DiagCase{.name = "LabelValueNotString",
                 .yaml = R"(apiVersion: v1
kind: Namespace
metadata:
  name: ns
  labels: {resource.kubernetes.io/admin-access: true}
)",
                 .want = {{"decode.wrong-type",
                           "metadata.labels[resource.kubernetes.io/admin-access]"}}},
        DiagCase{.name = "V1beta1Claim",
                 .yaml = R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      deviceClassName: c
      count: 1
)",
                 .want = {{"decode.api-version.deprecated", "apiVersion"}}},
        DiagCase{.name = "V1beta2Claim",
                 .yaml = R"(apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaimTemplate
spec:
  spec:
    devices:
      requests:
      - name: a
        exactly: {deviceClassName: c}
)",
                 .want = {{"decode.api-version.deprecated", "apiVersion"}}},
        DiagCase{.name = "V1beta1ShapeSentAsV1",
                 .yaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      deviceClassName: c
)",
                 .want = {{"decode.v1beta1-request-shape", "spec.devices.requests[0]"},
                          {"decode.unknown-field",
                           "spec.devices.requests[0].deviceClassName"}}},
        DiagCase{.name = "RemovedAlpha",
                 .yaml = "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\n",
                 .want = {{"decode.api-version.removed", "apiVersion"}},
                 .objects = 0},
        DiagCase{.name = "ClassicDra",
                 .yaml = "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\n",
                 .want = {{"decode.classic-dra", "kind"}},
                 .objects = 0},
        DiagCase{.name = "DeviceTaintRuleAlpha",
                 .yaml = R"(apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: r}
spec:
  deviceSelector: {driver: d}
  taint: {key: k, effect: NoSchedule}
)",
                 .want = {{"decode.api-version.alpha", "apiVersion"}}},
        DiagCase{.name = "DeviceTaintRuleV1beta2",
                 .yaml = R"(apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: r}
spec:
  taint: {key: k, effect: None}
)",
                 .want = {{"decode.api-version.beta", "apiVersion"}}},
        DiagCase{.name = "PodLowerCaseField",
                 .yaml = R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: i}]
  resourceclaims:
  - name: gpu
)",
                 .want = {{"decode.unknown-field", "spec.resourceclaims"}}},
        DiagCase{.name = "PodRemovedSourceWrapper",
                 .yaml = R"(apiVersion: v1
kind: Pod
spec:
  resourceClaims:
  - name: gpu
    source: {resourceClaimName: c}
)",
                 .want = {{"decode.pod.removed-source-wrapper",
                           "spec.resourceClaims[0].source"}}},
        DiagCase{.name = "ContainerClaimAsString",
                 .yaml = R"(apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: c
        resources:
          claims: [gpu]
)",
                 .want = {{"decode.wrong-type",
                           "spec.template.spec.containers[0].resources.claims[0]"}}},
        DiagCase{.name = "PodWithoutApiVersion",
                 .yaml = "kind: Pod\nmetadata: {name: p}\n",
                 .want = {{"decode.missing-api-version", "kind"}},
                 .objects = 0},
        DiagCase{.name = "NotKubernetes",
                 .yaml = "foo: bar\n---\n- 1\n",
                 .want = {},
                 .objects = 0},
        DiagCase{.name = "OtherKind",
                 .yaml = "apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n",
                 .want = {},
                 .objects = 0},
        DiagCase{.name = "HelmTemplate",
                 .yaml = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
                         "  name: {{ .Values.name }}\n",
                 .want = {{"decode.template", ""}},
                 .objects = 0},
        DiagCase{.name = "EnvsubstTemplate",
                 .yaml = "apiVersion: resource.k8s.io/${API}\nkind: DeviceClass\n",
                 .want = {{"decode.template", ""}},
                 .objects = 0},
        DiagCase{.name = "AtAtTemplate",
                 .yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: '@@NAME@@'}\n",
                 .want = {{"decode.template", ""}},
                 .objects = 0},
        DiagCase{.name = "EnvVarInsideBlockScalarIsNotATemplate",
                 .yaml = "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n"
                         "apiVersion: v1\nkind: ConfigMap\ndata:\n  run.sh: |\n"
                         "    echo ${HOME}\n",
                 .want = {}},
        DiagCase{.name = "HelmInsideBlockScalarIsATemplate",
                 .yaml = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: |\n"
                         "    {{ .Values.x }}\n",
                 .want = {{"decode.template", ""}},
                 .objects = 0},
        DiagCase{.name = "SyntaxError",
                 .yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: [\n",
                 .want = {{"decode.yaml-syntax", ""}},
                 .objects = 0}),
    [](const testing::TestParamInfo<DiagCase>& param) { return param.param.name; });

// --- severity of API-version findings: what the chosen release can never serve is an error,
// what a cluster may enable with --runtime-config is a warning (issue 19 item 3) ---

struct VersionCase {
  std::string name;
  std::string api_version;
  std::string kind;
  std::string code;
  Severity severity;
  std::string rest = "";  // the document after apiVersion and kind
};

class ApiVersionSeverityTest : public testing::TestWithParam<VersionCase> {};

TEST_P(ApiVersionSeverityTest, FollowsWhatTheReleaseServes) {
  const VersionCase& c = GetParam();
  DecodeResult r =
      DecodeText("apiVersion: " + c.api_version + "\nkind: " + c.kind + "\n" + c.rest);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.items()[0].code, c.code);
  EXPECT_EQ(r.diagnostics.items()[0].severity, c.severity);
}

constexpr char kResource[] = "resource.k8s.io/";

INSTANTIATE_TEST_SUITE_P(
    Versions, ApiVersionSeverityTest,
    testing::Values(
        VersionCase{"RemovedV1alpha3", std::string(kResource) + "v1alpha3", "DeviceClass",
                    "decode.api-version.removed", Severity::kError},
        VersionCase{"RemovedV1alpha1", std::string(kResource) + "v1alpha1", "ResourceClaim",
                    "decode.api-version.removed", Severity::kError},
        VersionCase{"ClassicDra", std::string(kResource) + "v1alpha2", "ResourceClass",
                    "decode.classic-dra", Severity::kError},
        VersionCase{"TaintRuleFromLaterRelease", std::string(kResource) + "v1", "DeviceTaintRule",
                    "decode.api-version.not-served", Severity::kError, "metadata: {name: r}\n"},
        VersionCase{"TaintRuleUnknownVersion", std::string(kResource) + "v1beta1",
                    "DeviceTaintRule", "decode.api-version.unknown", Severity::kError},
        VersionCase{"PodSourceWrapper", "v1", "Pod", "decode.pod.removed-source-wrapper",
                    Severity::kError,
                    "spec:\n  resourceClaims:\n  - name: gpu\n"
                    "    source: {resourceClaimName: c}\n"},
        VersionCase{"BetaDeprecatedIn136MayBeEnabled", std::string(kResource) + "v1beta2", "DeviceClass",
                    "decode.api-version.deprecated", Severity::kWarning},
        VersionCase{"DeprecatedBetaMayBeEnabled", std::string(kResource) + "v1beta1",
                    "DeviceClass", "decode.api-version.deprecated", Severity::kWarning},
        VersionCase{"AlphaTaintRuleMayBeEnabled", std::string(kResource) + "v1alpha3",
                    "DeviceTaintRule", "decode.api-version.alpha", Severity::kWarning}),
    [](const testing::TestParamInfo<VersionCase>& param) { return param.param.name; });

// --- model contents ---

TEST(DecodeTest, DecodesV1ClaimIntoModel) {
  DecodeResult r = DecodeText(kClaimV1);
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& claim = std::get<ResourceClaim>(r.objects[0].object);
  EXPECT_EQ(claim.source_api_version, "resource.k8s.io/v1");
  EXPECT_EQ(claim.metadata.name, "gpu");
  EXPECT_EQ(r.objects[0].ref.name_space, "ml");
  ASSERT_EQ(claim.spec.devices.requests.size(), 1u);
  const DeviceRequest& req = claim.spec.devices.requests[0];
  ASSERT_TRUE(req.exactly.has_value());
  EXPECT_EQ(req.exactly->device_class_name, "gpu.example.com");
  EXPECT_EQ(req.exactly->count, 2);
  EXPECT_TRUE(req.exactly->count_set);
  ASSERT_EQ(req.exactly->selectors.size(), 1u);
  EXPECT_EQ(req.exactly->selectors[0].cel->expression, "device.driver == \"gpu.example.com\"");
}

TEST(DecodeTest, ConvertsV1beta1RequestToExactly) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      deviceClassName: c
      adminAccess: true
    - name: b
      firstAvailable:
      - {name: x, deviceClassName: c, count: 0}
)");
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& claim = std::get<ResourceClaim>(r.objects[0].object);
  EXPECT_EQ(claim.source_api_version, "resource.k8s.io/v1beta1");
  ASSERT_EQ(claim.spec.devices.requests.size(), 2u);
  ASSERT_TRUE(claim.spec.devices.requests[0].exactly.has_value());
  EXPECT_EQ(claim.spec.devices.requests[0].exactly->admin_access, true);
  EXPECT_FALSE(claim.spec.devices.requests[0].exactly->count_set);
  EXPECT_FALSE(claim.spec.devices.requests[1].exactly.has_value());
  ASSERT_EQ(claim.spec.devices.requests[1].first_available.size(), 1u);
  EXPECT_TRUE(claim.spec.devices.requests[1].first_available[0].count_set);
}

TEST(DecodeTest, ConvertsV1beta1SliceBasicDevices) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: gpu-0
    basic:
      attributes:
        model: {string: a100}
        index: {int: 0}
      capacity:
        memory: {value: 40Gi}
)");
  ASSERT_EQ(r.objects.size(), 1u) << r.diagnostics.size();
  const auto& slice = std::get<ResourceSlice>(r.objects[0].object);
  ASSERT_EQ(slice.spec.devices.size(), 1u);
  EXPECT_EQ(slice.spec.devices[0].attributes.at("model").string_value, "a100");
  EXPECT_EQ(slice.spec.devices[0].attributes.at("index").int_value, 0);
  EXPECT_EQ(slice.spec.devices[0].capacity.at("memory").value, "40Gi");
  // v1 paths locate inside `basic`.
  EXPECT_EQ(r.objects[0].PositionOf("spec.devices[0].attributes[model]"),
            (SourcePosition{12, 9}));
}

// List-typed attributes (kubernetes/api v0.36.0 resource/v1 DeviceAttribute: ints, bools,
// strings, versions) decode in every release; an explicit [] stays present and empty, and
// items of the wrong type are wrong-type findings. Which release knows them is decided after
// decoding (validate/defaults.h).
TEST(DecodeTest, ReadsListTypedAttributes) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes:
      cores: {ints: [1, 2]}
      flags: {bools: [true]}
      names: {strings: [a, b]}
      versions: {versions: ["1.0.0"]}
      empty: {ints: []}
      bad: {ints: [1, x]}
)");
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& attrs = std::get<ResourceSlice>(r.objects[0].object).spec.devices[0].attributes;
  EXPECT_EQ(attrs.at("cores").int_values, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(attrs.at("flags").bool_values, (std::vector<bool>{true}));
  EXPECT_EQ(attrs.at("names").string_values, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(attrs.at("versions").version_values, (std::vector<std::string>{"1.0.0"}));
  ASSERT_TRUE(attrs.at("empty").int_values.has_value());
  EXPECT_TRUE(attrs.at("empty").int_values->empty());
  EXPECT_EQ(attrs.at("cores").set_count(), 1);
  EXPECT_EQ(attrs.at("names").value_count(), 2u);
  std::vector<std::string> found;
  for (const Diagnostic& d : r.diagnostics) found.push_back(d.code + " @ " + d.field);
  EXPECT_EQ(found, std::vector<std::string>{
                       "decode.wrong-type @ spec.devices[0].attributes[bad].ints[1]"});
}

// Scalar attribute members, one per attribute (the decoder's one-lookup path) and otherwise
// (every member tried): the same values and the same findings either way.
TEST(DecodeTest, ReadsScalarAttributesAndTheirFindings) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes:
      model: {string: a100}
      driverVersion: {version: 1.2.3}
      index: {int: 3}
      healthy: {bool: true}
      nothing: {string: null}
      two: {int: 1, string: x}
      badString: {string: 5}
      badVersion: {version: true}
      badInt: {int: "3"}
      badBool: {bool: 1}
      typo: {strng: x}
)");
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& attrs = std::get<ResourceSlice>(r.objects[0].object).spec.devices[0].attributes;
  EXPECT_EQ(attrs.at("model").string_value, "a100");
  EXPECT_EQ(attrs.at("driverVersion").version_value, "1.2.3");
  EXPECT_EQ(attrs.at("index").int_value, 3);
  EXPECT_EQ(attrs.at("healthy").bool_value, true);
  EXPECT_EQ(attrs.at("nothing").set_count(), 0);
  EXPECT_EQ(attrs.at("two").int_value, 1);
  EXPECT_EQ(attrs.at("two").string_value, "x");
  std::vector<std::string> found;
  for (const Diagnostic& d : r.diagnostics) found.push_back(d.code + " @ " + d.field);
  EXPECT_EQ(found, (std::vector<std::string>{
                       "decode.wrong-type @ spec.devices[0].attributes[badString].string",
                       "decode.wrong-type @ spec.devices[0].attributes[badVersion].version",
                       "decode.wrong-type @ spec.devices[0].attributes[badInt].int",
                       "decode.wrong-type @ spec.devices[0].attributes[badBool].bool",
                       "decode.unknown-field @ spec.devices[0].attributes[typo].strng",
                   }));
}

TEST(DecodeTest, ExpandsListsAndWorkloads) {
  DecodeResult r = DecodeText(R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata:
    name: ml
    labels: {resource.kubernetes.io/admin-access: "true"}
- apiVersion: batch/v1
  kind: CronJob
  metadata: {name: cj}
  spec:
    jobTemplate:
      spec:
        template:
          spec:
            resourceClaims:
            - {name: gpu, resourceClaimTemplateName: t}
            containers:
            - name: main
              resources:
                claims: [{name: gpu, request: r}]
)");
  ASSERT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.objects.size(), 2u);
  const auto& ns = std::get<Namespace>(r.objects[0].object);
  EXPECT_EQ(ns.metadata.labels.at("resource.kubernetes.io/admin-access"), "true");
  const auto& w = std::get<Workload>(r.objects[1].object);
  EXPECT_EQ(w.kind, "CronJob");
  EXPECT_EQ(w.pod.spec_path, "spec.jobTemplate.spec.template.spec");
  ASSERT_EQ(w.pod.resource_claims.size(), 1u);
  EXPECT_EQ(w.pod.resource_claims[0].resource_claim_template_name, "t");
  ASSERT_EQ(w.pod.containers.size(), 1u);
  EXPECT_EQ(w.pod.containers[0].claims.at(0).request, "r");
}

// Issue 19 item 6: typed lists as the API server returns them; the items have no apiVersion
// or kind of their own and take them from the list.
struct TypedListCase {
  std::string name;
  std::string text;
  std::vector<std::string> kinds;  // of the decoded objects, in order
  std::vector<Expect> diagnostics;
};

class TypedListTest : public ::testing::TestWithParam<TypedListCase> {};

TEST_P(TypedListTest, ItemsTakeTheListsType) {
  DecodeResult r = DecodeText(GetParam().text);
  std::vector<std::string> kinds;
  for (const DecodedObject& o : r.objects) kinds.push_back(o.ref.api_version + " " + o.ref.kind);
  EXPECT_EQ(kinds, GetParam().kinds);
  EXPECT_THAT(Codes(r), ElementsAreArray(GetParam().diagnostics));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TypedListTest,
    ::testing::Values(
        TypedListCase{
            .name = "ClaimListJson",
            .text = R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimList",)"
                    R"("metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a",)"
                    R"("namespace":"ml"},"spec":{"devices":{"requests":[{"name":"gpu",)"
                    R"("exactly":{"deviceClassName":"gpu","count":-2}}]}}}]})",
            .kinds = {"resource.k8s.io/v1 ResourceClaim"},
            .diagnostics = {}},
        TypedListCase{.name = "SliceListYamlTwoItems",
                      .text = "apiVersion: resource.k8s.io/v1\nkind: ResourceSliceList\n"
                              "items:\n- metadata: {name: s1}\n"
                              "  spec: {driver: d.example.com, pool: {name: p, "
                              "resourceSliceCount: 1}, allNodes: true}\n"
                              "- metadata: {name: s2}\n  spec: {bogus: 1}\n",
                      .kinds = {"resource.k8s.io/v1 ResourceSlice",
                                "resource.k8s.io/v1 ResourceSlice"},
                      .diagnostics = {{"decode.unknown-field", "spec.bogus"}}},
        TypedListCase{.name = "ItemsKeepTheirOwnType",
                      .text = "apiVersion: resource.k8s.io/v1beta2\nkind: DeviceClassList\n"
                              "items:\n- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n"
                              "  metadata: {name: c}\n",
                      .kinds = {"resource.k8s.io/v1 DeviceClass"},
                      .diagnostics = {}},
        TypedListCase{.name = "PlainListItemsNeedTheirOwnType",
                      .text = "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: c}\n",
                      .kinds = {},
                      .diagnostics = {}}),
    [](const auto& p) { return p.param.name; });

struct WorkloadCase {
  std::string api_version;
  std::string kind;
  std::string spec_path;  // where the kind keeps its pod spec (Kubernetes API reference)
};

class WorkloadKindTest : public testing::TestWithParam<WorkloadCase> {};

// Builds a manifest that nests the pod spec at `spec_path`.
std::string WorkloadYaml(const WorkloadCase& c) {
  std::string yaml = "apiVersion: " + c.api_version + "\nkind: " + c.kind + "\n";
  std::string indent;
  std::string_view path = c.spec_path;
  while (!path.empty()) {
    const size_t dot = path.find('.');
    yaml += indent + std::string(path.substr(0, dot)) + ":\n";
    indent += "  ";
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  yaml += indent + "resourceClaims: [{name: gpu, resourceClaimName: shared}]\n";
  yaml += indent + "initContainers: [{name: init, resources: {claims: [{name: gpu}]}}]\n";
  yaml += indent + "resourceClaim: {}\n";  // a typo, to check where it is reported
  return yaml;
}

TEST_P(WorkloadKindTest, ReadsPodSpecAtItsPath) {
  const WorkloadCase& c = GetParam();
  DecodeResult r = DecodeText(WorkloadYaml(c));
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& w = std::get<Workload>(r.objects[0].object);
  EXPECT_EQ(w.kind, c.kind);
  EXPECT_EQ(w.api_version, c.api_version);
  EXPECT_EQ(w.pod.spec_path, c.spec_path);
  ASSERT_EQ(w.pod.resource_claims.size(), 1u);
  EXPECT_EQ(w.pod.resource_claims[0].resource_claim_name, "shared");
  ASSERT_EQ(w.pod.containers.size(), 1u);
  EXPECT_TRUE(w.pod.containers[0].init_container);
  EXPECT_THAT(Codes(r), ElementsAreArray(std::vector<Expect>{
                            {"decode.unknown-field", c.spec_path + ".resourceClaim"}}));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, WorkloadKindTest,
    testing::Values(WorkloadCase{"v1", "Pod", "spec"},
                    WorkloadCase{"apps/v1", "Deployment", "spec.template.spec"},
                    WorkloadCase{"apps/v1", "StatefulSet", "spec.template.spec"},
                    WorkloadCase{"apps/v1", "DaemonSet", "spec.template.spec"},
                    WorkloadCase{"apps/v1", "ReplicaSet", "spec.template.spec"},
                    WorkloadCase{"batch/v1", "Job", "spec.template.spec"},
                    WorkloadCase{"batch/v1", "CronJob", "spec.jobTemplate.spec.template.spec"}),
    [](const testing::TestParamInfo<WorkloadCase>& param) { return param.param.kind; });

TEST(DecodeTest, DecodesDeviceTaintRule) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: r}
spec:
  deviceSelector: {deviceClassName: c, driver: d, pool: p, device: x, selectors: [{cel: {}}]}
  taint: {key: k, value: v, effect: NoExecute}
)");
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& rule = std::get<DeviceTaintRule>(r.objects[0].object);
  EXPECT_EQ(rule.source_api_version, "resource.k8s.io/v1alpha3");
  ASSERT_TRUE(rule.spec.device_selector.has_value());
  EXPECT_EQ(rule.spec.device_selector->device_class_name, "c");
  EXPECT_EQ(rule.spec.device_selector->selector_count, 1u);
  EXPECT_EQ(rule.spec.taint.effect, "NoExecute");
}

TEST(DecodeTest, OpaqueParametersBecomeJson) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: c}
spec:
  config:
  - opaque:
      driver: d
      parameters: {a: 1, b: [x, "y"], c: yes}
)");
  ASSERT_EQ(r.objects.size(), 1u);
  const auto& dc = std::get<DeviceClass>(r.objects[0].object);
  ASSERT_EQ(dc.spec.config.size(), 1u);
  EXPECT_EQ(dc.spec.config[0].opaque->parameters_json, R"({"a":1,"b":["x","y"],"c":true})");
  EXPECT_TRUE(dc.spec.config[0].opaque->parameters_is_object);
}

// --- locating ---

struct LocateCase {
  std::string name;
  std::string field;
  int value_offset = -1;
  SourcePosition want;
};

class LocateTest : public testing::TestWithParam<LocateCase> {};

TEST_P(LocateTest, FindsPositionInKClaimV1) {
  const LocateCase& c = GetParam();
  DecodeResult r = DecodeText(kClaimV1);
  ASSERT_EQ(r.objects.size(), 1u);
  Diagnostic d;
  d.field = c.field;
  d.value_offset = c.value_offset;
  r.objects[0].Locate(d);
  EXPECT_EQ(d.file, "in.yaml");
  EXPECT_EQ(d.position, c.want);
  EXPECT_EQ(d.object.name, "gpu");
}

INSTANTIATE_TEST_SUITE_P(
    Paths, LocateTest,
    testing::Values(
        LocateCase{.name = "ScalarValue",
                   .field = "spec.devices.requests[0].exactly.count",
                   .want = {12, 16}},
        LocateCase{.name = "CollectionAtItsKey",
                   .field = "spec.devices.requests[0].exactly.selectors",
                   .want = {13, 9}},
        LocateCase{.name = "MissingFieldAtNearestAncestor",
                   .field = "spec.devices.requests[0].exactly.allocationMode",
                   .want = {10, 7}},
        LocateCase{.name = "OutOfRangeIndex",
                   .field = "spec.devices.requests[3].name",
                   .want = {8, 5}},
        LocateCase{.name = "InsideCelExpression",
                   .field = "spec.devices.requests[0].exactly.selectors[0].cel.expression",
                   .value_offset = 7,
                   .want = {15, 32}},
        LocateCase{.name = "Root", .field = "", .want = {1, 1}}),
    [](const testing::TestParamInfo<LocateCase>& param) { return param.param.name; });

TEST(DecodeTest, LocatesV1PathsInV1beta1Document) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      deviceClassName: c
      count: 3
)");
  ASSERT_EQ(r.objects.size(), 1u);
  EXPECT_EQ(r.objects[0].PositionOf("spec.devices.requests[0].exactly.count"),
            (SourcePosition{8, 14}));
}

TEST(DecodeTest, LocatesInCrlfFilesAndCountsCodePoints) {
  DecodeResult r = DecodeText(
      "apiVersion: resource.k8s.io/v1\r\nkind: DeviceClass\r\nmetadata:\r\n"
      "  name: c\r\n  annotations: {\"\xc3\xa9t\xc3\xa9\": x}\r\nspec:\r\n  selectors:\r\n"
      "  - cel:\r\n      expression: >-\r\n        a ==\r\n        b\r\n");
  ASSERT_EQ(r.objects.size(), 1u);
  ASSERT_THAT(Codes(r), IsEmpty());
  const auto& dc = std::get<DeviceClass>(r.objects[0].object);
  ASSERT_EQ(dc.spec.selectors.size(), 1u);
  EXPECT_EQ(dc.spec.selectors[0].cel->expression, "a == b");
  Diagnostic d;
  d.field = "spec.selectors[0].cel.expression";
  d.value_offset = 5;  // 'b'
  r.objects[0].Locate(d);
  EXPECT_EQ(d.position, (SourcePosition{11, 9}));
  // "été" counts as three columns: the value x sits at column 24.
  EXPECT_EQ(r.objects[0].PositionOf("metadata.annotations[\xc3\xa9t\xc3\xa9]"),
            (SourcePosition{5, 24}));
}

TEST(DecodeTest, UnknownFieldSuggestsClosestName) {
  DecodeResult r = DecodeText(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
spec:
  devices:
    requests:
    - name: a
      exactly: {deviceClasName: c}
)");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = *r.diagnostics.begin();
  EXPECT_EQ(d.code, "decode.unknown-field");
  EXPECT_EQ(d.field, "spec.devices.requests[0].exactly.deviceClasName");
  EXPECT_NE(d.suggestion.find("deviceClassName"), std::string::npos);
  EXPECT_EQ(d.position, (SourcePosition{7, 17}));
}

TEST(DecodeTest, NonStrictReportsUnknownFieldsAsWarnings) {
  DecodeOptions options;
  options.strict = false;
  DecodeResult r = Decode(SourceText("in.yaml", "apiVersion: resource.k8s.io/v1\n"
                                                "kind: DeviceClass\nspek: {}\n"),
                          options);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.begin()->severity, Severity::kWarning);
}

TEST(DecodeTest, CountsSkippedDocuments) {
  DecodeResult r = DecodeText("apiVersion: v1\nkind: Service\n---\n---\n" +
                              std::string(kClaimV1));
  EXPECT_EQ(r.documents, 2u);
  EXPECT_EQ(r.skipped, 1u);
  ASSERT_EQ(r.objects.size(), 1u);
  EXPECT_EQ(r.objects[0].document_index, 2u);
  EXPECT_THAT(Codes(r), IsEmpty());
}


// How each release serves a kind/version (docs/k8s-releases.md D1-D4): the code per release
// {1.34, 1.35, 1.36}, and the API server's deprecation text where it warns.
struct ServedCase {
  std::string name;
  std::string api_version, kind;
  std::array<std::string, 3> code;
  std::array<std::string, 3> deprecation = {};
};

void PrintTo(const ServedCase& c, std::ostream* os) { *os << c.name; }

class DecodeServedVersionTest : public testing::TestWithParam<ServedCase> {};

TEST_P(DecodeServedVersionTest, PerRelease) {
  const ServedCase& c = GetParam();
  const std::string yaml = "apiVersion: resource.k8s.io/" + c.api_version + "\nkind: " + c.kind +
                           "\nmetadata: {name: x}\n";
  const KubernetesVersion versions[] = {KubernetesVersion::k1_34, KubernetesVersion::k1_35,
                                        KubernetesVersion::k1_36};
  for (size_t i = 0; i < 3; ++i) {
    DecodeResult r = DecodeForRelease(SourceText("in.yaml", yaml), {}, versions[i]);
    const std::string release(KubernetesVersionName(versions[i]));
    ASSERT_EQ(r.diagnostics.size(), c.code[i].empty() ? 0u : 1u) << release;
    if (c.code[i].empty()) continue;
    EXPECT_EQ(r.diagnostics.items()[0].code, c.code[i]) << release;
    EXPECT_EQ(r.diagnostics.items()[0].field, "apiVersion") << release;
    const std::string& message = r.diagnostics.items()[0].message;
    if (!c.deprecation[i].empty()) {
      EXPECT_THAT(message, testing::HasSubstr(c.deprecation[i])) << release;
    } else {
      EXPECT_THAT(message, testing::Not(testing::HasSubstr("deprecated in"))) << release;
    }
  }
}

constexpr char kDeprecatedBeta1[] =
    "resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+";
constexpr char kDeprecatedBeta2[] =
    "resource.k8s.io/v1beta2 DeviceClass is deprecated in v1.36+, unavailable in v1.39+";
constexpr char kDeprecatedRuleAlpha[] =
    "resource.k8s.io/v1alpha3 DeviceTaintRule is deprecated in v1.36+, unavailable in v1.39+";

INSTANTIATE_TEST_SUITE_P(
    Releases, DecodeServedVersionTest,
    testing::Values(
        ServedCase{.name = "ClassV1", .api_version = "v1", .kind = "DeviceClass"},
        ServedCase{.name = "ClassV1beta1",
                   .api_version = "v1beta1",
                   .kind = "DeviceClass",
                   .code = {"decode.api-version.beta", "decode.api-version.deprecated",
                            "decode.api-version.deprecated"},
                   .deprecation = {"", kDeprecatedBeta1, kDeprecatedBeta1}},
        ServedCase{.name = "ClassV1beta2",
                   .api_version = "v1beta2",
                   .kind = "DeviceClass",
                   .code = {"decode.api-version.beta", "decode.api-version.beta",
                            "decode.api-version.deprecated"},
                   .deprecation = {"", "", kDeprecatedBeta2}},
        ServedCase{.name = "TaintRuleV1alpha3",
                   .api_version = "v1alpha3",
                   .kind = "DeviceTaintRule",
                   .code = {"decode.api-version.alpha", "decode.api-version.alpha",
                            "decode.api-version.alpha"},
                   .deprecation = {"", "", kDeprecatedRuleAlpha}},
        // Served as v1beta2 from 1.36 only (off by default: runtime-config and gate).
        ServedCase{.name = "TaintRuleV1beta2",
                   .api_version = "v1beta2",
                   .kind = "DeviceTaintRule",
                   .code = {"decode.api-version.not-served", "decode.api-version.not-served",
                            "decode.api-version.beta"}},
        ServedCase{.name = "TaintRuleV1",
                   .api_version = "v1",
                   .kind = "DeviceTaintRule",
                   .code = {"decode.api-version.not-served", "decode.api-version.not-served",
                            "decode.api-version.not-served"}}),
    [](const testing::TestParamInfo<ServedCase>& param) { return param.param.name; });

// ResourcePoolStatusRequest (D5): new in 1.36 as an alpha kind draguard recognises without
// checking it; 1.34 and 1.35 do not serve it at all.
TEST(DecodeServedVersionTest, PoolStatusRequestPerRelease) {
  const std::string yaml =
      "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\n"
      "metadata: {name: x}\nspec: {driver: gpu.example.com}\n";
  for (KubernetesVersion old : {KubernetesVersion::k1_34, KubernetesVersion::k1_35}) {
    DecodeResult r = DecodeForRelease(SourceText("in.yaml", yaml), {}, old);
    ASSERT_EQ(r.diagnostics.size(), 1u) << KubernetesVersionName(old);
    EXPECT_EQ(r.diagnostics.items()[0].code, "decode.api-version.not-served");
    EXPECT_THAT(r.diagnostics.items()[0].message,
                testing::HasSubstr("served by Kubernetes 1.36 (resource.k8s.io/v1alpha3)"));
    EXPECT_TRUE(r.objects.empty());
  }
  DecodeResult r = DecodeForRelease(SourceText("in.yaml", yaml), {}, KubernetesVersion::k1_36);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics.items()[0].code, "decode.api-version.alpha");
  EXPECT_THAT(r.diagnostics.items()[0].message,
              testing::HasSubstr("DRAResourcePoolStatus feature gate"));
  EXPECT_EQ(r.diagnostics.items()[1].code, "decode.kind.unchecked");
  EXPECT_EQ(r.diagnostics.items()[1].severity, Severity::kInfo);
  // A version no release serves for the kind is not-served in 1.36 as well.
  r = DecodeForRelease(SourceText("in.yaml", "apiVersion: resource.k8s.io/v1beta2\n"
                                              "kind: ResourcePoolStatusRequest\n"),
                       {}, KubernetesVersion::k1_36);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.items()[0].code, "decode.api-version.not-served");
}

// ResourcePoolStatusRequest spec in 1.36 (v0.36.0 v1alpha3/types.go declarative tags):
// driver required (k8s-long-name-caseless), poolName a pool name, limit 1..1000. In 1.34/1.35
// the kind is not served and its spec is not looked at.
struct PoolStatusCase {
  std::string name;
  std::string spec;
  std::vector<std::string> want;  // "code@field" after the alpha warning and the info
};

void PrintTo(const PoolStatusCase& c, std::ostream* os) { *os << c.name; }

class PoolStatusSpecTest : public testing::TestWithParam<PoolStatusCase> {};

TEST_P(PoolStatusSpecTest, Checks136) {
  const PoolStatusCase& c = GetParam();
  const std::string yaml =
      "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\n"
      "metadata: {name: x}\n" + c.spec;
  DecodeResult r = DecodeForRelease(SourceText("in.yaml", yaml), {}, KubernetesVersion::k1_36);
  std::vector<std::string> got;
  for (const Diagnostic& d : r.diagnostics.items()) {
    if (d.code.starts_with("poolstatus.")) {
      got.push_back(d.code + "@" + d.field);
      EXPECT_GT(d.position.line, 0) << d.code;
      EXPECT_FALSE(d.message.empty());
    }
  }
  EXPECT_EQ(got, c.want);
  DecodeResult old = DecodeForRelease(SourceText("in.yaml", yaml), {}, KubernetesVersion::k1_35);
  for (const Diagnostic& d : old.diagnostics.items()) {
    EXPECT_FALSE(d.code.starts_with("poolstatus.")) << d.code << " in 1.35";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PoolStatusSpecTest,
    testing::Values(
        PoolStatusCase{"Valid", "spec: {driver: gpu.example.com, poolName: node-1, limit: 10}\n",
                       {}},
        PoolStatusCase{"UpperCaseDriverAccepted", "spec: {driver: GPU.Example.com}\n", {}},
        PoolStatusCase{"PoolNameWithSlash", "spec: {driver: d.example.com, poolName: a/b.c}\n",
                       {}},
        PoolStatusCase{"LimitBounds", "spec: {driver: d.example.com, limit: 1000}\n", {}},
        PoolStatusCase{"NoDriver", "spec: {poolName: p}\n",
                       {"poolstatus.driver.required@spec.driver"}},
        PoolStatusCase{"NoSpec", "", {"poolstatus.driver.required@spec.driver"}},
        PoolStatusCase{"BadDriver", "spec: {driver: gpu_example}\n",
                       {"poolstatus.driver.invalid@spec.driver"}},
        PoolStatusCase{"BadPoolName", "spec: {driver: d.example.com, poolName: \"a/B_\"}\n",
                       {"poolstatus.pool-name.invalid@spec.poolName"}},
        PoolStatusCase{"LimitZero", "spec: {driver: d.example.com, limit: 0}\n",
                       {"poolstatus.limit.out-of-range@spec.limit"}},
        PoolStatusCase{"LimitTooHigh", "spec:\n  driver: d.example.com\n  limit: 1001\n",
                       {"poolstatus.limit.out-of-range@spec.limit"}},
        PoolStatusCase{"LimitString", "spec: {driver: d.example.com, limit: \"5\"}\n",
                       {"poolstatus.spec.invalid@spec.limit"}}),
    [](const testing::TestParamInfo<PoolStatusCase>& param) { return param.param.name; });

// Decode() follows DecodeOptions::version (explain, cel, inventories set it).
TEST(DecodeServedVersionTest, DecodeOptionsCarryTheRelease) {
  const std::string yaml =
      "apiVersion: resource.k8s.io/v1beta2\nkind: DeviceTaintRule\nmetadata: {name: x}\n";
  DecodeOptions options;
  options.version = KubernetesVersion::k1_35;
  DecodeResult r = Decode(SourceText("in.yaml", yaml), options);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.items()[0].code, "decode.api-version.not-served");
  options.version = KubernetesVersion::k1_36;
  r = Decode(SourceText("in.yaml", yaml), options);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.items()[0].code, "decode.api-version.beta");
}

// The taint-rule gate a release needs is named in the warning: DRADeviceTaints in 1.34.
TEST(DecodeServedVersionTest, NamesTheReleasesTaintRuleGate) {
  const std::string yaml =
      "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata: {name: x}\n";
  DecodeResult r = DecodeForRelease(SourceText("in.yaml", yaml), {}, KubernetesVersion::k1_34);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_THAT(r.diagnostics.items()[0].message, testing::HasSubstr("DRADeviceTaints feature gate"));
  r = DecodeForRelease(SourceText("in.yaml", yaml), {}, KubernetesVersion::k1_36);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_THAT(r.diagnostics.items()[0].message,
              testing::HasSubstr("DRADeviceTaintRules feature gate"));
}

// --- DecodeStream: one document's text at a time, the same result as Decode ---

// Everything a DecodeResult says, positions included, as comparable text.
std::string StreamDiffSummary(const DecodeResult& r) {
  std::ostringstream out;
  out << "documents " << r.documents << " skipped " << r.skipped << " read_errors "
      << r.read_errors << " template " << r.is_template << "\n";
  for (const Diagnostic& d : r.diagnostics) {
    out << d.file << ":" << d.position.line << ":" << d.position.column << " "
        << SeverityName(d.severity) << " " << d.code << " " << d.field << " " << d.message
        << " [" << d.object.kind << " " << d.object.name << "]\n";
  }
  for (const DecodedObject& o : r.objects) {
    const SourcePosition at = o.PositionOf("spec.devices.requests[0].exactly.count");
    out << o.ref.kind << " " << o.ref.name << " doc " << o.document_index << " at "
        << o.position().line << ":" << o.position().column << " count at " << at.line << ":"
        << at.column << "\n";
  }
  return out.str();
}

constexpr char kStreamClaim[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: r
      exactly: {deviceClassName: gpu, count: "2"}
)";

struct StreamCase {
  std::string name;
  std::string text;
};

class DecodeStreamTest : public ::testing::TestWithParam<StreamCase> {};

TEST_P(DecodeStreamTest, GivesWhatDecodeGivesForTheWholeText) {
  const std::string& text = GetParam().text;
  const DecodeResult whole = Decode(SourceText("in.yaml", text));
  std::istringstream in(text);
  DocumentReader::Result end = DocumentReader::Result::kPiece;
  const DecodeResult streamed = DecodeStream(in, "in.yaml", {}, {}, &end);
  EXPECT_EQ(end, DocumentReader::Result::kEnd);
  EXPECT_EQ(StreamDiffSummary(streamed), StreamDiffSummary(whole));
  for (const Diagnostic& d : streamed.diagnostics) {
    if (!d.position.known()) continue;
    ASSERT_TRUE(streamed.lines.contains(d.position.line)) << d.code;
    EXPECT_EQ(streamed.lines.at(d.position.line),
              SourceText("in.yaml", text).Line(d.position.line));
  }
}

std::string RepeatedClaims(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    std::string claim = kStreamClaim;
    claim.replace(claim.find("name: c"), 7, "name: c" + std::to_string(i));
    out += "---\n" + claim + "# " + std::string(static_cast<size_t>(i % 7) * 300, 'p') + "\n";
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Streams, DecodeStreamTest,
    ::testing::Values(
        StreamCase{"Empty", ""},
        StreamCase{"OneDocumentNoNewline", std::string(kStreamClaim) + "# end"},
        StreamCase{"ByteOrderMark", "\xEF\xBB\xBF" + std::string(kStreamClaim)},
        StreamCase{"MarkersAndDirectives",
                   "---\n" + std::string(kStreamClaim) + "%YAML 1.1\n---\n" + kStreamClaim +
                       "--- \n\n---\t# c\n" + kStreamClaim},
        StreamCase{"DirectiveWithoutMarker", std::string(kStreamClaim) + "%YAML 1.1\n"},
        StreamCase{"SyntaxErrorStopsTheStream",
                   std::string(kStreamClaim) + "---\na: [\n---\n" + kStreamClaim},
        StreamCase{"TemplateInALaterDocument",
                   std::string(kStreamClaim) + "---\nname: {{ .Values.x }}\n"},
        StreamCase{"TemplateAfterSyntaxError",
                   "a: [\n---\nkind: ConfigMap\n---\nx: ${VAR}\n"},
        StreamCase{"ListAndOtherKinds",
                   "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: List\nitems:\n- " +
                       std::string("apiVersion: resource.k8s.io/v1beta1\n  kind: ResourceClaim\n"
                                   "  metadata: {name: b}\n  spec: {devices: {requests: "
                                   "[{name: r, deviceClassName: gpu, count: 0}]}}\n")},
        StreamCase{"ManyDocumentsAcrossChunks", RepeatedClaims(200)},
        // Reads start at 4 KiB and double: lines longer than the first reads, a marker
        // right at the first read's end.
        StreamCase{"LinesLongerThanTheFirstReads",
                   "# " + std::string(20000, 'x') + "\n" + kStreamClaim + "---\n" +
                       std::string(kStreamClaim) + "# " + std::string(70000, 'y') + "\n"},
        StreamCase{"MarkerAtTheFirstReadsEnd",
                   "# " + std::string(4096 - 2 - 1 - 4, 'z') + "\n---\n" + kStreamClaim}),
    [](const ::testing::TestParamInfo<StreamCase>& info) { return info.param.name; });

TEST(DecodeStreamLimitTest, DocumentOverTheBoundEndsTheStream) {
  std::istringstream in(std::string(kStreamClaim) + "---\n" + std::string(5000, '#'));
  DocumentReader::Result end = DocumentReader::Result::kEnd;
  StreamOptions stream;
  stream.max_document_bytes = 1000;
  DecodeStream(in, "in.yaml", {}, stream, &end);
  EXPECT_EQ(end, DocumentReader::Result::kTooLarge);
}


// Issue 16 item 4: the parser builds each document's tree in the previous one's nodes
// (document.cc, TreeRecycler) and readers reuse their key lists. Slices of different shapes,
// each with a mistake, in a row: every finding keeps its field path and position, whether the
// document is decoded after the others or alone (a fresh tree), in either order.
std::string RecycledSlice(std::string_view name, int devices, std::string_view flaw) {
  std::string out = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " +
                    std::string(name) + "\nspec:\n  driver: gpu.example.com\n  nodeName: node-1\n" +
                    "  pool: {name: node-1, generation: 1, resourceSliceCount: 1}\n  devices:\n";
  for (int i = 0; i < devices; ++i) {
    out += "  - name: gpu-" + std::to_string(i) + "\n    attributes:\n";
    out += "      productName: {string: NVIDIA A100-SXM4-80GB}\n";
    out += "      resource.kubernetes.io/pcieRoot: {string: pci0000:00}\n";
    if (i == devices - 1) out += flaw;
    out += "    capacity:\n      memory: {value: 80Gi}\n";
  }
  return out;
}

std::vector<std::string> RecycledSlices() {
  return {RecycledSlice("a", 3, "      uuid: {strin: GPU-1}\n"),
          RecycledSlice("b", 1, "    name: again\n"),
          RecycledSlice("c", 4, "      numaNode: {int: \"0\"}\n      size: {int: 1, bool: true}\n"),
          RecycledSlice("d", 2, "    basic: {}\n"),
          RecycledSlice("e", 1, "      cc: {version: 8.0.0}\n    capacity: {memory: {value: 80Gx}}\n")};
}

// Each finding as file:line:column code field, or each slice's name and device count.
std::string RecycleSummary(const DecodeResult& r, bool objects = false) {
  std::string out;
  for (const Diagnostic& d : r.diagnostics) {
    if (objects) break;
    out += d.file + ":" + std::to_string(d.position.line) + ":" +
           std::to_string(d.position.column) + " " + d.code + " " + d.field + "\n";
  }
  for (const DecodedObject& o : r.objects) {
    if (!objects) break;
    out += o.ref.name + " devices " +
           std::to_string(std::get<ResourceSlice>(o.object).spec.devices.size()) + "\n";
  }
  return out;
}

TEST(DecodeRecycledTreeTest, FindingsAsWhenEachDocumentIsDecodedAlone) {
  for (const bool reversed : {false, true}) {
    std::vector<std::string> docs = RecycledSlices();
    if (reversed) std::reverse(docs.begin(), docs.end());
    std::string stream;
    std::string alone;
    std::string alone_objects;
    int line = 1;
    for (const std::string& doc : docs) {
      stream += "---\n" + doc;
      const DecodeResult one = Decode(SourceText("in.yaml", "---\n" + doc, line));
      alone += RecycleSummary(one);
      alone_objects += RecycleSummary(one, true);
      line += 1 + static_cast<int>(std::count(doc.begin(), doc.end(), '\n'));
    }
    const DecodeResult whole = Decode(SourceText("in.yaml", stream));
    EXPECT_EQ(RecycleSummary(whole), alone) << reversed;
    EXPECT_EQ(RecycleSummary(whole, true), alone_objects) << reversed;
    std::istringstream in(stream);
    const DecodeResult streamed = DecodeStream(in, "in.yaml", {});
    EXPECT_EQ(RecycleSummary(streamed), alone) << reversed;
    EXPECT_EQ(RecycleSummary(streamed, true), alone_objects) << reversed;
  }
}

TEST(DecodeRecycledTreeTest, FieldPathsAndPositions) {
  std::string stream;
  for (const std::string& doc : RecycledSlices()) stream += "---\n" + doc;
  const DecodeResult r = Decode(SourceText("in.yaml", stream));
  EXPECT_EQ(RecycleSummary(r) + RecycleSummary(r, true),
            "in.yaml:27:14 decode.unknown-field spec.devices[2].attributes[uuid].strin\n"
            "in.yaml:44:5 decode.duplicate-field spec.devices[0].name\n"
            "in.yaml:79:23 decode.wrong-type spec.devices[3].attributes[numaNode].int\n"
            "in.yaml:103:5 decode.unknown-field spec.devices[1].basic\n"
            "in.yaml:121:32 decode.invalid-quantity spec.devices[0].capacity[memory].value\n"
            "in.yaml:122:5 decode.duplicate-field spec.devices[0].capacity\n"
            "a devices 3\nb devices 1\nc devices 4\nd devices 2\ne devices 1\n");
}

}  // namespace
}  // namespace draguard::k8s
