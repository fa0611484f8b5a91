#include "webhook/admission/satisfiability_check.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "policy/allocator/allocator.h"
#include "policy/allocator/cel_evaluator.h"
#include "policy/allocator/inventory.h"
#include "policy/common/sighting_filter.h"
#include "policy/validate/defaults.h"

namespace draguard::webhook {
namespace {

// Reasons quoted in one diagnostic; the rest are counted.
constexpr size_t kMaxReasons = 3;

// How long the background builder waits for the requests still using a replaced view.
constexpr std::chrono::milliseconds kReleaseWait{1000};

std::string Age(std::chrono::system_clock::duration age) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(age).count();
  if (seconds < 120) return std::to_string(seconds) + "s";
  if (seconds < 7200) return std::to_string(seconds / 60) + "m";
  return std::to_string(seconds / 3600) + "h";
}

// The claim spec a claim or template carries, and where its devices are.
struct ClaimUnderCheck {
  const k8s::ResourceClaimSpec* spec = nullptr;
  FieldPath devices;
};

ClaimUnderCheck FindClaim(const k8s::ObjectVariant& object) {
  if (const auto* claim = std::get_if<k8s::ResourceClaim>(&object)) {
    return {&claim->spec, FieldPath().Child("spec").Child("devices")};
  }
  if (const auto* tmpl = std::get_if<k8s::ResourceClaimTemplate>(&object)) {
    return {&tmpl->spec, FieldPath().Child("spec").Child("spec").Child("devices")};
  }
  return {};
}

bool RestsOnUnknownClass(const alloc::AllocationVerdict& verdict) {
  return std::any_of(verdict.reasons.begin(), verdict.reasons.end(),
                     [](const alloc::Reason& r) { return r.code == "alloc.class.not-found"; });
}

std::string ReasonsText(const alloc::AllocationVerdict& verdict) {
  std::string text;
  size_t shown = 0;
  for (const alloc::Reason& reason : verdict.reasons) {
    if (shown == kMaxReasons) break;
    text += (shown++ == 0 ? "" : "; ") + reason.message;
  }
  if (verdict.reasons.size() > shown) {
    text += " (and " + std::to_string(verdict.reasons.size() - shown) + " more reasons)";
  }
  return text.empty() ? "no reason given" : text;
}

// Every selector result of one snapshot, per (expression, device id): one byte per device,
// filled in as devices are evaluated. Shared by the snapshot's evaluators; entries are set
// with relaxed atomics (every writer of a slot writes the same answer). The bytes come in
// blocks of kBlock devices, each made (zeroed: unknown) by the first answer it holds: a check
// that brings a new selector makes a table, and with selectors decided per read class it
// answers for a few devices only (one zeroed block for all 8,000 devices was ~10 k
// instructions of such a check; storing "unknown" into each slot, ~40 k).
class SelectorResults {
 public:
  static constexpr int8_t kUnknown = 0, kNoMatch = 1, kMatch = 2;
  static constexpr size_t kBlock = 256;

  explicit SelectorResults(size_t devices)
      : blocks_(std::make_unique<std::atomic<Block*>[]>(BlocksFor(devices))), size_(devices) {
    static_assert(sizeof(std::atomic<int8_t>) == 1 && std::atomic<int8_t>::is_always_lock_free);
  }
  ~SelectorResults() {
    for (size_t b = 0; b < BlocksFor(size_); ++b) delete blocks_[b].load(std::memory_order_relaxed);
  }
  SelectorResults(const SelectorResults&) = delete;
  SelectorResults& operator=(const SelectorResults&) = delete;

