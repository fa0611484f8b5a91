// BoundedCache and ConcurrentCache: least-recently-used maps from string keys to values,
// bounded both in entries and in (estimated) bytes.
//
// Why both bounds: the webhook remembers things keyed by text that clients choose (selector
// expressions, specs, domains). A bound in entries alone lets a client who sends large keys,
// or keys whose values are large (a 10 KB selector plans into hundreds of KB), grow the
// process to entries × the largest value; the byte bound caps what one cache may hold
// whatever the stream (issue 17 item 0). Each caller states what an entry costs (its value's
// estimate; the key's bytes and the bookkeeping are added here), so the bound is as good as
// that estimate: estimates are checked against measured allocations in the tests of the
// types they describe.
//
// An entry that alone exceeds max_bytes is not kept (Insert returns false): the caller still
// has its value and uses it once. Limits of zero entries or zero bytes turn a cache off.
//
// BoundedCache is thread-compatible; ConcurrentCache wraps it with a mutex and hands out
// shared_ptr<const V>, so that a value stays valid after its entry is evicted. The webhook's
// I/O threads take these mutexes about ten times a request (every selector's compile, the spec
// memo, the allocator's programs), so ConcurrentCache does under its mutex only what needs it:
// a key is hashed, an entry's node allocated and its key copied before the lock is taken, and
// what an insert evicts is destroyed after it is released (a compiled selector frees dozens of
// blocks). With all of that inside, the two I/O threads of case (b) of bench/webhook-load.sh
// met on the selector cache's mutex on every other request (0.58 futex calls a request).
//
// A key is hashed at most once per operation (CacheKey): the keys are whole selectors and
// specs, and a miss used to hash its key five times (the lookup, the insert's second look, its
// erase of a replaced entry, the index insert) and the evicted entry's key once more; an entry
// keeps its key's hash, so evicting it hashes nothing. A lookup in a cache of a few entries
// compares the keys without hashing (as libstdc++'s unordered_map does below 20 elements),
// so that a webhook that sees the same few specs again never hashes them.
#ifndef DRAGUARD_POLICY_COMMON_BOUNDED_CACHE_H_
#define DRAGUARD_POLICY_COMMON_BOUNDED_CACHE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "policy/common/hash.h"

namespace draguard {

struct CacheLimits {
  size_t max_entries = 0;
  size_t max_bytes = 0;
};

// What a cache holds and how it has been used, for /metrics and tests.
struct CacheStats {
  size_t entries = 0;
  size_t bytes = 0;  // estimated, keys and bookkeeping included
  CacheLimits limits;
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t evictions = 0;  // entries forgotten to make room (not replacements)
  uint64_t too_large = 0;  // values refused because alone they exceed limits.max_bytes

  CacheStats& operator+=(const CacheStats& other);
};

inline CacheStats& CacheStats::operator+=(const CacheStats& other) {
  entries += other.entries;
  bytes += other.bytes;
  limits.max_entries += other.limits.max_entries;
  limits.max_bytes += other.limits.max_bytes;
  hits += other.hits;
  misses += other.misses;
  evictions += other.evictions;
  too_large += other.too_large;
  return *this;
}

// A cache's statistics under the name /metrics shows it by (a static string).
struct NamedCacheStats {
  std::string_view name;
  CacheStats stats;
};

// The heap block a string holds for estimates: none while it fits the small-string buffer,
// else its capacity plus the allocator's header.
inline size_t HeapBytes(const std::string& s) {
  return s.capacity() > std::string().capacity() ? s.capacity() + 16 : 0;
}

// What an entry costs besides its key's characters and its value's own estimate: the list
// node, the hash node, the key's heap block and the allocator's headers (measured with
// libstdc++ on x86-64: 112-160 bytes; rounded up).
inline constexpr size_t kCacheEntryOverheadBytes = 192;

// A key and its hash, computed on first use and then kept for the rest of the operation.
class CacheKey {
 public:
  explicit CacheKey(std::string_view key) : text(key) {}
  // `key` with the hash an earlier operation computed for the same text (hashed()/hash() of
  // a CacheKey of it): an operation that follows a lookup of the same key (the insert after a
  // miss) then hashes nothing. A wrong hash makes lookups of the entry miss.
  CacheKey(std::string_view key, size_t known_hash)
      : text(key), hash_(known_hash), hashed_(true) {}
  std::string_view text;
  size_t hash() const {
    if (!hashed_) {
      hash_ = static_cast<size_t>(HashText(text));
      hashed_ = true;
    }
    return hash_;
  }
  // Whether hash() has been computed (a lookup in a small cache compares keys instead).
  bool hashed() const { return hashed_; }

 private:
  mutable size_t hash_ = 0;
  mutable bool hashed_ = false;
};

template <class V>
class BoundedCache {
  struct Entry;
  using List = std::list<Entry>;

