// The CEL adapter: selector outcomes on prepared devices, caching, and a whole check with
// real CEL selectors.
#include "policy/allocator/cel_evaluator.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "policy/allocator/allocator.h"
#include "tests/policy/allocator/test_inventory.h"

namespace draguard::alloc::testing {
namespace {

k8s::Device RichGpu(std::string name) {
  k8s::Device d = MakeDevice(std::move(name), {{"model", "h100"}}, {{"memoryGiB", 80}});
  d.attributes["healthy"].bool_value = true;
  d.attributes["driverVersion"].version_value = "1.4.2";
  d.attributes["resource.kubernetes.io/pcieRoot"].string_value = "pci0000:00";
  d.capacity["memory"] = k8s::DeviceCapacity{.value = "80Gi"};
  return d;
}

InventoryInput OneGpu(k8s::Device device) {
  InventoryInput in;
  in.slices = {MakeSlice("gpu.example.com", "node-1", "node-1", {std::move(device)})};
  in.classes = {MakeClass("gpu", {"device.driver == \"gpu.example.com\""})};
  return in;
}

struct EvalCase {
  std::string name;
  std::string expression;
  SelectorOutcome want;
  std::string error = "";  // substring of the error text
  bool consumable_capacity = false;
};

class CelEvaluatorTest : public ::testing::TestWithParam<EvalCase> {};

TEST_P(CelEvaluatorTest, Outcome) {
  const EvalCase& c = GetParam();
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  AllocatorOptions options;
  options.gates.SetEnabled(Gate::kDRAConsumableCapacity, c.consumable_capacity);
  CelSelectorEvaluator eval(options);
  SelectorResult r = eval.Evaluate(c.expression, inv.View(0));
  EXPECT_EQ(static_cast<int>(r.outcome), static_cast<int>(c.want)) << r.error;
  if (!c.error.empty()) {
    EXPECT_NE(r.error.find(c.error), std::string::npos) << r.error;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Selectors, CelEvaluatorTest,
    ::testing::Values(
        EvalCase{.name = "Driver", .expression = "device.driver == \"gpu.example.com\"",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "BareAttributeInDriverDomain",
                 .expression = "device.attributes[\"gpu.example.com\"].model == \"h100\"",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "IntAttribute",
                 .expression = "device.attributes[\"gpu.example.com\"].memoryGiB >= 100",
                 .want = SelectorOutcome::kNoMatch},
        EvalCase{.name = "BoolAttribute",
                 .expression = "device.attributes[\"gpu.example.com\"].healthy",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "QualifiedAttribute",
                 .expression =
                     "device.attributes[\"resource.kubernetes.io\"].pcieRoot == \"pci0000:00\"",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "Semver",
                 .expression = "device.attributes[\"gpu.example.com\"].driverVersion"
                               ".isGreaterThan(semver(\"1.2.0\"))",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "Quantity",
                 .expression = "device.capacity[\"gpu.example.com\"].memory"
                               ".compareTo(quantity(\"40Gi\")) >= 0",
                 .want = SelectorOutcome::kMatch},
        EvalCase{.name = "UnknownDomainIsEmptyMap",
                 .expression = "\"x\" in device.attributes[\"other.io\"]",
                 .want = SelectorOutcome::kNoMatch},
        EvalCase{.name = "MissingKeyIsRuntimeError",
                 .expression = "device.attributes[\"gpu.example.com\"].ecc",
                 .want = SelectorOutcome::kError, .error = "no such key"},
        EvalCase{.name = "AndAbsorbsError",
                 .expression = "device.driver == \"nic.example.com\" && "
                               "device.attributes[\"gpu.example.com\"].ecc",
                 .want = SelectorOutcome::kNoMatch},
        EvalCase{.name = "CompileErrorIsError", .expression = "device.drver == \"x\"",
                 .want = SelectorOutcome::kError, .error = "compilation failed"},
        EvalCase{.name = "AllowMultipleAllocationsNeedsGate",
                 .expression = "!device.allowMultipleAllocations",
                 .want = SelectorOutcome::kError},
        EvalCase{.name = "AllowMultipleAllocationsWithGate",
                 .expression = "!device.allowMultipleAllocations",
                 .want = SelectorOutcome::kMatch, .consumable_capacity = true}),
    [](const ::testing::TestParamInfo<EvalCase>& param_info) { return param_info.param.name; });

TEST(CelEvaluatorCacheTest, CompilesEachExpressionOnceAndPreparesEachDeviceOnce) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  in.slices.Mutable(0).spec.devices.push_back(RichGpu("gpu1"));
  Inventory inv = Inventory::Build(std::move(in));
  CelSelectorEvaluator eval(AllocatorOptions{}, std::make_shared<CelProgramCache>());
  for (int round = 0; round < 3; ++round) {
    for (size_t id = 0; id < 2; ++id) {
      EXPECT_EQ(eval.Evaluate("device.driver == \"gpu.example.com\"", inv.View(id)).outcome,
                SelectorOutcome::kMatch);
      EXPECT_EQ(eval.Evaluate("device.attributes[\"gpu.example.com\"].healthy", inv.View(id))
                    .outcome,
                SelectorOutcome::kMatch);
    }
  }
  EXPECT_EQ(eval.programs().stats().entries, 2u);
  EXPECT_EQ(eval.programs().stats().misses, 2u);
  EXPECT_EQ(eval.prepared_count(), 2u);
}

// The evaluator's recent lookups (CelSelectorEvaluator::Lookup): a check alternating between a
// few selectors looks each up in the shared cache once, and gets the same outcomes and reads
// as an evaluator that looks up every time (a fresh evaluator per call is one).
TEST(CelEvaluatorCacheTest, RecentLookupsMatchTheSharedCache) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  in.slices.Mutable(0).spec.devices.push_back(RichGpu("gpu1"));
  Inventory inv = Inventory::Build(std::move(in));
  const std::vector<std::string> selectors = {
      "device.driver == \"gpu.example.com\"",
      "device.attributes[\"gpu.example.com\"].healthy",
      "device.attributes[\"gpu.example.com\"].memoryGiB >= 100",
      "device.attributes[\"gpu.example.com\"].ecc",  // a runtime error
      "device.drver == \"x\"",                      // a compile error
      "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0"};
  auto programs = std::make_shared<CelProgramCache>();
  CelSelectorEvaluator eval(AllocatorOptions{}, programs);
  uint32_t state = 7;
  for (int step = 0; step < 400; ++step) {
    state = state * 1103515245u + 12345u;
    // Mostly the first three (they stay recent), sometimes the others (they push out).
    const size_t k = (state >> 16) % 8 < 6 ? (state >> 16) % 3 : 3 + (state >> 20) % 3;
    const size_t id = (state >> 24) % 2;
    CelSelectorEvaluator fresh(AllocatorOptions{}, programs);
    const SelectorResult got = eval.Evaluate(selectors[k], inv.View(id));
    const SelectorResult want = fresh.Evaluate(selectors[k], inv.View(id));
    ASSERT_EQ(got.outcome, want.outcome) << selectors[k];
    ASSERT_EQ(got.error, want.error) << selectors[k];
    ASSERT_EQ(eval.AttributesRead(selectors[k]), fresh.AttributesRead(selectors[k]))
        << selectors[k];
  }
  // Alternating between three selectors: one shared-cache lookup each, not one per call.
  CelSelectorEvaluator alternating(AllocatorOptions{}, programs);
  const CacheStats before = programs->stats();
  for (int round = 0; round < 10; ++round) {
    for (size_t k = 0; k < 3; ++k) {
      alternating.AttributesRead(selectors[k]);
      alternating.Evaluate(selectors[k], inv.View(round % 2));
    }
  }
  const CacheStats after = programs->stats();
  EXPECT_EQ(after.hits + after.misses - before.hits - before.misses, 3u);
}

// Only the newest lookup may hold a large program: an idle evaluator keeps no more evicted
// memory than one program, as when it remembered just the last lookup.
TEST(CelEvaluatorCacheTest, RecentLookupsKeepOneLargeProgramAtMost) {
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  // A selector of ~8.5 KB (under the 10 KB limit) with ~1,750 nodes.
  std::string large = "device.driver == \"gpu.example.com\"";
  for (int i = 0; i < 350; ++i) large += " || device.driver == \"d" + std::to_string(i) + "\"";
  const std::string small = "device.attributes[\"gpu.example.com\"].healthy";
  auto programs = std::make_shared<CelProgramCache>();
  CelSelectorEvaluator eval(AllocatorOptions{}, programs);
  const SelectorResult first = eval.Evaluate(large, inv.View(0));
  ASSERT_EQ(first.outcome, SelectorOutcome::kMatch) << first.error;
  // The entry counts the key (the text) too; the program alone must be over 64 KiB.
  ASSERT_GT(programs->stats().bytes, large.size() + (size_t{64} << 10))
      << "the selector is not large enough";
  eval.Evaluate(small, inv.View(0));
  const CacheStats before = programs->stats();
  eval.Evaluate(large, inv.View(0));  // dropped when `small` came: looked up again
  eval.Evaluate(small, inv.View(0));  // small: still recent
  const CacheStats after = programs->stats();
  EXPECT_EQ(after.hits + after.misses - before.hits - before.misses, 1u);
}

// Issue 17 item 0: the evaluators of one inventory (one per webhook thread) share one table
// of prepared devices; each kept its own copy (~7.5 KB a device each) before.
TEST(CelEvaluatorCacheTest, EvaluatorsSharingATablePrepareEachDeviceOnce) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  in.slices.Mutable(0).spec.devices.push_back(RichGpu("gpu1"));
  Inventory inv = Inventory::Build(std::move(in));
  auto programs = std::make_shared<CelProgramCache>();
  auto devices = std::make_shared<PreparedDevices>(inv.devices().size());
  CelSelectorEvaluator first(AllocatorOptions{}, programs, devices);
  CelSelectorEvaluator second(AllocatorOptions{}, programs, devices);
  for (CelSelectorEvaluator* eval : {&first, &second}) {
    for (size_t id = 0; id < 2; ++id) {
      EXPECT_EQ(eval->Evaluate("device.attributes[\"gpu.example.com\"].model == \"h100\"",
                               inv.View(id))
                    .outcome,
                SelectorOutcome::kMatch);
    }
  }
  EXPECT_EQ(devices->size(), 2u);
  EXPECT_EQ(first.prepared_count(), 2u);
  EXPECT_EQ(second.prepared_count(), 0u);
}

