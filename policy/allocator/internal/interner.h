// Interner: dense ids for equal byte-string keys, in order of first appearance (the class
// ids of Inventory::Build: devices, capacities, read classes).
//
// A key may also be given by its hash alone (Lazy): the id is made without the key, which is
// made (by the function given at construction, from the tag given with the hash) only when
// another key of equal hash is looked up and the two must be compared. An incremental
// Inventory::Build numbers the selector classes it carries from the previous Inventory that
// way: a device with unique identifying values (a uuid) has a class of its own, whose key a
// later device hardly ever has, so most of those keys are never made.
//
// Not thread-safe; one per Build.
#ifndef DRAGUARD_POLICY_ALLOCATOR_INTERNAL_INTERNER_H_
#define DRAGUARD_POLICY_ALLOCATOR_INTERNAL_INTERNER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "policy/common/hash.h"

namespace draguard::alloc::internal {

class Interner {
 public:
  // Appends the key of the lazy id made with `tag` to `key` (empty); one tag, one key.
  using Materialize = std::function<void(uint32_t tag, std::string& key)>;

  Interner() = default;
  explicit Interner(Materialize materialize) : materialize_(std::move(materialize)) {}

  uint32_t Id(std::string_view key) {
    // Neighbouring devices are often alike (the GPUs of one node): their key is compared
    // with the last one's before it is hashed.
    if (last_ < ends_.size() && KeyOf(last_) == key) return last_;
    last_ = Find(key, HashText(key), kNoTag);
    return last_;
  }
  // The same with the key's hash given: any function of the key's content (equal keys must
  // have equal hashes), so that a caller can combine hashes it knows (Lazy needs them).
  uint32_t Id(std::string_view key, size_t hash) { return Find(key, hash, kNoTag); }
  // The id of the key that Materialize makes from `tag`, whose hash (as Id's) is `hash`: the
  // key is made only when an id of equal hash exists (or appears later) and is compared.
  uint32_t Lazy(size_t hash, uint32_t tag) { return Find(std::nullopt, hash, tag); }

  size_t size() const { return ends_.size(); }
  // The hash of id's key, as given to Id or Lazy (std::hash by the one-argument Id).
  size_t hash(uint32_t id) const { return hashes_[id]; }
  // Lazy ids whose keys had to be made (for tests and measurements).
  size_t materialized() const { return made_.size(); }

 private:
  static constexpr uint32_t kNoTag = UINT32_MAX;

  uint32_t Find(std::optional<std::string_view> key, size_t hash, uint32_t tag) {
    if (2 * (ends_.size() + 1) > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const uint32_t slot = slots_[i];
      if (slot == 0) {
        const auto id = static_cast<uint32_t>(ends_.size());
        if (key) keys_.append(*key);
        ends_.push_back(keys_.size());
        hashes_.push_back(hash);
        tags_.push_back(key ? kNoTag : tag);
        slots_[i] = id + 1;
        return id;
      }
      if (hashes_[slot - 1] != hash) continue;
      if (!key && tags_[slot - 1] == tag) return slot - 1;  // one tag, one key
      if (!key) {  // the query's key, made once (an equal hash, rare)
        query_.clear();
        materialize_(tag, query_);
        key = query_;
      }
      if (KeyOf(slot - 1) == *key) return slot - 1;
    }
  }
  std::string_view KeyOf(uint32_t id) {
    if (tags_[id] != kNoTag) {
      auto [it, inserted] = made_.try_emplace(id);
      if (inserted) materialize_(tags_[id], it->second);
      return it->second;
    }
    const size_t begin = id == 0 ? 0 : ends_[id - 1];
    return std::string_view(keys_).substr(begin, ends_[id] - begin);
  }
  void Grow() {
    slots_.assign(std::max<size_t>(64, 2 * slots_.size()), 0);
    const size_t mask = slots_.size() - 1;
    for (uint32_t id = 0; id < hashes_.size(); ++id) {
      size_t i = hashes_[id] & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = id + 1;
    }
  }

  Materialize materialize_;
  uint32_t last_ = UINT32_MAX;  // the id the one-argument Id() returned last
  std::string keys_;            // the keys of non-lazy ids, end to end
  std::vector<size_t> ends_;    // by id: where its key ends in keys_ (lazy: an empty key)
  std::vector<size_t> hashes_;  // by id
  std::vector<uint32_t> tags_;  // by id: the tag of a lazy id, kNoTag for the others
  std::unordered_map<uint32_t, std::string> made_;  // keys of lazy ids, once made
  std::string query_;                               // a lazy query's key, once made
  std::vector<uint32_t> slots_;  // id + 1, 0: free; a power of two, at most half full
};

}  // namespace draguard::alloc::internal

#endif  // DRAGUARD_POLICY_ALLOCATOR_INTERNAL_INTERNER_H_
