// The CEL standard library: operators (with cel-go's overflow and division errors),
// equality/ordering, indexing, membership, size and the type conversions.
#include <cerrno>
#include <cmath>
#include <string>

#include "policy/cel/functions/registry.h"
#include "policy/cel/internal/go_text.h"
#include "policy/cel/operators.h"
#include "policy/common/utf8.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;

Value Overflow() { return Value::ErrorView("integer overflow"); }
Value UOverflow() { return Value::ErrorView("unsigned integer overflow"); }

Value Arith(Args a, char op) {
  const Value& x = a[0];
  const Value& y = a[1];
  if (x.kind() != y.kind()) return NoSuchOverload();
  switch (x.kind()) {
    case Kind::kInt: {
      int64_t l = x.int_value(), r = y.int_value(), out = 0;
      switch (op) {
        case '+': return __builtin_add_overflow(l, r, &out) ? Overflow() : Value::Int(out);
        case '-': return __builtin_sub_overflow(l, r, &out) ? Overflow() : Value::Int(out);
        case '*': return __builtin_mul_overflow(l, r, &out) ? Overflow() : Value::Int(out);
        case '/':
          if (r == 0) return Value::ErrorView("division by zero");
          if (l == INT64_MIN && r == -1) return Overflow();
          return Value::Int(l / r);
        default:
          if (r == 0) return Value::ErrorView("modulus by zero");
          if (l == INT64_MIN && r == -1) return Overflow();
          return Value::Int(l % r);
      }
    }
    case Kind::kUint: {
      uint64_t l = x.uint_value(), r = y.uint_value(), out = 0;
      switch (op) {
        case '+': return __builtin_add_overflow(l, r, &out) ? UOverflow() : Value::Uint(out);
        case '-': return __builtin_sub_overflow(l, r, &out) ? UOverflow() : Value::Uint(out);
        case '*': return __builtin_mul_overflow(l, r, &out) ? UOverflow() : Value::Uint(out);
        case '/':
          if (r == 0) return Value::ErrorView("division by zero");
          return Value::Uint(l / r);
        default:
          if (r == 0) return Value::ErrorView("modulus by zero");
          return Value::Uint(l % r);
      }
    }
    case Kind::kDouble: {
      double l = x.double_value(), r = y.double_value();
      switch (op) {
        case '+': return Value::Double(l + r);
        case '-': return Value::Double(l - r);
        case '*': return Value::Double(l * r);
        case '/': return Value::Double(l / r);
        default: return NoSuchOverload();
      }
    }
    case Kind::kString:
    case Kind::kBytes:
      if (op != '+') return NoSuchOverload();
      return x.kind() == Kind::kString
                 ? Value::String(std::string(x.text()) + std::string(y.text()))
                 : Value::Bytes(std::string(x.text()) + std::string(y.text()));
    case Kind::kList: {
      if (op != '+') return NoSuchOverload();
      auto out = std::make_shared<ListData>(x.list());
      out->elements.insert(out->elements.end(), y.list().elements.begin(),
                           y.list().elements.end());
      return Value::List(std::move(out));
    }
    default: return NoSuchOverload();
  }
}

Value Add(Args a, EvalState&) {
  if (IsTimeKind(a[0].kind()) || IsTimeKind(a[1].kind())) return TimeArithmetic(a[0], a[1], '+');
  return Arith(a, '+');
}
Value Sub(Args a, EvalState&) {
  if (IsTimeKind(a[0].kind()) || IsTimeKind(a[1].kind())) return TimeArithmetic(a[0], a[1], '-');
  return Arith(a, '-');
}
Value Mul(Args a, EvalState&) { return Arith(a, '*'); }
Value Div(Args a, EvalState&) { return Arith(a, '/'); }
Value Mod(Args a, EvalState&) { return Arith(a, '%'); }

Value Negate(Args a, EvalState&) {
  switch (a[0].kind()) {
    case Kind::kInt:
      if (a[0].int_value() == INT64_MIN) return Overflow();
      return Value::Int(-a[0].int_value());
    case Kind::kDouble: return Value::Double(-a[0].double_value());
    default: return NoSuchOverload();
  }
}

Value Not(Args a, EvalState&) {
  if (!a[0].is_bool()) return NoSuchOverload();
  return Value::Bool(!a[0].bool_value());
}

Value Eq(Args a, EvalState&) { return Equal(a[0], a[1]); }
Value Ne(Args a, EvalState&) {
  Value v = Equal(a[0], a[1]);
  return v.is_bool() ? Value::Bool(!v.bool_value()) : v;
}

