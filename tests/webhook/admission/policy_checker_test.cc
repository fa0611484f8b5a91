// PolicyChecker with an inventory: satisfiability joins validation on /validate, the
// draguard.dev/satisfiable annotation joins the defaults on /mutate, and a reinvocation on the
// patched object yields no patch.
#include "webhook/admission/policy_checker.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "policy/allocator/cel_evaluator.h"
#include "policy/cel/compiler.h"
#include "tests/webhook/testing/fake_inventory.h"
#include "webhook/admission/handler.h"
#include "webhook/admission/spec_memo.h"

namespace draguard::webhook {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::ClusterFromYaml;
using testing::FakeInventorySource;
using testing::GpuInventoryYaml;
using testing::LiteralSelectorEvaluator;
using Json = nlohmann::json;

Json ClaimJson(int count, bool with_count = true) {
  Json exactly = {{"deviceClassName", "gpu.example.com"}};
  if (with_count) exactly["count"] = count;
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", "c"}, {"namespace", "ns"}}},
          {"spec", {{"devices", {{"requests", {{{"name", "gpu"}, {"exactly", exactly}}}}}}}}};
}

std::vector<std::string> Codes(const Diagnostics& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.code);
  return out;
}

Json PatchJson(const std::vector<JsonPatchOperation>& patch) {
  Json out = Json::array();
  for (const JsonPatchOperation& op : patch) {
    Json o = {{"op", op.op}, {"path", op.path}};
    if (!op.value_json.empty()) o["value"] = Json::parse(op.value_json);
    out.push_back(o);
  }
  return out;
}

class PolicyCheckerTest : public ::testing::Test {
 protected:
  // The memo keeps a spec from its first miss here (SpecMemoOptions::sightings 0), so that a
  // test's second request is answered from it; SpecMemoGivesTheAnswersOfAFreshCheck runs the
  // default too.
  PolicyCheckerOptions Options(bool with_inventory) {
    PolicyCheckerOptions options;
    options.spec_memo.sightings = 0;
    if (with_inventory) {
      options.satisfiability.source = &source_;
      options.satisfiability.new_evaluator = [](std::shared_ptr<alloc::PreparedDevices>) {
        return std::make_unique<LiteralSelectorEvaluator>();
      };
    }
    return options;
  }

  CheckOutcome Run(PolicyChecker& checker, AdmissionEndpoint endpoint, const Json& object,
                   std::string_view operation = "CREATE") {
    text_ = object.dump();
    return checker.Check({.endpoint = endpoint,
                          .uid = "u",
                          .group = "resource.k8s.io",
                          .version = "v1",
                          .kind = "ResourceClaim",
                          .operation = operation,
                          .name_space = "ns",
                          .name = "c",
                          .object = text_});
  }

  FakeInventorySource source_;
  std::string text_;
};

TEST_F(PolicyCheckerTest, ValidateWarnsAboutAnUnsatisfiableClaim) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  PolicyChecker checker(Options(true));
  EXPECT_THAT(Codes(Run(checker, AdmissionEndpoint::kValidate, ClaimJson(2)).diagnostics),
              IsEmpty());
  EXPECT_THAT(Codes(Run(checker, AdmissionEndpoint::kValidate, ClaimJson(3)).diagnostics),
              ElementsAre("alloc.unsatisfiable"));
}

TEST_F(PolicyCheckerTest, ValidateRunsSchemaChecks) {
  PolicyChecker checker(Options(false));
  Json claim = ClaimJson(1);
  // NVIDIA's driver removed the `index` attribute (policy/schema's catalog knows).
  claim["spec"]["devices"]["requests"][0]["exactly"]["selectors"] = Json::parse(
      R"([{"cel":{"expression":"device.attributes[\"gpu.nvidia.com\"].index == 0"}}])");
  claim["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = "gpu.nvidia.com";
  std::vector<std::string> codes =
      Codes(Run(checker, AdmissionEndpoint::kValidate, claim).diagnostics);
  EXPECT_THAT(codes, ::testing::Contains(::testing::StartsWith("schema.")));
  // A DeviceClass is schema-checked on UPDATE too (its spec may change); claims are not.
  EXPECT_THAT(Codes(Run(checker, AdmissionEndpoint::kValidate, claim, "UPDATE").diagnostics),
              ::testing::Not(::testing::Contains(::testing::StartsWith("schema."))));
}

