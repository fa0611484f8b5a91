// SkipJsonValue against the tree reader it stands in for (ReadJsonValue): the same values
// accepted, the lexer left at the same byte; refused where the tree reader refuses (invalid,
// too deep). Past 64 levels of its own it may refuse a value the tree reader takes (its
// callers then read the value again), never the reverse.
#include <string>

#include "gtest/gtest.h"
#include "policy/k8s/document.h"
#include "tests/webhook/testing/random_json.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"

namespace draguard::webhook {
namespace {

constexpr size_t kMaxDepth = 100;

struct Read {
  bool ok = false;
  size_t pos = 0;
};

Read Skip(const std::string& json, size_t depth) {
  JsonLexer lexer(json);
  const bool ok = SkipJsonValue(lexer, depth, kMaxDepth);
  return {ok, lexer.pos()};
}

Read Tree(const std::string& json, size_t depth) {
  JsonLexer lexer(json);
  k8s::DocNode node;
  const bool ok = ReadJsonValue(lexer, depth, kMaxDepth, node);
  return {ok, lexer.pos()};
}

std::string Nested(size_t levels) {
  return std::string(levels, '[') + "1" + std::string(levels, ']');
}

TEST(SkipJsonValueTest, AcceptsWhatTheTreeReaderAccepts) {
  struct Case {
    std::string json;
    size_t depth;
    bool ok;
  };
  const Case cases[] = {
      {R"({"a":[1,{"b":null}],"c":"x\"y"} tail)", 0, true},
      {R"( [ 1 , 2 ] )", 0, false},  // the caller skips the space before a value
      {"[ 1 , { \"a\" : true } ]", 0, true},
      {"{}", 0, true},
      {"[]", 0, true},
      {"-0.5e+3", 0, true},
      {R"({"a":1,})", 0, false},
      {R"({"a" 1})", 0, false},
      {R"({1:2})", 0, false},
      {"[1 2]", 0, false},
      {"[1,]", 0, false},
      {"tru", 0, false},
      {"\"open", 0, false},
      {"01", 0, true},  // "0" is the value; the caller sees what follows
      {Nested(64), 0, true},
      {Nested(10), kMaxDepth - 10, true},
      {Nested(11), kMaxDepth - 10, false},  // too deep for both
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    const Read skip = Skip(c.json, c.depth);
    const Read tree = Tree(c.json, c.depth);
    EXPECT_EQ(skip.ok, c.ok);
    EXPECT_EQ(tree.ok, c.ok);
    if (skip.ok) EXPECT_EQ(skip.pos, tree.pos);
  }
  // More than 64 levels of its own: refused, though within the depth limit (callers read
  // such values again with their own readers).
  EXPECT_FALSE(Skip(Nested(65), 0).ok);
  EXPECT_TRUE(Tree(Nested(65), 0).ok);
}

TEST(SkipJsonValueTest, GeneratedValuesAsTheTreeReader) {
  testing::RandomJson generator(1128);
  size_t accepted = 0;
  constexpr size_t kValues = 4000;
  for (size_t i = 0; i < kValues; ++i) {
    const std::string json = generator.Sample(i);
    SCOPED_TRACE(json);
    const Read skip = Skip(json, 0);
    const Read tree = Tree(json, 0);
    ASSERT_EQ(skip.ok, tree.ok);
    if (skip.ok) ASSERT_EQ(skip.pos, tree.pos);
    accepted += skip.ok ? 1 : 0;
  }
  EXPECT_GT(accepted, kValues / 3);
  EXPECT_LT(accepted, kValues);
}

}  // namespace
}  // namespace draguard::webhook
