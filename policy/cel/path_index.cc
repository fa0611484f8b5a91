// Building: walk the string-keyed maps down three levels, skipping shadowed keys, collect
// the joined keys in one buffer, then place the paths: packed slots, found through an
// open-addressing table of two-byte homes (linear probing, at most half full, so that a probe
// always ends at an empty home), choosing the multiplicative home function that leaves the
// fewest paths outside their home.
#include "policy/cel/path_index.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace draguard::cel {
namespace {

// Whether an entry before `index` in `map` has the same string key (MapData lookups find
// the first, so the later one is unreachable).
bool Shadowed(const MapData& map, size_t index) {
  const std::string_view key = map.entries[index].first.text();
  for (size_t i = 0; i < index; ++i) {
    const Value& k = map.entries[i].first;
    if (k.kind() == Kind::kString && k.text() == key) return true;
  }
  return false;
}

// Calls visit(key, value) for each reachable string-keyed entry of `map`.
template <typename Visit>
void ForEachStringKey(const MapData& map, Visit&& visit) {
  for (size_t i = 0; i < map.entries.size(); ++i) {
    const auto& [key, value] = map.entries[i];
    if (key.kind() == Kind::kString && !Shadowed(map, i)) visit(key.text(), value);
  }
}

struct Path {
  size_t offset;  // of the joined key in keys_
  size_t size;
  const Value* value;
};

}  // namespace

class PathIndex::Builder {
 public:
  static PathIndex Build(const MapData& root) {
    PathIndex index;
    std::vector<Path> paths;
    auto add = [&](const std::string& joined, const Value& value) {
      paths.push_back({index.keys_.size(), joined.size(), &value});
      index.keys_.insert(index.keys_.end(), joined.begin(), joined.end());
    };
    ForEachStringKey(root, [&](std::string_view k1, const Value& v1) {
      add(JoinOne(k1), v1);
      if (v1.kind() != Kind::kMap || RootCode(k1) == 0) return;
      ForEachStringKey(v1.map(), [&](std::string_view k2, const Value& v2) {
        if (v2.kind() != Kind::kMap || !Joinable(k1, k2)) return;
        ForEachStringKey(v2.map(), [&](std::string_view k3, const Value& v3) {
          add(Join(k1, k2, k3), v3);
        });
      });
    });
    if (paths.size() > kMaxPaths) {  // the rest are found key by key
      paths.resize(kMaxPaths);
      index.keys_.resize(paths.back().offset + paths.back().size);
    }
    if (paths.empty()) return index;
    index.keys_.shrink_to_fit();  // before placing: slots point into keys_
    // Half full at most: a home is two bytes, so spare homes are cheap, and they keep nearly
    // every path in its home (BestMultiplier) and every probe short.
    index.homes_.assign(std::bit_ceil(2 * paths.size()), 0);
    index.mask_ = index.homes_.size() - 1;
    index.shift_ = 64 - std::countr_zero(index.homes_.size());
    index.slots_.reserve(paths.size());
    std::vector<uint64_t> hashes;
    hashes.reserve(paths.size());
    for (const Path& p : paths) hashes.push_back(Hash(KeyOf(index, p)));
    index.multiplier_ = BestMultiplier(index, hashes);
    for (size_t i = 0; i < paths.size(); ++i) Place(index, paths[i], hashes[i]);
    return index;
  }

 private:
  // The home function whose table has the fewest paths outside their home, of
  // kMultipliers candidates, the first that places every path there if one does: then
  // every lookup of a present path is a FindFirst() hit. With up to about 15 paths one
  // usually does (the benchmark's device: 14); with a few dozen, a few paths end up
  // further along and are found by Find().
  static constexpr int kMultipliers = 256;
  static uint64_t BestMultiplier(PathIndex& index, const std::vector<uint64_t>& hashes) {
    uint64_t best = 0;
    size_t best_displaced = SIZE_MAX;
    std::vector<bool> used(index.homes_.size());
    for (int k = 0; k < kMultipliers && best_displaced != 0; ++k) {
      index.multiplier_ = 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(2 * k + 1);
      std::fill(used.begin(), used.end(), false);
      size_t displaced = 0;
      for (uint64_t hash : hashes) {
        uint64_t i = index.Home(hash);
        if (used[i]) ++displaced;
        while (used[i]) i = (i + 1) & index.mask_;
        used[i] = true;
      }
      if (displaced < best_displaced) {
        best = index.multiplier_;
        best_displaced = displaced;
      }
    }
    return best;
  }