// Issue 16: a selector never seen before is compiled once per request, by validation; the
// schema check reads that compile, and the allocator plans from it (CelProgramCache given the
// checker's compile cache) instead of compiling it again.
TEST_F(PolicyCheckerTest, ANewSelectorIsCompiledOnceForValidationSchemaAndAllocation) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  PolicyCheckerOptions options = Options(false);
  options.satisfiability.source = &source_;
  options.compiled_selectors = std::make_shared<cel::SelectorCache>();
  auto programs = std::make_shared<alloc::CelProgramCache>(alloc::CelProgramCache::kDefaultLimits,
                                                           options.compiled_selectors);
  options.satisfiability.new_evaluator = [programs, allocator = options.satisfiability.allocator](
                                             std::shared_ptr<alloc::PreparedDevices> devices) {
    return std::make_unique<alloc::CelSelectorEvaluator>(allocator, programs, std::move(devices));
  };
  const std::shared_ptr<cel::SelectorCache> compiled = options.compiled_selectors;
  PolicyChecker checker(std::move(options));
  for (int i = 0; i < 3; ++i) {
    Json claim = ClaimJson(2);
    claim["spec"]["devices"]["requests"][0]["exactly"]["selectors"] =
        Json::array({{{"cel",
                       {{"expression", "device.driver == \"gpu.example.com\" && device.driver != "
                                       "\"x" + std::to_string(i) + "\""}}}}});
    EXPECT_THAT(Codes(Run(checker, AdmissionEndpoint::kValidate, claim).diagnostics), IsEmpty());
    EXPECT_EQ(compiled->stats().misses, static_cast<uint64_t>(i + 1));
    EXPECT_EQ(programs->reused_compiles(), static_cast<size_t>(i + 1));
    // The DeviceClass's selector, which validation never saw, compiled once.
    EXPECT_EQ(programs->own_compiles(), 1u);
  }
}

// Issue 16: the schema check takes the selectors validation compiled for the same request
// (cel::CompiledSelectors) instead of looking each up in the compile cache again: one lookup
// per selector and request, the first a miss, the later requests' hits. The findings are the
// same as when the schema check looks the texts up itself (schema::CheckObject without them
// is what lint runs: the corpus tests compare both).
TEST_F(PolicyCheckerTest, TheSchemaCheckTakesValidationsCompilesWithoutLookingUpAgain) {
  PolicyCheckerOptions options = Options(false);
  options.compiled_selectors = std::make_shared<cel::SelectorCache>();
  const std::shared_ptr<cel::SelectorCache> compiled = options.compiled_selectors;
  options.spec_memo.entries = 0;  // every request runs the checks
  PolicyChecker checker(std::move(options));
  Json claim = ClaimJson(1);
  claim["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = "gpu.nvidia.com";
  claim["spec"]["devices"]["requests"][0]["exactly"]["selectors"] = Json::parse(
      R"([{"cel":{"expression":"device.attributes[\"gpu.nvidia.com\"].productName == \"A\""}},
          {"cel":{"expression":"device.attributes[\"nic.example.com\"].interface == \"e\""}}])");
  for (uint64_t i = 1; i <= 2; ++i) {
    std::vector<std::string> codes =
        Codes(Run(checker, AdmissionEndpoint::kValidate, claim).diagnostics);
    // The schema check ran: the second selector's domain is unknown to the catalog.
    EXPECT_THAT(codes, ElementsAre("schema.domain.unknown"));
    EXPECT_EQ(compiled->stats().misses, 2u);
    EXPECT_EQ(compiled->stats().hits, 2 * (i - 1));
  }
}

TEST_F(PolicyCheckerTest, UpdatesAreNotCheckedForSatisfiability) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  PolicyChecker checker(Options(true));
  // Specs are immutable; an allocated claim would compete with its own devices.
  EXPECT_THAT(Codes(Run(checker, AdmissionEndpoint::kValidate, ClaimJson(3), "UPDATE").diagnostics),
              IsEmpty());
  for (const JsonPatchOperation& op :
       Run(checker, AdmissionEndpoint::kMutate, ClaimJson(3), "UPDATE").patch) {
    EXPECT_EQ(op.path.find("/metadata/annotations"), std::string::npos) << op.path;
  }
}