 public:
  // Up to this many entries, a lookup scans the list instead of hashing its key.
  static constexpr size_t kScannedEntries = 20;

  // An entry made outside the cache: its node allocated, its key copied and hashed. Insert
  // takes it over in constant time (ConcurrentCache builds it before taking its lock).
  class Node {
   public:
    Node(const CacheKey& key, V value, size_t value_bytes) {
      list_.push_back(
          Entry{std::string(key.text), std::move(value), EntryBytes(key.text, value_bytes),
                key.hash()});
    }

   private:
    friend class BoundedCache;
    List list_;  // exactly one entry
  };

  // The entries an insert let go of (evicted, or replaced by the same key); destroying this
  // destroys them (ConcurrentCache does so after releasing its lock).
  class Released {
   private:
    friend class BoundedCache;
    List list_;
  };

  explicit BoundedCache(CacheLimits limits) : limits_(limits) {}
  BoundedCache(const BoundedCache&) = delete;
  BoundedCache& operator=(const BoundedCache&) = delete;

  // The value stored under `key`, made the most recent; null when absent. Counts a hit or a
  // miss. The pointer is valid until the next Insert or Clear.
  V* Find(std::string_view key) { return Find(CacheKey(key)); }
  V* Find(const CacheKey& key) {
    V* found = Peek(key);
    ++(found != nullptr ? stats_.hits : stats_.misses);
    return found;
  }

  // Find without counting the lookup (for a second look after a counted miss).
  V* Peek(std::string_view key) { return Peek(CacheKey(key)); }
  V* Peek(const CacheKey& key) {
    typename List::iterator entry;
    if (entries_.size() <= kScannedEntries) {
      entry = entries_.begin();
      while (entry != entries_.end() && entry->key != key.text) ++entry;
      if (entry == entries_.end()) return nullptr;
    } else {
      auto it = index_.find(IndexKey{key.text, key.hash()});
      if (it == index_.end()) return nullptr;
      entry = it->second;
    }
    entries_.splice(entries_.begin(), entries_, entry);
    return &entry->value;
  }

  // Stores `value` under `key` (replacing an entry with the same key), as the most recent,
  // with `value_bytes` as the value's estimated size; then forgets the least recent entries
  // until both limits hold. Returns false, storing nothing, when the entry alone is over
  // max_bytes or the cache is off.
  bool Insert(std::string_view key, V value, size_t value_bytes) {
    return Insert(CacheKey(key), std::move(value), value_bytes);
  }
  bool Insert(const CacheKey& key, V value, size_t value_bytes) {
    if (!Admits(key.text, value_bytes)) {
      ++stats_.too_large;
      return false;
    }
    Released released;
    return Insert(Node(key, std::move(value), value_bytes), released);
  }
  // The same with an entry made beforehand; what the insert lets go of moves to `released`
  // instead of being destroyed here.
  bool Insert(Node node, Released& released) {
    const Entry& entry = node.list_.front();
    if (!Admits(entry.bytes)) {
      ++stats_.too_large;
      return false;
    }
    Erase(IndexKey{entry.key, entry.hash}, released);
    entries_.splice(entries_.begin(), node.list_);
    index_.emplace(IndexKey{entries_.front().key, entries_.front().hash}, entries_.begin());
    stats_.bytes += entries_.front().bytes;
    while (entries_.size() > limits_.max_entries || stats_.bytes > limits_.max_bytes) {
      Erase(IndexKey{entries_.back().key, entries_.back().hash}, released);
      ++stats_.evictions;
    }
    return true;
  }

  // Whether an entry of `key` and a value of `value_bytes` fits the limits at all (Insert
  // refuses the others). Reads only the limits, which never change.
  bool Admits(std::string_view key, size_t value_bytes) const {
    return Admits(EntryBytes(key, value_bytes));
  }
  // Counts a value refused without calling Insert (see Admits).
  void CountTooLarge() { ++stats_.too_large; }

  void Clear() {
    index_.clear();
    entries_.clear();
    stats_.bytes = 0;
  }

  size_t size() const { return entries_.size(); }
  CacheStats stats() const {
    CacheStats s = stats_;
    s.entries = entries_.size();
    s.limits = limits_;
    return s;
  }

 private:
  struct Entry {
    std::string key;
    V value;
    size_t bytes = 0;
    size_t hash = 0;  // of key
  };
  // The index's key: a view of an entry's key (or of a looked-up key) with its hash, which
  // the index uses as is instead of hashing the text again.
  struct IndexKey {
    std::string_view text;
    size_t hash;
    friend bool operator==(const IndexKey& a, const IndexKey& b) {
      return a.hash == b.hash && a.text == b.text;
    }
  };
  struct IndexHash {
    size_t operator()(const IndexKey& k) const noexcept { return k.hash; }
  };

