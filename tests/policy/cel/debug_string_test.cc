// DebugString on hand-built trees (independent of the parser) and FormatCelIssues rendering.
#include "policy/cel/debug_string.h"

#include <string>

#include "gtest/gtest.h"
#include "policy/cel/cel_issue.h"
#include "policy/cel/internal/expr_factory.h"

namespace draguard::cel {
namespace {

using internal::ExprFactory;
using internal::Exprs;

TEST(DebugStringTest, Constants) {
  ExprFactory f;
  struct Case {
    Constant value;
    std::string dump;
  };
  const Case cases[] = {
      {NullValueTag{}, "null^#1:null#"},
      {true, "true^#2:bool#"},
      {int64_t{-3}, "-3^#3:int64#"},
      {uint64_t{7}, "7u^#4:uint64#"},
      {2.5, "2.5^#5:double#"},
      {std::string("a\"b\n"), "\"a\\\"b\\n\"^#6:string#"},
      {BytesConstant{std::string("\x00\xff", 2)}, "b\"\\x00\\xff\"^#7:bytes#"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(DebugString(*f.Const(f.NextId(), 0, c.value)), c.dump);
  }
}

TEST(DebugStringTest, NestedCallsIndent) {
  ExprFactory f;
  ExprPtr inner = f.Call(2, 0, "g", Exprs(f.Ident(3, 0, "x")));
  ExprPtr outer = f.Call(1, 0, "f", Exprs(std::move(inner), f.Ident(4, 0, "y")),
                         f.Ident(5, 0, "t"));
  EXPECT_EQ(DebugString(*outer),
            "t^#5:Ident#.f(\n  g(\n    x^#3:Ident#\n  )^#2:Call#,\n  y^#4:Ident#\n)^#1:Call#");
}

TEST(DebugStringTest, ErrorNodeAndPresenceTest) {
  ExprFactory f;
  EXPECT_EQ(DebugString(*f.New(9, 0)), "<error>^#9:Error#");
  EXPECT_EQ(DebugString(*f.Select(2, 0, f.Ident(1, 0, "a"), "b", true)),
            "a^#1:Ident#.b~test-only~^#2:Select#");
}

TEST(DebugStringTest, CopyGivesFreshIds) {
  ExprFactory f;
  ExprPtr e = f.Call(f.NextId(), 0, "f", Exprs(f.Ident(f.NextId(), 0, "x")));
  ExprPtr copy = f.Copy(*e);
  EXPECT_EQ(DebugString(*copy), "f(\n  x^#4:Ident#\n)^#3:Call#");
}

Diagnostics IssueAt(int offset, std::string message) {
  Diagnostics d;
  Diagnostic& item = d.Error("cel.syntax-error", {}, std::move(message));
  item.value_offset = offset;
  item.value_length = 1;
  return d;
}

TEST(FormatCelIssuesTest, MatchesCelGoLayout) {
  SourceText expr("<input>", "a + )");
  EXPECT_EQ(FormatCelIssues(expr, IssueAt(4, "Syntax error: boom")),
            "ERROR: <input>:1:5: Syntax error: boom\n | a + )\n | ....^");
}

TEST(FormatCelIssuesTest, CountsCodePointsAndLines) {
  SourceText expr("<input>", "x\n'\xc3\xa9' + \ty");
  // 'y' is byte 10; line 2 starts at byte 2 and has 7 code points before 'y' (é is one).
  EXPECT_EQ(FormatCelIssues(expr, IssueAt(10, "m")),
            "ERROR: <input>:2:8: m\n | '\xc3\xa9' +  y\n | .......^");
}

TEST(FormatCelIssuesTest, SortsByPositionAndSkipsWarnings) {
  SourceText expr("<input>", "ab");
  Diagnostics d = IssueAt(1, "second");
  d.Append(IssueAt(0, "first"));
  d.Warning("cel.note", {}, "not shown").value_offset = 0;
  d.Append(IssueAt(-1, "nowhere"));
  EXPECT_EQ(FormatCelIssues(expr, d),
            "ERROR: <input>:-1:0: nowhere\n"
            "ERROR: <input>:1:1: first\n | ab\n | ^\n"
            "ERROR: <input>:1:2: second\n | ab\n | .^");
}

}  // namespace
}  // namespace draguard::cel
