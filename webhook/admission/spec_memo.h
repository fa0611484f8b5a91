// SpecMemo: what the checks found in a ResourceClaim's or ResourceClaimTemplate's spec,
// remembered by the spec's JSON text.
//
// Why: the resourceclaim-controller creates one ResourceClaim per Pod from the Pod's
// ResourceClaimTemplate, so the claims a cluster admits repeat a few specs byte for byte, and
// decoding, validating and schema-checking a spec is most of a request's CPU (issue 6 item 10:
// the webhook has about 10 µs per request). The findings about a spec depend only on its
// text, the object's kind and version, its namespace and whether that namespace allows admin
// access (the admin-access check), the checker's options (fixed for its life) and the
// attribute schema in force. The key holds the first four; an entry also holds the schema it
// was made with (an opaque token) and is not used under another one. Metadata and status are
// decoded and validated on every request (PolicyChecker::Diagnose).
//
// Bounded: at most `entries` specs of at most `max_spec_bytes` each and `max_bytes` in all
// (texts, findings and decoded objects, estimated); inserting into a full memo forgets the
// least recently used entries. Thread-safe.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_SPEC_MEMO_H_
#define DRAGUARD_WEBHOOK_ADMISSION_SPEC_MEMO_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/bounded_cache.h"
#include "policy/common/diagnostic.h"
#include "policy/common/sighting_filter.h"
#include "policy/k8s/decode.h"

namespace draguard::webhook {

struct SpecMemoOptions {
  // Specs remembered; 0 turns the memo off.
  size_t entries = 256;
  // Longer specs are not remembered (a typical claim's spec is 0.5-3 KB).
  size_t max_spec_bytes = 16 * 1024;
  // All entries together: texts, findings and the decoded objects (estimated). A typical
  // claim's entry is ~10 KB, so 256 of them take ~2.5 MiB: the byte limit binds only for
  // large specs. (8 MiB until 2026-11-27: see docs/webhook.md.)
  size_t max_bytes = 4 << 20;
  // A spec is remembered from its second miss within about this many misses (SightingFilter,
  // 8 bytes each): a client whose every request brings a spec never seen before (a name or a
  // clause appended to a selector) then costs no entry, no insert and no eviction of the
  // entry it would push out (issue 16 (b): 2.7 k of 111 k instructions a request, and +7.6%
  // requests/s: the evicted entry was the coldest memory of the process), and the specs that
  // repeat keep their entries. 0: from the first miss.
  size_t sightings = 4096;
};

// Everything the memo's findings depend on besides the checker's options and the schema.
// Views must stay valid during the call they are passed to.
struct SpecKey {
  std::string_view kind;
  std::string_view version;
  std::string_view name_space;
  bool admin_access_allowed = false;
  std::string_view spec;  // the spec's exact JSON text

