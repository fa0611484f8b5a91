// CelSelectorEvaluator: the production SelectorEvaluator, over draguard's CEL (policy/cel).
//
// As the scheduler does (dynamic-resource-allocation cel/cache.go `GetOrCompile`, compile.go
// `CompileCELExpression`): each selector is compiled once per expression text
// in the StoredExpressions environment of the chosen Kubernetes version and gates (the
// superset the scheduler accepts for objects already stored), without the compile-time cost
// estimate (the scheduler skips it; the 1,000,000 runtime cost limit still applies). Each
// device is prepared once per DeviceView::id (attributes by domain, capacities as
// quantities) and every expression is evaluated against that preparation.
//
// A compile error, a device that cannot be prepared (malformed attribute or capacity) or a
// runtime error is SelectorResult::Error with the scheduler's message; the allocator makes
// it a fatal `error` verdict.
//
// Compiled and planned selectors live in a CelProgramCache, which evaluators may share (the
// webhook's threads and inventory snapshots do: a program depends only on its text and the
// environment). It is bounded in entries and bytes, because the texts come from clients.
// Given the admission checks' cel::SelectorCache, it plans from the parsed and checked
// selectors found there instead of compiling them again (the webhook: validation has just
// compiled every selector of the claim it asks about).
//
// Prepared devices live in a PreparedDevices table, which the evaluators of one Inventory may
// share (the webhook's threads do: a prepared device is ~5 KB, and one copy per thread of an
// 8,000-device inventory was ~60 MiB per thread).
//
// Thread-compatible: one instance per thread (it owns its evaluation scratch). An instance
// serves one Inventory: device ids must refer to it for its whole life.
#ifndef DRAGUARD_POLICY_ALLOCATOR_CEL_EVALUATOR_H_
#define DRAGUARD_POLICY_ALLOCATOR_CEL_EVALUATOR_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/allocator/options.h"
#include "policy/allocator/selector.h"
#include "policy/cel/compiler.h"
#include "policy/cel/dra/device.h"
#include "policy/cel/env.h"
#include "policy/cel/program.h"
#include "policy/common/bounded_cache.h"
#include "policy/common/sighting_filter.h"

namespace draguard::alloc {

// Selectors compiled as the scheduler compiles them and planned, by (expression,
// environment). Thread-safe; bounded in entries and bytes (least recently used out).
class CelProgramCache {
 public:
  // A typical selector's program holds 1-10 KB (estimated; heaptrack finds ~80% of the
  // estimate held), a 10 KB selector's up to ~1 MB. 4 MiB keeps 400-4,000 typical selectors,
  // more than a cluster's DeviceClasses and templates hold; a miss costs one compilation.
  // (8 MiB until 2026-11-27: the webhook's budget could not hold it, docs/webhook.md.)
  static constexpr CacheLimits kDefaultLimits{.max_entries = 2048, .max_bytes = 4 << 20};

  // A compiled and planned selector, or the scheduler's error for it.
  struct Compiled {
    std::optional<cel::Program> program;
    std::string error;  // set when program is empty
    // The attributes the selector reads (selector_reads.h); nullopt: any, or no program.
    std::optional<std::vector<AttributeName>> reads;
    // The estimated heap held by the entry (what the cache counts it as), set by Get when
    // the cache keeps it; 0 otherwise (not estimated).
    size_t bytes = 0;
    // Whether the cache holds the entry; false: the caller's alone (KeepPolicy::kOnSecondMiss,
    // a first miss).
    bool kept = false;
    // Set, instead of `program` and `error`, for an entry not kept whose selector the caller
    // may decide from its tree (cel::DirectlyEvaluable): the compile result, not planned.
    // The caller evaluates cel::EvaluateDirect and plans it (PlanUnplanned) only when that
    // bails: a selector met once is often evaluated once (issue 16 (c)), and planning it
    // cost more than the rest of its check.
    std::shared_ptr<const cel::SelectorCompileResult> unplanned;
  };
  // The planned entry for `unplanned` (Compiled::unplanned): what Get would have made.
  static std::shared_ptr<const Compiled> PlanUnplanned(const cel::SelectorCompileResult& unplanned);