  size_t size() const { return size_; }
  // The answer kept for device `id` (< size()), or kUnknown.
  int8_t Get(size_t id) const {
    const Block* block = blocks_[id / kBlock].load(std::memory_order_acquire);
    return block == nullptr ? kUnknown : block->slots[id % kBlock].load(std::memory_order_relaxed);
  }
  // Keeps `answer` for device `id` (< size()); const, as the table is shared read-only
  // between the evaluators, which fill it in.
  void Set(size_t id, int8_t answer) const {
    std::atomic<Block*>& at = blocks_[id / kBlock];
    Block* block = at.load(std::memory_order_acquire);
    if (block == nullptr) {
      auto made = std::make_unique<Block>();
      if (at.compare_exchange_strong(block, made.get(), std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
        block = made.release();
      }  // else another evaluator made it first: `block` is theirs
    }
    block->slots[id % kBlock].store(answer, std::memory_order_relaxed);
  }
  // The heap the table holds when every block is made (the caches count it up front).
  size_t BoundBytes() const {
    return sizeof(*this) + BlocksFor(size_) * (sizeof(std::atomic<Block*>) + sizeof(Block) + 16);
  }

 private:
  struct Block {
    std::array<std::atomic<int8_t>, kBlock> slots{};
  };
  static size_t BlocksFor(size_t devices) { return (devices + kBlock - 1) / kBlock; }

  std::unique_ptr<std::atomic<Block*>[]> blocks_;
  size_t size_;
};

// Answers from a snapshot's SelectorResults, asking the CEL evaluator only once per
// (expression, device). Across requests most claims reuse a few expressions (class selectors,
// templates), and a result then costs a lookup instead of a CEL evaluation per device.
class CachingEvaluator : public alloc::SelectorEvaluator {
 public:
  // `seen`: the texts whose tables were missed in `results` (the view's): a selector gets a
  // table from its second sighting on (SightingFilter).
  CachingEvaluator(std::unique_ptr<alloc::SelectorEvaluator> inner,
                   ConcurrentCache<SelectorResults>& results, SightingFilter& seen,
                   size_t devices)
      : inner_(std::move(inner)), results_(results), seen_(seen), devices_(devices) {}

  // The inner evaluator's answer: without it the allocator would decide every device with
  // its own uuid apart (shape classes, policy/allocator/selector.h).
  std::optional<std::vector<alloc::AttributeName>> AttributesRead(
      std::string_view expression) override {
    return inner_->AttributesRead(expression);
  }

  alloc::SelectorResult Evaluate(std::string_view expression,
                                 const alloc::DeviceView& device) override {
    const SelectorResults* found = ResultsFor(expression);
    if (found == nullptr || device.id >= found->size()) {
      return inner_->Evaluate(expression, device);
    }
    const SelectorResults& results = *found;
    const int8_t known = results.Get(device.id);
    if (known != SelectorResults::kUnknown) {
      return known == SelectorResults::kMatch ? alloc::SelectorResult::Match()
                                              : alloc::SelectorResult::NoMatch();
    }
    alloc::SelectorResult result = inner_->Evaluate(expression, device);
    if (result.outcome == alloc::SelectorOutcome::kError) return result;  // rare; not kept
    results.Set(device.id, result.outcome == alloc::SelectorOutcome::kMatch
                               ? SelectorResults::kMatch
                               : SelectorResults::kNoMatch);
    return result;
  }

  // The allocator's buffers, reused by the requests that lease this evaluator in turn.
  alloc::CheckScratch& scratch() { return scratch_; }

  // Holds the recent lookups weakly while idle, so that an idle evaluator keeps no evicted
  // entry alive, yet the next request finds the entries still cached without a lookup.
  // Forgets the selectors seen once (without a table): the next request that brings one
  // asks the cache and the filter again (and then makes its table).
  void Release() {
    for (Recent& r : recent_) {
      if (r.untabled) {
        r.untabled = false;
        r.used = 0;
        continue;
      }
      if (r.results == nullptr) continue;
      r.idle = r.results;
      r.results.reset();
    }
  }

