// SatisfiabilityCheck: can the claim in an AdmissionReview be allocated in the cluster as the
// inventory knows it? The webhook side of issue 6 item 6, over the same allocator as
// `draguard lint --inventory` and `draguard explain` (policy/allocator).
//
// The allocator's Inventory is built once per inventory snapshot, not per request: the check
// keeps the last one together with the snapshot it came from and rebuilds it when the source
// publishes a new snapshot, carrying over what it derived from the slices the two snapshots
// share (alloc::Inventory::Build with the previous Inventory): on the thread of a
// SnapshotBuilder when given one (the server: requests keep answering from the previous
// snapshot meanwhile, so a build, ~0.1 s for 10,000 devices, never holds up an I/O thread),
// otherwise on the first request that sees it.
// Selector evaluators (thread-compatible) are pooled per Inventory, so concurrent requests
// each lease their own; they share the Inventory's table of prepared devices, and a new
// Inventory's table starts with the previous one's entries for the devices CEL sees
// unchanged (alloc::SameSelectorDevices), so that a snapshot differing by one slice prepares,
// and holds anew, one slice's devices. The node groups of the check's kinds are computed with
// the build, not by the first request.
//
// Never denies because of the inventory: when the source has not synced, is stale (not
// confirmed current for max_age) or holds no device, the check is skipped with a warning
// (webhook.inventory.unavailable, webhook.inventory.stale) and every other check still decides.
// An unsatisfiable claim is a warning (alloc.unsatisfiable), an error only with `deny`, and
// even then not when the verdict rests on a DeviceClass the inventory does not know (the
// inventory may simply lag behind the class).
//
// Thread-safe: Check may run concurrently.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SATISFIABILITY_CHECK_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SATISFIABILITY_CHECK_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "policy/allocator/options.h"
#include "policy/allocator/result.h"
#include "policy/allocator/selector.h"
#include "policy/common/bounded_cache.h"
#include "policy/common/diagnostic.h"
#include "policy/k8s/decode.h"
#include "webhook/admission/snapshot_builder.h"
#include "webhook/inventory_source.h"

namespace draguard::alloc {
class PreparedDevices;  // policy/allocator/cel_evaluator.h
}  // namespace draguard::alloc

namespace draguard::webhook {

struct SatisfiabilityOptions {
  // Where the cluster state comes from; null when no inventory is configured (then nothing is
  // checked and nothing is said). Not owned; must outlive the check.
  InventorySource* source = nullptr;
  // A snapshot whose source has not confirmed it current for longer than this is stale.
  std::chrono::seconds max_age{300};
  // Unsatisfiable claims are errors (--unsatisfiable=deny) instead of warnings.
  bool deny = false;
  // Version, gates and the per-request search budget.
  alloc::AllocatorOptions allocator;
  // Makes a selector evaluator (the CEL adapter) for one Inventory's devices, given the
  // snapshot's table of prepared devices, which every evaluator of the snapshot shares. Required
  // when `source` is set. Called at most once per concurrently running request per snapshot.
  std::function<std::unique_ptr<alloc::SelectorEvaluator>(std::shared_ptr<alloc::PreparedDevices>)>
      new_evaluator;
  // Selector results remembered per snapshot: an entry is one byte per device for one
  // expression (8 KB with 8,000 devices).
  CacheLimits selector_results{.max_entries = 256, .max_bytes = 4 << 20};
  // Where the allocator's view of a new snapshot is built, requests answering from the
  // previous view until it is ready (`draguard serve`); not owned, must outlive the check.
  // Null: a request that finds a new snapshot builds it (deterministic: tests, benchmarks).
  // The first snapshot is always built in the foreground (Warm()), as there is nothing to
  // answer from before it.
  SnapshotBuilder* builder = nullptr;
};

struct SatisfiabilityResult {
  enum class State {
    kNotApplicable,  // no inventory configured, or not a claim or template
    kSkipped,        // inventory unavailable, stale or empty: a warning says so
    kChecked,        // `verdict` and `feasible_nodes` hold the allocator's answer
  };
  State state = State::kNotApplicable;
  alloc::VerdictKind verdict = alloc::VerdictKind::kUndecided;
  size_t feasible_nodes = 0;
  bool nodes_exhaustive = true;  // false: at least feasible_nodes (budget ran out)
};

// The /validate answer about one claim spec, remembered with the inventory view it was made
// on (the webhook keeps one per spec in its spec memo, spec_memo.h): the same spec checked
// against the same view has the same answer, so later requests skip the allocator. Undecided
// answers (the search budget is a time) and findings larger than kMaxBytes are not kept.
// Thread-safe.
class RememberedVerdict {
 public:
  // The most the findings of one answer may hold (estimated) to be kept; the memo counts
  // this allowance in each entry's bytes.
  static constexpr size_t kMaxBytes = 2048;