// An id beyond a shared table is prepared for the call and not kept; an evaluator's own table
// grows to any id.
TEST(CelEvaluatorCacheTest, IdsBeyondTheTableAreStillAnswered) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  in.slices.Mutable(0).spec.devices.push_back(RichGpu("gpu1"));
  Inventory inv = Inventory::Build(std::move(in));
  auto devices = std::make_shared<PreparedDevices>(1);
  CelSelectorEvaluator shared(AllocatorOptions{}, nullptr, devices);
  CelSelectorEvaluator own(AllocatorOptions{});
  for (CelSelectorEvaluator* eval : {&shared, &own}) {
    for (size_t id : {1u, 0u, 1u}) {
      EXPECT_EQ(eval->Evaluate("device.attributes[\"gpu.example.com\"].healthy", inv.View(id))
                    .outcome,
                SelectorOutcome::kMatch);
    }
  }
  EXPECT_EQ(devices->size(), 1u);
  EXPECT_EQ(own.prepared_count(), 2u);
}

// Issue 16 item 2: an inventory snapshot that differs from the previous one by a slice
// prepares that slice's devices only; the others' entries are taken over from the previous
// table (held by both, freed with the last), and answers stay those of the new content.
TEST(CelEvaluatorCacheTest, ANewInventoryTakesOverTheUnchangedDevicesPreparations) {
  InventoryInput before;
  for (const char* node : {"node-1", "node-2"}) {
    before.slices.push_back(
        MakeSlice("gpu.example.com", node, node, {RichGpu("gpu0"), RichGpu("gpu1")}));
  }
  InventoryInput after = before;
  after.slices.Mutable(0).spec.pool.generation = 2;  // rewritten, same devices: still the same to CEL
  after.slices.Mutable(1).spec.devices[1].attributes["model"].string_value = "a100";
  after.slices.push_back(MakeSlice("gpu.example.com", "node-3", "node-3", {RichGpu("gpu0")}));
  const std::string h100 = "device.attributes[\"gpu.example.com\"].model == \"h100\"";
  auto old_inventory = std::make_unique<Inventory>(Inventory::Build(std::move(before)));
  auto old_table = std::make_shared<PreparedDevices>(old_inventory->devices().size());
  {
    CelSelectorEvaluator eval(AllocatorOptions{}, nullptr, old_table);
    for (size_t id = 0; id < 4; ++id) eval.Evaluate(h100, old_inventory->View(id));
  }
  Inventory inv = Inventory::Build(std::move(after));
  EXPECT_EQ(SameSelectorDevices(*old_inventory, inv),
            (std::vector<size_t>{0, 1, 2, kNoDevice, kNoDevice}));
  auto table = std::make_shared<PreparedDevices>(inv.devices().size());
  EXPECT_EQ(table->ShareFrom(*old_table, SameSelectorDevices(*old_inventory, inv)), 3u);
  old_table.reset();  // the shared entries live on in `table`
  old_inventory.reset();
  CelSelectorEvaluator eval(AllocatorOptions{}, nullptr, table);
  std::vector<SelectorOutcome> outcomes;
  for (size_t id = 0; id < 5; ++id) outcomes.push_back(eval.Evaluate(h100, inv.View(id)).outcome);
  using enum SelectorOutcome;
  EXPECT_EQ(outcomes, (std::vector<SelectorOutcome>{kMatch, kMatch, kMatch, kNoMatch, kMatch}));
  EXPECT_EQ(eval.prepared_count(), 2u) << "the changed device and the new slice's";
  EXPECT_EQ(table->made(), 2u);
  EXPECT_EQ(table->size(), 5u);
}

