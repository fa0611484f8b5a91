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

  // Indexes the values of `root`'s paths described above. The index borrows those values:
  // `root` and every map under it must stay unchanged while the index is used.
  static PathIndex Build(const MapData& root);

  // The value at the path whose joined key is `joined` (hash: Hash(joined)), or nullptr.
  const Value* Find(uint64_t hash, std::string_view joined) const;
  // Find() for a path in the first slot it probes (where nearly every lookup ends), or
  // nullptr, which does not mean the path is absent. No call: for callers that keep a
  // small stack frame. Precondition: joined.size() <= internal::kMaxShortBytes.
  const Value* FindFirst(uint64_t hash, std::string_view joined) const {
    const Slot& s = slots_[hash & mask_];
    // An empty slot never matches: its size is 0 and joined keys are not empty.
    const bool match = s.hash == hash && s.size == joined.size() &&
                       internal::SameShortBytes(s.key, joined.data(), joined.size());
    return match ? s.value : nullptr;
  }

  size_t size() const { return size_; }

 private:
  static constexpr size_t kMaxMiddleKey = 255;
  struct Slot {
    uint64_t hash = 0;
    const char* key = nullptr;  // into keys_
    size_t size = 0;
    const Value* value = nullptr;  // null: empty slot
  };
  class Builder;


  // k1's position in kRootKeys plus one, or 0.
  static uint8_t RootCode(std::string_view k1) {
    for (size_t i = 0; i < kRootKeys.size(); ++i) {
      if (kRootKeys[i] == k1) return static_cast<uint8_t>(i + 1);
    }
    return 0;
  }

  std::vector<Slot> slots_ = std::vector<Slot>(1);  // a power of two in size, never full
  uint64_t mask_ = 0;
  size_t size_ = 0;
  std::vector<char> keys_;  // the joined keys (a vector: moving keeps the bytes in place)
};

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_PATH_INDEX_H_