template <bool (*kPick)(int)>
Value Order(Args a, EvalState&) {
  std::optional<int> c = CompareValues(a[0], a[1]);
  if (!c) return NoSuchOverload();
  return Value::Bool(kPick(*c));
}
bool PickLess(int c) { return c < 0; }
bool PickLessEq(int c) { return c <= 0; }
bool PickGreater(int c) { return c > 0; }
bool PickGreaterEq(int c) { return c >= 0; }

// An integral list index from int, uint or an integral double.
std::optional<int64_t> ListIndex(const Value& v) {
  if (v.kind() == Kind::kInt) return v.int_value();
  if (v.kind() == Kind::kUint && v.uint_value() <= INT64_MAX) return static_cast<int64_t>(v.uint_value());
  if (v.kind() == Kind::kDouble && std::trunc(v.double_value()) == v.double_value() &&
      std::fabs(v.double_value()) < 9.2e18) {
    return static_cast<int64_t>(v.double_value());
  }
  return std::nullopt;
}

Value Index(Args a, EvalState&) {
  if (a[0].kind() == Kind::kOptional) return OptionalLookup(a[0], a[1]);
  if (a[0].kind() == Kind::kMap) {
    const MapData& map = a[0].map();
    if (const Value* v = map.Find(a[1])) return *v;
    if (map.defaulting) return Value::MapRef(&EmptyMap());
    return NoSuchKey(a[1]);
  }
  if (a[0].kind() != Kind::kList) return NoSuchOverload();
  std::optional<int64_t> i = ListIndex(a[1]);
  if (!i) return NoSuchOverload();
  const auto& elements = a[0].list().elements;
  if (*i < 0 || static_cast<size_t>(*i) >= elements.size()) {
    return Value::Error("index '" + std::to_string(*i) + "' out of range in list size '" +
                        std::to_string(elements.size()) + "'");
  }
  return elements[static_cast<size_t>(*i)];
}

Value In(Args a, EvalState&) {
  if (a[1].kind() == Kind::kMap) return Value::Bool(a[1].map().Find(a[0]) != nullptr);
  if (a[1].kind() != Kind::kList) return NoSuchOverload();
  for (const Value& e : a[1].list().elements) {
    if (ValuesEqual(a[0], e)) return Value::Bool(true);
  }
  return Value::Bool(false);
}

int64_t CodePoints(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

Value Size(Args a, EvalState&) {
  switch (a[0].kind()) {
    case Kind::kString: return Value::Int(CodePoints(a[0].text()));
    case Kind::kBytes: return Value::Int(static_cast<int64_t>(a[0].text().size()));
    case Kind::kList: return Value::Int(static_cast<int64_t>(a[0].list().elements.size()));
    case Kind::kMap: return Value::Int(static_cast<int64_t>(a[0].map().entries.size()));
    default: return NoSuchOverload();
  }
}

Value ToInt(Args a, EvalState&) {
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::kInt: return v;
    case Kind::kTimestamp: return Value::Int(v.timestamp().seconds);
    case Kind::kDuration: return Value::Int(v.duration_nanos());
    case Kind::kUint:
      if (v.uint_value() > INT64_MAX) return Value::ErrorView("integer overflow");
      return Value::Int(static_cast<int64_t>(v.uint_value()));
    case Kind::kDouble: {
      double d = v.double_value();
      if (std::isnan(d) || d <= -9223372036854775808.0 || d >= 9223372036854775807.0) {
        return Value::ErrorView("integer overflow");
      }
      return Value::Int(static_cast<int64_t>(d));
    }
    case Kind::kString: {
      std::string s(v.text());
      char* end = nullptr;
      errno = 0;
      long long n = std::strtoll(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno != 0 || std::isspace(static_cast<unsigned char>(s[0]))) {
        return Value::Error("cannot convert string '" + s + "' to int");  // cel-go wording
      }
      return Value::Int(n);
    }
    default: return NoSuchOverload();
  }
}

Value ToUint(Args a, EvalState&) {
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::kUint: return v;
    case Kind::kInt:
      if (v.int_value() < 0) return Value::ErrorView("unsigned integer overflow");
      return Value::Uint(static_cast<uint64_t>(v.int_value()));
    case Kind::kDouble: {
      double d = v.double_value();
      if (std::isnan(d) || d < 0 || d >= 18446744073709551615.0) {
        return Value::ErrorView("unsigned integer overflow");
      }
      return Value::Uint(static_cast<uint64_t>(d));
    }
    case Kind::kString: {
      std::string s(v.text());
      char* end = nullptr;
      errno = 0;
      unsigned long long n = std::strtoull(s.c_str(), &end, 10);
      if (s.empty() || *end != '\0' || errno != 0 || s[0] == '-' || s[0] == '+' ||
          std::isspace(static_cast<unsigned char>(s[0]))) {
        return Value::Error("cannot convert string '" + s + "' to uint");
      }
      return Value::Uint(n);
    }
    default: return NoSuchOverload();
  }
}