// Issue 17 item 0: a client that sends a new selector with every request must not grow the
// programs without bound (they were kept per evaluator forever). Programs are shared by
// evaluators, and the cache holds its limits in entries and bytes whatever the stream.
TEST(CelEvaluatorCacheTest, ProgramsStayWithinTheLimitsUnderDistinctSelectors) {
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  auto programs = std::make_shared<CelProgramCache>(CacheLimits{.max_entries = 64,
                                                                .max_bytes = 256 * 1024});
  CelSelectorEvaluator first(AllocatorOptions{}, programs);
  CelSelectorEvaluator second(AllocatorOptions{}, programs);
  const std::string padding(2000, 'x');
  for (int i = 0; i < 2000; ++i) {
    const std::string expression = "device.driver == \"gpu.example.com\" && \"" + padding +
                                   std::to_string(i) + "\".size() > 0";
    EXPECT_EQ((i % 2 ? first : second).Evaluate(expression, inv.View(0)).outcome,
              SelectorOutcome::kMatch);
    const CacheStats stats = programs->stats();
    ASSERT_LE(stats.entries, 64u);
    ASSERT_LE(stats.bytes, 256u * 1024);
  }
  const CacheStats stats = programs->stats();
  EXPECT_GT(stats.evictions, 1900u);
  EXPECT_GT(stats.entries, 10u);  // the byte bound, not a degenerate cache, limits it
}

