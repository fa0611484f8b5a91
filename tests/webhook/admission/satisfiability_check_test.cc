// SatisfiabilityCheck over a fake inventory source and a literal selector evaluator: verdicts
// become the right diagnostics, an unusable inventory never denies, snapshots are followed.
#include "webhook/admission/satisfiability_check.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "policy/allocator/cel_evaluator.h"
#include "tests/webhook/testing/fake_inventory.h"

namespace draguard::webhook {
namespace {

using testing::ClusterFromYaml;
using testing::FakeInventorySource;
using testing::GpuInventoryYaml;
using testing::LiteralSelectorEvaluator;
using State = SatisfiabilityResult::State;

struct Finding {
  std::string code;
  std::string field;
  Severity severity;
  friend bool operator==(const Finding&, const Finding&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Finding& f) {
    return os << f.code << " @" << f.field << " (" << SeverityName(f.severity) << ")";
  }
};

std::vector<Finding> Findings(const Diagnostics& diagnostics) {
  std::vector<Finding> out;
  for (const Diagnostic& d : diagnostics) out.push_back({d.code, d.field, d.severity});
  return out;
}

k8s::ObjectVariant DecodeObject(const std::string& yaml) {
  k8s::DecodeResult decoded = k8s::Decode(SourceText("object.yaml", yaml));
  if (decoded.objects.empty()) return {};
  return decoded.objects.front().object;
}

std::string Claim(const std::string& device_class, int count) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
         "  namespace: ns\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
         "        deviceClassName: " + device_class + "\n        count: " + std::to_string(count) +
         "\n";
}

// A claim with one request named gpu whose body (exactly: or firstAvailable:, indented for
// the request) is `request`.
std::string ClaimWithRequest(const std::string& request) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
         "  namespace: ns\nspec:\n  devices:\n    requests:\n    - name: gpu\n" + request;
}

std::string Template(int count) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: t\n"
         "  namespace: ns\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
         "        exactly:\n          deviceClassName: gpu.example.com\n          count: " +
         std::to_string(count) + "\n";
}

class SatisfiabilityCheckTest : public ::testing::Test {
 protected:
  SatisfiabilityOptions Options(bool deny = false) {
    SatisfiabilityOptions options;
    options.source = &source_;
    options.deny = deny;
    options.max_age = std::chrono::seconds(300);
    options.new_evaluator = [this](std::shared_ptr<alloc::PreparedDevices>) {
      ++evaluators_;
      return std::make_unique<LiteralSelectorEvaluator>();
    };
    return options;
  }
  // Options whose new snapshots `builder` (which must outlive the check) builds in the
  // background.
  SatisfiabilityOptions BuiltBy(SnapshotBuilder& builder) {
    SatisfiabilityOptions options = Options();
    options.builder = &builder;
    return options;
  }

  FakeInventorySource source_;
  std::atomic<int> evaluators_{0};
};

TEST_F(SatisfiabilityCheckTest, NotConfiguredSaysNothing) {
  SatisfiabilityCheck check(SatisfiabilityOptions{});
  EXPECT_FALSE(check.configured());
  Diagnostics out;
  EXPECT_EQ(check.Check(DecodeObject(Claim("gpu.example.com", 1)), out).state,
            State::kNotApplicable);
  EXPECT_EQ(out.size(), 0u);
}

struct VerdictCase {
  std::string name;
  std::string object;
  bool deny = false;
  alloc::VerdictKind verdict;
  size_t feasible_nodes = 0;
  std::vector<Finding> findings;
};

class SatisfiabilityVerdictTest : public SatisfiabilityCheckTest,
                                  public ::testing::WithParamInterface<VerdictCase> {};

