// SightingFilter: has this key been seen recently? A cache's doorkeeper, so that a value
// computed for a key met once is not kept (nor counted, nor later evicted and destroyed under
// the cache's lock), only one computed for a key met again.
//
// Why: the webhook's clients may send a never-seen selector on every request (a name or a
// clause appended). Keeping each one's program and selector-result table in an LRU cache
// cost more than using them (issue 16 (c)/(d): the entry's size estimate, the insert, and the
// destruction of the entry it evicts, ~4.5 k instructions of a ~36 k check), and such
// entries only push out the ones that repeat.
//
// A direct-mapped table of hashes (HashText of the key): a slot holds the last hash that
// mapped to it. Saw() answers from the table and records the hash. Approximate both ways, and
// either only costs a computation or an entry, never a wrong answer (callers compute the
// value either way): a key looks unseen when another took its slot since (a cache then keeps
// it on a later sighting), and seen when a different key with the same 64-bit hash was (a
// cache then keeps a value for a key met once).
//
// Thread-safe: relaxed atomics; a lost update makes a key look unseen once more.
#ifndef DRAGUARD_POLICY_COMMON_SIGHTING_FILTER_H_
#define DRAGUARD_POLICY_COMMON_SIGHTING_FILTER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace draguard {

class SightingFilter {
 public:
  // Remembers up to `slots` keys (rounded up to a power of two, at least 1): 8 bytes each.
  explicit SightingFilter(size_t slots)
      : mask_(RoundUp(slots) - 1), slots_(std::make_unique<std::atomic<uint64_t>[]>(mask_ + 1)) {
    for (size_t i = 0; i <= mask_; ++i) slots_[i].store(0, std::memory_order_relaxed);
  }
  SightingFilter(const SightingFilter&) = delete;
  SightingFilter& operator=(const SightingFilter&) = delete;

  // Whether `hash` was recorded before (and still holds its slot); records it either way.
  bool Saw(uint64_t hash) {
    const uint64_t tag = hash | 1;  // 0 marks an empty slot
    std::atomic<uint64_t>& slot = slots_[(hash >> 1) & mask_];
    if (slot.load(std::memory_order_relaxed) == tag) return true;
    slot.store(tag, std::memory_order_relaxed);
    return false;
  }

  // The heap the table holds.
  size_t bytes() const { return (mask_ + 1) * sizeof(uint64_t); }

 private:
  static size_t RoundUp(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }

  size_t mask_;
  std::unique_ptr<std::atomic<uint64_t>[]> slots_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_SIGHTING_FILTER_H_
