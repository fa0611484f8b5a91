// The per-object pipeline (object_pipeline.h): which stages run for an admission request,
// by operation, kind and the findings of the stages before.
#include "policy/pipeline/object_pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "policy/common/source.h"

namespace draguard::pipeline {
namespace {

// What the hook after validation does to the findings.
enum class HookAction { kNothing, kAddError, kClear };

// Records the stages it is asked to run; optionally reports an error from the schema stage,
// and adds or clears findings after validation.
class RecordingStages : public ObjectStages {
 public:
  RecordingStages(bool schema_error, HookAction hook) : schema_error_(schema_error), hook_(hook) {}
  void AfterValidation(Diagnostics& out) override {
    ran.push_back("after_validation");
    if (hook_ == HookAction::kClear) out.mutable_items().clear();
    if (hook_ == HookAction::kAddError) {
      out.Add(Diagnostic{.severity = Severity::kError, .code = "memo.test"});
    }
  }
  void Schema(const k8s::ObjectVariant&, Diagnostics& out) override {
    ran.push_back("schema");
    if (schema_error_) out.Add(Diagnostic{.severity = Severity::kError, .code = "schema.test"});
  }
  void Satisfiability(const k8s::ObjectVariant&, Diagnostics&) override {
    ran.push_back("satisfiability");
  }
  std::vector<std::string> ran;

 private:
  bool schema_error_;
  HookAction hook_;
};

constexpr char kValidClaim[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com, count: 1}
)";
constexpr char kInvalidClaim[] = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com, count: -2}
)";
constexpr char kClass[] = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
)";

struct ObjectCase {
  std::string name;
  const char* object;
  Operation operation = Operation::kCreate;
  bool with_old = false;  // UPDATE with the stored object (the same text)
  bool schema_error = false;
  HookAction hook = HookAction::kNothing;
  std::vector<std::string> want_ran;
  bool want_errors = false;
};

class ObjectPipelineTest : public ::testing::TestWithParam<ObjectCase> {};

TEST_P(ObjectPipelineTest, RunsTheStagesOfItsOperation) {
  const ObjectCase& c = GetParam();
  k8s::DecodeResult decoded = k8s::Decode(SourceText("o.yaml", c.object), {});
  ASSERT_EQ(decoded.objects.size(), 1u);
  const k8s::ObjectVariant& object = decoded.objects[0].object;
  RecordingStages stages(c.schema_error, c.hook);
  Diagnostics out;
  RunObject({.object = &object,
             .old_object = c.with_old ? &object : nullptr,
             .operation = c.operation},
            validate::ValidationOptions{}, stages, out);
  EXPECT_EQ(stages.ran, c.want_ran);
  EXPECT_EQ(HasErrors(out), c.want_errors);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ObjectPipelineTest,
    ::testing::Values(
        ObjectCase{.name = "CreateRunsEverything",
                   .object = kValidClaim,
                   .want_ran = {"after_validation", "schema", "satisfiability"}},
        ObjectCase{.name = "InvalidStopsAfterValidation",
                   .object = kInvalidClaim,
                   .want_ran = {"after_validation"},
                   .want_errors = true},
        // The hook runs before the stop, and the stop sees what the hook left: an error it
        // adds (a remembered invalid spec) stops, and findings it replaces do not.
        ObjectCase{.name = "HookErrorStopsAfterValidation",
                   .object = kValidClaim,
                   .hook = HookAction::kAddError,
                   .want_ran = {"after_validation"},
                   .want_errors = true},
        ObjectCase{.name = "HookReplacesValidationErrors",
                   .object = kInvalidClaim,
                   .hook = HookAction::kClear,
                   .want_ran = {"after_validation", "schema", "satisfiability"}},
        ObjectCase{.name = "SchemaErrorStopsBeforeSatisfiability",
                   .object = kValidClaim,
                   .schema_error = true,
                   .want_ran = {"after_validation", "schema"},
                   .want_errors = true},
        ObjectCase{.name = "ClaimUpdateRunsNeither",
                   .object = kValidClaim,
                   .operation = Operation::kUpdate,
                   .with_old = true,
                   .want_ran = {"after_validation"}},
        ObjectCase{.name = "ClassUpdateRunsSchemaOnly",
                   .object = kClass,
                   .operation = Operation::kUpdate,
                   .with_old = true,
                   .want_ran = {"after_validation", "schema"}},
        ObjectCase{.name = "ClassCreate",
                   .object = kClass,
                   .want_ran = {"after_validation", "schema", "satisfiability"}}),
    [](const ::testing::TestParamInfo<ObjectCase>& param) { return param.param.name; });

}  // namespace
}  // namespace draguard::pipeline
