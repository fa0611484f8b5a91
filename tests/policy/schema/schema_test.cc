// The schema model: the embedded catalog, user schema files and observed ResourceSlices.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "policy/k8s/decode.h"
#include "policy/schema/schema.h"
#include "tests/policy/schema/check_helpers.h"

namespace draguard::schema {
namespace {

TEST(CatalogTest, LoadsEveryDriverOfTheAttributeCatalog) {
  const Schema& schema = testing::CatalogSchema();
  for (const char* domain :
       {"resource.kubernetes.io", "gpu.nvidia.com", "compute-domain.nvidia.com", "gpu.amd.com",
        "gpu.example.com", "net.example.com", "cpu.example.com", "gpu.intel.com",
        "gaudi.intel.com", "qat.intel.com", "dra.net", "gce.dra.net", "azure.dra.net",
        "oke.dra.net", "alibaba.dra.net", "tpu.google.com", "dra.cpu"}) {
    EXPECT_NE(schema.FindDomain(domain), nullptr) << domain;
  }
}

TEST(CatalogTest, NvidiaEntriesCarryTypesDeviceTypesAndRemovals) {
  const DomainSchema* nvidia = testing::CatalogSchema().FindDomain("gpu.nvidia.com");
  ASSERT_NE(nvidia, nullptr);
  EXPECT_EQ(nvidia->type_attribute, "type");
  const Entry* version = nvidia->FindAttribute("driverVersion");
  ASSERT_NE(version, nullptr);
  EXPECT_EQ(version->type, ValueType::kVersion);
  EXPECT_EQ(version->device_types, (std::vector<std::string>{"gpu", "mig"}));
  const Entry* index = nvidia->FindAttribute("index");
  ASSERT_NE(index, nullptr);
  EXPECT_TRUE(index->removed_in.has_value());
  // `partition<N>` matches numbered names only.
  EXPECT_NE(nvidia->FindAttribute("partition2"), nullptr);
  EXPECT_EQ(nvidia->FindAttribute("partition"), nullptr);
  EXPECT_EQ(nvidia->FindAttribute("partitionX"), nullptr);
  const Entry* memory = nvidia->FindCapacity("memory");
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(memory->type, ValueType::kQuantity);
}

TEST(BuildSchemaTest, NoBuiltinCatalogLeavesOnlyOtherSources) {
  SchemaSources sources;
  sources.builtin_catalog = false;
  StatusOr<BuildResult> built = BuildSchema(sources);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_TRUE(built->schema.empty());
}

TEST(BuildSchemaTest, UserFileAddsAPrivateDriver) {
  SchemaSources sources;
  sources.user_files.emplace_back("private.yaml", R"(domains:
  - domain: fpga.corp.example
    typeAttribute: kind
    deviceTypes: [full, slot]
    attributes:
      - {name: kind, type: string, values: [full, slot]}
      - {name: bitstream, type: version, on: [slot]}
    capacities:
      - {name: luts}
)");
  StatusOr<BuildResult> built = BuildSchema(sources);
  ASSERT_TRUE(built.ok());
  EXPECT_TRUE(built->diagnostics.empty());
  const DomainSchema* fpga = built->schema.FindDomain("fpga.corp.example");
  ASSERT_NE(fpga, nullptr);
  EXPECT_EQ(fpga->drivers, (std::vector<std::string>{"fpga.corp.example"}));
  ASSERT_NE(fpga->FindAttribute("bitstream"), nullptr);
  EXPECT_EQ(fpga->FindAttribute("bitstream")->origin, Origin::kUserFile);
  EXPECT_NE(fpga->FindCapacity("luts"), nullptr);
  EXPECT_NE(built->schema.FindDomain("gpu.nvidia.com"), nullptr);  // catalog still there
}

struct BadFileCase {
  std::string name;
  std::string text;
  std::string code;
  int line;
};

class UserFileErrorTest : public ::testing::TestWithParam<BadFileCase> {};

TEST_P(UserFileErrorTest, ReportsPositionedDiagnostic) {
  Schema schema;
  Diagnostics out;
  LoadSchemaFile(SourceText("user.yaml", GetParam().text), Origin::kUserFile, schema, out);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.items()[0].code, GetParam().code);
  EXPECT_EQ(out.items()[0].file, "user.yaml");
  EXPECT_EQ(out.items()[0].position.line, GetParam().line);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, UserFileErrorTest,
    ::testing::Values(
        BadFileCase{"NotAMap", "- a\n", "schema.file.invalid", 1},
        BadFileCase{"UnknownTopLevel", "domain: x\n", "schema.file.unknown-field", 1},
        BadFileCase{"MissingDomain", "domains:\n  - attributes: []\n",
                    "schema.file.invalid", 2},
        BadFileCase{"BadType",
                    "domains:\n  - domain: a.b\n    attributes:\n      - {name: x, type: float}\n",
                    "schema.file.invalid", 4},
        BadFileCase{"UnknownEntryField",
                    "domains:\n  - domain: a.b\n    attributes:\n"
                    "      - {name: x, type: int, colour: red}\n",
                    "schema.file.unknown-field", 4},
        BadFileCase{"ListCapacity",
                    "domains:\n  - domain: a.b\n    capacities:\n      - {name: m, list: true}\n",
                    "schema.file.invalid", 4},
        BadFileCase{"ListNotBool",
                    "domains:\n  - domain: a.b\n    attributes:\n"
                    "      - {name: x, type: int, list: maybe}\n",
                    "schema.file.invalid", 4},
        BadFileCase{"YamlSyntax", "domains: [\n", "schema.file.invalid", 2}),
    [](const ::testing::TestParamInfo<BadFileCase>& param_info) { return param_info.param.name; });

k8s::ResourceSlice SliceFrom(const std::string& yaml) {
  k8s::DecodeResult decoded = k8s::Decode(SourceText("slice.yaml", yaml));
  EXPECT_EQ(decoded.objects.size(), 1u);
  return std::get<k8s::ResourceSlice>(decoded.objects.at(0).object);
}

constexpr char kSlice[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpu}
spec:
  driver: fpga.corp.example
  nodeName: node-a
  pool: {name: node-a, resourceSliceCount: 1}
  devices:
  - name: fpga-0
    attributes:
      board: {string: u250}
      slots: {int: 4}
      resource.kubernetes.io/pcieRoot: {string: "pci0000:00"}
    capacity:
      luts: {value: "1M"}
  - name: fpga-1
    attributes:
      board: {string: u280}
      slots: {string: "four"}
)";