TEST_P(SatisfiabilityVerdictTest, Verdict) {
  const VerdictCase& c = GetParam();
  inventory::ClusterObjects cluster = ClusterFromYaml(GpuInventoryYaml("node-a", 2));
  inventory::ClusterObjects more = ClusterFromYaml(GpuInventoryYaml("node-b", 2));
  cluster.slices.push_back(more.slices.front());
  source_.Publish(std::move(cluster));
  SatisfiabilityCheck check(Options(c.deny));
  Diagnostics out;
  SatisfiabilityResult result = check.Check(DecodeObject(c.object), out, /*count_nodes=*/true);
  EXPECT_EQ(result.state, State::kChecked);
  EXPECT_EQ(result.verdict, c.verdict);
  EXPECT_EQ(result.feasible_nodes, c.feasible_nodes);
  EXPECT_TRUE(result.nodes_exhaustive);
  EXPECT_EQ(Findings(out), c.findings);
  // Without counting, the search may stop at the first node that fits: same verdict.
  Diagnostics quick;
  SatisfiabilityResult first = check.Check(DecodeObject(c.object), quick);
  EXPECT_EQ(first.verdict, c.verdict);
  EXPECT_LE(first.feasible_nodes, c.feasible_nodes);
  EXPECT_EQ(Findings(quick), c.findings);
}

INSTANTIATE_TEST_SUITE_P(
    Satisfiability, SatisfiabilityVerdictTest,
    ::testing::Values(
        VerdictCase{.name = "FitsOnBothNodes",
                    .object = Claim("gpu.example.com", 2),
                    .verdict = alloc::VerdictKind::kSatisfiable,
                    .feasible_nodes = 2},
        VerdictCase{.name = "TooManyIsAWarning",
                    .object = Claim("gpu.example.com", 3),
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.devices", Severity::kWarning}}},
        VerdictCase{.name = "TooManyDeniedWhenAsked",
                    .object = Claim("gpu.example.com", 3),
                    .deny = true,
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.devices", Severity::kError}}},
        // Issue #19 item 23: the scheduler's error is its own finding, not "unsatisfiable".
        VerdictCase{.name = "SchedulerErrorIsItsOwnFinding",
                    .object = Claim("gpu.example.com", 33),
                    .verdict = alloc::VerdictKind::kError,
                    .findings = {{"alloc.scheduler-error", "spec.devices", Severity::kWarning}}},
        VerdictCase{.name = "SchedulerErrorDeniedWhenAsked",
                    .object = Claim("gpu.example.com", 33),
                    .deny = true,
                    .verdict = alloc::VerdictKind::kError,
                    .findings = {{"alloc.scheduler-error", "spec.devices", Severity::kError}}},
        VerdictCase{.name = "UnknownClassIsNeverDenied",
                    .object = Claim("gpu.other.com", 1),
                    .deny = true,
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.devices", Severity::kWarning}}},
        VerdictCase{.name = "TemplateFieldPath",
                    .object = Template(5),
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.spec.devices",
                                  Severity::kWarning}}},
        // Already defaulted, as the API server sends claims (no defaulted copy is made), or
        // not: the same answers.
        VerdictCase{.name = "DefaultedFits",
                    .object = ClaimWithRequest("      exactly:\n        deviceClassName: "
                                               "gpu.example.com\n        allocationMode: "
                                               "ExactCount\n        count: 2\n"),
                    .verdict = alloc::VerdictKind::kSatisfiable,
                    .feasible_nodes = 2},
        VerdictCase{.name = "DefaultedTooMany",
                    .object = ClaimWithRequest("      exactly:\n        deviceClassName: "
                                               "gpu.example.com\n        allocationMode: "
                                               "ExactCount\n        count: 3\n"),
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.devices", Severity::kWarning}}},
        VerdictCase{.name = "DefaultedAll",
                    .object = ClaimWithRequest("      exactly:\n        deviceClassName: "
                                               "gpu.example.com\n        allocationMode: All\n"),
                    .verdict = alloc::VerdictKind::kSatisfiable,
                    .feasible_nodes = 2},
        // A mode without a count is one device: with the other request's two, three on a
        // node of two (count 0 would fit).
        VerdictCase{.name = "UnsetCountIsOne",
                    .object = ClaimWithRequest("      exactly:\n        deviceClassName: "
                                               "gpu.example.com\n        allocationMode: "
                                               "ExactCount\n        count: 2\n"
                                               "    - name: one\n      exactly:\n"
                                               "        deviceClassName: gpu.example.com\n"
                                               "        allocationMode: ExactCount\n"),
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.devices", Severity::kWarning}}},
        VerdictCase{.name = "UnsetSubrequestCountIsOne",
                    .object = ClaimWithRequest("      firstAvailable:\n      - name: one\n"
                                               "        deviceClassName: gpu.example.com\n"
                                               "        selectors:\n        - cel:\n"
                                               "            expression: \"false\"\n"),
                    .verdict = alloc::VerdictKind::kUnsatisfiable,
                    .findings = {{"alloc.unsatisfiable", "spec.devices", Severity::kWarning}}},
        VerdictCase{.name = "TemplateFits",
                    .object = Template(1),
                    .verdict = alloc::VerdictKind::kSatisfiable,
                    .feasible_nodes = 2}),
    [](const auto& param_info) { return param_info.param.name; });

TEST_F(SatisfiabilityCheckTest, DeviceClassIsNotApplicable) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 1)));
  SatisfiabilityCheck check(Options());
  Diagnostics out;
  std::string device_class =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\nspec: {}\n";
  EXPECT_EQ(check.Check(DecodeObject(device_class), out).state, State::kNotApplicable);
  EXPECT_EQ(out.size(), 0u);
}

