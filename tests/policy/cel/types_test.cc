// Type printing follows cel-go's FormatCELType (checker/errors.go's messages depend on it).
#include "policy/cel/types.h"

#include <gtest/gtest.h>

#include <string>

namespace draguard::cel {
namespace {

struct PrintCase {
  Type type;
  std::string text;
};

class TypePrintTest : public testing::TestWithParam<PrintCase> {};

TEST_P(TypePrintTest, Runner) { EXPECT_EQ(GetParam().type.DebugString(), GetParam().text); }

INSTANTIATE_TEST_SUITE_P(
    CelGo, TypePrintTest,
    testing::Values(
        PrintCase{.type = Type::Int(), .text = "int"},
        PrintCase{.type = Type::Any(), .text = "google.protobuf.Any"},
        PrintCase{.type = Type::Null(), .text = "null_type"},
        PrintCase{.type = Type::Timestamp(), .text = "google.protobuf.Timestamp"},
        PrintCase{.type = Type::Duration(), .text = "google.protobuf.Duration"},
        PrintCase{.type = Type::List(Type::String()), .text = "list(string)"},
        PrintCase{.type = Type::Map(Type::String(), Type::Map(Type::String(), Type::Any())),
                  .text = "map(string, map(string, google.protobuf.Any))"},
        PrintCase{.type = Type::TypeOf(Type::Int()), .text = "type(int)"},
        PrintCase{.type = Type::Optional(Type::Bool()), .text = "optional_type(bool)"},
        PrintCase{.type = QuantityType(), .text = "kubernetes.Quantity"},
        PrintCase{.type = IpType(), .text = "net.IP"},
        PrintCase{.type = Type::Object(kDraDeviceTypeName), .text = "kubernetes.DRADevice"}));

TEST(TypeTest, StructuralEquality) {
  EXPECT_EQ(Type::List(Type::Int()), Type::List(Type::Int()));
  EXPECT_FALSE(Type::List(Type::Int()) == Type::List(Type::Uint()));
  EXPECT_EQ(QuantityType(), Type::Opaque(kQuantityTypeName));
  EXPECT_FALSE(QuantityType() == SemverType());
  EXPECT_FALSE(Type::Dyn() == Type::Any());
}

TEST(TypeTest, CopiesShareRepresentation) {
  Type a = Type::Map(Type::String(), Type::Int());
  Type b = a;
  EXPECT_EQ(&a.params(), &b.params());
}

}  // namespace
}  // namespace draguard::cel