TEST(ObserveSlicesTest, LearnsAttributesAndReportsConflicts) {
  Schema schema;
  Diagnostics out;
  ObserveSlices({SliceFrom(kSlice)}, schema, out);
  const DomainSchema* fpga = schema.FindDomain("fpga.corp.example");
  ASSERT_NE(fpga, nullptr);
  ASSERT_NE(fpga->FindAttribute("board"), nullptr);
  EXPECT_EQ(fpga->FindAttribute("board")->origin, Origin::kSlice);
  EXPECT_EQ(fpga->FindAttribute("slots")->type, ValueType::kInt);
  EXPECT_NE(fpga->FindCapacity("luts"), nullptr);
  ASSERT_NE(schema.FindDomain("resource.kubernetes.io"), nullptr);
  EXPECT_TRUE(schema.FindDomain("resource.kubernetes.io")->drivers.empty());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.items()[0].code, "schema.slice.type-conflict");
  EXPECT_EQ(out.items()[0].field, "spec.devices[1].attributes[slots]");
  EXPECT_EQ(out.items()[0].object.name, "node-a-gpu");
}

// Identical devices publish the same attributes many times; each device whose type conflicts
// with the first one seen is reported, not only the first such device.
TEST(ObserveSlicesTest, ReportsEveryConflictingDevice) {
  std::string yaml = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fleet}
spec:
  driver: fpga.corp.example
  nodeName: n
  pool: {name: n, resourceSliceCount: 1}
  devices:
)";
  const char* slots[] = {"{int: 4}", "{string: four}", "{int: 4}", "{string: four}",
                         "{string: four}"};
  for (int i = 0; i < 5; ++i) {
    yaml += "  - name: fpga-" + std::to_string(i) + "\n    attributes:\n      slots: " +
            slots[i] + "\n      board: {string: u250}\n    capacity:\n      luts: {value: 1M}\n";
  }
  Schema schema;
  Diagnostics out;
  ObserveSlices({SliceFrom(yaml)}, schema, out);
  std::vector<std::string> fields;
  for (const Diagnostic& d : out) {
    EXPECT_EQ(d.code, "schema.slice.type-conflict");
    fields.push_back(d.field);
  }
  EXPECT_THAT(fields, ::testing::ElementsAre("spec.devices[1].attributes[slots]",
                                             "spec.devices[3].attributes[slots]",
                                             "spec.devices[4].attributes[slots]"));
  const DomainSchema* fpga = schema.FindDomain("fpga.corp.example");
  ASSERT_NE(fpga, nullptr);
  EXPECT_EQ(fpga->FindAttribute("slots")->type, ValueType::kInt);
  EXPECT_EQ(fpga->FindAttribute("slots")->published_types.at("fpga.corp.example"),
            ValueType::kInt);
  EXPECT_NE(fpga->FindCapacity("luts"), nullptr);
  EXPECT_EQ(fpga->drivers, std::vector<std::string>{"fpga.corp.example"});
}

