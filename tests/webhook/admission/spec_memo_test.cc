// SpecMemo: a hit needs every part of the key and the same schema token; the memo forgets its
// oldest entry when full and never holds what it does not accept.
#include "webhook/admission/spec_memo.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace draguard::webhook {
namespace {

const SpecKey kKey{.kind = "ResourceClaim",
                   .version = "v1",
                   .name_space = "ml",
                   .admin_access_allowed = false,
                   .spec = R"({"devices":{"requests":[]}})"};

// kKey with one of its fields changed, for each field: none may share kKey's entry.
std::vector<SpecKey> KeysDifferingInOneField() {
  std::vector<SpecKey> others(5, kKey);
  others[0].kind = "ResourceClaimTemplate";
  others[1].version = "v1beta2";
  others[2].name_space = "ml2";
  others[3].admin_access_allowed = true;
  others[4].spec = R"({"devices":{"requests":[ ]}})";
  return others;
}

std::shared_ptr<const SpecFindings> Findings(const std::shared_ptr<const void>& token,
                                             std::string code = "x") {
  auto f = std::make_shared<SpecFindings>();
  f->schema_token = token;
  Diagnostic d;
  d.code = std::move(code);
  f->validation.push_back(d);
  return f;
}

TEST(SpecMemoTest, HitNeedsTheWholeKeyAndTheSameSchema) {
  auto token = std::make_shared<int>(1);
  auto other_token = std::make_shared<int>(2);
  SpecMemo memo;
  EXPECT_EQ(memo.Find(kKey, token.get()), nullptr);
  memo.Insert(kKey, Findings(token));
  ASSERT_NE(memo.Find(kKey, token.get()), nullptr);
  EXPECT_EQ(memo.Find(kKey, token.get())->validation.front().code, "x");
  EXPECT_EQ(memo.Find(kKey, other_token.get()), nullptr) << "another schema";

  // The key's text is copied: a key built from other storage with the same text hits.
  std::string spec_copy(kKey.spec);
  SpecKey same = kKey;
  same.spec = spec_copy;
  EXPECT_NE(memo.Find(same, token.get()), nullptr);

  const std::vector<SpecKey> others = KeysDifferingInOneField();
  for (const SpecKey& k : others) {
    EXPECT_EQ(memo.Find(k, token.get()), nullptr)
        << k.kind << " " << k.version << " " << k.name_space << " " << k.admin_access_allowed
        << " " << k.spec;
  }
}

TEST(SpecMemoTest, CountsLookupsOfAcceptedKeys) {
  auto token = std::make_shared<int>(1);
  SpecMemo memo;
  EXPECT_EQ(memo.Find(kKey, token.get()), nullptr);
  memo.Insert(kKey, Findings(token));
  EXPECT_NE(memo.Find(kKey, token.get()), nullptr);
  EXPECT_NE(memo.Find(kKey, token.get()), nullptr);
  SpecKey empty = kKey;
  empty.spec = {};
  EXPECT_EQ(memo.Find(empty, token.get()), nullptr);  // not accepted: not counted
  const SpecMemoStats stats = memo.stats();
  EXPECT_EQ(stats.entries, 1u);
  EXPECT_EQ(stats.hits, 2u);
  EXPECT_EQ(stats.misses, 1u);
}

TEST(SpecMemoTest, AcceptsOnlyNonEmptySpecsWithinTheLimits) {
  auto token = std::make_shared<int>(1);
  SpecMemo off({.entries = 0});
  off.Insert(kKey, Findings(token));
  EXPECT_EQ(off.size(), 0u);
  EXPECT_EQ(off.Find(kKey, token.get()), nullptr);

  SpecMemo small({.entries = 4, .max_spec_bytes = kKey.spec.size() - 1});
  EXPECT_FALSE(small.Accepts(kKey));
  small.Insert(kKey, Findings(token));
  EXPECT_EQ(small.size(), 0u);

  SpecMemo memo;
  SpecKey empty = kKey;
  empty.spec = {};
  EXPECT_FALSE(memo.Accepts(empty)) << "no spec text: nothing to key on";
}

TEST(SpecMemoTest, ForgetsTheOldestWhenFull) {
  auto token = std::make_shared<int>(1);
  SpecMemo memo({.entries = 2});
  const std::vector<std::string> specs = {"{\"a\":1}", "{\"a\":2}", "{\"a\":3}"};
  std::vector<SpecKey> keys(3, kKey);
  for (size_t i = 0; i < keys.size(); ++i) keys[i].spec = specs[i];
  memo.Insert(keys[0], Findings(token));
  memo.Insert(keys[1], Findings(token));
  memo.Insert(keys[1], Findings(token, "replaced"));  // replacing takes no new place
  EXPECT_EQ(memo.size(), 2u);
  EXPECT_EQ(memo.Find(keys[1], token.get())->validation.front().code, "replaced");
  memo.Insert(keys[2], Findings(token));
  EXPECT_EQ(memo.size(), 2u);
  EXPECT_EQ(memo.Find(keys[0], token.get()), nullptr);
  EXPECT_NE(memo.Find(keys[1], token.get()), nullptr);
  EXPECT_NE(memo.Find(keys[2], token.get()), nullptr);
}

// A miss carries its key's hash to the insert that follows it: past the entries a lookup
// scans (20), lookups go through the hash index, so an entry filed under a wrong hash would
// not be found again.
TEST(SpecMemoTest, AnInsertAfterAMissIsFoundAgain) {
  auto token = std::make_shared<int>(1);
  SpecMemo memo({.entries = 64, .sightings = 0});
  std::vector<std::string> specs;
  for (int i = 0; i < 40; ++i) specs.push_back("{\"a\":" + std::to_string(i) + "}");
  for (const std::string& spec : specs) {
    SpecKey key = kKey;
    key.spec = spec;
    const SpecLookup miss = memo.Look(key, token.get());
    ASSERT_EQ(miss.found(), nullptr);
    ASSERT_TRUE(miss.MissOf(memo, key));
    memo.Insert(miss, Findings(token, spec));
  }
  for (const std::string& spec : specs) {
    SpecKey key = kKey;
    key.spec = spec;
    const std::shared_ptr<const SpecFindings> found = memo.Find(key, token.get());
    ASSERT_NE(found, nullptr) << spec;
    EXPECT_EQ(found->validation.front().code, spec);
  }
  const SpecMemoStats stats = memo.stats();
  EXPECT_EQ(stats.misses, specs.size());
  EXPECT_EQ(stats.hits, specs.size());
}

// An insert after a miss reuses the key's text the lookup wrote only while nothing else was
// written since: lookups of other keys (in this memo or another) between a miss and its insert
// must not file the findings under their key.
TEST(SpecMemoTest, AnInsertAfterOtherLookupsFilesItsOwnKey) {
  auto token = std::make_shared<int>(1);
  for (const size_t entries : {size_t{4}, size_t{64}}) {  // scanned, then hashed lookups
    SpecMemo memo({.entries = entries, .sightings = 0});
    SpecMemo other;
    for (int i = 0; i < 30; ++i) {
      SpecKey filler = kKey;
      const std::string spec = "{\"f\":" + std::to_string(i) + "}";
      filler.spec = spec;
      memo.Insert(filler, Findings(token, spec));
    }
    const SpecLookup miss = memo.Look(kKey, token.get());
    ASSERT_EQ(miss.found(), nullptr);
    for (const SpecKey& k : KeysDifferingInOneField()) {
      EXPECT_EQ(memo.Look(k, token.get()).found(), nullptr);
      EXPECT_EQ(other.Look(k, token.get()).found(), nullptr);
    }
    memo.Insert(miss, Findings(token, "mine"));
    const std::shared_ptr<const SpecFindings> found = memo.Find(kKey, token.get());
    ASSERT_NE(found, nullptr) << entries;
    EXPECT_EQ(found->validation.front().code, "mine");
    for (const SpecKey& k : KeysDifferingInOneField()) {
      EXPECT_EQ(memo.Find(k, token.get()), nullptr) << k.spec;
    }
  }
}

// By default a spec is kept from its second miss: a first miss's findings are not (keeps()
// is false and its Insert does nothing), so a stream of specs that never repeat leaves the
// memo as it was; a spec seen again is kept, as is one kept before under another schema.
// With sightings 0, from the first miss.
TEST(SpecMemoTest, ASpecIsKeptFromItsSecondMiss) {
  auto token = std::make_shared<int>(1);
  auto next_token = std::make_shared<int>(2);
  SpecMemo memo;
  const SpecLookup first = memo.Look(kKey, token.get());
  EXPECT_FALSE(first.keeps());
  memo.Insert(first, Findings(token));
  EXPECT_EQ(memo.size(), 0u);
  for (int i = 0; i < 100; ++i) {  // a stream of specs seen once
    SpecKey once = kKey;
    const std::string spec = "{\"once\":" + std::to_string(i) + "}";
    once.spec = spec;
    const SpecLookup miss = memo.Look(once, token.get());
    EXPECT_FALSE(miss.keeps()) << spec;
    memo.Insert(miss, Findings(token, spec));
  }
  EXPECT_EQ(memo.size(), 0u);
  const SpecLookup second = memo.Look(kKey, token.get());
  EXPECT_TRUE(second.keeps());
  memo.Insert(second, Findings(token));
  EXPECT_EQ(memo.size(), 1u);
  EXPECT_NE(memo.Find(kKey, token.get()), nullptr);
  // Under a newer schema the entry is stale: a miss, but of a spec kept before.
  const SpecLookup stale = memo.Look(kKey, next_token.get());
  EXPECT_EQ(stale.found(), nullptr);
  EXPECT_TRUE(stale.keeps());
  const SpecMemoStats stats = memo.stats();
  EXPECT_EQ(stats.first_sights, 101u);
  EXPECT_EQ(stats.misses, 103u);

  SpecMemo every({.sightings = 0});
  const SpecLookup miss = every.Look(kKey, token.get());
  EXPECT_TRUE(miss.keeps());
  every.Insert(miss, Findings(token));
  EXPECT_EQ(every.size(), 1u);
  EXPECT_EQ(every.stats().first_sights, 0u);
}

// A miss stands only for the key and the memo it was looked up for; a hit or no lookup is no
// miss.
TEST(SpecMemoTest, AMissIsOnlyOfItsKeyAndMemo) {
  auto token = std::make_shared<int>(1);
  SpecMemo memo({.sightings = 0});
  SpecMemo other;
  const SpecLookup miss = memo.Look(kKey, token.get());
  EXPECT_TRUE(miss.MissOf(memo, kKey));
  std::string spec_copy(kKey.spec);
  SpecKey same = kKey;
  same.spec = spec_copy;
  EXPECT_TRUE(miss.MissOf(memo, same)) << "the same text elsewhere";
  EXPECT_FALSE(miss.MissOf(other, kKey)) << "another memo";
  const std::vector<SpecKey> others = KeysDifferingInOneField();
  for (const SpecKey& k : others) {
    EXPECT_FALSE(miss.MissOf(memo, k))
        << k.kind << " " << k.version << " " << k.name_space << " " << k.admin_access_allowed
        << " " << k.spec;
  }
  EXPECT_FALSE(SpecLookup().MissOf(memo, kKey)) << "nothing looked up";
  memo.Insert(miss, Findings(token));
  const SpecLookup hit = memo.Look(kKey, token.get());
  ASSERT_NE(hit.found(), nullptr);
  EXPECT_FALSE(hit.MissOf(memo, kKey));
}

TEST(SpecMemoTest, SpecFields) {
  struct Case {
    std::string field;
    bool in_spec;
  };
  for (const Case& c : std::vector<Case>{{"spec", true},
                                         {"spec.devices.requests[0].name", true},
                                         {"spec[0]", true},
                                         {"specification", false},
                                         {"metadata.name", false},
                                         {"status", false},
                                         {"", false},
                                         {"spe", false}}) {
    EXPECT_EQ(IsSpecField(c.field), c.in_spec) << c.field;
  }
}

}  // namespace
}  // namespace draguard::webhook
