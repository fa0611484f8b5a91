// The API server's selector compile (validation.go `validateCELSelector`, then
// dynamic-resource-allocation cel/compile.go `CompileCELExpression`), in its order:
//   1. more than 10,240 bytes → cel.expression-too-long (not compiled);
//   2. parse, then check in the DRA environment for the options → compile errors, whose
//      message is "compilation failed: " + the issue's message, with the issue's
//      code and value_offset (one diagnostic per issue; FormatCelIssues renders the
//      API server's combined cel-go block with caret lines where that text is wanted);
//   3. result type exactly bool or any, else cel.result-type
//      ("must evaluate to bool or the unknown type, not int");
//   4. estimated max cost > 1,000,000 → cel.cost-exceeded ("too complex, exceeds cost limit").
// Diagnostics leave `field` empty; the object validator sets it.
//
// SelectorCache memoises results by (expression, options): the webhook and allocator
// compile the same texts many times. It is thread safe and bounded in entries and bytes.
// On a miss it builds the result from the compile of a selector of the same shape (the same
// text but for some literals' values, selector_shape.h) when it has one: templates stamp
// selectors that differ in a model name or a size, and every request may bring a new one.
#ifndef DRAGUARD_POLICY_CEL_COMPILER_H_
#define DRAGUARD_POLICY_CEL_COMPILER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/ast.h"
#include "policy/cel/checked_ast.h"
#include "policy/cel/cost.h"
#include "policy/cel/env.h"
#include "policy/cel/lexer.h"
#include "policy/common/bounded_cache.h"
#include "policy/common/diagnostic.h"
#include "policy/common/sighting_filter.h"

namespace draguard::cel {

class SelectorShape;  // selector_shape.h

struct SelectorCompileResult {
  // The parsed expression; null when too long or unparsable.
  std::unique_ptr<Ast> ast;
  // Types and references for `ast` (meaningful when ast is set and no check errors).
  CheckedAst checked;
  // Worst-case estimate; zero when not estimated (compile errors).
  CostEstimate cost;
  Diagnostics issues;
  // The tokens of the text when SelectorCache lexed it without issue (for its shapes), else
  // empty: the schema check keys its memo by the same shape without lexing again.
  std::vector<Token> tokens;

  // True when the API server would accept the selector.
  bool ok() const { return ast != nullptr && !issues.has_errors(); }
  // An estimate of the heap this result holds (tree, types, references, texts), for caches.
  size_t ApproximateBytes() const;
};

// Compiles `expression` as the API server does for a selector under `options`. Never
// throws; never returns a Status (every failure is a user-facing diagnostic).
SelectorCompileResult CompileSelector(std::string_view expression, const EnvOptions& options);

// Writes into `key` (replacing its content) the cache key of `expression` under `options`:
// every option that changes a compile result, then the text. Shared by the caches of
// compile results and of planned programs.
void SelectorCacheKey(std::string_view expression, const EnvOptions& options, std::string& key);
// The options' part of that key (appended to `key`), for keys of other kinds.
void AppendSelectorOptionsKey(const EnvOptions& options, std::string& key);

// A thread-safe cache of CompileSelector results keyed by (expression, options), bounded in
// entries and in bytes (least recently used first out). Returned results are shared and
// immutable; they stay valid after eviction.
class SelectorCache {
 public:
  // A 10 KB selector's result holds up to ~1 MB; typical ones 2-20 KB (estimated; heaptrack
  // finds about half the estimate held). 4 MiB keeps 200-2,000 typical selectors; a miss
  // costs one parse and type check. (8 MiB until 2026-11-27: see docs/webhook.md.)
  static constexpr CacheLimits kDefaultLimits{.max_entries = 4096, .max_bytes = 4 << 20};
  // A batch (lint, explain) compiles each selector in validation and again in the schema
  // stage, all objects' selectors in between: 4 MiB turned the second compile into a miss
  // for ~1,000 selectors and doubled lint's compile CPU. A one-shot run holds its inputs
  // anyway; 8 MiB keeps lint over 10,000 files at 53 MiB RSS (docs/benchmarks.md).
  static constexpr CacheLimits kBatchLimits{.max_entries = 4096, .max_bytes = 8 << 20};

