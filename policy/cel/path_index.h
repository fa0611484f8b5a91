// PathIndex: a prepared device's fields, attributes and capacities by their keys, found
// with one hashed probe.
//
// A selector's attribute lookup `device.attributes["gpu.example.com"].model` is a chain of
// three string keys on the `device` map; resolved key by key it scans three maps' entries
// (each a 96-byte pair of Values). PreparedDevice builds a PathIndex of its `device` map
// once, and the fast form (fast_predicate.h) joins and hashes each chain's keys when it is
// built, so that resolving them is one probe and one comparison of the joined key.
//
// The index holds two kinds of paths from the root map:
//   - one string key k1 (`device.driver`), joined as a zero byte and k1;
//   - three string keys k1, k2, k3 where k1 is one of kRootKeys (the device's two maps)
//     and k2 is shorter than 256 bytes, joined as k1's position in kRootKeys plus one,
//     k2's length, k2 and k3 (one byte each for the first two).
// A joined key names one path, and is short: selector keys compare in one or two 16-byte
// steps. JoinOne() and Joinable()/Join() build them. As in MapData lookups of string keys,
// only string keys match and the first entry with a key wins: nothing under a later
// duplicate is indexed. A path that is not found must be resolved key by key: the index
// does not say why it is absent (a missing key, a defaulting map, a value that is not a
// map).
#ifndef DRAGUARD_POLICY_CEL_PATH_INDEX_H_
#define DRAGUARD_POLICY_CEL_PATH_INDEX_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "policy/cel/internal/same_bytes.h"
#include "policy/cel/value.h"

namespace draguard::cel {

class PathIndex {
 public:
  PathIndex() = default;  // empty: finds nothing

  // The root keys whose paths are indexed.
  static constexpr std::array<std::string_view, 2> kRootKeys = {"attributes", "capacity"};

  // Whether paths (k1, k2, k3) can be in an index, for any k3.
  static bool Joinable(std::string_view k1, std::string_view k2) {
    return RootCode(k1) != 0 && k2.size() <= kMaxMiddleKey;
  }
  // The joined key; precondition: Joinable(k1, k2).
  static std::string Join(std::string_view k1, std::string_view k2, std::string_view k3);
  // The joined key of the one-key path k1.
  static std::string JoinOne(std::string_view k1);
  // The hash a lookup passes with the joined key (64-bit FNV-1a, mixed).
  static uint64_t Hash(std::string_view joined);

  // A lookup key: a joined key, its hash, and its first kHeadBytes bytes as zero-padded
  // words, which a lookup compares with the slot's copy (no pointer to follow). Borrows
  // `joined`.
  static constexpr size_t kHeadBytes = 16;  // two words (see Diff16 in FindFirst)
  struct Key {
    uint64_t hash = 0;
    std::array<uint64_t, kHeadBytes / 8> head{};
    std::string_view joined;
  };
  static Key MakeKey(std::string_view joined);

  // Indexes the values of `root`'s paths described above. The index borrows those values:
  // `root` and every map under it must stay unchanged while the index is used.
  static PathIndex Build(const MapData& root);

  // A string, int or bool value as two words, so that a lookup can compare it with a
  // constant inside the slot: `words` holds a string's first kHeadBytes bytes (zero-padded;
  // `size` its length, at most UINT32_MAX), an int's or a bool's bits. `kind` is the
  // value's kind; for other kinds the rest is zero. Two values of kind string (one of
  // them at most kHeadBytes long), int or bool are equal exactly when their summaries are.
  struct Summary {
    Kind kind = Kind::kNull;
    uint32_t size = 0;
    std::array<uint64_t, kHeadBytes / 8> words{};
  };
  static Summary Summarize(const Value& v);

  // An indexed path's value and its summary.
  struct Entry {
    const Value* value;
    const Summary* summary;
  };

  // The value at the path of `key`, or nullptr.
  const Value* Find(const Key& key) const;
  // The entry of `key` when it is in the first slot probed (where nearly every lookup
  // ends), or a null value, which does not mean the path is absent. No call and no loop:
  // for callers that keep a small stack frame. Precondition: key.joined.size() <=
  // kMaxFirstKey.
  static constexpr size_t kMaxFirstKey = 2 * kHeadBytes;
  Entry FindFirst(const Key& key) const {
    const uint16_t at = homes_[Home(key.hash)];
    // Home 0 is empty: the empty slot never matches (its size is 0 and joined keys are
    // not empty).
    const Slot& s = at == 0 ? kEmptySlot : slots_[at - 1];
    const size_t n = key.joined.size();
    const uint64_t diff = (s.size ^ n) | (s.head[0] ^ key.head[0]) | (s.head[1] ^ key.head[1]);
    if (diff != 0) return {nullptr, nullptr};
    // Past the head: the last 16 bytes (overlapping it) are compared through the pointer.
    if (n > kHeadBytes && internal::Diff16(s.key + n - 16, key.joined.data() + n - 16) != 0) {
      return {nullptr, nullptr};
    }
    return {s.value, &s.summary};
  }

  size_t size() const { return slots_.size(); }
  // Heap bytes the index holds (its slots, homes and joined keys, as reserved).
  size_t heap_bytes() const {
    return slots_.capacity() * sizeof(Slot) + homes_.capacity() * sizeof(uint16_t) +
           keys_.capacity();
  }
  // Paths beyond this many are not indexed (found key by key): a home names its slot in 16
  // bits. Devices have a few dozen paths at most (the API allows 32 attributes and
  // capacities together per device).
  static constexpr size_t kMaxPaths = UINT16_MAX;

 private:
  static constexpr size_t kMaxMiddleKey = 255;
  // One cache line: what a lookup compares, then what it returns. (No hash: comparing it
  // first would save nothing, the key's size and head reject other keys as early.)
  struct alignas(64) Slot {
    std::array<uint64_t, kHeadBytes / 8> head{};  // as Key::head
    uint64_t size = 0;  // of the key; 0: an empty slot
    const char* key = nullptr;  // into keys_
    const Value* value = nullptr;
    Summary summary;
  };
  static_assert(sizeof(Slot) == 64);
  class Builder;
  // The first kHeadBytes bytes of `text`, zero-padded.
  static std::array<uint64_t, kHeadBytes / 8> Head(std::string_view text);

  // k1's position in kRootKeys plus one, or 0.
  static uint8_t RootCode(std::string_view k1) {
    for (size_t i = 0; i < kRootKeys.size(); ++i) {
      if (kRootKeys[i] == k1) return static_cast<uint8_t>(i + 1);
    }
    return 0;
  }

  // A path's home: multiply-shift hashing of its hash (the multiplier is chosen when
  // building). An empty index has one empty home: multiplier and shift 0.
  uint64_t Home(uint64_t hash) const { return (hash * multiplier_) >> shift_; }

  static const Slot kEmptySlot;

  // Open addressing over small homes, slots packed: homes_[i] is 0 (empty) or one plus the
  // position in slots_ of the path whose probe passes there. A power of two in size, at most
  // half full (so that a probe always ends at an empty home). Packing keeps a 64-byte slot
  // per path instead of per home: a device with 14 paths holds 14 slots and 32 homes
  // (~0.95 KB) instead of 32 slots (2 KB), and 8,000 devices save ~8.5 MiB.
  std::vector<uint16_t> homes_ = std::vector<uint16_t>(1);
  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
  uint64_t multiplier_ = 0;
  int shift_ = 0;
  std::vector<char> keys_;  // the joined keys (a vector: moving keeps the bytes in place)
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_PATH_INDEX_H_