  static std::string_view KeyOf(const PathIndex& index, const Path& p) {
    return std::string_view(index.keys_.data() + p.offset, p.size);
  }

  // Paths are distinct (keys are unique per map after shadowing, and joining is one to
  // one), so no home is ever replaced.
  static void Place(PathIndex& index, const Path& p, uint64_t hash) {
    const std::string_view joined = KeyOf(index, p);
    uint64_t i = index.Home(hash);
    while (index.homes_[i] != 0) i = (i + 1) & index.mask_;
    index.slots_.push_back(Slot{.head = Head(joined), .size = p.size, .key = joined.data(),
                                .value = p.value, .summary = Summarize(*p.value)});
    index.homes_[i] = static_cast<uint16_t>(index.slots_.size());
  }
};

std::string PathIndex::Join(std::string_view k1, std::string_view k2, std::string_view k3) {
  std::string joined;
  joined.reserve(k2.size() + k3.size() + 2);
  joined.push_back(static_cast<char>(RootCode(k1)));
  joined.push_back(static_cast<char>(static_cast<uint8_t>(k2.size())));
  joined.append(k2).append(k3);
  return joined;
}

std::string PathIndex::JoinOne(std::string_view k1) {
  std::string joined;
  joined.reserve(k1.size() + 1);
  joined.push_back('\0');
  joined.append(k1);
  return joined;
}

uint64_t PathIndex::Hash(std::string_view joined) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : joined) {
    h ^= c;
    h *= 1099511628211ull;
  }
  // FNV's bits are poorly mixed (a product carries upwards only: the low bits depend on
  // the low bits of each byte alone), so finish with MurmurHash3's mixer.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

PathIndex::Key PathIndex::MakeKey(std::string_view joined) {
  return Key{.hash = Hash(joined), .head = Head(joined), .joined = joined};
}

std::array<uint64_t, PathIndex::kHeadBytes / 8> PathIndex::Head(std::string_view text) {
  std::array<uint64_t, kHeadBytes / 8> head{};
  if (!text.empty()) std::memcpy(head.data(), text.data(), std::min(text.size(), kHeadBytes));
  return head;
}

PathIndex::Summary PathIndex::Summarize(const Value& v) {
  Summary summary{.kind = v.kind()};
  switch (v.kind()) {
    case Kind::kString: {
      const std::string_view text = v.text();
      summary.size = static_cast<uint32_t>(std::min<size_t>(text.size(), UINT32_MAX));
      summary.words = Head(text);
      break;
    }
    case Kind::kInt: summary.words[0] = static_cast<uint64_t>(v.int_value()); break;
    case Kind::kBool: summary.words[0] = v.bool_value() ? 1 : 0; break;
    default: break;
  }
  return summary;
}

const Value* PathIndex::Find(const Key& key) const {
  // At most half full, so the probe ends at an empty home.
  for (uint64_t i = Home(key.hash); homes_[i] != 0; i = (i + 1) & mask_) {
    const Slot& s = slots_[homes_[i] - 1];
    if (s.size == key.joined.size() && s.head[0] == key.head[0] && s.head[1] == key.head[1] &&
        internal::SameBytes(s.key, key.joined.data(), key.joined.size())) {
      return s.value;
    }
  }
  return nullptr;
}

const PathIndex::Slot PathIndex::kEmptySlot{};

PathIndex PathIndex::Build(const MapData& root) { return Builder::Build(root); }

}  // namespace draguard::cel