  // Shapes (selector_shape.h): a template shares its compile result with the cache above
  // but may outlive it there, so it is counted whole. Selectors differing only in literals
  // need one shape between them; 512 distinct shapes (1 MiB) is far more than a cluster's
  // tools stamp.
  static constexpr CacheLimits kShapeLimits{.max_entries = 512, .max_bytes = 1 << 20};

  // With `sightings` > 0 a compile is kept from its second miss within about that many
  // misses (SightingFilter), for the webhook, where a client may send a selector never seen
  // before with every request: its entry, insert and the eviction of the entry it pushes out
  // (a compiled selector frees dozens of blocks of the coldest memory) cost more than the
  // compile, and such entries only push out the selectors that repeat. Until kept, a result is
  // found again only by the thread that made it, among its last kThreadRecent results that
  // were not kept (Compile, Find): the same request's later stages (the schema check, the
  // satisfiability check's planning through alloc::CelProgramCache) take it from there.
  // 0 (the batch commands, whose stages compile each selector twice): kept from the first.
  static constexpr size_t kThreadRecent = 4;
  // A result over this estimate is not kept per thread either (a 10 KB selector's result
  // holds up to ~1 MB): a later stage compiles it again.
  static constexpr size_t kThreadRecentMaxBytes = 256 << 10;
  explicit SelectorCache(CacheLimits limits = kDefaultLimits,
                         CacheLimits shape_limits = kShapeLimits, size_t sightings = 0);
  ~SelectorCache();

  std::shared_ptr<const SelectorCompileResult> Compile(std::string_view expression,
                                                       const EnvOptions& options);
  // The result already cached for (expression, options), or null; compiles nothing and
  // leaves the hit and miss counts alone (for another cache reusing compile results).
  std::shared_ptr<const SelectorCompileResult> Find(std::string_view expression,
                                                    const EnvOptions& options);
  size_t size() const { return cache_.size(); }
  CacheStats stats() const { return cache_.stats(); }
  // The shape cache's: a hit is a miss above whose shape had a template (built from it unless
  // a check of a literal's value reported something: then compiled from scratch).
  CacheStats shape_stats() const;

 private:
  std::shared_ptr<const SelectorCompileResult> CompileMiss(std::string_view expression,
                                                           const EnvOptions& options);

  // The result of `key` among this thread's recent first sights, or null.
  std::shared_ptr<const SelectorCompileResult> FindThreadRecent(std::string_view key) const;
  void AddThreadRecent(std::string_view key,
                       const std::shared_ptr<const SelectorCompileResult>& result) const;

  ConcurrentCache<SelectorCompileResult> cache_;
  std::unique_ptr<ConcurrentCache<SelectorShape>> shapes_;
  std::unique_ptr<SightingFilter> seen_;  // null: every compile is kept
};

// The compile results one stage looked up for an object, in order, for a later stage that
// walks the same selectors in the same order: validation compiles each selector of a claim,
// and the schema check takes the parsed expressions from here without building the cache
// key, hashing it or taking the SelectorCache's lock again. Validation checks a defaulted
// copy of the spec, so the texts are matched by content, not address; and only the next one
// in order is compared, so that a lookup costs at most one comparison of the text (a scan
// over a claim's up to thousands of selectors could cost quadratic time). Out of step (a
// DeviceClass's selector, which validation of the claim never compiles; a text that was not
// kept), Next returns null and the caller looks the text up in the SelectorCache as before.
// Per request (or object); not thread safe. Holds its results until destroyed: at most the
// object's own selectors. Only results with a parsed expression are kept (the text compared
// is the Ast's copy of it): a stage after validation never sees the others.
class CompiledSelectors {
 public:
  // Appends `result`, compiled under `options`.
  void Remember(const EnvOptions& options, std::shared_ptr<const SelectorCompileResult> result);
  // The next result remembered, when it is the compile of `expression` under `options` (then
  // the one after it is next); else null.
  std::shared_ptr<const SelectorCompileResult> Next(std::string_view expression,
                                                    const EnvOptions& options);

 private:
  struct Item {
    EnvOptions options;
    std::shared_ptr<const SelectorCompileResult> result;  // result->ast is set
  };
  std::vector<Item> items_;
  size_t next_ = 0;
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_COMPILER_H_
