// Every finding kind of the schema checks (check.h), table driven: code, severity, field path,
// the text the diagnostic marks inside the expression, and the pasteable suggestion.
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/k8s/decode.h"
#include "policy/schema/check.h"
#include "tests/policy/schema/check_helpers.h"

namespace draguard::schema {
namespace testing {

// Every field the checks set, for byte-identical comparisons.
std::vector<std::string> Rendered(const Diagnostics& found) {
  std::vector<std::string> out;
  for (const Diagnostic& d : found) {
    out.push_back(std::string(SeverityName(d.severity)) + " " + d.code + " @ " + d.field + " [" +
                  std::to_string(d.value_offset) + "+" + std::to_string(d.value_length) + "] " +
                  d.message + " | " + d.suggestion);
  }
  return out;
}

const Schema& CatalogSchema() {
  static const Schema* schema = [] {
    StatusOr<BuildResult> built = BuildSchema({});
    return new Schema(built.ok() ? built->schema : Schema());
  }();
  return *schema;
}

Diagnostics CheckYaml(const std::string& yaml, const Schema& schema, bool strict) {
  k8s::DecodeResult decoded = k8s::Decode(SourceText("test.yaml", yaml));
  CheckOptions options;
  options.strict = strict;
  for (const k8s::DecodedObject& o : decoded.objects) {
    if (const auto* c = std::get_if<k8s::DeviceClass>(&o.object)) options.classes.push_back(c);
  }
  // Issue 16, the differential of every table below: checked through a SelectorMemo, first
  // filling it and then answered from it, each object gets the same findings as without.
  CheckOptions memoized = options;
  memoized.memo = std::make_shared<SelectorMemo>();
  memoized.memo_generation = memoized.memo->NewGeneration();
  Diagnostics out;
  for (const k8s::DecodedObject& o : decoded.objects) {
    Diagnostics found;
    CheckObject(o.object, schema, options, found);
    for (int pass = 0; pass < 2; ++pass) {
      Diagnostics remembered;
      CheckObject(o.object, schema, memoized, remembered);
      EXPECT_EQ(Rendered(remembered), Rendered(found)) << "memo pass " << pass << "\n" << yaml;
    }
    for (Diagnostic& d : found.mutable_items()) {
      o.Locate(d);
      out.Add(std::move(d));
    }
  }
  return out;
}

}  // namespace testing

namespace {

std::string YamlQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string Class(const std::string& name, const std::string& selector) {
  return "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: " + name +
         "}\nspec:\n  selectors:\n  - cel:\n      expression: " + YamlQuote(selector) + "\n---\n";
}

std::string Claim(const std::string& klass, const std::string& selector,
                  const std::string& extra = "") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n"
         "  devices:\n    requests:\n    - name: r\n      exactly:\n        deviceClassName: " +
         klass + "\n        selectors:\n        - cel:\n            expression: " +
         YamlQuote(selector) + "\n" + extra;
}

constexpr char kSelector[] = "spec.devices.requests[0].exactly.selectors[0].cel.expression";

struct Case {
  std::string name;
  std::string yaml;
  std::string expression;  // the checked expression, to read the marked text from
  std::string code;        // "" expects no diagnostic at all
  Severity severity = Severity::kError;
  std::string field = kSelector;
  std::string marked;      // text at value_offset/value_length
  std::string suggestion;  // exact suggestion ("" = not checked)
  bool strict = false;
  std::string message;  // exact message ("" = not checked)
};

Case Selector(std::string name, std::string klass, std::string expr, std::string code,
              Severity severity, std::string marked, std::string suggestion = "") {
  return {std::move(name), klass + Claim("c", expr), expr, std::move(code), severity, kSelector,
          std::move(marked), std::move(suggestion)};
}

const std::string kNvidiaClass = Class("c", "device.driver == \"gpu.nvidia.com\"");
const std::string kAmdClass = Class("c", "device.driver == \"gpu.amd.com\"");

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class CheckTest : public ::testing::TestWithParam<Case> {};

TEST_P(CheckTest, Finds) {
  const Case& c = GetParam();
  Diagnostics found = testing::CheckYaml(c.yaml, testing::CatalogSchema(), c.strict);
  if (c.code.empty()) {
    for (const Diagnostic& d : found) ADD_FAILURE() << d.code << " " << d.field << ": " << d.message;
    return;
  }
  ASSERT_EQ(found.size(), 1u) << [&] {
    std::string all;
    for (const Diagnostic& d : found) all += d.code + " " + d.field + ": " + d.message + "\n";
    return all;
  }();
  const Diagnostic& d = found.items()[0];
  EXPECT_EQ(d.code, c.code);
  EXPECT_EQ(d.severity, c.severity) << d.message;
  EXPECT_EQ(d.field, c.field);
  EXPECT_FALSE(d.message.empty());
  EXPECT_TRUE(d.position.known());
  if (!c.marked.empty()) {
    ASSERT_GE(d.value_offset, 0);
    EXPECT_EQ(c.expression.substr(d.value_offset, d.value_length), c.marked);
  }
  if (!c.suggestion.empty()) {
    EXPECT_EQ(d.suggestion, c.suggestion);
  }
  if (!c.message.empty()) {
    EXPECT_EQ(d.message, c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Selectors, CheckTest,
    ::testing::Values(
        Selector("AttributeTypo", kAmdClass,
                 R"(device.attributes["gpu.amd.com"].productname == "MI300X")",
                 "schema.attribute.unknown", Severity::kWarning, "productname",
                 R"(device.attributes["gpu.amd.com"].productName)"),
        [] {
          Case c = Selector("AttributeTypoStrict", kAmdClass,
                            R"(device.attributes["gpu.amd.com"].productname == "MI300X")",
                            "schema.attribute.unknown", Severity::kError, "productname");
          c.strict = true;
          return c;
        }(),
        Selector("CapacityTypo", kNvidiaClass,
                 R"(device.capacity["gpu.nvidia.com"].memroy.compareTo(quantity("1Gi")) >= 0)",
                 "schema.capacity.unknown", Severity::kWarning, "memroy",
                 R"(device.capacity["gpu.nvidia.com"].memory)"),
        Selector("UnknownDomainDidYouMean", "",
                 R"(device.attributes["gpu.nvida.com"].productName == "x")",
                 "schema.domain.unknown", Severity::kWarning, R"("gpu.nvida.com")",
                 R"("gpu.nvidia.com")"),
        Selector("UnknownDomainOfAPrivateDriverIsInfo", "",
                 R"(device.attributes["fpga.corp.example"].board == "u250")",
                 "schema.domain.unknown", Severity::kInfo, R"("fpga.corp.example")"),
        [] {
          Case c = Selector("UnknownDomainStrict", "",
                            R"(device.attributes["fpga.corp.example"].board == "u250")",
                            "schema.domain.unknown", Severity::kError, R"("fpga.corp.example")");
          c.strict = true;
          return c;
        }(),
        Selector("DomainAndNameRunTogether", "", R"(device.attributes["dra.net/rdma"].bool)",
                 "schema.domain.qualified-name", Severity::kError, R"("dra.net/rdma")",
                 R"(device.attributes["dra.net"].rdma)"),
        Selector("IntComparedWithString", kAmdClass,
                 R"(device.attributes["gpu.amd.com"].cardIndex == "56")", "schema.type.mismatch",
                 Severity::kError, R"("56")", R"(device.attributes["gpu.amd.com"].cardIndex == 56)"),
        Selector("StringComparedWithInt", kAmdClass,
                 R"(device.attributes["gpu.amd.com"].family == 1)", "schema.type.mismatch",
                 Severity::kError, "1", R"(device.attributes["gpu.amd.com"].family == "1")"),
        Selector("VersionComparedWithString",
                 Class("c", R"(device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "gpu")"),
                 R"(device.attributes["gpu.nvidia.com"].driverVersion > "550")",
                 "schema.type.mismatch", Severity::kError, R"("550")",
                 R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0")))"),
        Selector("CapacityComparedWithString", kAmdClass,
                 R"(device.capacity["gpu.amd.com"].memory >= "64Gi")", "schema.type.mismatch",
                 Severity::kError, R"("64Gi")",
                 R"(device.capacity["gpu.amd.com"].memory.compareTo(quantity("64Gi")) >= 0)"),
        Selector("CapacityComparedWithNumber", kAmdClass,
                 R"(device.capacity["gpu.amd.com"].computeUnits > 100)", "schema.type.mismatch",
                 Severity::kError, "100",
                 R"(device.capacity["gpu.amd.com"].computeUnits.isGreaterThan(quantity("100")))"),
        // Two attributes compared with each other.
        Selector("IntAttributeEqualsStringAttribute", kAmdClass,
                 R"(device.attributes["gpu.amd.com"].cardIndex == device.attributes["gpu.amd.com"].family)",
                 "schema.type.mismatch", Severity::kError, "family",
                 R"(string(device.attributes["gpu.amd.com"].cardIndex) == device.attributes["gpu.amd.com"].family)"),
        Selector("StringAttributeDiffersFromIntAttributeOfAnotherDomain", kAmdClass,
                 R"(device.attributes["resource.kubernetes.io"].pcieRoot != device.attributes["gpu.amd.com"].cardIndex)",
                 "schema.type.mismatch", Severity::kError, "cardIndex",
                 R"(device.attributes["resource.kubernetes.io"].pcieRoot != string(device.attributes["gpu.amd.com"].cardIndex))"),
        Selector("CapacityOrderedAgainstAttribute", kAmdClass,
                 R"(device.capacity["gpu.amd.com"].memory > device.attributes["gpu.amd.com"].cardIndex)",
                 "schema.type.mismatch", Severity::kError, "cardIndex"),
        Selector("VersionsOrderedWithAnOperator", kNvidiaClass,
                 R"(device.attributes["gpu.nvidia.com"].type == "gpu" && device.attributes["gpu.nvidia.com"].driverVersion < device.attributes["gpu.nvidia.com"].cudaDriverVersion)",
                 "schema.type.mismatch", Severity::kError, "cudaDriverVersion",
                 R"(device.attributes["gpu.nvidia.com"].driverVersion.isLessThan(device.attributes["gpu.nvidia.com"].cudaDriverVersion))"),
        Selector("StringMethodOnInt", kAmdClass,
                 R"(device.attributes["gpu.amd.com"].cardIndex.startsWith("4"))",
                 "schema.type.mismatch", Severity::kError, "startsWith"),
        Selector("OutsideClosedSet", kNvidiaClass,
                 R"(device.attributes["gpu.nvidia.com"].type == "GPU")",
                 "schema.value.never-matches", Severity::kError, R"("GPU")",
                 R"(device.attributes["gpu.nvidia.com"].type == "gpu")"),
        Selector("NvidiaIndexRemoved", "", R"(device.attributes["gpu.nvidia.com"].index == 0)",
                 "schema.attribute.removed", Severity::kError, "index",
                 R"(device.attributes["gpu.nvidia.com"].uuid)"),
        Selector("DranetCloudNetworkRemoved", "",
                 R"(device.attributes["dra.net"].cloudNetwork.contains("vpc"))",
                 "schema.attribute.removed", Severity::kError, "cloudNetwork",
                 R"(device.attributes["gce.dra.net"].networkName)"),
        Selector("DranetNameRemoved", "", R"(device.attributes["dra.net"].name == "eth1")",
                 "schema.attribute.removed", Severity::kError, "name",
                 R"(device.attributes["dra.net"].ifName)"),
        Selector("ClassPinsOtherDriver", kNvidiaClass,
                 R"(device.attributes["gpu.amd.com"].productName == "x")",
                 "schema.driver.unreachable", Severity::kError, R"("gpu.amd.com")"),
        // Issue 19 item 18: driver conditions that admit no driver at all.
        Selector("ContradictoryDriverConditions", kNvidiaClass,
                 R"(device.driver == 'éé' && device.attributes["gpu.nvidia.com"].productName == "x")",
                 "schema.driver.unreachable", Severity::kError, R"("gpu.nvidia.com")",
                 R"(compare device.driver with a driver that publishes "gpu.nvidia.com": device.driver == "gpu.nvidia.com")"),
        // The messages of these two are built in place (check.cc CheckPublished); the exact
        // texts are those of the concatenating code they replaced.
        [] {
          Case c = Selector("UnguardedTypeSpecificAttribute", kNvidiaClass,
                            R"(device.attributes["gpu.nvidia.com"].profile == "1g.5gb")",
                            "schema.attribute.unguarded", Severity::kWarning, "profile",
                            R"("profile" in device.attributes["gpu.nvidia.com"] && (device.attributes["gpu.nvidia.com"].profile == "1g.5gb"))");
          c.message =
              R"("gpu.nvidia.com/profile" is not published on type "gpu", "vfio" devices, )"
              R"(which can reach this selector; on them the lookup fails with "no such key" )"
              R"(and the pod's scheduling attempt is aborted)";
          return c;
        }(),
        [] {
          Case c = Selector("NotPublishedOnPinnedType", kNvidiaClass,
                            R"(device.attributes["gpu.nvidia.com"].type == "vfio" && device.attributes["gpu.nvidia.com"].cudaComputeCapability.compareTo(semver("8.0.0")) >= 0)",
                            "schema.attribute.not-published", Severity::kError,
                            "cudaComputeCapability");
          c.message =
              R"("gpu.nvidia.com/cudaComputeCapability" is published only on type "gpu", )"
              R"("mig", but only "vfio" devices can reach this selector; the lookup fails on )"
              R"(every one of them)";
          return c;
        }(),
        Selector("UnguardedCapacity", kNvidiaClass,
                 R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)",
                 "schema.attribute.unguarded", Severity::kWarning, "memory",
                 R"("memory" in device.capacity["gpu.nvidia.com"] && (device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0))"),
        Selector("DeprecatedIntelPciRoot", "", R"(device.attributes["gpu.intel.com"].pciRoot == "00")",
                 "schema.attribute.deprecated", Severity::kWarning, "pciRoot",
                 R"(device.attributes["resource.kubernetes.io"].pcieRoot)"),
        // Quiet cases.
        Selector("GuardedByType", kNvidiaClass,
                 R"(device.attributes["gpu.nvidia.com"].type == "mig" && device.attributes["gpu.nvidia.com"].profile == "1g.5gb")",
                 "", Severity::kError, ""),
        Selector("GuardedByHas", kNvidiaClass,
                 R"(has(device.attributes["gpu.nvidia.com"].profile) && device.attributes["gpu.nvidia.com"].profile == "1g.5gb")",
                 "", Severity::kError, ""),
        Selector("GuardedByOptional", kNvidiaClass,
                 R"(device.attributes["gpu.nvidia.com"].?profile.orValue("") == "1g.5gb")", "",
                 Severity::kError, ""),
        Selector("TypePinnedInTheClass",
                 Class("c", R"(device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "mig")"),
                 R"(device.attributes["gpu.nvidia.com"].profile == "1g.5gb")", "",
                 Severity::kError, ""),
        Selector("CorrectVersionAndCapacity",
                 Class("c", R"(device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "gpu")"),
                 R"(device.attributes["gpu.nvidia.com"].productName.lowerAscii().contains("a100") && device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)",
                 "", Severity::kError, ""),
        Selector("UnknownClassNoGuardWarning", "",
                 R"(device.attributes["gpu.nvidia.com"].profile == "1g.5gb")", "",
                 Severity::kError, ""),
        Selector("AttributesOfTheSameType", kAmdClass,
                 R"(device.attributes["gpu.amd.com"].family == device.attributes["gpu.amd.com"].productName)",
                 "", Severity::kError, ""),
        Selector("AttributeOfAnUnknownNameComparedIsLeftToThatFinding", kAmdClass,
                 R"(has(device.attributes["gpu.amd.com"].zzz) && device.attributes["gpu.amd.com"].cardIndex == device.attributes["gpu.amd.com"].zzz)",
                 "", Severity::kError, ""),
        Selector("StandardAttribute", kNvidiaClass,
                 R"(device.attributes["resource.kubernetes.io"].pcieRoot == "pci0000:64")", "",
                 Severity::kError, "")),
    [](const ::testing::TestParamInfo<Case>& param_info) { return param_info.param.name; });

constexpr char kAmdPartitions[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: parts}
spec:
  devices:
    requests:
    - name: p0
      exactly:
        deviceClassName: gpu.amd.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.amd.com"].type == "amdgpu-partition"'}
    - name: p1
      exactly:
        deviceClassName: gpu.amd.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.amd.com"].type == "amdgpu-partition"'}
    constraints:
    - distinctAttribute: gpu.amd.com/deviceID
      requests: [p0, p1]
)";

INSTANTIATE_TEST_SUITE_P(
    Objects, CheckTest,
    ::testing::Values(
        Case{"AmdPartitionsDeviceID", kAmdPartitions, "", "schema.constraint.attribute.not-published",
             Severity::kError, "spec.devices.constraints[0].distinctAttribute", "",
             "gpu.amd.com/parentDeviceID"},
        Case{"ConstraintAttributeTypo",
             Claim("c", R"(device.driver == "gpu.nvidia.com")",
                   "    constraints:\n    - matchAttribute: gpu.nvidia.com/parentUUD\n"),
             "", "schema.constraint.attribute.unknown", Severity::kWarning,
             "spec.devices.constraints[0].matchAttribute", "", "gpu.nvidia.com/parentUUID"},
        Case{"ConstraintDomainTypo",
             Claim("c", R"(device.driver == "gpu.nvidia.com")",
                   "    constraints:\n    - matchAttribute: resource.kubernetes.ioo/pcieRoot\n"),
             "", "schema.domain.unknown", Severity::kWarning,
             "spec.devices.constraints[0].matchAttribute", "", "resource.kubernetes.io/pcieRoot"},
        Case{"ConstraintPrivateDomainIsInfo",
             Claim("c", R"(device.driver == "gpu.nvidia.com")",
                   "    constraints:\n    - matchAttribute: fpga.corp.example/board\n"),
             "", "schema.domain.unknown", Severity::kInfo,
             "spec.devices.constraints[0].matchAttribute"},
        Case{"ConstraintNumberedAttribute",
             Claim("c", R"(device.driver == "gpu.nvidia.com")",
                   "    constraints:\n    - matchAttribute: gpu.nvidia.com/partition2\n"),
             "", ""},
        Case{"ClassSelectorUnguarded",
             Class("mig", R"(device.attributes["gpu.nvidia.com"].profile == "1g.5gb")"), "",
             "schema.attribute.unguarded", Severity::kWarning, "spec.selectors[0].cel.expression"},
        Case{"TemplateFieldPath",
             "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t}\n"
             "spec:\n  spec:\n    devices:\n      requests:\n      - name: r\n        exactly:\n"
             "          deviceClassName: x\n          selectors:\n"
             "          - cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].index == 0'}\n",
             "", "schema.attribute.removed", Severity::kError,
             "spec.spec.devices.requests[0].exactly.selectors[0].cel.expression"},
        Case{"FirstAvailableFieldPath",
             "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
             "spec:\n  devices:\n    requests:\n    - name: r\n      firstAvailable:\n"
             "      - name: big\n        deviceClassName: x\n        selectors:\n"
             "        - cel: {expression: 'device.attributes[\"gpu.amd.com\"].cardIndex == \"1\"'}\n",
             "", "schema.type.mismatch", Severity::kError,
             "spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression"}),
    [](const ::testing::TestParamInfo<Case>& param_info) { return param_info.param.name; });

// matchAttribute / distinctAttribute over requests whose devices publish the attribute with
// different types. The catalog declares resource.kubernetes.io/pcieRoot a string; the slices
// of nic.corp.example publish it as an int, those of gpu.nvidia.com as a string. The catalog
// declares gpu.amd.com/cardIndex an int; the slices of gpu.amd.com publish it as a string.
const Schema& ObservedSchema() {
  static const Schema* schema = [] {
    inventory::ClusterObjects cluster;
    auto slice = [](const std::string& driver, bool as_int) {
      k8s::ResourceSlice s;
      s.metadata.name = driver;
      s.spec.driver = driver;
      k8s::Device d;
      d.name = "d0";
      k8s::DeviceAttribute& root = d.attributes["resource.kubernetes.io/pcieRoot"];
      if (as_int) {
        root.int_value = 3;
      } else {
        root.string_value = "pci0000:64";
      }
      d.attributes["model"].string_value = "x";
      s.spec.devices.push_back(d);
      return s;
    };
    cluster.slices = {slice("gpu.nvidia.com", false), slice("nic.corp.example", true),
                      slice("gpu.amd.com", false)};
    cluster.slices.MutableBack().spec.devices[0].attributes["cardIndex"].string_value = "40";
    SchemaSources sources;
    sources.cluster = &cluster;
    StatusOr<BuildResult> built = BuildSchema(sources);
    return new Schema(built.ok() ? built->schema : Schema());
  }();
  return *schema;
}

std::string TwoRequestClaim(const std::string& class_a, const std::string& class_b,
                            const std::string& constraint) {
  return Class("gpu", R"(device.driver == "gpu.nvidia.com")") +
         Class("nic", R"(device.driver == "nic.corp.example")") +
         Class("fpga", R"(device.driver == "fpga.unknown.example")") +
         Class("amd", R"(device.driver == "gpu.amd.com")") + Class("any", "true") +
         "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n"
         "  devices:\n    requests:\n    - name: a\n      exactly: {deviceClassName: " +
         class_a + "}\n    - name: b\n      exactly: {deviceClassName: " + class_b +
         "}\n    constraints:\n    - " + constraint + "\n";
}

struct TypeCase {
  std::string name;
  std::string yaml;
  std::string code;  // "" expects no diagnostic
  Severity severity = Severity::kError;
  std::string field;
  std::string attribute = "resource.kubernetes.io/pcieRoot";  // marked: the whole value
};

void PrintTo(const TypeCase& c, std::ostream* os) { *os << c.name; }

class ConstraintTypeTest : public ::testing::TestWithParam<TypeCase> {};

TEST_P(ConstraintTypeTest, Finds) {
  const TypeCase& c = GetParam();
  Diagnostics found = testing::CheckYaml(c.yaml, ObservedSchema());
  if (c.code.empty()) {
    for (const Diagnostic& d : found) ADD_FAILURE() << d.code << " " << d.field << ": " << d.message;
    return;
  }
  ASSERT_EQ(found.size(), 1u);
  const Diagnostic& d = found.items()[0];
  EXPECT_EQ(d.code, c.code);
  EXPECT_EQ(d.severity, c.severity) << d.message;
  EXPECT_EQ(d.field, c.field);
  EXPECT_EQ(d.value_offset, 0);
  EXPECT_EQ(d.value_length, static_cast<int>(c.attribute.size()));
  EXPECT_TRUE(d.position.known());
}

constexpr char kMatchRoot[] = "matchAttribute: resource.kubernetes.io/pcieRoot";
constexpr char kDistinctRoot[] = "distinctAttribute: resource.kubernetes.io/pcieRoot";

INSTANTIATE_TEST_SUITE_P(
    Constraints, ConstraintTypeTest,
    ::testing::Values(
        TypeCase{"MatchStringWithIntIsError", TwoRequestClaim("gpu", "nic", kMatchRoot),
                 "schema.constraint.attribute.type-mismatch", Severity::kError,
                 "spec.devices.constraints[0].matchAttribute"},
        TypeCase{"DistinctOverDifferentTypesIsWarning",
                 TwoRequestClaim("gpu", "nic", kDistinctRoot),
                 "schema.constraint.attribute.type-mismatch", Severity::kWarning,
                 "spec.devices.constraints[0].distinctAttribute"},
        // The standard declares the type for every driver, also one the schema does not know.
        TypeCase{"StandardTypeOfAnUnknownDriverIsDeclared",
                 TwoRequestClaim("nic", "fpga", kMatchRoot),
                 "schema.constraint.attribute.type-mismatch", Severity::kError,
                 "spec.devices.constraints[0].matchAttribute"},
        // Whether fpga.unknown.example publishes gpu.amd.com/cardIndex, and as what, the schema
        // cannot say: the declared int is assumed.
        TypeCase{"AssumedTypeIsWarning",
                 TwoRequestClaim("amd", "fpga", "matchAttribute: gpu.amd.com/cardIndex"),
                 "schema.constraint.attribute.type-mismatch", Severity::kWarning,
                 "spec.devices.constraints[0].matchAttribute", "gpu.amd.com/cardIndex"},
        TypeCase{"SameTypeIsQuiet", TwoRequestClaim("gpu", "fpga", kMatchRoot), ""},
        TypeCase{"UnpinnedDriverIsQuiet", TwoRequestClaim("gpu", "any", kMatchRoot), ""},
        TypeCase{"ConstraintOnOneRequestIsQuiet",
                 TwoRequestClaim("gpu", "nic", std::string(kMatchRoot) + "\n      requests: [a]"),
                 ""}),
    [](const ::testing::TestParamInfo<TypeCase>& param_info) { return param_info.param.name; });

// The constrained requests are compared in name order, whatever order the claim lists them
// in: the finding names "a" before "z" (the requests' facts are kept in a vector sorted by
// name before the constraints; without the sort this names "z" first).
TEST(ConstraintTypeOrderTest, NamesRequestsInNameOrder) {
  std::string yaml = TwoRequestClaim("nic", "gpu", kMatchRoot);
  const size_t a = yaml.find("- name: a\n");
  ASSERT_NE(a, std::string::npos);
  yaml.replace(a, 9, "- name: z");  // listed first: z (nic), then b (gpu)
  Diagnostics found = testing::CheckYaml(yaml, ObservedSchema());
  ASSERT_EQ(found.size(), 1u);
  const std::string& message = found.items()[0].message;
  EXPECT_EQ(found.items()[0].code, "schema.constraint.attribute.type-mismatch");
  const size_t first = message.find("request \"b\"");
  const size_t second = message.find("request \"z\"");
  ASSERT_NE(first, std::string::npos) << message;
  ASSERT_NE(second, std::string::npos) << message;
  EXPECT_LT(first, second) << message;
}

TEST(CheckUserSchemaTest, PrivateDriverFromUserFile) {
  SchemaSources sources;
  sources.builtin_catalog = false;
  sources.user_files.emplace_back("private.yaml", R"(domains:
  - domain: fpga.corp.example
    attributes:
      - {name: board, type: string, values: [u250, u280]}
)");
  StatusOr<BuildResult> built = BuildSchema(sources);
  ASSERT_TRUE(built.ok());
  Diagnostics found = testing::CheckYaml(
      Claim("x", R"(device.attributes["fpga.corp.example"].board == "u200")"), built->schema);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found.items()[0].code, "schema.value.never-matches");
  // Without the catalog, NVIDIA is unknown, like any private driver: information only.
  found = testing::CheckYaml(Claim("x", R"(device.attributes["gpu.nvidia.com"].index == 0)"),
                             built->schema);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found.items()[0].code, "schema.domain.unknown");
  EXPECT_EQ(found.items()[0].severity, Severity::kInfo);
}

