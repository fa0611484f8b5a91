// Differential: the lint path (lint::LintSources, the batch pipeline) and the webhook path
// (PolicyChecker on /validate CREATE, the per-object pipeline) report the same diagnostics,
// by code and field path, for the same object. The two differ by design only where the stage
// table (policy/pipeline/pipeline.h) says so, and those findings are left out here:
//  - references (refs.*) run in a batch only: a review holds one object;
//  - a batch still schema-checks an object validation rejects; the webhook stops at the
//    rejection (the API server refuses the object before calling it). For a rejected
//    object, lint's schema.* findings are left out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "nlohmann/json.hpp"
#include "policy/lint/linter.h"
#include "webhook/admission/policy_checker.h"

namespace draguard::webhook {
namespace {

using Json = nlohmann::json;
using Finding = std::pair<std::string, std::string>;  // code, field

Json Claim(const Json& exactly, const std::string& name = "c") {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", name}, {"namespace", "ns"}}},
          {"spec", {{"devices", {{"requests", {{{"name", "gpu"}, {"exactly", exactly}}}}}}}}};
}

Json Selector(const std::string& expression) {
  return Json::array({{{"cel", {{"expression", expression}}}}});
}

struct DiffCase {
  std::string name;
  Json object;
};

std::vector<DiffCase> Cases() {
  const Json gpu = {{"deviceClassName", "gpu.example.com"}, {"count", 1}};
  const std::string nvidia = "device.attributes[\"gpu.nvidia.com\"]";
  Json nvidia_removed = {{"deviceClassName", "gpu.nvidia.com"},
                         {"selectors", Selector(nvidia + ".index == 0")}};
  Json typo = {{"deviceClassName", "gpu.nvidia.com"},
               {"selectors", Selector(nvidia + ".productname == \"x\"")}};
  Json bad_cel = {{"deviceClassName", "gpu.example.com"}, {"selectors", Selector("device.")}};
  Json negative = {{"deviceClassName", "gpu.example.com"}, {"count", -2}};
  Json rejected_and_schema = nvidia_removed;
  rejected_and_schema["count"] = -2;
  Json admin = gpu;
  admin["adminAccess"] = true;
  Json bad_name = Claim(gpu, "Bad_Name");
  Json tmpl = {{"apiVersion", "resource.k8s.io/v1"},
               {"kind", "ResourceClaimTemplate"},
               {"metadata", {{"name", "t"}, {"namespace", "ns"}}},
               {"spec", {{"spec", Claim(negative)["spec"]}}}};
  Json device_class = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "DeviceClass"},
      {"metadata", {{"name", "gpu.nvidia.com"}}},
      {"spec", {{"selectors", Selector("device.attributes[\"gpu.nvidia.com\"].index == 0")}}}};
  return {
      {"Valid", Claim(gpu)},
      {"SchemaRemovedAttribute", Claim(nvidia_removed)},
      {"SchemaTypo", Claim(typo)},
      {"CelSyntaxError", Claim(bad_cel)},
      {"NegativeCount", Claim(negative)},
      {"RejectedWithSchemaFindings", Claim(rejected_and_schema)},
      {"AdminAccessWithoutLabel", Claim(admin)},
      {"BadName", bad_name},
      {"TemplateWithError", tmpl},
      {"DeviceClassSchema", device_class},
  };
}

std::vector<Finding> Sorted(std::vector<Finding> findings) {
  std::sort(findings.begin(), findings.end());
  return findings;
}

bool IsSchema(const Diagnostic& d) { return d.code.rfind("schema.", 0) == 0; }

std::vector<Finding> LintFindings(const Json& object) {
  lint::LintOptions options;
  // What the webhook knows from its route (PolicyChecker::OptionsFor): namespace "ns" exists
  // and is not labelled for admin access. Without it lint can only say "unverified".
  options.validation.namespace_labels["ns"] = {};
  lint::LintReport report = lint::LintSources({SourceText("o.json", object.dump(2))}, options);
  // Rejected: decoding or validation found an error (schema errors come after).
  const bool rejected =
      std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                  [](const Diagnostic& d) { return d.is_error() && !IsSchema(d); });
  std::vector<Finding> out;
  for (const Diagnostic& d : report.diagnostics) {
    if (d.code.rfind("refs.", 0) == 0) continue;                 // batch-only stage
    if (rejected && IsSchema(d)) continue;                      // batch_after_errors
    out.emplace_back(d.code, d.field);
  }
  return Sorted(std::move(out));
}

std::vector<Finding> WebhookFindings(const Json& object) {
  PolicyChecker checker({});
  const std::string text = object.dump();
  const std::string kind = object["kind"];
  const std::string name = object["metadata"]["name"];
  const std::string name_space = object["metadata"].value("namespace", "");
  CheckOutcome outcome = checker.Check({.endpoint = AdmissionEndpoint::kValidate,
                                        .uid = "u",
                                        .group = "resource.k8s.io",
                                        .version = "v1",
                                        .kind = kind,
                                        .operation = "CREATE",
                                        .name_space = name_space,
                                        .name = name,
                                        .object = text});
  std::vector<Finding> out;
  for (const Diagnostic& d : outcome.diagnostics) out.emplace_back(d.code, d.field);
  return Sorted(std::move(out));
}

class PipelineDifferentialTest : public ::testing::TestWithParam<DiffCase> {};

TEST_P(PipelineDifferentialTest, LintAndWebhookAgree) {
  const DiffCase& c = GetParam();
  std::vector<Finding> lint = LintFindings(c.object);
  EXPECT_EQ(lint, WebhookFindings(c.object)) << c.object.dump();
}

INSTANTIATE_TEST_SUITE_P(Manifests, PipelineDifferentialTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<DiffCase>& param) {
                           return param.param.name;
                         });

// The table is not vacuous: between them the cases exercise validation errors and schema
// findings on both paths.
TEST(PipelineDifferentialTest, CasesCoverValidationAndSchema) {
  bool validation = false, schema = false;
  for (const DiffCase& c : Cases()) {
    for (const auto& [code, field] : WebhookFindings(c.object)) {
      validation = validation || code.rfind("schema.", 0) != 0;
      schema = schema || code.rfind("schema.", 0) == 0;
    }
  }
  EXPECT_TRUE(validation);
  EXPECT_TRUE(schema);
}

}  // namespace
}  // namespace draguard::webhook
