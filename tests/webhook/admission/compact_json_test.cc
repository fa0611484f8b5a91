// AppendCompactJsonValue against the general path it stands in for: the tree ReadJsonValue
// reads, printed by k8s::NodeToJson. Where the fast path answers, the text and the lexer's
// position must be the tree route's; where it declines, the tree route answers (the direct
// decoder then seeks back). A table says which values it must answer (so that a fast path
// declining everything fails), and generated values cover the grammar.
#include "webhook/admission/compact_json.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "policy/k8s/field_reader.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"
#include "tests/webhook/testing/random_json.h"

namespace draguard::webhook {
namespace {

constexpr size_t kMaxDepth = 8;

struct Outcome {
  bool answered = false;
  std::string text;
  size_t pos = 0;
};

Outcome Fast(const std::string& json, size_t depth = 0) {
  JsonLexer lexer(json);
  Outcome o;
  o.answered = AppendCompactJsonValue(lexer, depth, kMaxDepth, o.text);
  o.pos = lexer.pos();
  return o;
}

Outcome ViaTree(const std::string& json, size_t depth = 0) {
  JsonLexer lexer(json);
  k8s::DocNode node;
  Outcome o;
  o.answered = ReadJsonValue(lexer, depth, kMaxDepth, node);
  if (o.answered) o.text = k8s::NodeToJson(node);
  o.pos = lexer.pos();
  return o;
}

// Fails the test when the fast path answered differently from the tree route.
void ExpectSameWhereAnswered(const std::string& json, size_t depth = 0) {
  const Outcome fast = Fast(json, depth);
  if (!fast.answered) return;
  const Outcome tree = ViaTree(json, depth);
  ASSERT_TRUE(tree.answered) << json;
  EXPECT_EQ(fast.text, tree.text) << json;
  EXPECT_EQ(fast.pos, tree.pos) << json;
}

struct Case {
  const char* json;
  bool fast;  // the fast path must answer
  size_t depth = 0;
};

TEST(CompactJsonTest, AnswersTheCommonParametersAsTheTreeRoute) {
  const Case cases[] = {
      {R"({"apiVersion":"gpu.nvidia.com/v1beta1","kind":"GpuConfig","sharing":{"strategy":"TimeSlicing"}})", true},
      {R"({ "a" : 1 , "b" : [ true , false , null ] , "c" : { } , "d" : [ ] })", true},
      {R"({"a":-0,"b":-9223372036854775808,"c":9223372036854775807})", true},
      {R"({"a\"b":"x\ny\t\u0001","a\\":"\/"})", true},  // escapes re-escaped as dump() does
      {R"({"ab":1,"b":2})", true},
      {R"("text")", true},
      {R"([1,[2,[3]]])", true},
      {R"(17)", true},
      {R"(null)", true},
      // Declined: the tree's printer sorts keys and drops repeats, prints floats and
      // non-ASCII text through nlohmann.
      {R"({"b":1,"a":2})", false},
      {R"({"a":1,"a":2})", false},
      {R"({"a":1.5})", false},
      {R"({"a":1e3})", false},
      {R"({"a":9223372036854775808})", false},
      {R"({"a":"caf\u00e9"})", false},
      {"{\"a\":\"caf\xc3\xa9\"}", false},
      // Refused by both: invalid or too deep.
      {R"({"a":1,})", false},
      {R"({"a" 1})", false},
      {R"([1 2])", false},
      {R"({"a":tru})", false},
      {R"([[[[[[[[[1]]]]]]]]])", false},
      {R"({"a":[[1]]})", false, 6},
      {R"({"a":[1]})", true, 6},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    const Outcome fast = Fast(c.json, c.depth);
    EXPECT_EQ(fast.answered, c.fast);
    ExpectSameWhereAnswered(c.json, c.depth);
  }
}

TEST(CompactJsonTest, GeneratedValuesPrintAsTheirTrees) {
  testing::RandomJson generator(20261128);
  size_t answered = 0;
  constexpr size_t kValues = 4000;
  for (size_t i = 0; i < kValues; ++i) {
    const std::string json = generator.Sample(i);
    SCOPED_TRACE(json);
    ExpectSameWhereAnswered(json);
    answered += Fast(json).answered ? 1 : 0;
    if (HasFatalFailure()) return;
  }
  // The generator mixes the common and the declined shapes: both must be seen.
  EXPECT_GT(answered, kValues / 4);
  EXPECT_LT(answered, kValues);
}

}  // namespace
}  // namespace draguard::webhook