struct UnusableCase {
  std::string name;
  bool publish = true;
  int devices = 1;
  std::chrono::seconds age{0};
  std::string code;
};

class UnusableInventoryTest : public SatisfiabilityCheckTest,
                              public ::testing::WithParamInterface<UnusableCase> {};

TEST_P(UnusableInventoryTest, SkipsWithAWarningEvenWhenDenying) {
  const UnusableCase& c = GetParam();
  if (c.publish) {
    source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", c.devices)), c.age);
  }
  SatisfiabilityCheck check(Options(/*deny=*/true));
  Diagnostics out;
  SatisfiabilityResult result = check.Check(DecodeObject(Claim("gpu.example.com", 9)), out);
  EXPECT_EQ(result.state, State::kSkipped);
  EXPECT_EQ(Findings(out), (std::vector<Finding>{{c.code, "", Severity::kWarning}}));
  EXPECT_EQ(SatisfiableAnnotation(result), "");
  EXPECT_EQ(evaluators_.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Satisfiability, UnusableInventoryTest,
    ::testing::Values(UnusableCase{.name = "NotSynced", .publish = false,
                                   .code = "webhook.inventory.unavailable"},
                      UnusableCase{.name = "NoDevices", .devices = 0,
                                   .code = "webhook.inventory.unavailable"},
                      UnusableCase{.name = "Stale", .age = std::chrono::seconds(3600),
                                   .code = "webhook.inventory.stale"}),
    [](const auto& param_info) { return param_info.param.name; });

TEST_F(SatisfiabilityCheckTest, FollowsNewSnapshotsAndReusesEvaluators) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 1)));
  SatisfiabilityCheck check(Options());
  k8s::ObjectVariant claim = DecodeObject(Claim("gpu.example.com", 2));
  Diagnostics out;
  EXPECT_EQ(check.Check(claim, out).verdict, alloc::VerdictKind::kUnsatisfiable);
  EXPECT_EQ(check.Check(claim, out).verdict, alloc::VerdictKind::kUnsatisfiable);
  EXPECT_EQ(evaluators_.load(), 1) << "one evaluator serves sequential requests";
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  Diagnostics after;
  EXPECT_EQ(check.Check(claim, after).verdict, alloc::VerdictKind::kSatisfiable);
  EXPECT_EQ(after.size(), 0u);
  EXPECT_EQ(evaluators_.load(), 2) << "a new snapshot gets fresh evaluators";
}

