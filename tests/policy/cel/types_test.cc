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

// The flag computed when a type is built, against a walk of the type (the checker's
// substitution skips every type whose flag is clear).
bool WalkHasTypeParam(const Type& t) {
  if (t.kind() == TypeKind::kTypeParam) return true;
  for (const Type& p : t.params()) {
    if (WalkHasTypeParam(p)) return true;
  }
  return false;
}

TEST(TypeTest, HasTypeParam) {
  const Type a = Type::Param("A");
  const struct {
    Type type;
    bool has;
  } kCases[] = {
      {Type::Int(), false},
      {Type::Dyn(), false},
      {Type::TypeType(), false},
      {a, true},
      {Type::List(Type::String()), false},
      {Type::List(a), true},
      {Type::Map(Type::String(), Type::List(a)), true},
      {Type::Map(Type::String(), Type::Map(Type::String(), Type::Any())), false},
      {Type::TypeOf(a), true},
      {Type::TypeOf(Type::Int()), false},
      {Type::Optional(Type::Optional(a)), true},
      {Type::Opaque("x.Box", {Type::Int(), a}), true},
      {Type::Opaque("x.Box", {Type::Int()}), false},
      {QuantityType(), false},
      {Type::Object(kDraDeviceTypeName), false},
  };
  for (const auto& c : kCases) {
    EXPECT_EQ(c.type.has_type_param(), c.has) << c.type.DebugString();
    EXPECT_EQ(c.type.has_type_param(), WalkHasTypeParam(c.type)) << c.type.DebugString();
  }
}

}  // namespace
}  // namespace draguard::cel