  // When a planned selector is kept. kOnFirstMiss: always (the CLI's batches, whose
  // selectors repeat across claims). kOnSecondMiss: only when its text missed before, within
  // the last kSightings misses (SightingFilter); a first miss's program is returned to the
  // caller alone, which holds it while it uses it. For the webhook, where a client may send a
  // never-seen selector on every request: its entry's size estimate, insert and the eviction
  // it causes cost more than planning it (issue 16 (c)).
  enum class KeepPolicy { kOnFirstMiss, kOnSecondMiss };
  static constexpr size_t kSightings = 4096;

  // `compiled` (optional, shared): compile results to plan from on a miss, looked up
  // without compiling (cel::SelectorCache::Find). For a StoredExpressions `env`, a result for
  // the same version and gates in NewExpressions mode (admission's, looked up first) serves
  // when it has no error the scheduler would raise: the StoredExpressions environment declares
  // a superset of it (cel/env.h), so the same parsed tree checks there too, and a program
  // depends only on the tree (cel::Plan). Else a result for `env` itself serves as it is.
  // Otherwise the selector is compiled here.
  explicit CelProgramCache(CacheLimits limits = kDefaultLimits,
                           std::shared_ptr<cel::SelectorCache> compiled = nullptr,
                           KeepPolicy keep = KeepPolicy::kOnFirstMiss)
      : cache_(limits),
        compiled_(std::move(compiled)),
        seen_(keep == KeepPolicy::kOnSecondMiss ? std::make_unique<SightingFilter>(kSightings)
                                                : nullptr) {}

  // The program for `expression` in `env`, compiled (or taken from `compiled`) and planned
  // on a miss (and kept per the KeepPolicy).
  std::shared_ptr<const Compiled> Get(std::string_view expression, const cel::EnvOptions& env);
  size_t size() const { return cache_.size(); }
  CacheStats stats() const { return cache_.stats(); }
  // Misses planned from a compile result of `compiled`, and misses compiled here.
  size_t reused_compiles() const { return reused_.load(std::memory_order_relaxed); }
  size_t own_compiles() const { return own_.load(std::memory_order_relaxed); }

 private:
  // The compile result `expression` plans from: `compiled`'s, or compiled here.
  std::shared_ptr<const cel::SelectorCompileResult> CompileResult(std::string_view expression,
                                                                  const cel::EnvOptions& env);
  // A result of `compiled_` that may stand for compiling `expression` in `env`, or null.
  std::shared_ptr<const cel::SelectorCompileResult> Reusable(std::string_view expression,
                                                             const cel::EnvOptions& env) const;

  ConcurrentCache<Compiled> cache_;
  std::shared_ptr<cel::SelectorCache> compiled_;
  std::unique_ptr<SightingFilter> seen_;  // KeepPolicy::kOnSecondMiss: the texts missed
  std::atomic<size_t> reused_{0};
  std::atomic<size_t> own_{0};
};

// Devices prepared for CEL (attributes by domain, capacities as quantities), by
// DeviceView::id of one Inventory, each made on first use by whichever thread asks first and
// never changed after. Thread-safe. Evaluators that share a table must have the same
// version and gates (they do when they serve one Inventory with one AllocatorOptions).
//
// The table of a new Inventory can take over the entries of the previous Inventory's table
// for the devices CEL sees unchanged (ShareFrom, SameSelectorDevices): an entry is then held
// by both tables (counted) and freed with the last, so that an inventory snapshot differing
// from the previous one by one slice prepares, and holds anew, that slice's devices only.
class PreparedDevices {
 public:
  // A prepared device, or why it cannot be prepared (a malformed attribute or capacity).
  struct Entry {
    std::optional<cel::PreparedDevice> device;
    std::string error;  // set when device is empty
    // Tables holding the entry (ShareFrom); managed by the tables.
    mutable std::atomic<uint32_t> tables{1};
  };

  // Room for ids below `devices`; a device with a larger id is prepared on every use.
  explicit PreparedDevices(size_t devices);
  ~PreparedDevices();
  PreparedDevices(const PreparedDevices&) = delete;
  PreparedDevices& operator=(const PreparedDevices&) = delete;

