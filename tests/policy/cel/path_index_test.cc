// PathIndex (path_index.h): which paths an index holds, that every lookup agrees with a
// key-by-key walk of the maps, and that a prepared device carries an index of its own.
#include "policy/cel/path_index.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "policy/cel/device.h"

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

const Value* Lookup(const PathIndex& index, const std::vector<std::string>& keys) {
  const std::string joined = keys.size() == 1 ? PathIndex::JoinOne(keys[0])
                                              : PathIndex::Join(keys[0], keys[1], keys[2]);
  const Value* found = index.Find(PathIndex::Hash(joined), joined);
  // FindFirst() may miss a present path (a collision), but never finds another one.
  const Value* first = index.FindFirst(PathIndex::Hash(joined), joined);
  EXPECT_TRUE(first == nullptr || first == found) << joined;
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