// KeepPolicy::kOnSecondMiss (the webhook's): a selector's program is kept from its second
// miss on; the program of a first miss answers as a kept one does (outcome, error, reads).
TEST(CelEvaluatorCacheTest, KeepsAProgramFromItsSecondMissUnderTheSecondMissPolicy) {
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  const std::vector<std::string> expressions = {
      "device.driver == \"gpu.example.com\"",
      "device.attributes[\"gpu.example.com\"].model == \"a100\"",
      "device.attributes[\"gpu.example.com\"].ecc",  // a runtime error
      "device.drver == \"x\"",                        // a compile error
      "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
  };
  auto second = std::make_shared<CelProgramCache>(CelProgramCache::kDefaultLimits, nullptr,
                                                  CelProgramCache::KeepPolicy::kOnSecondMiss);
  auto first = std::make_shared<CelProgramCache>();
  for (size_t sighting = 0; sighting < 3; ++sighting) {
    for (size_t i = 0; i < expressions.size(); ++i) {
      const std::string& expression = expressions[i];
      // Fresh evaluators: one would find the program again among its recent lookups.
      CelSelectorEvaluator got(AllocatorOptions{}, second);
      CelSelectorEvaluator want(AllocatorOptions{}, first);
      const SelectorResult g = got.Evaluate(expression, inv.View(0));
      const SelectorResult w = want.Evaluate(expression, inv.View(0));
      EXPECT_EQ(static_cast<int>(g.outcome), static_cast<int>(w.outcome)) << expression;
      EXPECT_EQ(g.error, w.error) << expression;
      EXPECT_EQ(got.AttributesRead(expression), want.AttributesRead(expression)) << expression;
      const CacheStats stats = second->stats();
      const size_t n = expressions.size();
      EXPECT_EQ(stats.entries, sighting == 0 ? 0 : (sighting == 1 ? i + 1 : n)) << expression;
      EXPECT_EQ(stats.misses, sighting == 0 ? i + 1 : (sighting == 1 ? n + i + 1 : 2 * n))
          << expression;
    }
  }
  EXPECT_EQ(first->stats().misses, expressions.size());
}

