#include "policy/common/source.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace draguard {
namespace {

TEST(SourceTextTest, MapsOffsetsToLinesAndColumns) {
  SourceText src("f.yaml", "ab\ncd\n\nxyz");
  EXPECT_EQ(src.PositionOf(0), (SourcePosition{1, 1}));
  EXPECT_EQ(src.PositionOf(1), (SourcePosition{1, 2}));
  EXPECT_EQ(src.PositionOf(2), (SourcePosition{1, 3}));  // the newline itself
  EXPECT_EQ(src.PositionOf(3), (SourcePosition{2, 1}));
  EXPECT_EQ(src.PositionOf(6), (SourcePosition{3, 1}));
  EXPECT_EQ(src.PositionOf(9), (SourcePosition{4, 3}));
  EXPECT_EQ(src.PositionOf(1000), (SourcePosition{4, 4}));
  EXPECT_EQ(src.line_count(), 4);
}

TEST(SourceTextTest, ColumnsCountCodePoints) {
  SourceText src("f", "k: \"\xC3\xA9t\xC3\xA9\" x");
  // 'x' is at byte 11 but column 10.
  EXPECT_EQ(src.PositionOf(11), (SourcePosition{1, 10}));
  EXPECT_EQ(src.OffsetOf({1, 10}), 11u);
}

TEST(SourceTextTest, OffsetOfInvertsPositionOf) {
  SourceText src("f", "line one\r\nline two\nthird");
  for (size_t off = 0; off < src.text().size(); ++off) {
    EXPECT_EQ(src.OffsetOf(src.PositionOf(off)), off) << off;
  }
  EXPECT_EQ(src.Line(1), "line one");
  EXPECT_EQ(src.Line(3), "third");
  EXPECT_EQ(src.Line(4), "");
}

// Positions against the obvious reference (count lines and code points from the start), on
// lines longer than the eight-byte steps of the line scan, with the non-ASCII byte anywhere.
TEST(SourceTextTest, PositionsMatchAByteByByteReference) {
  std::string text;
  for (int line = 0; line < 40; ++line) {
    std::string l(static_cast<size_t>(line % 19), 'a');
    if (line % 3 == 0) l.insert(static_cast<size_t>(line % 7) % (l.size() + 1), "\xC3\xA9");
    text += l + (line % 5 == 4 ? "\r\n" : "\n");
  }
  text += "tail \xE2\x82\xAC end";
  const SourceText src("f", text);
  SourcePosition want{1, 1};
  for (size_t off = 0; off <= text.size(); ++off) {
    EXPECT_EQ(src.PositionOf(off), want) << off;
    if (off == text.size()) break;
    const auto c = static_cast<unsigned char>(text[off]);
    if (c == '\n') {
      want = {want.line + 1, 1};
    } else if ((c & 0xC0) != 0x80) {
      ++want.column;  // columns count code points: every byte but continuation bytes
    }
  }
  EXPECT_EQ(src.line_count(), 41);
  EXPECT_EQ(src.Line(41), "tail \xE2\x82\xAC end");
}

// The hinted form answers as the plain one whatever the order: in text order (the parser's
// use), backwards, in jumps past the forward steps, from hints out of range, and on lines
// with non-ASCII bytes (columns counted on from the previous answer on the same line).
TEST(SourceTextTest, HintedPositionsMatchThePlainOnes) {
  std::string text;
  for (int line = 0; line < 60; ++line) {
    text += std::string(static_cast<size_t>(line % 4), 'x');
    if (line % 3 == 1) text += "\xC3\xA9y\xE2\x82\xAC";  // two code points of 2 and 3 bytes
    text += "\n";
  }
  const SourceText src("f", text);
  const struct {
    const char* order;
    std::vector<size_t> offsets;
  } kHintRows[] = {
      {"every offset forward", {}},
      {"backwards", {100, 90, 40, 3, 0}},
      {"jumps past the steps", {0, 7, 60, 61, 150, text.size(), text.size() + 5}},
      {"repeated", {20, 20, 20, 21}},
  };
  for (const auto& row : kHintRows) {
    std::vector<size_t> offsets = row.offsets;
    if (offsets.empty()) {
      for (size_t off = 0; off <= text.size(); ++off) offsets.push_back(off);
    }
    SourceText::PositionHint hint;
    for (size_t off : offsets) {
      EXPECT_EQ(src.PositionOf(off, hint), src.PositionOf(off)) << row.order << " at " << off;
    }
    for (size_t stale : {size_t{59}, size_t{1000}}) {
      hint = {stale, 0, 0};
      EXPECT_EQ(src.PositionOf(5, hint), src.PositionOf(5)) << row.order << " hint " << stale;
    }
  }
}

// One line of a megabyte with non-ASCII text in it (minified JSON as an API server sends it):
// positions asked in order are counted on from the previous one; every answer is the plain
// one's.
TEST(SourceTextTest, HintedColumnsOnOneLongNonAsciiLine) {
  std::string text;
  std::vector<size_t> offsets;
  for (int i = 0; i < 20000; ++i) {
    offsets.push_back(text.size());
    text += i % 7 == 0 ? "{\"n\":\"\xC3\xA9t\xC3\xA9\"}," : "{\"n\":\"abc\"},";
  }
  const SourceText src("list.json", text);
  SourceText::PositionHint hint;
  for (size_t i = 0; i < offsets.size(); ++i) {
    // Each item is 12 code points (14 bytes with the two accented letters).
    ASSERT_EQ(src.PositionOf(offsets[i], hint), (SourcePosition{1, static_cast<int>(12 * i) + 1}))
        << i;
  }
  for (size_t i : {size_t{19999}, size_t{7}, size_t{0}}) {
    EXPECT_EQ(src.PositionOf(offsets[i], hint), src.PositionOf(offsets[i])) << i;
  }
}

// Issue 19: a 5,800-character line is shown as 200 code points around the caret.
TEST(SourceTextTest, ClipsLongLinesAroundTheColumn) {
  SourceText src("f", std::string(2999, 'x') + "Y" + std::string(2800, 'z') + "\n");
  std::string snippet = RenderSnippet(src, {1, 3000});
  size_t newline = snippet.find('\n');
  ASSERT_NE(newline, std::string::npos);
  std::string text = snippet.substr(0, newline), caret = snippet.substr(newline + 1);
  EXPECT_EQ(text, "  | ..." + std::string(100, 'x') + "Y" + std::string(99, 'z') + "...");
  EXPECT_EQ(caret, "  | " + std::string(103, ' ') + "^");
  // Near the start nothing is left out before the text; the caret stays under its column.
  EXPECT_EQ(RenderSnippet(src, {1, 3}).substr(0, 9), "  | xxxxx");
  EXPECT_EQ(RenderSnippet(src, {1, 3}).substr(4 + 200, 4), "...\n");
}

// Issue 19 item 9: a byte order mark is not a column.
TEST(SourceTextTest, DropsAByteOrderMark) {
  SourceText src("f", "\xEF\xBB\xBF" "a: 1\nbb: 2\n");
  EXPECT_EQ(src.text(), "a: 1\nbb: 2\n");
  EXPECT_EQ(src.PositionOf(8), (SourcePosition{2, 4}));
}

TEST(SourceTextTest, RendersCaretUnderColumn) {
  SourceText src("f", "a: 1\n\tb: x\n");
  EXPECT_EQ(RenderSnippet(src, {2, 5}), "  | \tb: x\n  | \t   ^");
  EXPECT_EQ(RenderSnippet(src, {}), "");
}

}  // namespace
}  // namespace draguard
