// Value construction, heterogeneous equality and ordering (cel-spec doc/langdef.md).
#include "policy/cel/value.h"

#include <cmath>

#include <gtest/gtest.h>

namespace draguard::cel {
namespace {

struct EqualCase {
  const char* name;
  Value a;
  Value b;
  bool equal;
};

void PrintTo(const EqualCase& c, std::ostream* os) { *os << c.name; }

class ValueEqualTest : public testing::TestWithParam<EqualCase> {};

TEST_P(ValueEqualTest, IsHeterogeneous) {
  const EqualCase& c = GetParam();
  Value r = Equal(c.a, c.b);
  ASSERT_TRUE(r.is_bool());
  EXPECT_EQ(r.bool_value(), c.equal);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ValueEqualTest,
    testing::Values(
        EqualCase{"int_uint", Value::Int(1), Value::Uint(1), true},
        EqualCase{"int_double", Value::Int(1), Value::Double(1.0), true},
        EqualCase{"negative_uint", Value::Int(-1), Value::Uint(UINT64_MAX), false},
        // cel-go converts the int to double when the double is in int64 range (lossy).
        EqualCase{"big_int_double", Value::Int(INT64_MAX), Value::Double(9223372036854775808.0),
                  true},
        EqualCase{"int_double_out_of_range", Value::Int(INT64_MAX), Value::Double(1e19), false},
        EqualCase{"nan", Value::Double(NAN), Value::Double(NAN), false},
        EqualCase{"kinds_differ", Value::Int(1), Value::StringView("1"), false},
        EqualCase{"null_null", Value::Null(), Value::Null(), true},
        EqualCase{"null_int", Value::Null(), Value::Int(0), false},
        EqualCase{"string_view_owned", Value::StringView("ab"), Value::String("ab"), true},
        EqualCase{"bytes_string", Value::BytesView("ab"), Value::StringView("ab"), false},
        EqualCase{"string_quantity", Value::StringView("1"),
                  Value::OfQuantity(*Quantity::Parse("1")), false},
        EqualCase{"quantities", Value::OfQuantity(*Quantity::Parse("1Gi")),
                  Value::OfQuantity(*Quantity::Parse("1024Mi")), true},
        EqualCase{"optional_none", Value::OptionalNone(), Value::OptionalNone(), true}));

TEST(ValueTest, QuantityAndSemverEqualityIsAsymmetric) {
  Value q = Value::OfQuantity(*Quantity::Parse("1"));
  Value s = Value::OfSemver(*Semver::Parse("1.0.0"));
  EXPECT_TRUE(Equal(q, Value::StringView("1")).is_error());
  EXPECT_TRUE(Equal(s, Value::StringView("1.0.0")).is_error());
  EXPECT_FALSE(Equal(Value::StringView("1.0.0"), s).is_error());
}

TEST(ValueTest, Ordering) {
  EXPECT_EQ(CompareValues(Value::Int(-1), Value::Uint(0)), -1);
  EXPECT_EQ(CompareValues(Value::Uint(3), Value::Double(2.5)), 1);
  EXPECT_EQ(CompareValues(Value::Int(2), Value::Double(2.0)), 0);
  EXPECT_EQ(CompareValues(Value::StringView("a"), Value::StringView("b")), -1);
  EXPECT_EQ(CompareValues(Value::Double(NAN), Value::Int(1)), std::nullopt);
  EXPECT_EQ(CompareValues(Value::Int(1), Value::StringView("1")), std::nullopt);
}

TEST(ValueTest, MapKeysMatchAcrossNumericKinds) {
  MapData map;
  map.entries.emplace_back(Value::Int(1), Value::StringView("a"));
  ASSERT_NE(map.Find(Value::Uint(1)), nullptr);
  ASSERT_NE(map.Find(Value::Double(1.0)), nullptr);
  EXPECT_EQ(map.Find(Value::Double(1.5)), nullptr);
  EXPECT_EQ(map.Find(Value::StringView("1")), nullptr);
}

TEST(ValueTest, TypeNames) {
  EXPECT_EQ(Value::Int(1).TypeName(), "int");
  EXPECT_EQ(Value::OptionalNone().TypeName(), "optional_type");
  EXPECT_EQ(Value::OfQuantity(Quantity()).TypeName(), "kubernetes.Quantity");
}

}  // namespace
}  // namespace draguard::cel