  bool operator==(const SpecKey&) const = default;  // field by field, texts by content
};

class RememberedVerdict;  // satisfiability_check.h

// The findings about one spec, in the order the checks made them.
struct SpecFindings {
  // Decode and validation findings whose field lies in `spec`.
  std::vector<Diagnostic> validation;
  // Schema findings; only meaningful when `validation` has no error (the schema check runs
  // only on valid objects).
  std::vector<Diagnostic> schema;
  // The object the findings were made on (its spec is the request's; its metadata is the
  // first request's), for the satisfiability check.
  k8s::ObjectVariant object;
  // The schema in force when the findings were made (SchemaCheck::Token()).
  std::shared_ptr<const void> schema_token;
  // The satisfiability check's last /validate answer about the spec, with the inventory
  // view it holds for (filled in by the checks; counted at its largest in the bytes).
  std::shared_ptr<RememberedVerdict> satisfiability;
};

// What the memo holds and how often it answered, for /metrics.
struct SpecMemoStats {
  size_t entries = 0;
  uint64_t hits = 0;    // lookups of an accepted key that found its findings
  uint64_t misses = 0;  // lookups of an accepted key that did not
  uint64_t first_sights = 0;  // misses whose findings are not to be kept (sightings)
};

// An estimate of the heap one entry's findings hold, the decoded object included, given the
// length of the spec's JSON text they were made from.
size_t ApproximateBytes(const SpecFindings& findings, size_t spec_bytes);

class SpecMemo;

// One lookup of a key in a memo (SpecMemo::Look): the findings it found, or a miss. A miss
// keeps the key it was for (views: valid while the key's text is) and, when the lookup hashed
// it, its hash, so that the request that looked does not look again after reading the spec,
// and inserts what it then finds without hashing the key again (SpecMemo::Insert). Why the
// key: the request may reach the memo changed (a checker that wraps another may set
// admin_access_allowed, kube/admin_access_lookup.h); a miss is only taken for the key and the
// memo it was looked up for (MissOf), and any other lookup looks again. The insert also reuses
// the key's text that the lookup wrote, when no other key's text was written since.
class SpecLookup {
 public:
  // The findings found, or null (a miss, or nothing looked up).
  const std::shared_ptr<const SpecFindings>& found() const { return found_; }
  // Whether this is a miss of exactly `key` in `memo`.
  bool MissOf(const SpecMemo& memo, const SpecKey& key) const;
  // Whether the findings of this miss are to be remembered: false for a spec's first miss
  // (SpecMemoOptions::sightings; SpecMemo::Insert of this miss then does nothing, so the
  // caller need not collect them).
  bool keeps() const { return keeps_; }

 private:
  friend class SpecMemo;
  std::shared_ptr<const SpecFindings> found_;
  const SpecMemo* memo_ = nullptr;  // the memo looked in; null: nothing looked up
  SpecKey key_;
  size_t hash_ = 0;
  bool hashed_ = false;
  bool keeps_ = true;
  // Where the lookup wrote the key's text and which text that was (spec_memo.cc KeyBuffer):
  // an insert on the same thread with no key written since reuses the text.
  const void* key_buffer_ = nullptr;
  uint64_t key_generation_ = 0;
};

class SpecMemo {
 public:
  explicit SpecMemo(SpecMemoOptions options = {});

  // Whether a spec of this size is remembered at all.
  bool Accepts(const SpecKey& key) const {
    return options_.entries > 0 && !key.spec.empty() && key.spec.size() <= options_.max_spec_bytes;
  }
  // The findings remembered for `key` under `schema_token`, or null. A lookup of an accepted
  // key counts as a hit or a miss.
  std::shared_ptr<const SpecFindings> Find(const SpecKey& key, const void* schema_token) const;
  // Find(key, schema_token) as a SpecLookup (counting a hit or a miss): a miss can be handed
  // to Insert, and to a later step of the same request instead of looking again.
  SpecLookup Look(const SpecKey& key, const void* schema_token) const;
  // Remembers `findings` for `key` (replacing what was there); no-op unless Accepts(key).
  void Insert(const SpecKey& key, std::shared_ptr<const SpecFindings> findings);
  // The same for the key that `miss` missed (MissOf(*this, key)), without hashing it again.
  void Insert(const SpecLookup& miss, std::shared_ptr<const SpecFindings> findings);

  size_t size() const { return cache_.size(); }
  SpecMemoStats stats() const;
  // Entries, estimated bytes, limits and evictions.
  CacheStats cache_stats() const { return cache_.stats(); }

 private:
  SpecMemoOptions options_;
  // Keyed by every part of the SpecKey (SpecCacheKey in the .cc); holds findings.
  mutable ConcurrentCache<SpecFindings> cache_;
  // The keys of the latest misses (null: keep every miss's findings).
  std::unique_ptr<SightingFilter> seen_;
  mutable std::atomic<uint64_t> hits_{0};
  mutable std::atomic<uint64_t> misses_{0};
  mutable std::atomic<uint64_t> first_sights_{0};
};

// True when `field` (an API-server field path) lies in the object's spec: "spec",
// "spec.devices...", "spec[...]".
bool IsSpecField(std::string_view field);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_SPEC_MEMO_H_