// Issue 16: an answer kept with a spec (RememberedVerdict, the spec memo's) is repeated while
// the inventory view is the same, with the same findings and result as the allocator's; a
// new snapshot asks the allocator again; the annotation's node count is never taken from it.
TEST_F(SatisfiabilityCheckTest, RepeatsARememberedAnswerForTheSameView) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 1)));
  SatisfiabilityCheck check(Options(/*deny=*/true));
  const k8s::ObjectVariant claim = DecodeObject(Claim("gpu.example.com", 2));
  RememberedVerdict remembered;
  Diagnostics fresh, first, again;
  const SatisfiabilityResult want = check.Check(claim, fresh);
  const SatisfiabilityResult got = check.Check(claim, first, false, &remembered);
  EXPECT_EQ(check.recalled(), 0u);
  const SatisfiabilityResult repeated = check.Check(claim, again, false, &remembered);
  EXPECT_EQ(check.recalled(), 1u);
  for (const SatisfiabilityResult* r : {&got, &repeated}) {
    EXPECT_EQ(r->verdict, want.verdict);
    EXPECT_EQ(r->feasible_nodes, want.feasible_nodes);
    EXPECT_EQ(r->nodes_exhaustive, want.nodes_exhaustive);
  }
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(Findings(again), Findings(fresh));
  EXPECT_EQ(again.items()[0].message, fresh.items()[0].message);
  Diagnostics counted;
  EXPECT_EQ(check.Check(claim, counted, /*count_nodes=*/true, &remembered).verdict,
            alloc::VerdictKind::kUnsatisfiable);
  EXPECT_EQ(check.recalled(), 1u);

  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  Diagnostics after;
  EXPECT_EQ(check.Check(claim, after, false, &remembered).verdict,
            alloc::VerdictKind::kSatisfiable);
  EXPECT_EQ(after.size(), 0u);
  EXPECT_EQ(check.recalled(), 1u);
  Diagnostics after_again;
  EXPECT_EQ(check.Check(claim, after_again, false, &remembered).verdict,
            alloc::VerdictKind::kSatisfiable);
  EXPECT_EQ(after_again.size(), 0u);
  EXPECT_EQ(check.recalled(), 2u);
}

// `draguard serve`'s mode: a new snapshot is built off the request path, requests answering
// from the previous one until Warm() (or the builder) installs it.
TEST_F(SatisfiabilityCheckTest, BuildsNewSnapshotsInTheBackground) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 1)));
  SnapshotBuilder builder;  // outlives the check
  SatisfiabilityCheck check(BuiltBy(builder));
  k8s::ObjectVariant claim = DecodeObject(Claim("gpu.example.com", 2));
  Diagnostics out;
  EXPECT_EQ(check.Check(claim, out).verdict, alloc::VerdictKind::kUnsatisfiable)
      << "the first snapshot is built in the foreground";
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  Diagnostics before;
  EXPECT_EQ(check.Check(claim, before).verdict, alloc::VerdictKind::kUnsatisfiable)
      << "the request that finds a new snapshot answers from the previous one";
  check.Warm();
  Diagnostics after;
  EXPECT_EQ(check.Check(claim, after).verdict, alloc::VerdictKind::kSatisfiable);
  EXPECT_EQ(after.size(), 0u);
}

// Issue 16 item 2 (RSS with the inventory): once the source and the view have moved on, the
// check holds nothing of a snapshot a request saw. With no requests coming (between bursts),
// a kept snapshot held every object the source has since replaced: a whole second inventory.
TEST_F(SatisfiabilityCheckTest, LetsGoOfASnapshotTheSourceAndTheViewHaveLeft) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 1)));
  const std::weak_ptr<const inventory::ClusterObjects> first = source_.Current();
  SnapshotBuilder builder;  // outlives the check
  SatisfiabilityCheck check(BuiltBy(builder));
  k8s::ObjectVariant claim = DecodeObject(Claim("gpu.example.com", 1));
  Diagnostics out;
  EXPECT_EQ(check.Check(claim, out).verdict, alloc::VerdictKind::kSatisfiable);
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-b", 1)));
  check.Warm();  // the view of the new snapshot replaces the first one's
  EXPECT_TRUE(first.expired()) << "the first snapshot is still held after the view moved on";
}

