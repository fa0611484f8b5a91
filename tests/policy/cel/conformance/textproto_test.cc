// The test-only text-format reader used by the cel-spec conformance runner.
#include "tests/policy/cel/conformance/textproto.h"

#include <gtest/gtest.h>

namespace draguard::cel::conformance {
namespace {

TEST(TextprotoTest, ReadsNestedMessagesAndScalars) {
  StatusOr<TextMessage> m = ParseTextproto(R"(
    # comment
    name: "basic"
    section {
      test { name: "a" expr: "1 + 1" value: { int64_value: 2 } }
      test < name: 'b' disable_check: true >
    }
  )");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->Scalar("name"), "basic");
  const TextMessage* section = m->Message("section");
  ASSERT_NE(section, nullptr);
  std::vector<const TextMessage*> tests = section->Messages("test");
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0]->Scalar("expr"), "1 + 1");
  EXPECT_EQ(tests[0]->Message("value")->Scalar("int64_value"), "2");
  EXPECT_EQ(tests[1]->Scalar("name"), "b");
  EXPECT_EQ(tests[1]->Scalar("disable_check"), "true");
}

TEST(TextprotoTest, UnescapesAndConcatenatesStrings) {
  StatusOr<TextMessage> m =
      ParseTextproto(R"(s: "a\"b\\" 'c' "\303\251\x41\u00e9\n")");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->Scalar("s"), "a\"b\\c\xc3\xa9" "A\xc3\xa9\n");
  EXPECT_TRUE(m->Find("s")->quoted);
}

TEST(TextprotoTest, ReadsBracketedNamesAndLists) {
  StatusOr<TextMessage> m = ParseTextproto(
      "object_value { [type.googleapis.com/google.protobuf.Int32Value] { value: -1 } }\n"
      "n: [1, 2, 3]");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const TextMessage* obj = m->Message("object_value");
  ASSERT_NE(obj, nullptr);
  const TextMessage* any = obj->Message("[type.googleapis.com/google.protobuf.Int32Value]");
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(any->Scalar("value"), "-1");
  int count = 0;
  for (const TextField& f : m->fields) count += f.name == "n";
  EXPECT_EQ(count, 3);
}

TEST(TextprotoTest, RejectsMalformedInput) {
  for (const char* text : {"a { b: 1", "a: \"open", "a 1", "a: \"\\q\""}) {
    EXPECT_FALSE(ParseTextproto(text).ok()) << text;
  }
}

}  // namespace
}  // namespace draguard::cel::conformance
