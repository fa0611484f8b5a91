// BoundedCache against an obvious reference (a vector in recency order, scanned linearly),
// over random operations; the limits after every step; ConcurrentCache under threads.
#include "policy/common/bounded_cache.h"

#include <algorithm>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace draguard {
namespace {

// The same contract, written the slow and obvious way.
class ReferenceCache {
 public:
  explicit ReferenceCache(CacheLimits limits) : limits_(limits) {}

  const int* Find(const std::string& key) {
    auto it = Locate(key);
    if (it == entries_.end()) return nullptr;
    std::rotate(entries_.begin(), it, it + 1);  // to the front: most recent
    return &entries_.front().value;
  }
  bool Insert(const std::string& key, int value, size_t value_bytes) {
    const size_t bytes = kCacheEntryOverheadBytes + key.size() + value_bytes;
    if (limits_.max_entries == 0 || bytes > limits_.max_bytes) return false;
    if (auto it = Locate(key); it != entries_.end()) entries_.erase(it);
    entries_.insert(entries_.begin(), Entry{key, value, bytes});
    while (entries_.size() > limits_.max_entries || Bytes() > limits_.max_bytes) {
      entries_.pop_back();
    }
    return true;
  }
  size_t Bytes() const {
    size_t total = 0;
    for (const Entry& e : entries_) total += e.bytes;
    return total;
  }
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string key;
    int value;
    size_t bytes;
  };
  std::vector<Entry>::iterator Locate(const std::string& key) {
    return std::find_if(entries_.begin(), entries_.end(),
                        [&](const Entry& e) { return e.key == key; });
  }
  CacheLimits limits_;
  std::vector<Entry> entries_;
};

struct LimitsCase {
  const char* name;
  CacheLimits limits;
};

class BoundedCacheTest : public ::testing::TestWithParam<LimitsCase> {};