  static size_t EntryBytes(std::string_view key, size_t value_bytes) {
    return kCacheEntryOverheadBytes + key.size() + value_bytes;
  }
  bool Admits(size_t entry_bytes) const {
    return limits_.max_entries > 0 && entry_bytes <= limits_.max_bytes;
  }

  void Erase(const IndexKey& key, Released& released) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    typename List::iterator entry = it->second;
    stats_.bytes -= entry->bytes;
    index_.erase(it);  // before the entry leaves: the index's key views the entry's string
    released.list_.splice(released.list_.end(), entries_, entry);
  }

  CacheLimits limits_;
  List entries_;  // most recent first
  // Keys view the entries' own strings, so a lookup by string_view allocates nothing.
  std::unordered_map<IndexKey, typename List::iterator, IndexHash> index_;
  CacheStats stats_;
};

// A BoundedCache behind a mutex, for caches shared by the webhook's threads. Values are
// immutable and shared: Find's result stays valid after eviction.
template <class V>
class ConcurrentCache {
 public:
  explicit ConcurrentCache(CacheLimits limits) : cache_(limits) {}

  std::shared_ptr<const V> Find(std::string_view key) { return Find(CacheKey(key)); }
  std::shared_ptr<const V> Find(const CacheKey& key) {
    HashIfLookupsWill(key);
    std::lock_guard lock(mu_);
    std::shared_ptr<const V>* found = cache_.Find(key);
    return found != nullptr ? *found : nullptr;
  }

  // Find without counting a hit or a miss (a look into another user's cache).
  std::shared_ptr<const V> Peek(std::string_view key) {
    const CacheKey hashed(key);
    HashIfLookupsWill(hashed);
    std::lock_guard lock(mu_);
    std::shared_ptr<const V>* found = cache_.Peek(hashed);
    return found != nullptr ? *found : nullptr;
  }

  // Stores `value` unless an entry for `key` appeared meanwhile (two threads computed the
  // same value); returns the value now associated with the key (or `value` when it could not
  // be kept, see BoundedCache::Insert).
  std::shared_ptr<const V> Insert(std::string_view key, std::shared_ptr<const V> value,
                                  size_t value_bytes) {
    return Insert(CacheKey(key), std::move(value), value_bytes);
  }
  std::shared_ptr<const V> Insert(const CacheKey& key, std::shared_ptr<const V> value,
                                  size_t value_bytes) {
    HashIfLookupsWill(key);
    if (!cache_.Admits(key.text, value_bytes)) {
      std::lock_guard lock(mu_);
      if (std::shared_ptr<const V>* found = cache_.Peek(key)) return *found;
      cache_.CountTooLarge();
      return value;
    }
    typename Cache::Node node(key, value, value_bytes);
    typename Cache::Released released;  // destroyed after the lock is released
    std::lock_guard lock(mu_);
    if (std::shared_ptr<const V>* found = cache_.Peek(key)) return *found;
    cache_.Insert(std::move(node), released);
    size_.store(cache_.size(), std::memory_order_relaxed);
    return value;
  }

  // Stores `value` under `key`, replacing what was there.
  void Replace(std::string_view key, std::shared_ptr<const V> value, size_t value_bytes) {
    Replace(CacheKey(key), std::move(value), value_bytes);
  }
  void Replace(const CacheKey& key, std::shared_ptr<const V> value, size_t value_bytes) {
    if (!cache_.Admits(key.text, value_bytes)) {
      std::lock_guard lock(mu_);
      cache_.CountTooLarge();  // the entry in place, if any, stays (as BoundedCache::Insert)
      return;
    }
    typename Cache::Node node(key, std::move(value), value_bytes);
    typename Cache::Released released;  // destroyed after the lock is released
    std::lock_guard lock(mu_);
    cache_.Insert(std::move(node), released);
    size_.store(cache_.size(), std::memory_order_relaxed);
  }

  void Clear() {
    std::lock_guard lock(mu_);
    cache_.Clear();
    size_.store(0, std::memory_order_relaxed);
  }
  size_t size() const {
    std::lock_guard lock(mu_);
    return cache_.size();
  }
  CacheStats stats() const {
    std::lock_guard lock(mu_);
    return cache_.stats();
  }

 private:
  using Cache = BoundedCache<std::shared_ptr<const V>>;

  // Hashes `key` now, outside the lock, when the lookup under it would (the cache holds more
  // than a scan covers). The size read is a hint: a wrong guess only moves the hashing.
  void HashIfLookupsWill(const CacheKey& key) const {
    if (size_.load(std::memory_order_relaxed) > Cache::kScannedEntries) key.hash();
  }

  mutable std::mutex mu_;
  Cache cache_;
  std::atomic<size_t> size_{0};  // cache_.size() after the last change, read without the lock
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_BOUNDED_CACHE_H_
