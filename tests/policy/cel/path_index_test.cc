// PathIndex (path_index.h): which paths an index holds, that every lookup agrees with a
// key-by-key walk of the maps, and that a prepared device carries an index of its own.
#include "policy/cel/path_index.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "policy/cel/dra/device.h"

namespace draguard::cel {
namespace {

// Maps built for a test, kept at stable addresses.
class Maps {
 public:
  MapData& New() { return maps_.emplace_back(); }
  std::string_view Keep(std::string s) { return strings_.emplace_back(std::move(s)); }
  void Put(MapData& map, std::string_view key, Value value) {
    map.entries.emplace_back(Value::StringView(Keep(std::string(key))), value);
  }

 private:
  std::deque<MapData> maps_;
  std::deque<std::string> strings_;
};

// The value at `keys` from `root` the way MapData lookups find it (first entry with the
// key), or nullptr; no defaulting.
const Value* Walk(const MapData& root, const std::vector<std::string>& keys) {
  const MapData* map = &root;
  const Value* cur = nullptr;
  for (const std::string& key : keys) {
    if (map == nullptr) return nullptr;
    cur = map->Find(Value::StringView(key));
    if (cur == nullptr) return nullptr;
    map = cur->kind() == Kind::kMap ? &cur->map() : nullptr;
  }
  return cur;
}

std::string JoinKeys(const std::vector<std::string>& keys) {
  return keys.size() == 1 ? PathIndex::JoinOne(keys[0])
                          : PathIndex::Join(keys[0], keys[1], keys[2]);
}

// Find() of `keys`, checking FindFirst() against it: FindFirst may miss a present path (a
// collision), but never finds another one, and its summary is the value's.
const Value* Lookup(const PathIndex& index, const std::vector<std::string>& keys) {
  const std::string joined = JoinKeys(keys);
  const PathIndex::Key key = PathIndex::MakeKey(joined);
  const Value* found = index.Find(key);
  if (joined.size() <= PathIndex::kMaxFirstKey) {
    const PathIndex::Entry first = index.FindFirst(key);
    EXPECT_TRUE(first.value == nullptr || first.value == found) << joined;
    if (first.value != nullptr) {
      const PathIndex::Summary want = PathIndex::Summarize(*first.value);
      EXPECT_EQ(first.summary->kind, want.kind) << joined;
      EXPECT_EQ(first.summary->size, want.size) << joined;
      EXPECT_EQ(first.summary->words, want.words) << joined;
    }
  }
  return found;
}

struct PathCase {
  std::vector<std::string> keys;
  bool indexed;  // else absent from the index (whether or not the maps have it)
};

TEST(PathIndexTest, HoldsRootKeysAndRootMapPathsOnly) {
  Maps m;
  MapData& root = m.New();
  MapData& attributes = m.New();
  MapData& gpu = m.New();
  MapData& other = m.New();
  MapData& other_domain = m.New();
  MapData& shadowed = m.New();
  m.Put(gpu, "model", Value::StringView("A100"));
  m.Put(gpu, "index", Value::Int(3));
  m.Put(gpu, "model", Value::StringView("shadowed"));  // a later duplicate key
  gpu.entries.emplace_back(Value::Int(7), Value::Bool(true));  // not a string key
  m.Put(shadowed, "model", Value::StringView("B200"));
  m.Put(other_domain, "x", Value::Int(1));
  m.Put(other, "d", Value::MapRef(&other_domain));
  const std::string long_domain(256, 'd');
  MapData& long_map = m.New();
  m.Put(long_map, "y", Value::Int(2));
  m.Put(attributes, "gpu.example.com", Value::MapRef(&gpu));
  m.Put(attributes, "gpu.example.com", Value::MapRef(&shadowed));  // shadowed: not indexed
  m.Put(attributes, long_domain, Value::MapRef(&long_map));
  m.Put(attributes, "plain", Value::Int(5));
  m.Put(root, "driver", Value::StringView("gpu.example.com"));
  m.Put(root, "attributes", Value::MapRef(&attributes));
  m.Put(root, "other", Value::MapRef(&other));
  const PathIndex index = PathIndex::Build(root);

  const PathCase cases[] = {
      {{"driver"}, true},
      {{"attributes"}, true},
      {{"other"}, true},
      {{"missing"}, false},
      {{"attributes", "gpu.example.com", "model"}, true},
      {{"attributes", "gpu.example.com", "index"}, true},
      {{"attributes", "gpu.example.com", "missing"}, false},
      {{"attributes", "nowhere", "model"}, false},
      {{"other", "d", "x"}, false},                 // "other" is not a root key
      {{"attributes", long_domain, "y"}, false},    // a middle key over 255 bytes
      {{"attributes", "plain", "x"}, false},        // not a map
      {{"capacity", "gpu.example.com", "model"}, false},
  };
  size_t indexed = 0;
  for (const PathCase& c : cases) {
    const Value* found = Lookup(index, c.keys);
    if (c.indexed) {
      ++indexed;
      EXPECT_EQ(found, Walk(root, c.keys)) << c.keys.back();
      EXPECT_NE(found, nullptr) << c.keys.back();
    } else {
      EXPECT_EQ(found, nullptr) << c.keys.back();
    }
  }
  // The first "model" wins, as in MapData::Find.
  const Value* model = Lookup(index, {"attributes", "gpu.example.com", "model"});
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->text(), "A100");
  EXPECT_EQ(index.size(), indexed);
  EXPECT_FALSE(PathIndex::Joinable("other", "d"));
  EXPECT_FALSE(PathIndex::Joinable("attributes", long_domain));
  EXPECT_TRUE(PathIndex::Joinable("capacity", std::string(255, 'd')));
}

// Joined keys name one path each, also where plain concatenation would not.
TEST(PathIndexTest, JoinedKeysAreDistinct) {
  EXPECT_NE(PathIndex::Join("attributes", "ab", "c"), PathIndex::Join("attributes", "a", "bc"));
  EXPECT_NE(PathIndex::Join("attributes", "a", "b"), PathIndex::Join("capacity", "a", "b"));
  EXPECT_NE(PathIndex::JoinOne("attributes"), PathIndex::Join("attributes", "", ""));
  EXPECT_NE(PathIndex::JoinOne(""), PathIndex::JoinOne(std::string(1, '\0')));
}

// Many paths, so that probes collide and wrap around the table: every path is found, with
// the value a key-by-key walk finds, and near-misses are not.
TEST(PathIndexTest, FindsEveryPathOfALargeDevice) {
  DeviceData data;
  data.driver = "gpu.example.com";
  for (int i = 0; i < 300; ++i) {
    const std::string domain = "d" + std::to_string(i % 7) + ".example.com/";
    data.attributes[domain + "a" + std::to_string(i)].int_value = i;
    data.capacity[domain + "c" + std::to_string(i)] = std::to_string(i + 1);
  }
  StatusOr<PreparedDevice> device = PreparedDevice::Prepare(data);
  ASSERT_TRUE(device.ok()) << device.status();
  const MapData& root = device->device().map();
  ASSERT_NE(root.path_index, nullptr);
  const PathIndex& index = *root.path_index;
  EXPECT_EQ(index.size(), 3u + 600u);  // driver, attributes, capacity and each value
  for (int i = 0; i < 300; ++i) {
    const std::string domain = "d" + std::to_string(i % 7) + ".example.com";
    const std::string n = std::to_string(i);
    using Keys = std::vector<std::string>;
    for (const Keys& keys :
         {Keys{"attributes", domain, "a" + n}, Keys{"capacity", domain, "c" + n}}) {
      const Value* found = Lookup(index, keys);
      ASSERT_NE(found, nullptr) << keys[2];
      EXPECT_EQ(found, Walk(root, keys)) << keys[2];
      const Keys near = {keys[0], domain, keys[2] + "0"};  // present or not
      EXPECT_EQ(Lookup(index, near), Walk(root, near)) << near[2];
    }
  }
  EXPECT_EQ(Lookup(index, {"driver"}), Walk(root, {"driver"}));
}

// The benchmark's sample device (bench/cel_bench.cc): every path is in its first slot, so
// every selector lookup on it is a FindFirst() hit (a few dozen paths fit; more may not).
TEST(PathIndexTest, SmallDeviceHasEveryPathInItsFirstSlot) {
  DeviceData d;
  d.driver = "gpu.example.com";
  d.attributes["gpu.example.com/model"].string_value = "A100";
  d.attributes["gpu.example.com/driverVersion"].version_value = "1.2.3";
  d.attributes["resource.kubernetes.io/pciBusID"].string_value = "0008:06:00.0";
  d.attributes["dra.net/ifName"].string_value = "dummy0";
  d.attributes["dra.net/rdma"].bool_value = true;
  d.attributes["dra.net/numaNode"].int_value = 0;
  d.attributes["dra.net/cloudNetwork"].string_value = "projects/x/dranet-net";
  d.attributes["gpu.nvidia.com/profile"].string_value = "1g.5gb";
  d.capacity["gpu.example.com/memory"] = "80Gi";
  StatusOr<PreparedDevice> device = PreparedDevice::Prepare(d);
  ASSERT_TRUE(device.ok()) << device.status();
  const MapData& root = device->device().map();
  using Keys = std::vector<std::string>;
  std::vector<Keys> paths = {{"driver"}, {"attributes"}, {"capacity"},
                             {"capacity", "gpu.example.com", "memory"}};
  for (const auto& [name, attribute] : d.attributes) {
    const size_t slash = name.find('/');
    paths.push_back({"attributes", name.substr(0, slash), name.substr(slash + 1)});
  }
  for (const Keys& keys : paths) {
    const std::string joined = JoinKeys(keys);
    const PathIndex::Entry first = root.path_index->FindFirst(PathIndex::MakeKey(joined));
    EXPECT_EQ(first.value, Walk(root, keys)) << keys.back();
  }
}

// FindFirst compares a whole key, not its hash, length and first words only: keys that
// share those (forced here by giving the probe the stored key's hash) are told apart.
TEST(PathIndexTest, FindFirstComparesWholeKeys) {
  Maps m;
  MapData& root = m.New();
  MapData& attributes = m.New();
  MapData& domain = m.New();
  const std::string stored = "name-with-a-long-tail-x", other = "name-with-a-long-tail-y";
  m.Put(domain, stored, Value::Int(1));
  m.Put(attributes, "d", Value::MapRef(&domain));
  m.Put(root, "attributes", Value::MapRef(&attributes));
  const PathIndex index = PathIndex::Build(root);
  const std::string stored_joined = PathIndex::Join("attributes", "d", stored);
  const std::string other_joined = PathIndex::Join("attributes", "d", other);
  ASSERT_LE(other_joined.size(), PathIndex::kMaxFirstKey);
  PathIndex::Key probe = PathIndex::MakeKey(other_joined);
  probe.hash = PathIndex::Hash(stored_joined);
  EXPECT_NE(index.FindFirst(PathIndex::MakeKey(stored_joined)).value, nullptr);
  EXPECT_EQ(index.FindFirst(probe).value, nullptr);
  EXPECT_EQ(index.Find(probe), nullptr);
}

// Summaries are equal exactly when values of the summarised kinds are (a string of at most
// kHeadBytes against any string).
TEST(PathIndexTest, SummariesCompareLikeValues) {
  const std::string sixteen(16, 'a'), seventeen(17, 'a');
  const std::vector<Value> values = {
      Value::StringView(""),        Value::StringView("a"),      Value::StringView("b"),
      Value::StringView("ab"),      Value::StringView(std::string_view("a\0", 2)),
      Value::StringView(sixteen),   Value::StringView(seventeen), Value::Int(0),
      Value::Int(1),                Value::Int(-1),              Value::Bool(false),
      Value::Bool(true)};
  auto same = [](const PathIndex::Summary& a, const PathIndex::Summary& b) {
    return a.kind == b.kind && a.size == b.size && a.words == b.words;
  };
  for (const Value& a : values) {
    for (const Value& b : values) {
      if (a.kind() != b.kind()) continue;
      if (a.kind() == Kind::kString && a.text().size() > PathIndex::kHeadBytes &&
          b.text().size() > PathIndex::kHeadBytes) {
        continue;  // not decided by summaries (never asked: constants are short)
      }
      EXPECT_EQ(same(PathIndex::Summarize(a), PathIndex::Summarize(b)), ValuesEqual(a, b))
          << a.DebugString() << " " << b.DebugString();
    }
  }
}

// Issue 17 item 0: a webhook keeps one index per inventory device, so the index holds a
// 64-byte slot per path, not per home. A GPU as dra-driver-nvidia-gpu publishes it (11
// attributes, 1 capacity: 15 paths with the root keys) took 32 slots (2 KiB) when slots were
// the table; packed, it is 15 slots, 32 two-byte homes and its joined keys.
TEST(PathIndexTest, HoldsOneSlotPerPathOfARealisticGpu) {
  DeviceData d;
  d.driver = "gpu.nvidia.com";
  for (const char* name : {"type", "uuid", "productName", "brand", "architecture"}) {
    d.attributes[std::string("gpu.nvidia.com/") + name].string_value = std::string("v-") + name;
  }
  for (const char* name : {"cudaComputeCapability", "driverVersion", "cudaDriverVersion"}) {
    d.attributes[std::string("gpu.nvidia.com/") + name].version_value = "8.0.0";
  }
  d.attributes["resource.kubernetes.io/pciBusID"].string_value = "0000:07:00.0";
  d.attributes["resource.kubernetes.io/pcieRoot"].string_value = "pci0000:00";
  d.attributes["resource.kubernetes.io/numaNode"].int_value = 0;
  d.capacity["gpu.nvidia.com/memory"] = "80Gi";
  StatusOr<PreparedDevice> device = PreparedDevice::Prepare(d);
  ASSERT_TRUE(device.ok()) << device.status();
  const PathIndex& index = *device->device().map().path_index;
  ASSERT_EQ(index.size(), 15u);
  size_t key_bytes = 0;
  for (const auto& [name, attribute] : d.attributes) key_bytes += name.size() + 2;
  key_bytes += 64;  // driver, attributes, capacity and the capacity's path
  EXPECT_LE(index.heap_bytes(), 15 * 64 + 32 * sizeof(uint16_t) + key_bytes);
  EXPECT_LT(index.heap_bytes(), 1536u) << "was 2,048 bytes of slots alone";
}

TEST(PathIndexTest, EmptyIndexFindsNothing) {
  const PathIndex empty;
  EXPECT_EQ(Lookup(empty, {"driver"}), nullptr);
  MapData root;
  const PathIndex built = PathIndex::Build(root);
  EXPECT_EQ(built.size(), 0u);
  EXPECT_EQ(Lookup(built, {"attributes", "a", "b"}), nullptr);
}

}  // namespace
}  // namespace draguard::cel