TEST_F(PolicyCheckerTest, InvalidObjectsAreNotCheckedForSatisfiability) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  PolicyChecker checker(Options(true));
  CheckOutcome outcome = Run(checker, AdmissionEndpoint::kValidate, ClaimJson(-1));
  ASSERT_FALSE(outcome.diagnostics.items().empty());
  for (const Diagnostic& d : outcome.diagnostics) EXPECT_NE(d.code, "alloc.unsatisfiable");
}

TEST_F(PolicyCheckerTest, PolicyRulesApplyAndExemptNamespacesPassUntouched) {
  PolicyCheckerOptions options = Options(false);
  options.policy.rules = {{"claim.request.count.invalid", config::RuleAction::kWarning}};
  PolicyChecker downgraded(options);
  CheckOutcome outcome = Run(downgraded, AdmissionEndpoint::kValidate, ClaimJson(-1));
  ASSERT_THAT(Codes(outcome.diagnostics), ElementsAre("claim.request.count.invalid"));
  EXPECT_EQ(outcome.diagnostics.items()[0].severity, Severity::kWarning);

  options.policy.rules.clear();
  options.policy.exempt_namespaces = {"ns"};
  PolicyChecker exempt(options);
  EXPECT_THAT(Codes(Run(exempt, AdmissionEndpoint::kValidate, ClaimJson(-1)).diagnostics),
              IsEmpty());
  EXPECT_THAT(Run(exempt, AdmissionEndpoint::kMutate, ClaimJson(1, false)).patch, IsEmpty());
}

TEST_F(PolicyCheckerTest, UnsyncedInventoryWarnsAndStillValidates) {
  PolicyChecker checker(Options(true));  // nothing published
  EXPECT_THAT(Codes(Run(checker, AdmissionEndpoint::kValidate, ClaimJson(1)).diagnostics),
              ElementsAre("webhook.inventory.unavailable"));
  std::vector<std::string> codes =
      Codes(Run(checker, AdmissionEndpoint::kValidate, ClaimJson(-1)).diagnostics);
  EXPECT_THAT(codes, ::testing::Not(::testing::Contains("webhook.inventory.unavailable")));
  EXPECT_FALSE(codes.empty());
}

TEST_F(PolicyCheckerTest, MutateAnnotatesIdempotently) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  PolicyChecker checker(Options(true));
  Json object = ClaimJson(1, /*with_count=*/false);
  CheckOutcome first = Run(checker, AdmissionEndpoint::kMutate, object);
  EXPECT_THAT(Codes(first.diagnostics), IsEmpty()) << "mutation reports nothing";
  Json patch = PatchJson(first.patch);
  EXPECT_EQ(patch, Json::parse(R"([
    {"op":"add","path":"/spec/devices/requests/0/exactly/allocationMode","value":"ExactCount"},
    {"op":"add","path":"/spec/devices/requests/0/exactly/count","value":1},
    {"op":"add","path":"/metadata/annotations",
     "value":{"draguard.dev/satisfiable":"satisfiable, feasibleNodes=1"}}])"));
  Json patched = object.patch(patch);
  EXPECT_THAT(Run(checker, AdmissionEndpoint::kMutate, patched).patch, IsEmpty());

  // A second node appears: only the annotation changes.
  inventory::ClusterObjects two_nodes = ClusterFromYaml(GpuInventoryYaml("node-a", 2));
  two_nodes.slices.push_back(ClusterFromYaml(GpuInventoryYaml("node-b", 1)).slices.front());
  source_.Publish(std::move(two_nodes));
  EXPECT_EQ(PatchJson(Run(checker, AdmissionEndpoint::kMutate, patched).patch),
            Json::parse(R"([{"op":"add",
              "path":"/metadata/annotations/draguard.dev~1satisfiable",
              "value":"satisfiable, feasibleNodes=2"}])"));
}

TEST_F(PolicyCheckerTest, MutateWithoutInventoryOnlyDefaults) {
  PolicyChecker checker(Options(false));
  CheckOutcome outcome = Run(checker, AdmissionEndpoint::kMutate, ClaimJson(1));
  EXPECT_EQ(PatchJson(outcome.patch), Json::parse(R"([{"op":"add",
    "path":"/spec/devices/requests/0/exactly/allocationMode","value":"ExactCount"}])"));
}