TEST(CheckTest, UnparsableExpressionIsLeftToValidation) {
  EXPECT_TRUE(testing::CheckYaml(Claim("x", "device.attributes[")).empty());
}

// Issue 16: one SelectorMemo shared by checks of two schemas (the webhook's, one per inventory
// snapshot), each with its generation: a selector that the first schema's check remembered is
// checked again against the second, whose findings differ. With one generation for both, the
// second check would be answered with the first schema's findings (the test fails then).
TEST(SelectorMemoTest, NeverAnswersOneSchemaWithWhatAnotherSaid) {
  StatusOr<BuildResult> built =
      BuildSchema({.builtin_catalog = false, .user_files = {}, .cluster = nullptr});
  ASSERT_TRUE(built.ok());
  const Schema& empty = built->schema;
  const std::string yaml = Claim("x", R"(device.attributes["gpu.nvidia.com"].index == 0)");
  const k8s::DecodeResult decoded = k8s::Decode(SourceText("test.yaml", yaml));
  ASSERT_EQ(decoded.objects.size(), 1u);
  const k8s::ObjectVariant& claim = decoded.objects[0].object;
  auto memo = std::make_shared<SelectorMemo>();
  auto check = [&](const Schema& schema, uint64_t generation) {
    CheckOptions options;
    options.memo = memo;
    options.memo_generation = generation;
    Diagnostics found;
    CheckObject(claim, schema, options, found);
    return testing::Rendered(found);
  };
  auto unmemoized = [&](const Schema& schema) {
    Diagnostics found;
    CheckObject(claim, schema, CheckOptions{}, found);
    return testing::Rendered(found);
  };
  const uint64_t catalog_generation = memo->NewGeneration();
  const uint64_t empty_generation = memo->NewGeneration();
  EXPECT_NE(catalog_generation, empty_generation);
  const std::vector<std::string> removed = check(testing::CatalogSchema(), catalog_generation);
  ASSERT_EQ(removed, unmemoized(testing::CatalogSchema()));
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_NE(removed[0].find("schema.attribute.removed"), std::string::npos) << removed[0];
  const std::vector<std::string> unknown = check(empty, empty_generation);
  EXPECT_EQ(unknown, unmemoized(empty));
  EXPECT_NE(unknown, removed);
  // Each generation is answered from its own entry from now on.
  EXPECT_EQ(check(testing::CatalogSchema(), catalog_generation), removed);
  EXPECT_EQ(check(empty, empty_generation), unknown);
  EXPECT_EQ(memo->stats().hits, 2u);
  EXPECT_EQ(memo->stats().misses, 2u);
}

// A memo that keeps nothing (zero limits) changes nothing either.
TEST(SelectorMemoTest, AMemoThatIsOffStillChecks) {
  const std::string yaml = Claim("x", R"(device.attributes["gpu.nvidia.com"].index == 0)");
  const k8s::DecodeResult decoded = k8s::Decode(SourceText("test.yaml", yaml));
  ASSERT_EQ(decoded.objects.size(), 1u);
  CheckOptions options;
  options.memo = std::make_shared<SelectorMemo>(CacheLimits{});
  Diagnostics with, without;
  CheckObject(decoded.objects[0].object, testing::CatalogSchema(), options, with);
  CheckObject(decoded.objects[0].object, testing::CatalogSchema(), CheckOptions{}, without);
  EXPECT_EQ(testing::Rendered(with), testing::Rendered(without));
  EXPECT_EQ(options.memo->stats().entries, 0u);
}

}  // namespace
}  // namespace draguard::schema