 private:
  // The allocator asks for a device's class selectors and request selectors in turn, device
  // after device, so a check alternates between a few expressions: the last few found in the
  // shared cache are kept here, found again by comparing texts (a cache lookup locks, hashes
  // the text and reorders the LRU list: ~3 per device, 24,000 per check of 8,000 devices).
  // They are kept across requests (weakly between them, see Release), and the least recently
  // used one makes room: a request that brings a new selector then finds its class's and its
  // other selectors here (~450 instructions each when looked up again).
  struct Recent {
    std::string expression;
    std::shared_ptr<const SelectorResults> results;  // while leased
    std::weak_ptr<const SelectorResults> idle;       // between leases
    uint64_t used = 0;                               // use stamp; 0: empty
    bool untabled = false;  // seen once: evaluated without a table for this lease
  };
  static constexpr size_t kRecent = 8;

  // a == b, comparing the last bytes first: the selectors a client generates differ near their
  // end (a name or a clause appended), and the slots fill with such never-seen selectors of
  // one length, which a plain comparison walked from their common start.
  static bool SameText(std::string_view a, std::string_view b) {
    constexpr size_t kTail = 8;
    if (a.size() != b.size()) return false;
    if (a.size() >= kTail && a.substr(a.size() - kTail) != b.substr(b.size() - kTail)) {
      return false;
    }
    return a == b;
  }

  // The table for `expression`, or null when it is met for the first time (evaluated
  // without one: a table's insert and the eviction it causes cost more than the few
  // evaluations a never-seen selector decided per read class needs, issue 16 (c)).
  const SelectorResults* ResultsFor(std::string_view expression) {
    ++clock_;
    Recent* oldest = &recent_[0];
    for (Recent& r : recent_) {
      if (r.used != 0 && SameText(r.expression, expression)) {
        if (r.untabled) {
          r.used = clock_;
          return nullptr;
        }
        if (r.results == nullptr) r.results = r.idle.lock();  // null once evicted and freed
        if (r.results != nullptr) {
          r.used = clock_;
          return r.results.get();
        }
        oldest = &r;
        break;
      }
      if (r.used < oldest->used) oldest = &r;
    }
    Recent& slot = *oldest;
    slot.idle.reset();
    slot.results.reset();
    slot.expression.assign(expression);
    slot.used = clock_;
    const CacheKey key(expression);
    slot.results = results_.Find(key);
    slot.untabled = slot.results == nullptr && !seen_.Saw(key.hash());
    if (slot.untabled) return nullptr;
    if (slot.results == nullptr) {
      auto made = std::make_shared<const SelectorResults>(devices_);
      const size_t bytes = made->BoundBytes();
      slot.results = results_.Insert(key, std::move(made), bytes);
    }
    return slot.results.get();
  }

  std::unique_ptr<alloc::SelectorEvaluator> inner_;
  alloc::CheckScratch scratch_;
  ConcurrentCache<SelectorResults>& results_;
  SightingFilter& seen_;
  size_t devices_;
  std::array<Recent, kRecent> recent_;
  uint64_t clock_ = 0;
};

}  // namespace

// One inventory snapshot made ready for the allocator, with its selector results and its
// pool of evaluators (at most one per concurrently running request).
struct SatisfiabilityCheck::Prepared {
  // Tells views apart for RememberedVerdict (an address could be reused by a later view).
  const uint64_t view = NextViewId();
  std::shared_ptr<const inventory::ClusterObjects> snapshot;
  alloc::Inventory inventory;
  ConcurrentCache<SelectorResults> results;
  // The selectors whose tables `results` missed, four times as many as it keeps.
  SightingFilter seen_selectors;
  std::shared_ptr<alloc::PreparedDevices> devices;  // shared by the evaluators below
  std::mutex mu;
  std::vector<std::unique_ptr<CachingEvaluator>> idle;

  Prepared(std::shared_ptr<const inventory::ClusterObjects> s, alloc::Inventory i,
           CacheLimits limits)
      : snapshot(std::move(s)),
        inventory(std::move(i)),
        results(limits),
        seen_selectors(4 * limits.max_entries),
        devices(std::make_shared<alloc::PreparedDevices>(inventory.devices().size())) {}