 private:
  friend class SatisfiabilityCheck;
  std::mutex mu_;
  uint64_t view_ = 0;  // the view's id (SatisfiabilityCheck::Prepared); 0: nothing kept
  SatisfiabilityResult result_;
  std::vector<Diagnostic> findings_;
};

class SatisfiabilityCheck {
 public:
  explicit SatisfiabilityCheck(SatisfiabilityOptions options);
  ~SatisfiabilityCheck();
  SatisfiabilityCheck(const SatisfiabilityCheck&) = delete;
  SatisfiabilityCheck& operator=(const SatisfiabilityCheck&) = delete;

  // Prepares the allocator's view of the source's current snapshot now, on the calling thread,
  // so that the first request does not pay for it; returns when it is ready (also when a
  // background build of it was under way). No-op when unconfigured or nothing is loaded yet.
  void Warm();

  // An inventory source and an evaluator factory were given.
  bool configured() const { return options_.source != nullptr && options_.new_evaluator; }

  // Checks a ResourceClaim or ResourceClaimTemplate (anything else: kNotApplicable). Adds its
  // findings to `out`, with field paths from the object's root (spec.devices, or
  // spec.spec.devices for a template). The object should have passed validation.
  // `count_nodes` searches every node for feasible_nodes (the mutation's annotation);
  // otherwise the search stops at the first node that fits, and feasible_nodes is a lower
  // bound (nodes_exhaustive false). With `remembered` (and without count_nodes), an answer
  // it holds for the current inventory view is repeated instead of running the allocator,
  // and a new answer is kept in it; the object's spec must be the one it was made for.
  SatisfiabilityResult Check(const k8s::ObjectVariant& object, Diagnostics& out,
                             bool count_nodes = false, RememberedVerdict* remembered = nullptr);

  // Answers repeated from a RememberedVerdict so far (for tests).
  uint64_t recalled() const { return recalled_.load(std::memory_order_relaxed); }

  // The current snapshot's remembered selector results (empty before the first snapshot).
  CacheStats selector_results_stats() const;

  // The installed snapshot's table of prepared devices, for tests; null before the first.
  std::shared_ptr<const alloc::PreparedDevices> prepared_devices() const;

 private:
  struct Prepared;
  // The view of `snapshot`, built here unless a previous view can answer meanwhile (without
  // `wait`: a concurrent build in progress, or a builder).
  std::shared_ptr<Prepared> Prepare(std::shared_ptr<const inventory::ClusterObjects> snapshot,
                                    bool wait = false);
  // Builds and installs the view of `snapshot` unless it is installed; holds build_mu_.
  // The view it replaces goes to `replaced` when given (else it is dropped here).
  std::shared_ptr<Prepared> BuildLocked(std::shared_ptr<const inventory::ClusterObjects> snapshot,
                                        std::shared_ptr<Prepared>* replaced = nullptr);
  // Returns false (with a warning in `out`) when the snapshot must not be used.
  bool Usable(const InventorySourceState& state,
              const std::shared_ptr<const inventory::ClusterObjects>& snapshot,
              Diagnostics& out) const;
  // The allocator's answer about `claim` on `prepared`'s view, as findings in `out`.
  SatisfiabilityResult Decide(Prepared& prepared, const k8s::ResourceClaimSpec& claim,
                              const FieldPath& devices, Diagnostics& out, bool count_nodes);
  // snapshot->DeviceCount(), counted once per snapshot (it walks every slice: ~8 k
  // instructions per request for 1,000 slices). Remembers the snapshot counted by a weak
  // reference: a strong one kept the last snapshot a request saw alive after the source had
  // moved on, so with no requests coming, each rewritten file added its old objects to the
  // heap until a whole second inventory was held (+26 MiB with 8,000 devices).
  size_t DeviceCount(const std::shared_ptr<const inventory::ClusterObjects>& snapshot) const;

  SatisfiabilityOptions options_;
  mutable std::mutex mu_;  // guards prepared_, counted_, counted_devices_
  std::mutex build_mu_;  // one build at a time
  std::shared_ptr<Prepared> prepared_;
  mutable std::weak_ptr<const inventory::ClusterObjects> counted_;
  mutable size_t counted_devices_ = 0;
  // How many Check() calls answered from a RememberedVerdict (the spec memo's copy of an
  // earlier answer on the same view) instead of running the allocator. Only counted, never
  // read by the check itself: recalled() exposes it so that tests can tell a repeated answer
  // from a recomputed one (the two are byte-identical by design, so the answer alone cannot
  // show that the memo served it). Atomic: concurrent checks count without a lock.
  std::atomic<uint64_t> recalled_{0};
  SnapshotBuilder::StepId step_ = 0;  // this check's step in options_.builder; 0: none
};

// The value of the draguard.dev/satisfiable annotation for a checked result:
// "satisfiable, feasibleNodes=2", "unsatisfiable, feasibleNodes=0", "undecided,
// feasibleNodes>=1" (budget exhausted). Empty when the result is not kChecked.
std::string SatisfiableAnnotation(const SatisfiabilityResult& result);

inline constexpr char kSatisfiableAnnotation[] = "draguard.dev/satisfiable";

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_SATISFIABILITY_CHECK_H_