// One check of a claim of two requests reads six texts, each selector's attributes first and
// then each one for the devices: the evaluator finds every one again among its recent
// lookups, so a selector met once is looked up in the shared cache once and not kept (with
// room for four, the first text was pushed out and looked up twice: kept though met once).
TEST(CelEvaluatorCacheTest, OneCheckOfSixSelectorsLooksEachUpOnce) {
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  const std::vector<std::string> expressions = {
      "device.driver == \"gpu.example.com\"",
      "device.attributes[\"gpu.example.com\"].model == \"a100\"",
      "device.attributes[\"gpu.example.com\"].model != \"fresh-1\"",
      "device.driver == \"nic.example.com\"",
      "device.attributes[\"gpu.example.com\"].model.startsWith(\"a\")",
      "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
  };
  auto programs = std::make_shared<CelProgramCache>(CelProgramCache::kDefaultLimits, nullptr,
                                                    CelProgramCache::KeepPolicy::kOnSecondMiss);
  CelSelectorEvaluator evaluator(AllocatorOptions{}, programs);
  for (const std::string& e : expressions) evaluator.AttributesRead(e);
  for (const std::string& e : expressions) evaluator.Evaluate(e, inv.View(0));
  EXPECT_EQ(programs->stats().misses, expressions.size());
  EXPECT_EQ(programs->stats().entries, 0u);
}

