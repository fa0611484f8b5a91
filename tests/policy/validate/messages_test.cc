// The API server's error texts (apimachinery pkg/util/validation/field/errors.go).
#include "policy/validate/messages.h"

#include <gtest/gtest.h>

namespace draguard::validate {
namespace {

TEST(MessagesTest, ErrorShapeCatalogue) {
  EXPECT_EQ(RequiredMessage(), "Required value");
  EXPECT_EQ(RequiredMessage("exactly one of `exactly` or `firstAvailable` is required"),
            "Required value: exactly one of `exactly` or `firstAvailable` is required");
  EXPECT_EQ(InvalidMessage(FieldValue::String("GPU"), "bad"), "Invalid value: \"GPU\": bad");
  EXPECT_EQ(InvalidMessage(FieldValue::Null(), "x"), "Invalid value: null: x");
  EXPECT_EQ(InvalidMessage(FieldValue::Int(-1), "must be greater than zero"),
            "Invalid value: -1: must be greater than zero");
  EXPECT_EQ(TooManyMessage(33, 32), "Too many: 33: must have at most 32 items");
  EXPECT_EQ(TooManyMessage(2, 1), "Too many: 2: must have at most 1 item");
  EXPECT_EQ(TooLongMessage(10240), "Too long: may not be more than 10240 bytes");
  EXPECT_EQ(DuplicateMessage(FieldValue::String("gpu")), "Duplicate value: \"gpu\"");
  EXPECT_EQ(NotSupportedMessage(FieldValue::String("all"), {"All", "ExactCount"}),
            "Unsupported value: \"all\": supported values: \"All\", \"ExactCount\"");
  EXPECT_EQ(ForbiddenMessage("too complex, exceeds cost limit"),
            "Forbidden: too complex, exceeds cost limit");
  EXPECT_EQ(InternalMessage("x"), "Internal error: x");
  EXPECT_EQ(NotFoundMessage(FieldValue::String("a")), "Not found: \"a\"");
}

TEST(MessagesTest, GoQuote) {
  EXPECT_EQ(GoQuote("a\"b\\c\n\t"), "\"a\\\"b\\\\c\\n\\t\"");
  EXPECT_EQ(GoQuote(std::string("\x01", 1)), "\"\\x01\"");
  EXPECT_EQ(GoQuote("gr\xc3\xbc\xc3\x9f"), "\"gr\xc3\xbc\xc3\x9f\"");
  EXPECT_EQ(GoQuote("\xff"), "\"\\xff\"");
}

}  // namespace
}  // namespace draguard::validate