TEST(ObserveSlicesTest, PublishedTypeOverridesTheCatalog) {
  StatusOr<BuildResult> built = BuildSchema({});
  ASSERT_TRUE(built.ok());
  Schema schema = built->schema;
  Diagnostics out;
  ObserveSlices({SliceFrom(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: amd}
spec:
  driver: gpu.amd.com
  nodeName: n
  pool: {name: n, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      cardIndex: {string: "40"}
)")},
                schema, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.items()[0].code, "schema.slice.type-mismatch");
  EXPECT_EQ(schema.FindDomain("gpu.amd.com")->FindAttribute("cardIndex")->type,
            ValueType::kString);
}

// A claim of class `fpga` whose one selector is `expression`, checked against `schema`.
Diagnostics CheckFpgaSelector(const std::string& expression, const Schema& schema) {
  return testing::CheckYaml(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: r
      exactly:
        deviceClassName: fpga
        selectors:
        - cel:
            expression: ')" + expression + "'\n",
                            schema);
}

// Issue #14 item 3: an attribute a slice publishes as a list (DRAListTypeAttributes) compared
// with a scalar never matches; the suggestion is includes(). includes() on a scalar string
// is equality, not a substring test.
TEST(ObserveSlicesTest, ListAttributeComparedWithScalarSuggestsIncludes) {
  Schema schema = testing::CatalogSchema();
  Diagnostics observed;
  ObserveSlices({SliceFrom(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fpga}
spec:
  driver: fpga.corp.example
  nodeName: n
  pool: {name: n, resourceSliceCount: 1}
  devices:
  - name: fpga-0
    attributes:
      ports: {strings: [p0, p1]}
      board: {string: u280}
)")},
                schema, observed);
  EXPECT_TRUE(observed.empty());
  ASSERT_NE(schema.FindDomain("fpga.corp.example"), nullptr);
  EXPECT_TRUE(schema.FindDomain("fpga.corp.example")->FindAttribute("ports")->list);
  auto check = [&](const std::string& expression) {
    return CheckFpgaSelector(expression, schema);
  };
  Diagnostics eq = check("device.attributes[\"fpga.corp.example\"].ports == \"p0\"");
  ASSERT_EQ(eq.size(), 1u);
  EXPECT_EQ(eq.items()[0].code, "schema.type.mismatch");
  EXPECT_EQ(eq.items()[0].severity, Severity::kError);
  EXPECT_EQ(eq.items()[0].suggestion,
            "device.attributes[\"fpga.corp.example\"].ports.includes(\"p0\")");
  EXPECT_TRUE(check("device.attributes[\"fpga.corp.example\"].ports.includes(\"p0\")").empty());
  Diagnostics scalar = check("device.attributes[\"fpga.corp.example\"].board.includes(\"u2\")");
  ASSERT_EQ(scalar.size(), 1u);
  EXPECT_EQ(scalar.items()[0].code, "schema.includes.scalar");
}

// Issue #14 item 4: a --schema file declares a list-typed attribute (`list: true`) without any
// ResourceSlice publishing it; the checks then treat it as the slice-observed list above.
TEST(BuildSchemaTest, UserFileDeclaresListAttribute) {
  SchemaSources sources;
  sources.user_files.emplace_back("private.yaml", R"(domains:
  - domain: fpga.corp.example
    attributes:
      - {name: ports, type: string, list: true}
      - {name: board, type: string}
)");
  StatusOr<BuildResult> built = BuildSchema(sources);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_TRUE(built->diagnostics.empty());
  const DomainSchema* fpga = built->schema.FindDomain("fpga.corp.example");
  ASSERT_NE(fpga, nullptr);
  ASSERT_NE(fpga->FindAttribute("ports"), nullptr);
  EXPECT_TRUE(fpga->FindAttribute("ports")->list);
  EXPECT_EQ(fpga->FindAttribute("ports")->type, ValueType::kString);
  EXPECT_FALSE(fpga->FindAttribute("board")->list);
  auto check = [&](const std::string& expression) {
    return CheckFpgaSelector(expression, built->schema);
  };
  Diagnostics eq = check("device.attributes[\"fpga.corp.example\"].ports == \"p0\"");
  ASSERT_EQ(eq.size(), 1u);
  EXPECT_EQ(eq.items()[0].code, "schema.type.mismatch");
  EXPECT_EQ(eq.items()[0].field, "spec.devices.requests[0].exactly.selectors[0].cel.expression");
  EXPECT_EQ(eq.items()[0].suggestion,
            "device.attributes[\"fpga.corp.example\"].ports.includes(\"p0\")");
  EXPECT_TRUE(check("device.attributes[\"fpga.corp.example\"].ports.includes(\"p0\")").empty());
  EXPECT_TRUE(check("device.attributes[\"fpga.corp.example\"].board == \"u280\"").empty());
}

}  // namespace
}  // namespace draguard::schema
