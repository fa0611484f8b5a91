// Value construction, heterogeneous equality and ordering (cel-spec langdef "Equality"
// and cel-go's runtime behaviour). Numbers compare on one number line: int/uint exactly,
// and against double as cel-go does (the integer converted to double when in range).
#include "policy/cel/value.h"

#include <cmath>
#include <cstdio>

namespace draguard::cel {
namespace {

// -1/0/1 comparing int64 with double as cel-go's compareIntDouble does: out-of-range
// doubles order outside, otherwise the int is converted to double (lossy above 2^53; the
// cel-spec conformance suite expects dyn(9223372036854775807) >= 9223372036854775808.0).
// nullopt for NaN.
std::optional<int> CompareDoubles(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  return x < y ? -1 : (x > y ? 1 : 0);
}

std::optional<int> CompareIntDouble(int64_t i, double d) {
  if (std::isnan(d)) return std::nullopt;
  if (d < -9223372036854775808.0) return 1;
  if (d > 9223372036854775807.0) return -1;
  return CompareDoubles(static_cast<double>(i), d);
}

std::optional<int> CompareUintDouble(uint64_t u, double d) {
  if (std::isnan(d)) return std::nullopt;
  if (d < 0) return 1;
  if (d > 18446744073709551615.0) return -1;
  return CompareDoubles(static_cast<double>(u), d);
}

std::optional<int> CompareNumbers(const Value& a, const Value& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  switch (a.kind()) {
    case Kind::kInt:
      if (b.kind() == Kind::kInt) return sign(a.int_value(), b.int_value());
      if (b.kind() == Kind::kUint) {
        return a.int_value() < 0 ? -1 : sign(static_cast<uint64_t>(a.int_value()), b.uint_value());
      }
      return CompareIntDouble(a.int_value(), b.double_value());
    case Kind::kUint:
      if (b.kind() == Kind::kUint) return sign(a.uint_value(), b.uint_value());
      if (b.kind() == Kind::kInt) {
        return b.int_value() < 0 ? 1 : sign(a.uint_value(), static_cast<uint64_t>(b.int_value()));
      }
      return CompareUintDouble(a.uint_value(), b.double_value());
    default: {
      if (b.kind() == Kind::kDouble) {
        if (std::isnan(a.double_value()) || std::isnan(b.double_value())) return std::nullopt;
        return sign(a.double_value(), b.double_value());
      }
      std::optional<int> r = CompareNumbers(b, a);
      if (r) return -*r;
      return r;
    }
  }
}

bool IsNumber(Kind k) { return k == Kind::kInt || k == Kind::kUint || k == Kind::kDouble; }

bool ListsEqual(const ListData& a, const ListData& b) {
  if (a.elements.size() != b.elements.size()) return false;
  for (size_t i = 0; i < a.elements.size(); ++i) {
    if (!ValuesEqual(a.elements[i], b.elements[i])) return false;
  }
  return true;
}

bool MapsEqual(const MapData& a, const MapData& b) {
  if (a.entries.size() != b.entries.size()) return false;
  for (const auto& [key, value] : a.entries) {
    const Value* other = b.Find(key);
    if (other == nullptr || !ValuesEqual(value, *other)) return false;
  }
  return true;
}

void AppendQuoted(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

}  // namespace


Value Value::BytesView(std::string_view text) {
  Value v = StringView(text);
  v.kind_ = Kind::kBytes;
  return v;
}
Value Value::ErrorView(std::string_view message) {
  Value v = StringView(message);
  v.kind_ = Kind::kError;
  return v;
}
Value Value::Type(std::string_view name) {
  Value v = StringView(name);
  v.kind_ = Kind::kType;
  return v;
}

Value Value::String(std::string s) {
  auto owned = std::make_shared<const std::string>(std::move(s));
  Value v = StringView(*owned);
  v.owner_ = std::move(owned);
  return v;
}
Value Value::Bytes(std::string s) {
  Value v = String(std::move(s));
  v.kind_ = Kind::kBytes;
  return v;
}
Value Value::Error(std::string message) {
  Value v = String(std::move(message));
  v.kind_ = Kind::kError;
  return v;
}

Value Value::List(std::shared_ptr<const ListData> list) {
  Value v = ListRef(list.get());
  v.owner_ = std::move(list);
  return v;
}
Value Value::Map(std::shared_ptr<const MapData> map) {
  Value v = MapRef(map.get());
  v.owner_ = std::move(map);
  return v;
}
Value Value::Optional(Value inner) {
  auto owned = std::make_shared<const Value>(std::move(inner));
  Value v;
  v.kind_ = Kind::kOptional;
  v.scalar_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}
Value Value::OptionalNone() {
  Value v;
  v.kind_ = Kind::kOptional;
  v.scalar_.p = nullptr;
  return v;
}
Value Value::OfQuantity(Quantity q) {
  auto owned = std::make_shared<const Quantity>(q);
  Value v = QuantityRef(owned.get());
  v.owner_ = std::move(owned);
  return v;
}
Value Value::QuantityRef(const Quantity* q) {
  Value v;
  v.kind_ = Kind::kQuantity;
  v.scalar_.p = q;
  return v;
}
Value Value::OfSemver(Semver s) {
  auto owned = std::make_shared<const Semver>(std::move(s));
  Value v = SemverRef(owned.get());
  v.owner_ = std::move(owned);
  return v;
}
Value Value::SemverRef(const Semver* s) {
  Value v;
  v.kind_ = Kind::kSemver;
  v.scalar_.p = s;
  return v;
}

Value Value::OfNamedFormat(const NamedFormat* format) {
  Value v;
  v.kind_ = Kind::kFormat;
  v.scalar_.p = format;
  return v;
}

Value Value::OfIp(IpAddress ip) {
  auto owned = std::make_shared<const IpAddress>(std::move(ip));
  Value v;
  v.kind_ = Kind::kIp;
  v.scalar_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

Value Value::OfCidr(IpPrefix cidr) {
  auto owned = std::make_shared<const IpPrefix>(std::move(cidr));
  Value v;
  v.kind_ = Kind::kCidr;
  v.scalar_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

Value Value::OfUrl(UrlValue url) {
  auto owned = std::make_shared<const UrlValue>(std::move(url));
  Value v;
  v.kind_ = Kind::kUrl;
  v.scalar_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

Value Value::OfTimestamp(Timestamp t) {
  auto owned = std::make_shared<const Timestamp>(t);
  Value v;
  v.kind_ = Kind::kTimestamp;
  v.scalar_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

std::string_view Value::TypeName() const {
  switch (kind_) {
    case Kind::kNull: return "null_type";
    case Kind::kBool: return "bool";
    case Kind::kInt: return "int";
    case Kind::kUint: return "uint";
    case Kind::kDouble: return "double";
    case Kind::kString: return "string";
    case Kind::kBytes: return "bytes";
    case Kind::kList: return "list";
    case Kind::kMap: return "map";
    case Kind::kType: return "type";
    case Kind::kOptional: return "optional_type";
    case Kind::kError: return "error";
    case Kind::kQuantity: return "kubernetes.Quantity";
    case Kind::kSemver: return "kubernetes.Semver";
    case Kind::kFormat: return "kubernetes.NamedFormat";
    case Kind::kIp: return "net.IP";
    case Kind::kCidr: return "net.CIDR";
    case Kind::kUrl: return "kubernetes.URL";
    case Kind::kTimestamp: return "google.protobuf.Timestamp";
    case Kind::kDuration: return "google.protobuf.Duration";
  }
  return "unknown";
}

std::string Value::DebugString() const {
  std::string out;
  switch (kind_) {
    case Kind::kNull: return "null";
    case Kind::kBool: return scalar_.b ? "true" : "false";
    case Kind::kInt: return std::to_string(scalar_.i);
    case Kind::kUint: return std::to_string(scalar_.u) + "u";
    case Kind::kDouble: {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", scalar_.d);
      return buf;
    }
    case Kind::kString: AppendQuoted(out, text_); return out;
    case Kind::kBytes: out = "b"; AppendQuoted(out, text_); return out;
    case Kind::kType: return std::string(text_);
    case Kind::kError: return "error(" + std::string(text_) + ")";
    case Kind::kQuantity: return "quantity(\"" + quantity().String() + "\")";
    case Kind::kSemver: return "semver(\"" + semver().String() + "\")";
    case Kind::kFormat: return "format." + std::string(named_format().function) + "()";
    case Kind::kIp: return "ip(\"" + ip().String() + "\")";
    case Kind::kCidr: return "cidr(\"" + cidr().String() + "\")";
    case Kind::kUrl: return "url(\"" + url().text + "\")";
    case Kind::kTimestamp: return "timestamp(\"" + FormatRfc3339(timestamp()) + "\")";
    case Kind::kDuration: return "duration(\"" + FormatCelDuration(duration_nanos()) + "\")";
    case Kind::kOptional:
      return optional_value() ? "optional.of(" + optional_value()->DebugString() + ")"
                              : "optional.none()";
    case Kind::kList:
      out = "[";
      for (size_t i = 0; i < list().elements.size(); ++i) {
        out += (i ? ", " : "") + list().elements[i].DebugString();
      }
      return out + "]";
    case Kind::kMap:
      out = "{";
      for (size_t i = 0; i < map().entries.size(); ++i) {
        out += (i ? ", " : "") + map().entries[i].first.DebugString() + ": " +
               map().entries[i].second.DebugString();
      }
      return out + "}";
  }
  return out;
}

const Value* MapData::Find(const Value& key) const {
  for (const auto& entry : entries) {
    const Value& k = entry.first;
    if (k.kind() == key.kind()) {
      if (k.kind() == Kind::kString ? k.text() == key.text() : ValuesEqual(k, key)) {
        return &entry.second;
      }
    } else if (IsNumber(k.kind()) && IsNumber(key.kind())) {
      if (CompareNumbers(k, key) == 0) return &entry.second;
    }
  }
  return nullptr;
}

const MapData& EmptyMap() {
  static const MapData* empty = new MapData();
  return *empty;
}

bool ValuesEqual(const Value& a, const Value& b) {
  Value r = Equal(a, b);
  return r.is_bool() && r.bool_value();
}

Value Equal(const Value& a, const Value& b) {
  if (IsNumber(a.kind()) && IsNumber(b.kind())) return Value::Bool(CompareNumbers(a, b) == 0);
  if (a.kind() == Kind::kQuantity || a.kind() == Kind::kSemver || a.kind() == Kind::kFormat ||
      a.kind() == Kind::kIp || a.kind() == Kind::kCidr || a.kind() == Kind::kUrl) {
    // Kubernetes' types implement equality only against their own type (apiserver
    // pkg/cel/{quantity,semver,ip,cidr,url,format}.go, `Equal`).
    if (b.kind() != a.kind()) return NoSuchOverload();
    if (a.kind() == Kind::kFormat) return Value::Bool(a.named_format().name == b.named_format().name);
    if (a.kind() == Kind::kIp) return Value::Bool(a.ip() == b.ip());
    if (a.kind() == Kind::kCidr) return Value::Bool(a.cidr() == b.cidr());
    if (a.kind() == Kind::kUrl) return Value::Bool(a.url().text == b.url().text);
    return Value::Bool(a.kind() == Kind::kQuantity ? a.quantity() == b.quantity()
                                                   : a.semver() == b.semver());
  }
  if (a.kind() != b.kind()) return Value::Bool(false);
  switch (a.kind()) {
    case Kind::kNull: return Value::Bool(true);
    case Kind::kBool: return Value::Bool(a.bool_value() == b.bool_value());
    case Kind::kString:
    case Kind::kBytes:
    case Kind::kType: return Value::Bool(a.text() == b.text());
    case Kind::kTimestamp: return Value::Bool(a.timestamp() == b.timestamp());
    case Kind::kDuration: return Value::Bool(a.duration_nanos() == b.duration_nanos());
    case Kind::kList: return Value::Bool(ListsEqual(a.list(), b.list()));
    case Kind::kMap: return Value::Bool(MapsEqual(a.map(), b.map()));
    case Kind::kOptional:
      if (!a.optional_value() || !b.optional_value()) {
        return Value::Bool(!a.optional_value() && !b.optional_value());
      }
      return Value::Bool(ValuesEqual(*a.optional_value(), *b.optional_value()));
    default: return Value::Bool(false);
  }
}

std::optional<int> CompareValues(const Value& a, const Value& b) {
  if (IsNumber(a.kind()) && IsNumber(b.kind())) return CompareNumbers(a, b);
  if (a.kind() != b.kind()) return std::nullopt;
  switch (a.kind()) {
    case Kind::kBool: return static_cast<int>(a.bool_value()) - static_cast<int>(b.bool_value());
    case Kind::kString:
    case Kind::kBytes: {
      int c = a.text().compare(b.text());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Kind::kTimestamp: {
      auto c = a.timestamp() <=> b.timestamp();
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Kind::kDuration:
      return a.duration_nanos() < b.duration_nanos()   ? -1
             : a.duration_nanos() > b.duration_nanos() ? 1
                                                       : 0;
    default: return std::nullopt;
  }
}

Value NoSuchOverload() { return Value::ErrorView("no such overload"); }

Value NoSuchKey(const Value& key) {
  if (key.kind() == Kind::kString) return Value::Error("no such key: " + std::string(key.text()));
  return Value::Error("no such key: " + key.DebugString());
}

}  // namespace draguard::cel
