#include "policy/allocator/internal/interner.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

namespace draguard::alloc::internal {
namespace {

// Keys by tag, for the lazy ids; every tag made is counted.
struct Keys {
  std::vector<std::string> by_tag;
  std::vector<int> made;
  Interner::Materialize Materializer() {
    made.assign(by_tag.size(), 0);
    return [this](uint32_t tag, std::string& key) {
      ++made[tag];
      key += by_tag[tag];
    };
  }
};

// One step: intern key `tag` by its key (Id) or by its hash (Lazy), with `hash` given.
struct Step {
  uint32_t tag;
  bool lazy;
  size_t hash;
  uint32_t want;
};

struct InternerCase {
  const char* name;
  std::vector<std::string> keys;  // by tag
  std::vector<Step> steps;
  std::vector<int> made;  // by tag: the times its key was made
};

class InternerTest : public ::testing::TestWithParam<InternerCase> {};

// Lazy ids number and match exactly as ids interned by key, whatever the hashes collide on;
// a lazy key is made only when an equal hash meets it, and once.
TEST_P(InternerTest, LazyIdsAreIdsOfTheirKeys) {
  const InternerCase& c = GetParam();
  Keys keys{.by_tag = c.keys};
  Interner interner(keys.Materializer());
  for (size_t i = 0; i < c.steps.size(); ++i) {
    const Step& s = c.steps[i];
    const uint32_t id = s.lazy ? interner.Lazy(s.hash, s.tag)
                               : interner.Id(c.keys[s.tag], s.hash);
    EXPECT_EQ(id, s.want) << c.name << " step " << i;
    EXPECT_EQ(interner.hash(id), s.hash) << c.name << " step " << i;
  }
  EXPECT_EQ(keys.made, c.made) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InternerTest,
    ::testing::Values(
        InternerCase{.name = "distinct hashes: no key made",
                     .keys = {"a", "b", "c"},
                     .steps = {{0, true, 1, 0}, {1, false, 2, 1}, {2, true, 3, 2}, {0, true, 1, 0}},
                     .made = {0, 0, 0}},
        InternerCase{.name = "a key equal to a lazy one finds it",
                     .keys = {"a", "a"},
                     .steps = {{0, true, 7, 0}, {1, false, 7, 0}, {1, false, 7, 0}},
                     .made = {1, 0}},
        InternerCase{.name = "a lazy key equal to an interned one finds it",
                     .keys = {"a", "a"},
                     .steps = {{0, false, 7, 0}, {1, true, 7, 0}},
                     .made = {0, 1}},
        InternerCase{.name = "two lazy keys, equal",
                     .keys = {"x", "x"},
                     .steps = {{0, true, 5, 0}, {1, true, 5, 0}},
                     .made = {1, 1}},
        InternerCase{.name = "colliding hashes, distinct keys",
                     .keys = {"a", "b", "c"},
                     .steps = {{0, true, 9, 0},
                               {1, true, 9, 1},
                               {2, false, 9, 2},
                               {1, false, 9, 1}},
                     .made = {1, 1, 0}}),
    [](const ::testing::TestParamInfo<InternerCase>& info) {
      std::string name;
      for (char ch : std::string(info.param.name)) name += std::isalnum(ch) ? ch : '_';
      return name;
    });

// Many ids (the table grows) keep their numbering and are found again, lazy or not.
TEST(InternerTest, GrowsKeepingIds) {
  Keys keys;
  for (int i = 0; i < 1000; ++i) keys.by_tag.push_back("key-" + std::to_string(i));
  Interner interner(keys.Materializer());
  auto hash = [](uint32_t i) { return static_cast<size_t>(i % 97); };  // many collisions
  for (uint32_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(i % 2 ? interner.Lazy(hash(i), i) : interner.Id(keys.by_tag[i], hash(i)), i);
  }
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(interner.Id(keys.by_tag[i], hash(i)), i);
  EXPECT_EQ(interner.size(), 1000u);
  for (int made : keys.made) EXPECT_LE(made, 1);
}

}  // namespace
}  // namespace draguard::alloc::internal
