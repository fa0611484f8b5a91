#include "policy/common/json_text.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace draguard {
namespace {

// The obvious byte-at-a-time reference for FindNonPlainJsonByte.
size_t ReferenceFind(std::string_view text, size_t pos) {
  while (pos < text.size() && IsPlainJsonByte(static_cast<unsigned char>(text[pos]))) ++pos;
  return pos;
}

TEST(JsonTextTest, PlainBytes) {
  struct Case {
    unsigned char byte;
    bool plain;
  };
  const Case cases[] = {
      {'a', true},  {' ', true},   {'~', true},   {0x7f, true},  {'/', true},
      {'"', false}, {'\\', false}, {0x00, false}, {0x1f, false}, {'\n', false},
      {0x80, false}, {0xc3, false}, {0xff, false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(IsPlainJsonByte(c.byte), c.plain) << static_cast<int>(c.byte);
  }
}

TEST(JsonTextTest, FindsTheFirstNonPlainByte) {
  struct Case {
    std::string_view text;
    size_t from;
    size_t want;
  };
  const Case cases[] = {
      {"", 0, 0},
      {"abc", 0, 3},
      {"abc", 3, 3},
      {"ab\"c", 0, 2},
      {"abcdefgh\"", 0, 8},
      {"abcdefghijklmnop\\q", 0, 16},
      {"abcdefghijklmnop\\q", 17, 18},
      {"caf\xc3\xa9", 0, 3},
      {"\"abcdefghijkl", 1, 13},
      {"tab\there", 0, 3},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FindNonPlainJsonByte(c.text, c.from), c.want) << c.text << " from " << c.from;
  }
}

// Every byte value at every offset of a 40-byte plain text, searched from every start: the
// 16-byte, 8-byte and bytewise steps must agree with the reference (in the 8-byte step,
// borrows across bytes must not hide a hit or report a later one).
TEST(JsonTextTest, AgreesWithTheReferenceForEveryByteAndOffset) {
  for (int byte = 0; byte < 256; ++byte) {
    for (size_t at = 0; at < 40; ++at) {
      std::string text(40, 'x');
      text[at] = static_cast<char>(byte);
      // A second special byte after the first, as in "\"\\", must not move the answer.
      if (at + 1 < text.size()) text[at + 1] = static_cast<char>(255 - byte);
      for (size_t from = 0; from <= text.size(); ++from) {
        ASSERT_EQ(FindNonPlainJsonByte(text, from), ReferenceFind(text, from))
            << "byte " << byte << " at " << at << " from " << from;
      }
    }
  }
}

TEST(JsonTextTest, AppendJsonStringEscapesAndRepairsUtf8) {
  struct Case {
    std::string text;
    NonAsciiJson non_ascii;
    bool ok;
    std::string json;  // what `out` holds afterwards
  };
  const Case cases[] = {
      {"", NonAsciiJson::kUtf8, true, "\"\""},
      {"plain text", NonAsciiJson::kRefuse, true, "\"plain text\""},
      {std::string("a\"\\\n\x01\xC3\xA9\xFF\xE2\x82", 10), NonAsciiJson::kUtf8, true,
       "\"a\\\"\\\\\\n\\u0001\xC3\xA9\\ufffd\\ufffd\\ufffd\""},
      {"caf\xC3\xA9", NonAsciiJson::kRefuse, false, "\"caf"},
  };
  for (const Case& c : cases) {
    std::string out;
    EXPECT_EQ(AppendJsonString(c.text, out, c.non_ascii), c.ok) << c.text;
    EXPECT_EQ(out, c.json) << c.text;
    if (c.ok) EXPECT_TRUE(nlohmann::json::accept(out)) << out;
  }
}

// ASCII text is written byte for byte as nlohmann's dump() writes it, which the compact JSON
// of policy/k8s/field_reader.cc relies on.
TEST(JsonTextTest, AppendJsonStringMatchesNlohmannOnEveryAsciiByte) {
  for (int c = 0; c < 0x80; ++c) {
    const std::string text = "x" + std::string(1, static_cast<char>(c)) + "y";
    std::string out;
    ASSERT_TRUE(AppendJsonString(text, out, NonAsciiJson::kRefuse));
    EXPECT_EQ(out, nlohmann::json(text).dump()) << c;
  }
}

}  // namespace
}  // namespace draguard