// Issue 16 item 2: a new snapshot's table of prepared devices starts with the previous
// table's entries for the devices CEL sees unchanged, so a snapshot that only republishes
// them (a slice rewritten with a new generation) prepares nothing again.
TEST_F(SatisfiabilityCheckTest, ANewSnapshotTakesOverThePreparedDevicesOfUnchangedOnes) {
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));
  SatisfiabilityOptions options = Options();
  options.new_evaluator = [](std::shared_ptr<alloc::PreparedDevices> devices) {
    return std::make_unique<alloc::CelSelectorEvaluator>(alloc::AllocatorOptions{}, nullptr,
                                                         std::move(devices));
  };
  SatisfiabilityCheck check(std::move(options));
  k8s::ObjectVariant claim = DecodeObject(Claim("gpu.example.com", 2));
  Diagnostics out;
  EXPECT_EQ(check.Check(claim, out).verdict, alloc::VerdictKind::kSatisfiable);
  std::shared_ptr<const alloc::PreparedDevices> first = check.prepared_devices();
  ASSERT_NE(first, nullptr);
  ASSERT_GT(first->made(), 0u);
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2)));  // new snapshot, same devices
  EXPECT_EQ(check.Check(claim, out).verdict, alloc::VerdictKind::kSatisfiable);
  std::shared_ptr<const alloc::PreparedDevices> second = check.prepared_devices();
  EXPECT_NE(second, first);
  EXPECT_EQ(second->size(), first->size());
  EXPECT_EQ(second->made(), 0u) << "every entry taken over, none prepared again";
}

// Answers like LiteralSelectorEvaluator, says that no expression reads an attribute, and counts
// the evaluations that reach it.
class CountingNoReadsEvaluator : public LiteralSelectorEvaluator {
 public:
  explicit CountingNoReadsEvaluator(std::atomic<int>& evaluations) : evaluations_(evaluations) {}
  alloc::SelectorResult Evaluate(std::string_view expression,
                                 const alloc::DeviceView& device) override {
    ++evaluations_;
    return LiteralSelectorEvaluator::Evaluate(expression, device);
  }
  std::optional<std::vector<alloc::AttributeName>> AttributesRead(std::string_view) override {
    return std::vector<alloc::AttributeName>{};
  }

 private:
  std::atomic<int>& evaluations_;
};

// The check's caching wrapper passes AttributesRead through: GPUs that differ only in their
// uuids are then one shape class, evaluated once, not once per device (before: 5 req/s for
// unseen specs against 8,000 GPUs, each node searched apart).
TEST_F(SatisfiabilityCheckTest, DevicesDifferingOnlyInUuidsAreEvaluatedOnce) {
  // GpuInventoryYaml's DeviceClass, then its slice of each node with GPUs that carry uuids.
  const size_t slice_at = GpuInventoryYaml("node", 0).find("---\n") + 4;
  std::string yaml = GpuInventoryYaml("node", 0).substr(0, slice_at);
  constexpr int kNodes = 12;
  for (int n = 0; n < kNodes; ++n) {
    yaml += GpuInventoryYaml("node-" + std::to_string(n), 0).substr(slice_at);
    for (int d = 0; d < 2; ++d) {
      yaml += "  - name: gpu-" + std::to_string(d) + "\n    attributes:\n      uuid:\n" +
              "        string: GPU-" + std::to_string(n) + "-" + std::to_string(d) + "\n";
    }
    yaml += "---\n";
  }
  source_.Publish(ClusterFromYaml(yaml));
  std::atomic<int> evaluations{0};
  SatisfiabilityOptions options = Options();
  options.new_evaluator = [&evaluations](std::shared_ptr<alloc::PreparedDevices>) {
    return std::make_unique<CountingNoReadsEvaluator>(evaluations);
  };
  SatisfiabilityCheck check(std::move(options));
  Diagnostics out;
  EXPECT_EQ(check.Check(DecodeObject(Claim("gpu.example.com", 3)), out).verdict,
            alloc::VerdictKind::kUnsatisfiable);
  EXPECT_GT(evaluations.load(), 0);
  EXPECT_LT(evaluations.load(), kNodes) << "the 24 GPUs are one class: evaluated once";
}

