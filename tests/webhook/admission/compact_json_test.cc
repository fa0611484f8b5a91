// AppendCompactJsonValue against the general path it stands in for: the tree ReadJsonValue
// reads, printed by k8s::NodeToJson. Where the fast path answers, the text and the lexer's
// position must be the tree route's; where it declines, the tree route answers (the direct
// decoder then seeks back). A table says which values it must answer (so that a fast path
// declining everything fails), and generated values cover the grammar.
#include "webhook/admission/compact_json.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "policy/k8s/field_reader.h"
#include "webhook/admission/json_lexer.h"
#include "webhook/admission/json_object.h"

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

// Random values over the grammar, with space, escapes, non-ASCII text, numbers of every kind
// and keys in and out of order.
class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  std::string Value(int depth) {
    switch (Pick(depth > 4 ? 5 : 7)) {
      case 0: return String();
      case 1: return Number();
      case 2: return "true";
      case 3: return "false";
      case 4: return "null";
      case 5: return Object(depth + 1);
      default: return Array(depth + 1);
    }
  }

 private:
  size_t Pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  std::string Space() { return Pick(6) == 0 ? std::string(" \n\t\r").substr(Pick(4), 1) : ""; }

  std::string String() {
    static const char* const kPieces[] = {"a", "b", "ab", "z", "\\\"", "\\\\", "\\n", "\\u0041",
                                          "\\u00e9", "\xc3\xa9", "\\ud83d\\ude00", "\\/", " "};
    std::string s = "\"";
    for (size_t n = Pick(4); n > 0; --n) s += kPieces[Pick(Pick(5) == 0 ? 13 : 4)];
    return s + "\"";
  }

  std::string Number() {
    static const char* const kNumbers[] = {"0", "-0", "7", "-12", "123456789012",
                                           "9223372036854775807", "-9223372036854775808",
                                           "9223372036854775808", "18446744073709551616",
                                           "1.5", "-0.0", "2e10", "1E-3"};
    return kNumbers[Pick(Pick(3) == 0 ? 13 : 5)];
  }

  std::string Object(int depth) {
    std::vector<std::string> keys;
    for (size_t n = Pick(5); n > 0; --n) keys.push_back(String());
    if (Pick(3) != 0) std::sort(keys.begin(), keys.end());
    std::string s = "{" + Space();
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i > 0) s += "," + Space();
      s += keys[i] + Space() + ":" + Space() + Value(depth) + Space();
    }
    return s + "}";
  }

  std::string Array(int depth) {
    std::string s = "[" + Space();
    for (size_t n = Pick(4), i = 0; i < n; ++i) {
      if (i > 0) s += "," + Space();
      s += Value(depth) + Space();
    }
    return s + "]";
  }

  std::mt19937 rng_;
};

TEST(CompactJsonTest, GeneratedValuesPrintAsTheirTrees) {
  Generator generator(20261128);
  size_t answered = 0;
  constexpr size_t kValues = 4000;
  for (size_t i = 0; i < kValues; ++i) {
    std::string json = generator.Value(0);
    // Some values cut short or with a byte changed: invalid text must be declined.
    if (i % 7 == 0 && json.size() > 2) json.resize(json.size() / 2);
    if (i % 11 == 0 && json.size() > 3) json[json.size() / 3] = ',';
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