// A first miss under kOnSecondMiss is decided from the selector's tree where it can be
// (cel::EvaluateDirect), planned only when that bails: outcome and error text equal a planned
// program's on every device, including devices whose attributes are missing, of another type,
// or malformed (a device that cannot be prepared), and for selectors that bail on one device
// and decide on another (the same evaluator then plans it and keeps using the program).
TEST(CelEvaluatorCacheTest, AFirstMissDecidedFromItsTreeAnswersAsItsProgram) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  k8s::Device other = MakeDevice("gpu1", {{"model", "a100"}}, {{"memoryGiB", 40}});
  other.attributes["healthy"].string_value = "yes";  // another type
  in.slices.Mutable(0).spec.devices.push_back(other);
  in.slices.Mutable(0).spec.devices.push_back(MakeDevice("gpu2", {}, {}));  // no attributes
  k8s::Device malformed = MakeDevice("gpu3", {{"model", "h100"}}, {});
  malformed.capacity["memory"] = k8s::DeviceCapacity{.value = "lots"};
  in.slices.Mutable(0).spec.devices.push_back(malformed);
  Inventory inv = Inventory::Build(std::move(in));
  const std::vector<std::string> expressions = {
      R"(device.attributes["gpu.example.com"].model.startsWith("h1") && device.attributes["gpu.example.com"].model != "x-1")",
      R"(device.attributes["gpu.example.com"].model.startsWith("h1") && device.attributes["gpu.example.com"].model == "x-1")",
      R"(device.attributes["gpu.example.com"].model == "a100" || device.driver == "nic")",
      R"(device.attributes["gpu.example.com"].healthy)",
      R"(device.attributes["gpu.example.com"].healthy == true)",
      R"(device.attributes["gpu.example.com"].memoryGiB == 40)",
      R"(!device.attributes["gpu.example.com"].model.contains("100"))",
      R"(device.attributes["gpu.example.com"].ecc == "x")",
      R"(device.driver == "gpu.example.com")",
      R"(device.drver == "x")",
  };
  for (const std::string& expression : expressions) {
    // One evaluator per expression over every device, both in and out of order: the first
    // device it meets decides whether it plans.
    for (bool reverse : {false, true}) {
      auto second = std::make_shared<CelProgramCache>(
          CelProgramCache::kDefaultLimits, nullptr, CelProgramCache::KeepPolicy::kOnSecondMiss);
      CelSelectorEvaluator got(AllocatorOptions{}, second);
      CelSelectorEvaluator want(AllocatorOptions{}, std::make_shared<CelProgramCache>());
      for (size_t k = 0; k < inv.devices().size(); ++k) {
        const size_t id = reverse ? inv.devices().size() - 1 - k : k;
        const SelectorResult g = got.Evaluate(expression, inv.View(id));
        const SelectorResult w = want.Evaluate(expression, inv.View(id));
        EXPECT_EQ(static_cast<int>(g.outcome), static_cast<int>(w.outcome))
            << expression << " on device " << id;
        EXPECT_EQ(g.error, w.error) << expression << " on device " << id;
      }
      EXPECT_EQ(got.AttributesRead(expression), want.AttributesRead(expression)) << expression;
      EXPECT_EQ(second->stats().entries, 0u);  // a first miss: not kept
    }
  }
}

TEST(CelEvaluatorCacheTest, EvaluatorsShareOneProgramCache) {
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  auto programs = std::make_shared<CelProgramCache>();
  CelSelectorEvaluator first(AllocatorOptions{}, programs);
  CelSelectorEvaluator second(AllocatorOptions{}, programs);
  const std::string expression = "device.driver == \"gpu.example.com\"";
  EXPECT_EQ(first.Evaluate(expression, inv.View(0)).outcome, SelectorOutcome::kMatch);
  EXPECT_EQ(second.Evaluate(expression, inv.View(0)).outcome, SelectorOutcome::kMatch);
  EXPECT_EQ(programs->stats().misses, 1u);
  EXPECT_EQ(programs->stats().hits, 1u);
}

TEST(CelEvaluatorCacheTest, AnEvictedProgramIsCompiledAgainWithTheSameAnswer) {
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  auto programs = std::make_shared<CelProgramCache>(CacheLimits{.max_entries = 1,
                                                                .max_bytes = 1 << 20});
  const std::string match = "device.driver == \"gpu.example.com\"";
  const std::string error = "device.attributes[\"gpu.example.com\"].missing == 1";
  for (int round = 0; round < 3; ++round) {
    // A fresh evaluator each time: one would find both again among its recent lookups.
    EXPECT_EQ(CelSelectorEvaluator(AllocatorOptions{}, programs).Evaluate(match, inv.View(0))
                  .outcome,
              SelectorOutcome::kMatch);
    EXPECT_EQ(CelSelectorEvaluator(AllocatorOptions{}, programs).Evaluate(error, inv.View(0))
                  .outcome,
              SelectorOutcome::kError);
  }
  EXPECT_EQ(programs->stats().entries, 1u);
  EXPECT_EQ(programs->stats().misses, 6u);
}