TEST_P(BoundedCacheTest, AgreesWithTheReferenceAndKeepsItsLimits) {
  const CacheLimits limits = GetParam().limits;
  BoundedCache<int> cache(limits);
  ReferenceCache reference(limits);
  std::mt19937 random(12345);
  for (int step = 0; step < 20000; ++step) {
    // Few keys, so that hits, replacements and evictions all happen; long keys sometimes.
    const std::string key =
        "k" + std::to_string(random() % 40) + std::string(random() % 7 == 0 ? 300 : 0, 'x');
    // Half the operations pass a CacheKey, as a Find and the Insert after its miss do. The limits keep the cache at
    // most 20 entries (lookups scan the list) or let it grow past them (lookups hash).
    const bool hashed = random() % 2 == 0;
    if (random() % 3 == 0) {
      const size_t value_bytes = random() % 5 == 0 ? random() % 20000 : random() % 500;
      const int value = step;
      const bool kept = hashed ? cache.Insert(CacheKey(key), value, value_bytes)
                               : cache.Insert(key, value, value_bytes);
      EXPECT_EQ(kept, reference.Insert(key, value, value_bytes)) << "step " << step;
    } else {
      const int* want = reference.Find(key);
      const int* got = hashed ? cache.Find(CacheKey(key)) : cache.Find(key);
      ASSERT_EQ(got == nullptr, want == nullptr) << "step " << step << " key " << key.size();
      if (got != nullptr) {
        EXPECT_EQ(*got, *want);
      }
    }
    const CacheStats stats = cache.stats();
    ASSERT_EQ(stats.entries, reference.size()) << "step " << step;
    ASSERT_EQ(stats.bytes, reference.Bytes()) << "step " << step;
    ASSERT_LE(stats.entries, limits.max_entries);
    ASSERT_LE(stats.bytes, limits.max_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Limits, BoundedCacheTest,
    ::testing::Values(LimitsCase{"ByEntries", {.max_entries = 8, .max_bytes = 1 << 30}},
                      LimitsCase{"ByBytes", {.max_entries = 1000, .max_bytes = 16 * 1024}},
                      LimitsCase{"Both", {.max_entries = 12, .max_bytes = 8 * 1024}},
                      LimitsCase{"OneEntry", {.max_entries = 1, .max_bytes = 1 << 20}},
                      LimitsCase{"Off", {.max_entries = 0, .max_bytes = 1 << 20}}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(BoundedCacheStatsTest, CountsHitsMissesEvictionsAndRefusals) {
  BoundedCache<int> cache({.max_entries = 2, .max_bytes = 4096});
  EXPECT_EQ(cache.Find("a"), nullptr);
  EXPECT_TRUE(cache.Insert("a", 1, 10));
  EXPECT_TRUE(cache.Insert("b", 2, 10));
  ASSERT_NE(cache.Find("a"), nullptr);  // a is now the most recent
  EXPECT_TRUE(cache.Insert("c", 3, 10));  // evicts b
  EXPECT_EQ(cache.Peek("b"), nullptr);
  EXPECT_NE(cache.Peek("a"), nullptr);
  EXPECT_FALSE(cache.Insert("huge", 4, 5000));  // alone over max_bytes: refused
  EXPECT_TRUE(cache.Insert("a", 5, 10));        // a replacement evicts nothing
  const CacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 1u);  // Peek does not count
  EXPECT_EQ(stats.evictions, 1u);
  EXPECT_EQ(stats.too_large, 1u);
  EXPECT_EQ(stats.entries, 2u);
  EXPECT_EQ(*cache.Find("a"), 5);
}

// ConcurrentCache inserts an entry made before its lock (Node) and destroys what the insert let
// go of after it (Released): the insert itself must neither allocate nor destroy values.
TEST(BoundedCacheNodeTest, InsertHandsWhatItLetsGoToReleased) {
  int destroyed = 0;
  struct Counted {
    int* destroyed;
    explicit Counted(int* d) : destroyed(d) {}
    Counted(Counted&& other) noexcept : destroyed(std::exchange(other.destroyed, nullptr)) {}
    Counted& operator=(Counted&&) = delete;
    ~Counted() {
      if (destroyed != nullptr) ++*destroyed;
    }
  };
  BoundedCache<Counted> cache({.max_entries = 2, .max_bytes = 1 << 20});
  using Node = BoundedCache<Counted>::Node;
  for (const char* key : {"a", "b"}) {
    BoundedCache<Counted>::Released released;
    ASSERT_TRUE(cache.Insert(Node(CacheKey(key), Counted(&destroyed), 10), released));
  }
  ASSERT_EQ(destroyed, 0);
  {
    BoundedCache<Counted>::Released released;
    ASSERT_TRUE(cache.Insert(Node(CacheKey("c"), Counted(&destroyed), 10), released));  // evicts a
    ASSERT_TRUE(cache.Insert(Node(CacheKey("b"), Counted(&destroyed), 10), released));  // replaces b
    EXPECT_EQ(destroyed, 0) << "the evicted and the replaced entry wait in `released`";
    EXPECT_EQ(cache.Peek("a"), nullptr);
    EXPECT_EQ(cache.size(), 2u);
  }
  EXPECT_EQ(destroyed, 2);
  {
    BoundedCache<Counted>::Released released;
    EXPECT_FALSE(cache.Insert(Node(CacheKey("huge"), Counted(&destroyed), 1 << 21), released));
    EXPECT_EQ(cache.stats().too_large, 1u);
  }
  EXPECT_EQ(destroyed, 3) << "a refused node is destroyed with itself";
  EXPECT_EQ(cache.size(), 2u);
}

// The webhook's caches with both kinds of lookups (scanned while small, hashed once large) and
// values refused for their size, as Find, Insert and Replace reach them.
TEST(ConcurrentCacheTest, AgreesWithTheReferenceSmallAndLarge) {
  for (const CacheLimits limits : {CacheLimits{.max_entries = 8, .max_bytes = 1 << 20},
                                   CacheLimits{.max_entries = 200, .max_bytes = 64 * 1024}}) {
    ConcurrentCache<int> cache(limits);
    ReferenceCache reference(limits);
    std::mt19937 random(777);
    for (int step = 0; step < 20000; ++step) {
      const std::string key = "k" + std::to_string(random() % 300);
      const size_t value_bytes = random() % 50 == 0 ? limits.max_bytes : random() % 300;
      switch (random() % 3) {
        case 0: {
          const int* want = reference.Find(key);
          std::shared_ptr<const int> got = cache.Find(key);
          ASSERT_EQ(got == nullptr, want == nullptr) << "step " << step;
          if (got != nullptr) EXPECT_EQ(*got, *want);
          break;
        }
        case 1: {  // Insert keeps an existing entry, as two threads that made the same value
          const int* existing = reference.Find(key);  // Insert's look makes it the most recent too
          const int want = existing != nullptr ? *existing : step;
          if (existing == nullptr) reference.Insert(key, step, value_bytes);
          EXPECT_EQ(*cache.Insert(key, std::make_shared<const int>(step), value_bytes), want);
          break;
        }
        default:
          reference.Insert(key, step, value_bytes);
          cache.Replace(key, std::make_shared<const int>(step), value_bytes);
      }
      ASSERT_EQ(cache.size(), reference.size()) << "step " << step;
      ASSERT_EQ(cache.stats().bytes, reference.Bytes()) << "step " << step;
    }
    EXPECT_GT(cache.stats().too_large, 0u);
  }
}

TEST(ConcurrentCacheTest, ThreadsShareValuesThatOutliveEviction) {
  ConcurrentCache<std::string> cache({.max_entries = 16, .max_bytes = 1 << 20});
  std::shared_ptr<const std::string> kept =
      cache.Insert("first", std::make_shared<const std::string>("v"), 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 2000; ++i) {
        const std::string key = std::to_string((i * 7 + t) % 64);
        // A miss computes outside the lock and inserts, as the webhook's caches do.
        const CacheKey hashed(key);
        std::shared_ptr<const std::string> v = cache.Find(hashed);
        if (v == nullptr) {
          v = cache.Insert(hashed, std::make_shared<const std::string>(key), key.size());
        }
        ASSERT_EQ(*v, key);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(*kept, "v") << "a value handed out stays valid after its entry is evicted";
  EXPECT_LE(cache.size(), 16u);
  EXPECT_GT(cache.stats().evictions, 0u);
}

}  // namespace
}  // namespace draguard