// A selector gets a table of results in the view only from its second sighting (issue 16
// (c): a never-seen selector on every request made a table each, inserted, then evicted).
// Without the table the answers are the same, and each sighting evaluates the devices it
// needs; from the third on they come from the table.
TEST_F(SatisfiabilityCheckTest, ASelectorGetsAResultsTableOnItsSecondSighting) {
  const std::string node_b = GpuInventoryYaml("node-b", 1);
  source_.Publish(ClusterFromYaml(GpuInventoryYaml("node-a", 2) + "---\n" +
                                  node_b.substr(node_b.find("---\n") + 4)));
  std::atomic<int> evaluations{0};
  SatisfiabilityOptions options = Options();
  options.new_evaluator = [&evaluations](std::shared_ptr<alloc::PreparedDevices>) {
    return std::make_unique<CountingNoReadsEvaluator>(evaluations);
  };
  SatisfiabilityCheck check(std::move(options));
  const std::string claim = ClaimWithRequest(
      "      exactly:\n        deviceClassName: gpu.example.com\n        count: 1\n"
      "        selectors:\n        - cel:\n            expression: \"true\"\n");
  std::vector<int> evaluated;
  std::vector<size_t> tables;
  for (int sighting = 0; sighting < 3; ++sighting) {
    Diagnostics out;
    const SatisfiabilityResult result =
        check.Check(DecodeObject(claim), out, /*count_nodes=*/true);
    EXPECT_EQ(result.verdict, alloc::VerdictKind::kSatisfiable) << sighting;
    EXPECT_EQ(result.feasible_nodes, 2u) << sighting;
    EXPECT_THAT(Findings(out), ::testing::IsEmpty()) << sighting;
    evaluated.push_back(evaluations.exchange(0));
    tables.push_back(check.selector_results_stats().entries);
  }
  EXPECT_EQ(tables, (std::vector<size_t>{0, 1, 1}));  // "true": the class's and the request's
  EXPECT_GT(evaluated[0], 0);
  // The table made, filled as the evaluations go (the class's and the request's selector are
  // one text: the table answers the second for a device the first has decided).
  EXPECT_GT(evaluated[1], 0);
  EXPECT_LE(evaluated[1], evaluated[0]);
  EXPECT_EQ(evaluated[2], 0);  // all from the table
}

// The background builder frees the view it replaced on its own thread, before its trim, once
// the requests still using it let go (issue 17 item 3: freed by the last request instead, the
// view stayed resident until the next build's trim).
struct SnapshotReleaseTracked {
  std::thread::id* freed_on;
  ~SnapshotReleaseTracked() { *freed_on = std::this_thread::get_id(); }
};

TEST(SnapshotBuilderReleaseHereTest, FreesOnTheCallingThreadAfterTheLastRequestLetsGo) {
  std::thread::id freed_on;
  auto view = std::shared_ptr<SnapshotReleaseTracked>(new SnapshotReleaseTracked{&freed_on});
  std::shared_ptr<SnapshotReleaseTracked> request = view;  // a check still running on it
  std::thread::id builder_id;
  bool freed_here = false;
  std::thread builder([&, held = std::move(view)]() mutable {
    builder_id = std::this_thread::get_id();
    freed_here = SnapshotBuilder::ReleaseHere(std::move(held), std::chrono::seconds(60));
  });
  request.reset();
  builder.join();
  EXPECT_TRUE(freed_here);
  EXPECT_EQ(freed_on, builder_id);
}

TEST(SnapshotBuilderReleaseHereTest, GivesUpAfterTheWaitAndLeavesTheObjectToItsHolder) {
  std::thread::id freed_on;
  auto view = std::shared_ptr<SnapshotReleaseTracked>(new SnapshotReleaseTracked{&freed_on});
  std::shared_ptr<SnapshotReleaseTracked> request = view;
  EXPECT_FALSE(SnapshotBuilder::ReleaseHere(std::move(view), std::chrono::milliseconds(0)));
  EXPECT_EQ(freed_on, std::thread::id()) << "still held";
  request.reset();
  EXPECT_EQ(freed_on, std::this_thread::get_id());
}

TEST(SatisfiableAnnotationTest, Format) {
  SatisfiabilityResult r{.state = State::kChecked, .verdict = alloc::VerdictKind::kSatisfiable,
                         .feasible_nodes = 2};
  EXPECT_EQ(SatisfiableAnnotation(r), "satisfiable, feasibleNodes=2");
  r.verdict = alloc::VerdictKind::kUndecided;
  r.nodes_exhaustive = false;
  r.feasible_nodes = 1;
  EXPECT_EQ(SatisfiableAnnotation(r), "undecided, feasibleNodes>=1");
  r.state = State::kSkipped;
  EXPECT_EQ(SatisfiableAnnotation(r), "");
}

}  // namespace
}  // namespace draguard::webhook