// The spec memo changes no answer. Each review goes twice to a checker with the memo (the
// second answer is made from what it remembered) and once to a checker without; the three
// responses must be the same bytes. The cases put findings in the metadata, the spec or both,
// and cover schema findings, admin access, status, templates, v1beta1 and satisfiability
// (which runs on the remembered spec).
struct MemoCase {
  std::string name;
  Json object;
  std::string kind = "ResourceClaim";
  std::string version = "v1";
  // Whether the first review leaves an entry: not when only the metadata is invalid (the
  // schema check did not run, so the entry could not serve a valid object).
  bool remembered = true;
};

Json Request(Json claim, const std::string& path, const Json& value) {
  claim["spec"]["devices"]["requests"][0]["exactly"][path] = value;
  return claim;
}

std::vector<MemoCase> MemoCases() {
  const Json valid = ClaimJson(1);
  Json bad_name = valid;
  bad_name["metadata"]["name"] = "Bad_Name";
  Json both = ClaimJson(-2);
  both["metadata"]["labels"] = {{"bad key!", "x"}};
  Json with_status = valid;
  with_status["status"] = Json::object();
  Json tmpl = {{"apiVersion", "resource.k8s.io/v1"},
               {"kind", "ResourceClaimTemplate"},
               {"metadata", {{"name", "t"}, {"namespace", "ns"}}},
               {"spec", {{"metadata", {{"labels", {{"a", "b"}}}}}, {"spec", valid["spec"]}}}};
  Json tmpl_bad_meta = tmpl;
  tmpl_bad_meta["spec"]["metadata"]["labels"] = {{"bad key!", "x"}};
  Json beta1 = {{"apiVersion", "resource.k8s.io/v1beta1"},
                {"kind", "ResourceClaim"},
                {"metadata", {{"name", "c"}, {"namespace", "ns"}}},
                {"spec",
                 {{"devices",
                   {{"requests",
                     {{{"name", "gpu"}, {"deviceClassName", "gpu.example.com"}, {"count", 1}}}}}}}}};
  const Json typo = Json::parse(R"json([{"cel":{"expression":
      "device.attributes[\"gpu.nvidia.com\"].productname.startsWith(\"NVIDIA\")"}}])json");
  const Json removed = Json::parse(
      R"([{"cel":{"expression":"device.attributes[\"gpu.nvidia.com\"].index == 0"}}])");
  return {
      {.name = "Valid", .object = valid},
      {.name = "MetadataError", .object = bad_name, .remembered = false},
      {.name = "SpecError", .object = ClaimJson(-2)},
      {.name = "BothErrors", .object = both},
      {.name = "SchemaWarning", .object = Request(valid, "selectors", typo)},
      {.name = "SchemaError", .object = Request(Request(valid, "selectors", removed),
                                                "deviceClassName", "gpu.nvidia.com")},
      {.name = "AdminAccess", .object = Request(valid, "adminAccess", true)},
      {.name = "Status", .object = with_status},
      {.name = "Unsatisfiable", .object = ClaimJson(3)},
      {.name = "Template", .object = tmpl, .kind = "ResourceClaimTemplate"},
      {.name = "TemplateMetadataError", .object = tmpl_bad_meta, .kind = "ResourceClaimTemplate"},
      {.name = "V1beta1", .object = beta1, .version = "v1beta1"},
  };
}

std::string Send(AdmissionChecker& checker, const MemoCase& c, bool admin_access) {
  const Json review = {
      {"apiVersion", "admission.k8s.io/v1"},
      {"kind", "AdmissionReview"},
      {"request",
       {{"uid", "u"},
        {"kind", {{"group", "resource.k8s.io"}, {"version", c.version}, {"kind", c.kind}}},
        {"namespace", "ns"},
        {"name", "c"},
        {"operation", "CREATE"},
        {"object", c.object}}}};
  const std::string body = review.dump();
  return HandleAdmission({.endpoint = AdmissionEndpoint::kValidate,
                          .content_type = "application/json",
                          .query = admin_access ? "admin-access=allowed" : "",
                          .body = body},
                         checker)
      .body;
}