  // `view` prepared with `options`: from the table, or made now (and kept when it fits).
  // With an id beyond the table the entry is made into `spare` and a reference to it returned.
  const Entry& Get(const DeviceView& view, const cel::DeviceOptions& options,
                   std::unique_ptr<Entry>& spare);
  // Takes over `previous`'s entries for the devices `same` maps: by id in this table's
  // Inventory, the id of the same device in previous's Inventory (SameSelectorDevices), or
  // kNoDevice (any id beyond previous's table is skipped). `previous` must have been filled
  // with the same version and gates. Returns the number of entries taken over (slots
  // already filled here or empty in `previous` are skipped).
  size_t ShareFrom(const PreparedDevices& previous, const std::vector<size_t>& same);
  // Devices prepared and kept so far (taken over included); ids the table has room for.
  size_t size() const { return size_.load(std::memory_order_relaxed); }
  size_t capacity() const { return capacity_; }
  // Entries this table made (not taken over): the preparations it cost.
  size_t made() const { return made_.load(std::memory_order_relaxed); }
  // Hands every entry to `larger` (for a table one thread owns, outgrown; not thread-safe).
  void MoveInto(PreparedDevices& larger);

 private:
  static void Release(const Entry* entry);

  std::unique_ptr<std::atomic<const Entry*>[]> slots_;
  size_t capacity_;
  std::atomic<size_t> size_{0};
  std::atomic<size_t> made_{0};
};

class CelSelectorEvaluator : public SelectorEvaluator {
 public:
  // The environment follows options.version and the DRAConsumableCapacity gate. `programs`
  // and `devices` (optional) are shared with other evaluators; without them the evaluator
  // has its own (its devices table then grows with the ids it sees).
  explicit CelSelectorEvaluator(const AllocatorOptions& options,
                                std::shared_ptr<CelProgramCache> programs = nullptr,
                                std::shared_ptr<PreparedDevices> devices = nullptr);
  ~CelSelectorEvaluator() override;

  SelectorResult Evaluate(std::string_view expression, const DeviceView& device) override;
  // From the parsed selector (selector_reads.h), kept with its program.
  std::optional<std::vector<AttributeName>> AttributesRead(std::string_view expression) override;

  // Devices prepared so far by this evaluator (for tests); the programs' cache (shared or own).
  size_t prepared_count() const { return prepared_count_; }
  const CelProgramCache& programs() const { return *programs_; }

 private:
  struct Recent;
  Recent& Lookup(std::string_view expression);
  const PreparedDevices::Entry& PrepareOnce(const DeviceView& device);

  cel::EnvOptions env_;
  std::shared_ptr<CelProgramCache> programs_;
  // The last few programs looked up, found again by comparing texts: the allocator asks about
  // one selector for many devices in a row, and a check alternates between a claim's few
  // selectors (AttributesRead for each alternative, then Evaluate), while a lookup in the
  // shared cache builds its key, hashes it and locks (~900 instructions; 7 a webhook request
  // with a class selector and two request selectors). The most recent lookup is always kept;
  // the others only when small (Compiled::bytes <= kRecentMaxBytes), so that an idle
  // evaluator holds at most one large evicted program, as before. A program the cache did not
  // keep (Compiled::kept false, not estimated) counts as small when its text is at most
  // kRecentMaxUncountedText bytes (a planned selector holds ~50-100 bytes per byte of text).
  static constexpr size_t kRecentMaxUncountedText = 512;
  struct Recent {
    std::string expression;
    std::shared_ptr<const CelProgramCache::Compiled> compiled;
    // For a compiled->unplanned entry, planned once cel::EvaluateDirect bailed on a device.
    std::shared_ptr<const CelProgramCache::Compiled> planned;
  };
  // Eight: a claim of two requests reads five or six texts (a class selector each, its own
  // selectors), and with four a new selector could be pushed out between a check's
  // AttributesRead and its Evaluate (on a new snapshot's first checks), looked up twice and so
  // kept by a KeepPolicy::kOnSecondMiss cache though met once: a program kept per snapshot,
  // and the webhook's RSS climbed over the first ten minutes of a soak until the cache was
  // full (bench/webhook-soak.sh).
  static constexpr size_t kRecent = 8;
  static constexpr size_t kRecentMaxBytes = 64 << 10;
  std::array<Recent, kRecent> recent_;
  size_t newest_ = 0;  // index of the most recent lookup in recent_
  std::shared_ptr<PreparedDevices> shared_;  // the table given, if any
  // Without a shared table: this evaluator's own, replaced by a larger one when an id does
  // not fit (the entries made so far are made again).
  std::unique_ptr<PreparedDevices> own_;
  std::unique_ptr<PreparedDevices::Entry> spare_;  // for an id beyond the table
  size_t prepared_count_ = 0;
  cel::EvalState state_;
};

}  // namespace draguard::alloc

#endif  // DRAGUARD_POLICY_ALLOCATOR_CEL_EVALUATOR_H_
