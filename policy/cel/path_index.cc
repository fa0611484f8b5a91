// Building: walk the string-keyed maps down three levels, skipping shadowed keys, collect the
// joined keys in one buffer, then place the paths in an open-addressing table (linear
// probing, at most a quarter full, so that a probe always ends at an empty slot).
#include "policy/cel/path_index.h"

#include <bit>

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
    if (paths.empty()) return index;
    // A quarter full at most: a lookup nearly always ends at its first slot.
    index.slots_.resize(std::bit_ceil(paths.size() * 4));
    index.mask_ = index.slots_.size() - 1;
    index.size_ = paths.size();
    for (const Path& p : paths) Place(index, p);
    return index;
  }

 private:
  // Paths are distinct (keys are unique per map after shadowing, and joining is one to
  // one), so no slot is ever replaced.
  static void Place(PathIndex& index, const Path& p) {
    const char* key = index.keys_.data() + p.offset;
    const uint64_t hash = Hash(std::string_view(key, p.size));
    uint64_t i = hash & index.mask_;
    while (index.slots_[i].value != nullptr) i = (i + 1) & index.mask_;
    index.slots_[i] = Slot{.hash = hash, .key = key, .size = p.size, .value = p.value};
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
  // FNV's low bits depend only on the low bits of each byte (a product carries upwards);
  // the table uses the low bits, so finish with MurmurHash3's mixer.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

const Value* PathIndex::Find(uint64_t hash, std::string_view joined) const {
  // The table is at most a quarter full, so the probe ends at an empty slot.
  for (uint64_t i = hash & mask_; slots_[i].value != nullptr; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.hash == hash && s.size == joined.size() &&
        internal::SameBytes(s.key, joined.data(), joined.size())) {
      return s.value;
    }
  }
  return nullptr;
}

PathIndex PathIndex::Build(const MapData& root) { return Builder::Build(root); }

}  // namespace draguard::cel