TEST_F(PolicyCheckerTest, SpecMemoGivesTheAnswersOfAFreshCheck) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  for (bool inventory : {false, true}) {
    for (bool admin_access : {false, true}) {
      for (const MemoCase& c : MemoCases()) {
        const std::string where = c.name + (inventory ? " with inventory" : "") +
                                  (admin_access ? " admin-access=allowed" : "");
        PolicyCheckerOptions without_memo = Options(inventory);
        without_memo.spec_memo.entries = 0;
        PolicyChecker fresh(without_memo);
        PolicyChecker memo(Options(inventory));
        const std::string expected = Send(fresh, c, admin_access);
        EXPECT_EQ(Send(memo, c, admin_access), expected) << where;
        EXPECT_EQ(memo.remembered_specs(), c.remembered ? 1u : 0u) << where;
        EXPECT_EQ(Send(memo, c, admin_access), expected) << where << " (from the memo)";
        EXPECT_EQ(fresh.remembered_specs(), 0u);
        // The default: remembered from the second miss, answered from the memo the third time.
        PolicyCheckerOptions from_second = Options(inventory);
        from_second.spec_memo.sightings = SpecMemoOptions().sightings;
        PolicyChecker second(from_second);
        EXPECT_EQ(Send(second, c, admin_access), expected) << where << " (first sight)";
        EXPECT_EQ(second.remembered_specs(), 0u) << where;
        EXPECT_EQ(Send(second, c, admin_access), expected) << where << " (second sight)";
        EXPECT_EQ(second.remembered_specs(), c.remembered ? 1u : 0u) << where;
        EXPECT_EQ(Send(second, c, admin_access), expected) << where << " (from the memo)";
      }
    }
  }
}

// Metadata is checked on every request: a second claim with the remembered spec but a bad
// name is denied for its name, and a valid one after it is allowed.
TEST_F(PolicyCheckerTest, SpecMemoStillChecksEachObjectsMetadata) {
  PolicyChecker checker(Options(false));
  MemoCase valid{.name = "valid", .object = ClaimJson(1)};
  MemoCase bad = valid;
  bad.object["metadata"]["name"] = "Bad_Name";
  EXPECT_NE(Send(checker, valid, false).find(R"("allowed":true)"), std::string::npos);
  ASSERT_EQ(checker.remembered_specs(), 1u);
  const std::string denied = Send(checker, bad, false);
  EXPECT_NE(denied.find(R"("allowed":false)"), std::string::npos) << denied;
  EXPECT_NE(denied.find("metadata.name"), std::string::npos) << denied;
  EXPECT_NE(Send(checker, valid, false).find(R"("allowed":true)"), std::string::npos);
}

// GpuInventoryYaml's inventory with an attribute its first device publishes: a new schema.
inventory::ClusterObjects InventoryWithModelAttribute() {
  inventory::ClusterObjects objects = ClusterFromYaml(GpuInventoryYaml("node-a", 2));
  objects.slices.Mutable(0).spec.devices[0].attributes["model"].string_value = "h100";
  return objects;
}

// Issue 16 item 2, case (e): a snapshot whose attribute schema and DeviceClasses equal those
// in force keeps the schema in force and its token (the spec memo's findings stay valid); a
// new attribute or class selector gets a new one.
TEST_F(PolicyCheckerTest, SchemaCheckKeepsItsTokenAcrossEqualSnapshots) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  SchemaCheck check({.builtin_catalog = false, .source = &source_});
  const std::shared_ptr<const void> first = check.Token();
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));  // new snapshot, same content
  EXPECT_EQ(check.Token(), first);
  EXPECT_EQ(check.builds(), 2u) << "built, found equal, not installed";
  inventory::ClusterObjects with_model = InventoryWithModelAttribute();
  source_.Publish(with_model);
  const std::shared_ptr<const void> second = check.Token();
  EXPECT_NE(second, first);
  with_model.classes.Mutable(0).spec.selectors[0].cel->expression =
      "device.driver == \"gpu.example.com\"";
  source_.Publish(with_model);
  EXPECT_NE(check.Token(), second) << "a class selector narrows what requests reach";
}