TEST(CelEvaluatorCheckTest, ChecksAClaimWithRealSelectors) {
  InventoryInput in = OneGpu(RichGpu("gpu0"));
  k8s::Device old = RichGpu("gpu1");
  old.attributes["driverVersion"].version_value = "1.0.0";
  in.slices.Mutable(0).spec.devices.push_back(old);
  Inventory inv = Inventory::Build(std::move(in));
  AllocatorOptions options;
  CelSelectorEvaluator eval(options);
  k8s::ResourceClaimSpec claim;
  claim.devices.requests = {Exact(
      "gpu", "gpu", 1,
      {"device.attributes[\"gpu.example.com\"].driverVersion.isLessThan(semver(\"1.2.0\"))"})};
  AllocationVerdict v = CheckClaim(inv, claim, eval, options);
  ASSERT_EQ(v.kind, VerdictKind::kSatisfiable) << RenderVerdict(v);
  ASSERT_EQ(v.allocations.size(), 1u);
  EXPECT_EQ(v.allocations[0].devices.results.at(0).device, "gpu1");

  claim.devices.requests = {Exact("gpu", "gpu", 1, {"device.attributes[\"gpu.example.com\"].ecc"})};
  CelSelectorEvaluator fresh(options);
  v = CheckClaim(inv, claim, fresh, options);
  EXPECT_EQ(v.kind, VerdictKind::kError) << RenderVerdict(v);
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_EQ(v.reasons[0].code, "alloc.selector.error");
}

// Issue 16: with the admission checks' compile cache, a program is planned from the selector
// validation compiled (NewExpressions) instead of being compiled again (StoredExpressions).
// Differential: every outcome, error text and attribute list equals the program cache's own
// compile; a selector with an error in new expressions only (includes() without its gate,
// declared in stored expressions) is compiled in the scheduler's own environment.
TEST(CelEvaluatorCacheTest, ProgramsPlannedFromValidationsCompilesAnswerAsTheirOwn) {
  struct Row {
    std::string expression;
    bool reused;  // planned from validation's compile
  };
  const std::vector<Row> rows = {
      {"device.driver == \"gpu.example.com\"", true},
      {"device.attributes[\"gpu.example.com\"].model == \"h100\" && "
       "device.attributes[\"gpu.example.com\"].memoryGiB >= 40", true},
      {"device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0", true},
      {"device.attributes[\"gpu.example.com\"].ecc", true},  // a runtime error
      {"device.attributes[\"gpu.example.com\"].exists(k, k == \"model\")", true},
      // Over the admission cost limit, which the scheduler does not apply.
      {"device.driver == \"gpu.example.com\" && \"a\" + string(1) == \"a1\"", true},
      {"device.driver.matches('[')", false},  // program instantiation fails
      {"device.drver == \"x\"", false},
      {"device.attributes[", false},
      {"1 + 1", false},                                        // not a bool
      {"!device.allowMultipleAllocations", true},  // its gate is on by default in 1.36
      {"device.attributes[\"gpu.example.com\"].model.includes(\"h\")", false},  // gated
  };
  Inventory inv = Inventory::Build(OneGpu(RichGpu("gpu0")));
  AllocatorOptions options;
  auto compiled = std::make_shared<cel::SelectorCache>();
  auto reusing = std::make_shared<CelProgramCache>(CelProgramCache::kDefaultLimits, compiled);
  CelSelectorEvaluator planned(options, reusing);
  CelSelectorEvaluator own(options, std::make_shared<CelProgramCache>());
  // Validation's environment: the allocator's version and gates, for new expressions.
  const cel::EnvOptions new_env{
      .version = options.version,
      .consumable_capacity_gate = options.gates.Enabled(Gate::kDRAConsumableCapacity),
      .list_type_attributes_gate = options.gates.Enabled(Gate::kDRAListTypeAttributes)};
  size_t reused = 0;
  for (const Row& row : rows) {
    compiled->Compile(row.expression, new_env);  // as validation does first
    const SelectorResult want = own.Evaluate(row.expression, inv.View(0));
    const SelectorResult got = planned.Evaluate(row.expression, inv.View(0));
    EXPECT_EQ(static_cast<int>(got.outcome), static_cast<int>(want.outcome)) << row.expression;
    EXPECT_EQ(got.error, want.error) << row.expression;
    EXPECT_EQ(planned.AttributesRead(row.expression), own.AttributesRead(row.expression))
        << row.expression;
    reused += row.reused ? 1 : 0;
    EXPECT_EQ(reusing->reused_compiles(), reused) << row.expression;
  }
  EXPECT_EQ(reusing->own_compiles(), rows.size() - reused);
  EXPECT_EQ(compiled->Find(rows[5].expression, new_env)->issues.items().at(0).code,
            "cel.cost-exceeded");
  // Compiled in both modes (the NewExpressions result is looked up first): the same answer.
  const std::string both = "device.attributes[\"gpu.example.com\"].model != \"a100\"";
  cel::EnvOptions stored_env = new_env;
  stored_env.mode = cel::EnvOptions::kStoredExpressions;
  compiled->Compile(both, stored_env);
  compiled->Compile(both, new_env);
  const SelectorResult want = own.Evaluate(both, inv.View(0));
  const SelectorResult got = planned.Evaluate(both, inv.View(0));
  EXPECT_EQ(static_cast<int>(got.outcome), static_cast<int>(want.outcome));
  EXPECT_EQ(planned.AttributesRead(both), own.AttributesRead(both));
  EXPECT_EQ(reusing->reused_compiles(), reused + 1);
  EXPECT_EQ(reusing->own_compiles(), rows.size() - reused);
}