  // Takes over `previous`'s prepared devices that CEL sees unchanged in this snapshot.
  void ShareFrom(const Prepared& previous) {
    devices->ShareFrom(*previous.devices,
                       alloc::SameSelectorDevices(previous.inventory, inventory));
  }

  std::unique_ptr<CachingEvaluator> Lease(const SatisfiabilityOptions& options) {
    {
      std::lock_guard lock(mu);
      if (!idle.empty()) {
        std::unique_ptr<CachingEvaluator> e = std::move(idle.back());
        idle.pop_back();
        return e;
      }
    }
    return std::make_unique<CachingEvaluator>(options.new_evaluator(devices), results,
                                              seen_selectors, inventory.devices().size());
  }

  void Return(std::unique_ptr<CachingEvaluator> evaluator) {
    evaluator->Release();
    std::lock_guard lock(mu);
    idle.push_back(std::move(evaluator));
  }

  static uint64_t NextViewId() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
};

SatisfiabilityCheck::SatisfiabilityCheck(SatisfiabilityOptions options)
    : options_(std::move(options)) {
  // Unconfigured, the check has nothing to build: a build the other checks asked for skips it.
  if (options_.builder != nullptr && configured()) {
    step_ = options_.builder->AddStep(
        [this](const std::shared_ptr<const inventory::ClusterObjects>& snapshot) {
          std::shared_ptr<Prepared> replaced;
          {
            std::lock_guard build(build_mu_);
            BuildLocked(snapshot, &replaced);
          }
          // The replaced view (its Inventory, prepared devices, selector results and, once
          // the schema check has moved on too, the snapshot: tens of MB) is freed here,
          // before the builder's trim; requests hold a view for one check, milliseconds.
          SnapshotBuilder::ReleaseHere(std::move(replaced), kReleaseWait);
        });
  }
}

SatisfiabilityCheck::~SatisfiabilityCheck() {
  if (step_ != 0) options_.builder->RemoveStep(step_);
}

std::shared_ptr<SatisfiabilityCheck::Prepared> SatisfiabilityCheck::Prepare(
    std::shared_ptr<const inventory::ClusterObjects> snapshot, bool wait) {
  std::shared_ptr<Prepared> previous;
  {
    std::lock_guard lock(mu_);
    if (prepared_ != nullptr && prepared_->snapshot == snapshot) return prepared_;
    previous = prepared_;
  }
  // Building takes long for a large inventory (about 0.1 s for 10,000 devices). The other
  // requests answer from the previous snapshot meanwhile rather than wait: with a builder
  // all of them, the builder's thread building; otherwise the request that got the build
  // lock builds. Only the very first build, with nothing to fall
  // back on, makes requests wait (Warm() does it before serving when it can).
  if (previous != nullptr && !wait) {
    if (options_.builder != nullptr) {
      options_.builder->Request(std::move(snapshot));
      return previous;
    }
    std::unique_lock build(build_mu_, std::try_to_lock);
    if (!build.owns_lock()) return previous;
    return BuildLocked(std::move(snapshot));
  }
  std::lock_guard build(build_mu_);
  return BuildLocked(std::move(snapshot));
}

std::shared_ptr<SatisfiabilityCheck::Prepared> SatisfiabilityCheck::BuildLocked(
    std::shared_ptr<const inventory::ClusterObjects> snapshot,
    std::shared_ptr<Prepared>* replaced) {
  std::shared_ptr<Prepared> previous;
  {
    std::lock_guard lock(mu_);
    if (prepared_ != nullptr && prepared_->snapshot == snapshot) return prepared_;
    previous = prepared_;
  }
  // Shared, not copied: the snapshot is immutable and the Inventory keeps it alive. What the
  // previous view derived from the slices both snapshots share (the same objects: the
  // sources reuse unchanged ones) is carried over rather than derived again.
  alloc::Inventory inventory = previous != nullptr
                                   ? alloc::Inventory::Build(snapshot, previous->inventory)
                                   : alloc::Inventory::Build(snapshot);
  // The node groups every check reads (inventory.h), computed here rather than by the first
  // requests, which would wait for each other on them: shape groups always (without
  // identifying attributes every check uses them), exact ones when a selector may read an
  // identifying attribute.
  inventory.Groups(options_.allocator, /*shape=*/true);
  if (!inventory.IdentifyingAttributes().empty()) inventory.Groups(options_.allocator, false);
  auto built = std::make_shared<Prepared>(std::move(snapshot), std::move(inventory),
                                          options_.selector_results);
  if (previous != nullptr) built->ShareFrom(*previous);
  {
    std::lock_guard lock(mu_);
    previous = std::exchange(prepared_, built);
  }
  if (replaced != nullptr) *replaced = std::move(previous);
  return built;  // the previous view, when this was its last holder, freed outside mu_
}

std::shared_ptr<const alloc::PreparedDevices> SatisfiabilityCheck::prepared_devices() const {
  std::lock_guard lock(mu_);
  return prepared_ != nullptr ? prepared_->devices : nullptr;
}

CacheStats SatisfiabilityCheck::selector_results_stats() const {
  std::shared_ptr<Prepared> prepared;
  {
    std::lock_guard lock(mu_);
    prepared = prepared_;
  }
  if (prepared == nullptr) return CacheStats{.limits = options_.selector_results};
  return prepared->results.stats();
}

void SatisfiabilityCheck::Warm() {
  if (!configured()) return;
  if (std::shared_ptr<const inventory::ClusterObjects> snapshot = options_.source->Current()) {
    Prepare(std::move(snapshot), /*wait=*/true);
  }
}

size_t SatisfiabilityCheck::DeviceCount(
    const std::shared_ptr<const inventory::ClusterObjects>& snapshot) const {
  std::lock_guard lock(mu_);
  // Same owner: the very snapshot (a live weak reference keeps its control block, so no later
  // snapshot can share it), unlike an address, which a newer snapshot may reuse.
  const bool same = !counted_.owner_before(snapshot) && !snapshot.owner_before(counted_);
  if (!same) {
    counted_ = snapshot;
    counted_devices_ = snapshot->DeviceCount();
  }
  return counted_devices_;
}

bool SatisfiabilityCheck::Usable(const InventorySourceState& state,
                                 const std::shared_ptr<const inventory::ClusterObjects>& snapshot,
                                 Diagnostics& out) const {
  const std::string problem = state.problem.empty() ? "" : " (" + state.problem + ")";
  if (!state.synced || snapshot == nullptr) {
    out.Warning("webhook.inventory.unavailable", FieldPath(),
                "satisfiability not checked: the device inventory has not loaded yet" + problem);
    return false;
  }
  auto age = std::chrono::system_clock::now() - state.confirmed_at;
  if (age > options_.max_age) {
    out.Warning("webhook.inventory.stale", FieldPath(),
                "satisfiability not checked: the device inventory (" + snapshot->source +
                    ") was last confirmed current " + Age(age) + " ago, longer than " +
                    Age(options_.max_age) + problem);
    return false;
  }
  if (DeviceCount(snapshot) == 0) {
    out.Warning("webhook.inventory.unavailable", FieldPath(),
                "satisfiability not checked: the device inventory (" + snapshot->source +
                    ") lists no devices");
    return false;
  }
  return true;
}

SatisfiabilityResult SatisfiabilityCheck::Check(const k8s::ObjectVariant& object,
                                                Diagnostics& out, bool count_nodes,
                                                RememberedVerdict* remembered) {
  SatisfiabilityResult result;
  ClaimUnderCheck claim = FindClaim(object);
  if (!configured() || claim.spec == nullptr) return result;

  std::shared_ptr<const inventory::ClusterObjects> snapshot = options_.source->Current();
  if (!Usable(options_.source->State(), snapshot, out)) {
    result.state = SatisfiabilityResult::State::kSkipped;
    return result;
  }
  std::shared_ptr<Prepared> prepared = Prepare(std::move(snapshot));
  if (count_nodes) remembered = nullptr;  // the annotation's count is not what is kept
  if (remembered != nullptr) {
    std::lock_guard lock(remembered->mu_);
    if (remembered->view_ == prepared->view) {
      for (const Diagnostic& d : remembered->findings_) out.Add(d);
      recalled_.fetch_add(1, std::memory_order_relaxed);
      return remembered->result_;
    }
  }
  const size_t first = out.size();
  result = Decide(*prepared, *claim.spec, claim.devices, out, count_nodes);
  if (remembered != nullptr && result.verdict != alloc::VerdictKind::kUndecided) {
    std::vector<Diagnostic> findings(out.items().begin() + static_cast<std::ptrdiff_t>(first),
                                     out.items().end());
    if (draguard::ApproximateBytes(findings) <= RememberedVerdict::kMaxBytes) {
      std::lock_guard lock(remembered->mu_);
      remembered->view_ = prepared->view;
      remembered->result_ = result;
      remembered->findings_ = std::move(findings);
    }
  }
  return result;
}

SatisfiabilityResult SatisfiabilityCheck::Decide(Prepared& prepared,
                                                 const k8s::ResourceClaimSpec& claim,
                                                 const FieldPath& devices, Diagnostics& out,
                                                 bool count_nodes) {
  // The allocator wants API defaults applied; the API server has applied them to a claim
  // under admission (~1 k instructions a check for the copy).
  std::optional<k8s::ResourceClaimSpec> defaulted;
  if (!validate::IsDefaulted(claim.devices)) {
    defaulted.emplace(claim);
    validate::DefaultDeviceClaim(defaulted->devices);
  }
  std::unique_ptr<CachingEvaluator> evaluator = prepared.Lease(options_);
  alloc::AllocatorOptions allocator = options_.allocator;
  allocator.all_nodes = count_nodes;
  allocator.witness = false;  // only the verdict and the node count are reported
  alloc::AllocationVerdict verdict = alloc::CheckClaim(
      prepared.inventory, defaulted ? *defaulted : claim, *evaluator, allocator,
      &evaluator->scratch());
  prepared.Return(std::move(evaluator));

  SatisfiabilityResult result;
  result.state = SatisfiabilityResult::State::kChecked;
  result.verdict = verdict.kind;
  result.feasible_nodes = verdict.feasible_nodes.size();
  result.nodes_exhaustive = verdict.nodes_exhaustive;

  switch (verdict.kind) {
    case alloc::VerdictKind::kSatisfiable:
      break;
    case alloc::VerdictKind::kUnsatisfiable:
    case alloc::VerdictKind::kError: {
      // An error aborts the pod's scheduling cycle: not the same answer as "no node fits".
      const bool fatal = verdict.kind == alloc::VerdictKind::kError;
      const char* code = fatal ? "alloc.scheduler-error" : "alloc.unsatisfiable";
      std::string message = (fatal ? "the scheduler would fail this claim with an error"
                                   : "no node can allocate this claim") +
                            std::string(" with the devices in the inventory (") +
                            prepared.snapshot->source + "): " + ReasonsText(verdict);
      if (options_.deny && !RestsOnUnknownClass(verdict)) {
        out.Error(code, devices, std::move(message));
      } else {
        out.Warning(code, devices, std::move(message));
      }
      break;
    }
    case alloc::VerdictKind::kUndecided:
      out.Info("alloc.undecided", devices,
               "satisfiability undecided within the search budget: " + ReasonsText(verdict));
      break;
  }
  return result;
}

std::string SatisfiableAnnotation(const SatisfiabilityResult& result) {
  if (result.state != SatisfiabilityResult::State::kChecked) return "";
  return std::string(alloc::VerdictName(result.verdict)) + ", feasibleNodes" +
         (result.nodes_exhaustive ? "=" : ">=") + std::to_string(result.feasible_nodes);
}

}  // namespace draguard::webhook