// A claim whose one request, of class gpu.example.com, has the selector `expression`.
k8s::ObjectVariant ClaimSelecting(const std::string& expression) {
  k8s::ExactDeviceRequest exactly;
  exactly.device_class_name = "gpu.example.com";
  exactly.selectors.push_back({.cel = k8s::CELDeviceSelector{.expression = expression}});
  k8s::ResourceClaim claim;
  claim.spec.devices.requests.push_back({.name = "gpu", .exactly = exactly, .first_available = {}});
  return claim;
}

std::vector<std::string> SchemaFindings(SchemaCheck& check, const k8s::ObjectVariant& object) {
  Diagnostics found;
  check.Check(object, found);
  std::vector<std::string> out;
  for (const Diagnostic& d : found) {
    out.push_back(d.code + " @ " + d.field + " [" + std::to_string(d.value_offset) + "+" +
                  std::to_string(d.value_length) + "] " + d.message + " | " + d.suggestion);
  }
  return out;
}

// Issue 16: the schema check remembers each selector's findings across requests
// (schema::SelectorMemo, one for all snapshots). Once the inventory is rebuilt with another
// schema, a selector seen before is checked against the new schema: its findings are those
// of a check that never saw the old one, not what the old schema said.
TEST_F(PolicyCheckerTest, ARebuiltSchemaNeverAnswersFromTheOldSchemasSelectorFindings) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  SchemaCheck check({.builtin_catalog = false, .source = &source_});
  const k8s::ObjectVariant claim =
      ClaimSelecting("device.attributes[\"gpu.example.com\"].model == \"h100\"");
  const std::vector<std::string> before = SchemaFindings(check, claim);
  ASSERT_FALSE(before.empty()) << "the first schema does not know `model`";
  EXPECT_EQ(SchemaFindings(check, claim), before);
  // From the memo: the claim's selector and its class's (whose facts narrow the devices).
  EXPECT_EQ(check.selector_memo_stats().hits, 2u) << "the same schema answers from the memo";

  source_.Publish(InventoryWithModelAttribute());
  SchemaCheck fresh({.builtin_catalog = false, .source = &source_});
  const std::vector<std::string> expected = SchemaFindings(fresh, claim);
  EXPECT_NE(expected, before);
  EXPECT_EQ(SchemaFindings(check, claim), expected);  // both selectors missed: a new schema
  EXPECT_EQ(SchemaFindings(check, claim), expected);
  EXPECT_EQ(check.selector_memo_stats().hits, 4u);
  // Back to the first inventory: a new snapshot, a new schema (equal to the first one's, but
  // not the one in force), whose findings are again the first ones.
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  EXPECT_EQ(SchemaFindings(check, claim), before);
}

// `draguard serve`'s mode: the request that finds a new snapshot answers from the schema in
// force and does not build the new one (before: it built it under the check's lock, every
// other request waiting; 38 ms p99 with 8,000 devices rewritten every second).
TEST_F(PolicyCheckerTest, SchemaCheckAnswersFromThePreviousSchemaWhileTheNextIsBuilt) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  SnapshotBuilder builder;  // outlives the check
  SchemaCheck check({.builtin_catalog = false, .source = &source_, .builder = &builder});
  const std::shared_ptr<const void> first = check.Token();  // the first: built by its first use
  source_.Publish(InventoryWithModelAttribute());
  EXPECT_EQ(check.Token(), first);
  check.Warm();
  EXPECT_NE(check.Token(), first);
}

// A check that is off adds no step: the builder, shared with the other checks, builds
// nothing for it.
TEST_F(PolicyCheckerTest, ASchemaCheckThatIsOffBuildsNothingOnTheSharedBuilder) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  SnapshotBuilder builder;  // outlives the checks
  SchemaCheck off({.enabled = false, .source = &source_, .builder = &builder});
  SchemaCheck on({.builtin_catalog = false, .source = &source_, .builder = &builder});
  builder.Build(source_.Current());
  EXPECT_EQ(off.builds(), 0u);
  EXPECT_EQ(on.builds(), 1u);
}