// What a selector reads (selector_reads.h): named attributes, or nullopt when it may read any.
struct ReadsRow {
  std::string expression;
  std::optional<std::vector<AttributeName>> want;
};

TEST(CelEvaluatorReadsTest, NamesTheAttributesASelectorReads) {
  using Names = std::vector<AttributeName>;
  const std::vector<ReadsRow> rows = {
      {"device.driver == \"gpu.example.com\"", Names{}},
      {"device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
       Names{}},
      {"device.attributes[\"gpu.example.com\"].model == \"h100\" && "
       "device.attributes[\"resource.kubernetes.io\"][\"pcieRoot\"] != \"\"",
       Names{{.domain = "gpu.example.com", .name = "model"},
             {.domain = "resource.kubernetes.io", .name = "pcieRoot"}}},
      {"has(device.attributes[\"gpu.example.com\"].healthy) && "
       "\"model\" in device.attributes[\"gpu.example.com\"]",
       Names{{.domain = "gpu.example.com", .name = "healthy"},
             {.domain = "gpu.example.com", .name = "model"}}},
      // The whole map of a domain, a computed key, a shadowing variable: anything.
      {"device.attributes[\"gpu.example.com\"].exists(k, k == \"uuid\")", std::nullopt},
      {"size(device.attributes[\"gpu.example.com\"]) > 2", std::nullopt},
      {"device.attributes[\"gpu.example.com\"][\"mo\" + \"del\"] == \"h100\"", std::nullopt},
      {"[1].exists(device, device == 1)", std::nullopt},
      {"device.attributes[", std::nullopt},  // does not compile
  };
  AllocatorOptions options;
  CelSelectorEvaluator eval(options);
  for (const ReadsRow& row : rows) {
    EXPECT_EQ(eval.AttributesRead(row.expression), row.want) << row.expression;
  }
}

}  // namespace
}  // namespace draguard::alloc::testing
