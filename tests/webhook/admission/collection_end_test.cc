// CollectionEnd steps over 64 bytes at a time with bit masks; CollectionEndBytewise is the
// obvious byte-at-a-time reader. They must agree on every text, valid JSON or not: random
// texts over the bytes that matter (brackets, quotes, backslashes) at every alignment, and
// real collections, whose end is known.
#include "webhook/admission/collection_end.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace draguard::webhook {
namespace {

constexpr size_t kNoEnd = std::string_view::npos;

TEST(CollectionEndTest, RandomTextsMatchTheBytewiseReader) {
  std::mt19937 rng(16);
  // Weighted towards the bytes that matter, with runs of plain bytes between them.
  const std::string alphabet = "{}[]\"\"\\\\\\aaaaaaaa ,:";
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<size_t> length(0, 400);
  for (int i = 0; i < 20000; ++i) {
    std::string text = "{";
    for (size_t n = length(rng); n > 0; --n) text += alphabet[pick(rng)];
    ASSERT_EQ(CollectionEnd(text, 0), CollectionEndBytewise(text, 0)) << text;
  }
}

TEST(CollectionEndTest, CollectionsEndWhereTheyEndAtEveryAlignment) {
  // A spec shaped like the webhook's: escaped quotes and backslashes, brackets in strings,
  // a backslash run at every parity.
  const std::string spec =
      R"({"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.nvidia.com",)"
      R"("selectors":[{"cel":{"expression":"device.attributes[\"gpu.nvidia.com\"].productName)"
      R"(.startsWith(\"NVIDIA A100\") && x == \"]}\\\" [{\" && y == \"\\\\\""}}]}},)"
      R"({"name":"n","exactly":{"count":1,"a":[[],{},[{}],"}{","\\","\"]"]}}],"z":[]}})";
  for (size_t before = 0; before < 70; ++before) {
    for (const std::string& after :
         {std::string(), std::string(",\"x\":1}"), std::string(100, ' ') + "}"}) {
      const std::string text = std::string(before, ' ') + spec + after;
      EXPECT_EQ(CollectionEnd(text, before), before + spec.size()) << before;
      EXPECT_EQ(CollectionEndBytewise(text, before), before + spec.size()) << before;
    }
  }
}

TEST(CollectionEndTest, UnfinishedAndUnbalanced) {
  for (size_t n = 0; n < 140; ++n) {
    const std::string open = "{" + std::string(n, 'a');
    EXPECT_EQ(CollectionEnd(open, 0), kNoEnd) << n;
    // A backslash at the very end escapes nothing that is there.
    EXPECT_EQ(CollectionEnd(open + "\"\\", 0), kNoEnd) << n;
    // A quote left open hides the closing bracket.
    EXPECT_EQ(CollectionEnd(open + "\"}", 0), kNoEnd) << n;
    EXPECT_EQ(CollectionEnd(open + "}", 0), n + 2) << n;
    // An escaped quote does not open a string.
    EXPECT_EQ(CollectionEnd(open + "\\\"}", 0), n + 4) << n;
  }
  // A closing bracket with none open.
  EXPECT_EQ(CollectionEnd(std::string(80, 'a') + "}", 0), kNoEnd);
}

}  // namespace
}  // namespace draguard::webhook