// The memo keeps answering across inventory snapshots whose schema is unchanged.
TEST_F(PolicyCheckerTest, SpecMemoKeepsAnsweringAcrossSnapshotsWithAnEqualSchema) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  PolicyCheckerOptions options = Options(true);
  options.schema.source = &source_;
  PolicyChecker checker(options);
  const MemoCase valid{.name = "valid", .object = ClaimJson(1)};
  const std::string answer = Send(checker, valid, false);
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  EXPECT_EQ(Send(checker, valid, false), answer);
  EXPECT_EQ(checker.spec_memo_stats().hits, 1u);
}

// The handler looks a spec up before reading it (FindKnownSpec); on a miss, Check takes that
// miss instead of looking again: one lookup per request, counted once.
TEST_F(PolicyCheckerTest, ASpecMissIsLookedUpOncePerRequest) {
  PolicyChecker checker(Options(false));
  const MemoCase valid{.name = "valid", .object = ClaimJson(1)};
  const std::string answer = Send(checker, valid, false);
  EXPECT_EQ(checker.spec_memo_stats().misses, 1u);
  EXPECT_EQ(checker.spec_memo_stats().hits, 0u);
  EXPECT_EQ(Send(checker, valid, false), answer);
  EXPECT_EQ(checker.spec_memo_stats().misses, 1u);
  EXPECT_EQ(checker.spec_memo_stats().hits, 1u);
}

// A checker that wraps another and changes the request between the lookup and the check
// (here: it forwards FindKnownSpec, then allows admin access, as the namespace lookup may).
// It forwards only lookups that miss: a hit would leave the spec unread for a changed key,
// which checker.h's contract forbids.
class AllowingAdminAccess : public AdmissionChecker {
 public:
  explicit AllowingAdminAccess(AdmissionChecker& inner) : inner_(inner) {}
  CheckOutcome Check(const AdmissionRequest& request) override {
    AdmissionRequest changed = request;
    changed.admin_access_allowed = true;
    return inner_.Check(changed);
  }
  void FindKnownSpec(const AdmissionRequest& request, SpecLookup& lookup) override {
    inner_.FindKnownSpec(request, lookup);
  }

 private:
  AdmissionChecker& inner_;
};

// The miss handed from FindKnownSpec to Check is for the key looked up: a request changed in
// between looks again and its findings are filed under its own key, so that a later request
// with the first key is not answered with them.
TEST_F(PolicyCheckerTest, ASpecMissStandsOnlyForTheKeyLookedUp) {
  for (const MemoCase& c : MemoCases()) {
    PolicyCheckerOptions without_memo = Options(false);
    without_memo.spec_memo.entries = 0;
    PolicyChecker fresh(without_memo);
    PolicyChecker memo(Options(false));
    AllowingAdminAccess allowing(memo);
    EXPECT_EQ(Send(allowing, c, false), Send(fresh, c, true)) << c.name;
    EXPECT_EQ(Send(memo, c, false), Send(fresh, c, false)) << c.name << " (other key)";
    EXPECT_EQ(Send(memo, c, true), Send(fresh, c, true)) << c.name << " (from the memo)";
  }
}

TEST(AnnotationPatchTest, AddsReplacesOrLeavesAlone) {
  EXPECT_EQ(AnnotationPatch({}, "draguard.dev/satisfiable", "v"),
            (std::vector<JsonPatchOperation>{
                {"add", "/metadata/annotations", R"({"draguard.dev/satisfiable":"v"})", ""}}));
  EXPECT_EQ(AnnotationPatch({{"other", "x"}}, "draguard.dev/satisfiable", "v"),
            (std::vector<JsonPatchOperation>{
                {"add", "/metadata/annotations/draguard.dev~1satisfiable", "\"v\"", ""}}));
  EXPECT_EQ(AnnotationPatch({{"draguard.dev/satisfiable", "old"}}, "draguard.dev/satisfiable", "v"),
            (std::vector<JsonPatchOperation>{
                {"add", "/metadata/annotations/draguard.dev~1satisfiable", "\"v\"", ""}}));
  EXPECT_THAT(AnnotationPatch({{"draguard.dev/satisfiable", "v"}}, "draguard.dev/satisfiable", "v"),
              IsEmpty());
  EXPECT_EQ(AnnotationPatch({{"a", "b"}}, "x~y/z", "v").front().path,
            "/metadata/annotations/x~0y~1z");
}

}  // namespace
}  // namespace draguard::webhook