Value ToDouble(Args a, EvalState&) {
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::kDouble: return v;
    case Kind::kInt: return Value::Double(static_cast<double>(v.int_value()));
    case Kind::kUint: return Value::Double(static_cast<double>(v.uint_value()));
    case Kind::kString: {
      std::string s(v.text());
      char* end = nullptr;
      errno = 0;
      double d = std::strtod(s.c_str(), &end);
      // cel-go converts only when Go's ParseFloat succeeds: a value beyond the double range
      // ("1e400") is ErrRange there, while an underflow to zero is accepted.
      const bool overflow = errno == ERANGE && std::isinf(d);
      if (s.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0])) ||
          overflow) {
        return Value::Error("cannot convert string '" + s + "' to double");
      }
      return Value::Double(d);
    }
    default: return NoSuchOverload();
  }
}

Value ToString(Args a, EvalState&) {
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::kString: return v;
    case Kind::kBool: return Value::StringView(v.bool_value() ? "true" : "false");
    case Kind::kInt: return Value::String(std::to_string(v.int_value()));
    case Kind::kUint: return Value::String(std::to_string(v.uint_value()));
    case Kind::kDouble: return Value::String(internal::GoFormatShortest(v.double_value()));
    case Kind::kBytes:
      if (!IsValidUtf8(v.text())) return Value::ErrorView("invalid UTF-8 in bytes, cannot convert to string");
      return Value::String(std::string(v.text()));
    case Kind::kQuantity: return Value::String(v.quantity().String());
    case Kind::kSemver: return Value::String(v.semver().String());
    case Kind::kIp:
    case Kind::kCidr: return NetworkToString(v);
    case Kind::kTimestamp: return Value::String(FormatRfc3339(v.timestamp()));
    case Kind::kDuration: return Value::String(FormatCelDuration(v.duration_nanos()));
    default: return NoSuchOverload();
  }
}

Value ToBool(Args a, EvalState&) {
  const Value& v = a[0];
  if (v.is_bool()) return v;
  if (v.kind() != Kind::kString) return NoSuchOverload();
  std::string_view s = v.text();
  if (s == "1" || s == "t" || s == "true" || s == "TRUE" || s == "True" || s == "T") {
    return Value::Bool(true);
  }
  if (s == "0" || s == "f" || s == "false" || s == "FALSE" || s == "False" || s == "F") {
    return Value::Bool(false);
  }
  return Value::Error("type conversion error from 'string' to 'bool'");
}

Value ToBytes(Args a, EvalState&) {
  if (a[0].kind() == Kind::kBytes) return a[0];
  if (a[0].kind() == Kind::kString) return Value::Bytes(std::string(a[0].text()));
  return NoSuchOverload();
}

Value Dyn(Args a, EvalState&) { return a[0]; }

Value TypeOf(Args a, EvalState&) { return Value::Type(a[0].TypeName()); }

}  // namespace

void RegisterStandardFunctions(Registry& r) {
  r.Add(op::kAdd, 2, Add);
  r.Add(op::kSubtract, 2, Sub);
  r.Add(op::kMultiply, 2, Mul);
  r.Add(op::kDivide, 2, Div);
  r.Add(op::kModulo, 2, Mod);
  r.Add(op::kNegate, 1, Negate);
  r.Add(op::kLogicalNot, 1, Not);
  r.Add(op::kEquals, 2, Eq);
  r.Add(op::kNotEquals, 2, Ne);
  r.Add(op::kLess, 2, Order<PickLess>);
  r.Add(op::kLessEquals, 2, Order<PickLessEq>);
  r.Add(op::kGreater, 2, Order<PickGreater>);
  r.Add(op::kGreaterEquals, 2, Order<PickGreaterEq>);
  r.Add(op::kIndex, 2, Index);
  r.Add(op::kIn, 2, In);
  r.Add("size", 1, Size);
  r.Add("int", 1, ToInt);
  r.Add("uint", 1, ToUint);
  r.Add("double", 1, ToDouble);
  r.Add("string", 1, ToString);
  r.Add("bool", 1, ToBool);
  r.Add("bytes", 1, ToBytes);
  r.Add("dyn", 1, Dyn);
  r.Add("type", 1, TypeOf);
}

}  // namespace draguard::cel
