// Quote and AppendQuoted (policy/common/strings.h): the run-at-a-time quoting against the
// byte-at-a-time definition, on table cases and random texts dense in quotes and backslashes.
#include "policy/common/strings.h"

#include <random>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace draguard {
namespace {

// The definition: every `"` and `\` preceded by a backslash, the whole in double quotes.
std::string ReferenceQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

TEST(QuoteTest, Table) {
  struct Case {
    std::string_view in;
    std::string_view want;
  };
  const Case cases[] = {
      {"", R"("")"},
      {"gpu.nvidia.com", R"("gpu.nvidia.com")"},
      {R"(a"b)", R"("a\"b")"},
      {R"(\)", R"("\\")"},
      {R"("")", R"("\"\"")"},
      {R"(x\"y\)", R"("x\\\"y\\")"},
      {"caf\xc3\xa9", "\"caf\xc3\xa9\""},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Quote(c.in), c.want) << c.in;
    std::string appended = "prefix ";
    AppendQuoted(c.in, appended);
    EXPECT_EQ(appended, "prefix " + std::string(c.want)) << c.in;
  }
}

TEST(QuoteTest, MatchesTheDefinitionOnRandomTexts) {
  std::mt19937 rng(16);
  const std::string_view alphabet = "ab\"\\ .\x01\xc3";
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 40, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    ASSERT_EQ(Quote(text), ReferenceQuote(text)) << text;
    std::string appended(rng() % 20, 'p');
    const std::string before = appended;
    AppendQuoted(text, appended);
    ASSERT_EQ(appended, before + ReferenceQuote(text)) << text;
  }
}

}  // namespace
}  // namespace draguard
