// JsonLexer::ReadString reads plain strings inline sixteen bytes a step and hands any other to
// its general reader, which finds the end of plain runs sixteen, eight and one byte at a time.
// These tests put every kind of special byte at every offset of the first 40 bytes of a
// string (so each lands in each lane of a block and of a word and in the byte-wise tail),
// with the text ending right after the string (the general reader alone) or going on (the
// inline reader first), and compare with an obvious byte-at-a-time reader and with each
// other, errors included; then the escape, UTF-8 and number rules.
#include "webhook/admission/json_lexer.h"

#include <optional>
#include <ostream>
#include <string>

#include "gtest/gtest.h"
#include "policy/common/utf8.h"

namespace draguard::webhook {
namespace {

// A string read: its decoded text and where the reader stopped (after the closing quote).
struct StringRead {
  std::string text;
  size_t end = 0;
  friend bool operator==(const StringRead&, const StringRead&) = default;
};

void PrintTo(const StringRead& r, std::ostream* os) {
  *os << ::testing::PrintToString(r.text) << " ending at " << r.end;
}

// The reference: the read, or nullopt when JsonLexer must refuse the string. Handles the
// one-character escapes and \u00XX, which is all the generated inputs use.
std::optional<StringRead> SlowReadString(std::string_view text) {
  std::string out;
  for (size_t i = 1; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"') return StringRead{out, i + 1};
    if (c < 0x20) return std::nullopt;
    if (c >= 0x80) {
      const size_t length = Utf8SequenceLength(text, i);
      if (length == 0) return std::nullopt;
      out.append(text.substr(i, length));
      i += length - 1;
      continue;
    }
    if (c != '\\') {
      out += static_cast<char>(c);
      continue;
    }
    if (++i >= text.size()) return std::nullopt;
    switch (text[i]) {
      case 'n': out += '\n'; break;
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'u':
        if (text.substr(i + 1, 2) != "00" || i + 4 >= text.size()) return std::nullopt;
        out += static_cast<char>(HexValue(text[i + 3]) * 16 + HexValue(text[i + 4]));
        i += 4;
        break;
      default: return std::nullopt;
    }
  }
  return std::nullopt;  // unterminated
}

std::optional<StringRead> FastReadString(std::string_view text) {
  JsonLexer lexer(text);
  std::string out;
  if (!lexer.ReadString(&out)) return std::nullopt;
  return StringRead{out, lexer.pos()};
}

// ReadString's whole outcome: the result, where it stopped and what it said, with and
// without a string to decode into; and ReadStringView's, which must be the same as the
// decoding read's.
struct Outcome {
  bool ok = false;
  std::string text;
  size_t pos = 0;
  std::string error;
  bool ok_unread = false;  // ReadString(nullptr)
  size_t pos_unread = 0;
  bool ok_view = false;  // ReadStringView
  std::string text_view;
  size_t pos_view = 0;
  std::string error_view;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

void PrintTo(const Outcome& o, std::ostream* os) {
  *os << o.ok << " " << ::testing::PrintToString(o.text) << " at " << o.pos << " '" << o.error
      << "'; unread " << o.ok_unread << " at " << o.pos_unread;
}

Outcome ReadOutcome(std::string_view text) {
  Outcome o;
  JsonLexer lexer(text);
  o.ok = lexer.ReadString(&o.text);
  o.pos = lexer.pos();
  o.error = lexer.error();
  JsonLexer unread(text);
  o.ok_unread = unread.ReadString(nullptr);
  o.pos_unread = unread.pos();
  JsonLexer viewed(text);
  std::string scratch;
  std::string_view view;
  o.ok_view = viewed.ReadStringView(view, scratch);
  if (o.ok_view) o.text_view = std::string(view);
  o.pos_view = viewed.pos();
  o.error_view = viewed.error();
  return o;
}

TEST(JsonLexerTest, SpecialBytesAtEveryOffsetMatchTheReference) {
  const std::string specials[] = {"\"",       "\\n",          "\\\"",        "\\u0041",
                                  "\x01",     "\x1f",         "\xC3\xA9",    "\xE2\x82\xAC",
                                  "\xF0\x9F\x98\x80", "\xC3",   "\xFF",        "\xED\xA0\x80",
                                  "\\q",      "\x7f",         "\\\\",        "\\/",
                                  "\\\"\\\"",  "\\\\\\\""};
  // After the string: nothing (only the general reader runs: fewer than 16 bytes are left
  // near the end), a short tail, a tail long enough for every inline step.
  const std::string tails[] = {"", ",tail", ",tail" + std::string(64, 't')};
  for (const std::string& special : specials) {
    for (size_t offset = 0; offset < 40; ++offset) {
      for (size_t after : {0, 1, 7, 8, 9, 15, 16, 17, 20}) {
        const std::string body = std::string(offset, 'a') + special + std::string(after, 'b');
        const std::string string = "\"" + body + "\"";
        Outcome at_end;
        for (const std::string& tail : tails) {
          const std::string text = string + tail;
          std::optional<StringRead> slow = SlowReadString(text);
          std::optional<StringRead> fast = FastReadString(text);
          EXPECT_EQ(fast, slow) << "special " << ::testing::PrintToString(special) << " at "
                                << offset << ", " << after << " after, tail " << tail.size();
          // The inline reader and the general one: the same outcome, failures too (an
          // unterminated or invalid string stops at the same byte with the same message).
          const Outcome outcome = ReadOutcome(text);
          // ReadStringView gives what ReadString decodes, failures too.
          EXPECT_EQ(outcome.ok_view, outcome.ok) << ::testing::PrintToString(text);
          if (outcome.ok) EXPECT_EQ(outcome.text_view, outcome.text) << ::testing::PrintToString(text);
          EXPECT_EQ(outcome.pos_view, outcome.pos) << ::testing::PrintToString(text);
          EXPECT_EQ(outcome.error_view, outcome.error) << ::testing::PrintToString(text);
          if (tail.empty()) {
            at_end = outcome;
          } else {
            EXPECT_EQ(outcome, at_end) << "special " << ::testing::PrintToString(special)
                                       << " at " << offset << ", " << after << " after, tail "
                                       << tail.size();
          }
        }
      }
    }
  }
}

// A string that is not closed, or that hits a control byte, fails at the same byte with the
// same message at every length: the text ends inside one of the inline reader's blocks, or in
// the general reader's tail.
TEST(JsonLexerTest, FailuresAtEveryLength) {
  struct Case {
    std::string end;    // after the plain bytes
    size_t error_at;    // the failing byte, counted from the end of the plain bytes
    const char* error;
  };
  for (size_t n = 0; n < 70; ++n) {
    for (const Case& c : {Case{"", 0, "unterminated string"},
                          Case{"\x01xxxxxxxxxxxxxxxxxxxxxxxx\"", 0, "control character in string"},
                          Case{"\xC3(xxxxxxxxxxxxxxxxxxxxxxxx\"", 0, "invalid UTF-8 in string"},
                          Case{"\\", 1, "unterminated escape"}}) {
      const std::string text = "\"" + std::string(n, 'x') + c.end;
      for (bool decode : {false, true}) {
        JsonLexer lexer(text);
        std::string out;
        EXPECT_FALSE(lexer.ReadString(decode ? &out : nullptr)) << n << " " << c.error;
        EXPECT_STREQ(lexer.error(), c.error) << n;
        EXPECT_EQ(lexer.pos(), 1 + n + c.error_at) << n << " " << c.error;
      }
    }
  }
}

TEST(JsonLexerTest, UnterminatedAtEveryLength) {
  for (size_t n = 0; n < 20; ++n) {
    const std::string text = "\"" + std::string(n, 'x');
    JsonLexer lexer(text);
    EXPECT_FALSE(lexer.ReadString(nullptr)) << n;
    EXPECT_STREQ(lexer.error(), "unterminated string");
  }
}

TEST(JsonLexerTest, SurrogatesDecodeAsGoDoes) {
  struct Case {
    std::string json;
    std::string decoded;
  };
  for (const Case& c : {Case{R"("\ud83d\ude00")", "\xF0\x9F\x98\x80"},
                        Case{R"("\ud800x")", "\xEF\xBF\xBDx"},
                        Case{R"("\udc00")", "\xEF\xBF\xBD"},
                        Case{R"("\ud800\u0041")", "\xEF\xBF\xBD" "A"}}) {
    JsonLexer lexer(c.json);
    std::string out;
    ASSERT_TRUE(lexer.ReadString(&out)) << c.json;
    EXPECT_EQ(out, c.decoded) << c.json;
  }
}

TEST(JsonLexerTest, Numbers) {
  struct Case {
    std::string text;
    std::string read;  // the number token read; empty: refused
  };
  for (const Case& c : {Case{"0", "0"}, Case{"-0", "-0"}, Case{"12", "12"},
                        Case{"-3.25", "-3.25"}, Case{"1e9", "1e9"}, Case{"1E+2", "1E+2"},
                        Case{"2.5e-3", "2.5e-3"},
                        // A leading zero ends the token; the caller refuses what follows.
                        Case{"01x", "0"}, Case{"-", ""}, Case{"1.", ""}, Case{"1e", ""},
                        Case{".5", ""}, Case{"-a", ""}}) {
    JsonLexer lexer(c.text);
    EXPECT_EQ(lexer.ReadNumber(), c.read) << c.text;
  }
}

// ReadLiteral (inline, byte by byte) reads exactly its word: a prefix of it, a different byte
// anywhere in it or the text's end fails with pos() unmoved; what follows the word is the
// caller's.
TEST(JsonLexerTest, LiteralsReadExactlyTheirWord) {
  const struct {
    const char* text;
    const char* word;
    bool ok;
    size_t pos;  // after the call
  } cases[] = {
      {"true", "true", true, 4},     {"false,", "false", true, 5}, {"nullx", "null", true, 4},
      {"tru", "true", false, 0},     {"", "null", false, 0},       {"nul", "null", false, 0},
      {"nulL", "null", false, 0},    {"fals", "false", false, 0},  {"trUe", "true", false, 0},
      {"xtrue", "true", false, 0},   {"falsE", "false", false, 0},
  };
  for (const auto& c : cases) {
    JsonLexer lexer(c.text);
    EXPECT_EQ(lexer.ReadLiteral(c.word), c.ok) << c.text;
    EXPECT_EQ(lexer.pos(), c.pos) << c.text;
    if (!c.ok) EXPECT_STREQ(lexer.error(), "invalid literal") << c.text;
  }
}

}  // namespace
}  // namespace draguard::webhook
