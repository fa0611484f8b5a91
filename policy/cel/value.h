// Value: the runtime representation of a CEL value.
//
// A Value is a kind tag, an 8-byte scalar and an optional payload pointer. Payloads
// (strings, lists, maps, optionals, quantities, semvers, named formats) are either *borrowed* (a raw
// pointer into storage that outlives the evaluation: the Program's constants, a prepared
// device) or *owned* through a shared_ptr to an immutable object (values computed during
// evaluation). Copying a borrowed value never allocates and never touches a refcount,
// which keeps attribute lookups and comparisons allocation-free.
//
// Errors are values (kind kError) carrying cel-go's message text.
// Thread-compatible: a const Value may be read from several threads; owned payloads are
// immutable.
#ifndef DRAGUARD_POLICY_CEL_VALUE_H_
#define DRAGUARD_POLICY_CEL_VALUE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/common/ip_address.h"
#include "policy/common/quantity.h"
#include "policy/common/semver.h"
#include "policy/common/time.h"

namespace draguard::cel {

enum class Kind : uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,
  kOptional,
  kError,
  kQuantity,
  kSemver,
  kFormat,  // kubernetes.NamedFormat (the format library)
  kIp,      // net.IP (the IP library)
  kCidr,    // net.CIDR (the CIDR library)
  kUrl,     // kubernetes.URL (the URL library)
  kTimestamp,  // google.protobuf.Timestamp
  kDuration,   // google.protobuf.Duration (int64 nanoseconds, inline)
};

// A URL as the URL library holds it: the text and the parts url.Parse gives.
struct UrlValue {
  std::string text;
  std::string scheme, host, raw_path, raw_query;
};

class Value;
struct ListData;
struct MapData;
class PathIndex;

// A Kubernetes named format (format.dns1123Label(), ...). Descriptors are static, defined
// by the format library (functions/named_formats.cc); values point at them.
struct NamedFormat {
  std::string_view name;      // Kubernetes' Format.Name ("DNS1123Label", "uuid"); equality
  std::string_view function;  // the library name: format.<function>(), format.named("...")
  // The messages of an invalid value, none for a valid one.
  std::vector<std::string> (*validate)(std::string_view value);
};

class Value {
 public:
  Value() = default;  // null

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Uint(uint64_t u);
  static Value Double(double d);
  // Owning string/bytes/error (allocates).
  static Value String(std::string s);
  static Value Bytes(std::string s);
  static Value Error(std::string message);
  // Borrowing: `text` must outlive every copy of the value (static text, Program
  // constants, prepared device data).
  static Value StringView(std::string_view text);
  static Value BytesView(std::string_view text);
  static Value ErrorView(std::string_view message);
  // A type value named as CEL prints it ("int", "list", "kubernetes.Quantity"). The name
  // must be static text.
  static Value Type(std::string_view name);
  static Value List(std::shared_ptr<const ListData> list);
  static Value ListRef(const ListData* list);  // borrowed, non-null
  static Value Map(std::shared_ptr<const MapData> map);
  static Value MapRef(const MapData* map);  // borrowed, non-null
  static Value Optional(Value v);           // optional.of(v)
  static Value OptionalNone();
  static Value OfQuantity(Quantity q);
  static Value QuantityRef(const Quantity* q);
  static Value OfSemver(Semver s);
  static Value SemverRef(const Semver* s);
  static Value OfNamedFormat(const NamedFormat* format);  // static descriptor, non-null
  static Value OfIp(IpAddress ip);
  static Value OfCidr(IpPrefix cidr);
  static Value OfUrl(UrlValue url);
  static Value OfTimestamp(Timestamp t);
  static Value Duration(int64_t nanos) {
    Value v;
    v.kind_ = Kind::kDuration;
    v.scalar_.i = nanos;
    return v;
  }

  Kind kind() const { return kind_; }
  bool is_error() const { return kind_ == Kind::kError; }
  bool is_bool() const { return kind_ == Kind::kBool; }

  // Accessors; precondition: the matching kind().
  bool bool_value() const { return scalar_.b; }
  int64_t int_value() const { return scalar_.i; }
  uint64_t uint_value() const { return scalar_.u; }
  double double_value() const { return scalar_.d; }
  // String, bytes, error message or type name.
  std::string_view text() const { return text_; }
  const ListData& list() const { return *static_cast<const ListData*>(scalar_.p); }
  const MapData& map() const { return *static_cast<const MapData*>(scalar_.p); }
  const Quantity& quantity() const { return *static_cast<const Quantity*>(scalar_.p); }
  const Semver& semver() const { return *static_cast<const Semver*>(scalar_.p); }
  const NamedFormat& named_format() const { return *static_cast<const NamedFormat*>(scalar_.p); }
  const IpAddress& ip() const { return *static_cast<const IpAddress*>(scalar_.p); }
  const IpPrefix& cidr() const { return *static_cast<const IpPrefix*>(scalar_.p); }
  const UrlValue& url() const { return *static_cast<const UrlValue*>(scalar_.p); }
  const Timestamp& timestamp() const { return *static_cast<const Timestamp*>(scalar_.p); }
  int64_t duration_nanos() const { return scalar_.i; }
  // kOptional: the contained value, or nullptr for optional.none().
  const Value* optional_value() const { return static_cast<const Value*>(scalar_.p); }

  // The CEL type name of this value: "int", "string", "map", "optional_type", ...
  std::string_view TypeName() const;

  // A copy that does not keep the payload alive: *this (or another owner of the payload)
  // must outlive the copy. Used to keep Program constants out of refcounting.
  Value Borrowed() const {
    Value v = *this;
    v.owner_.reset();
    return v;
  }

  // A debug/print form: strings quoted, lists as [a, b], maps as {k: v}.
  std::string DebugString() const;

 private:
  Kind kind_ = Kind::kNull;
  union Scalar {
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    const void* p;
  } scalar_{.i = 0};
  std::string_view text_;
  std::shared_ptr<const void> owner_;
};

// The allocation-free factories are inline: they sit on every evaluation's hot path.
inline Value Value::Bool(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.scalar_.b = b;
  return v;
}
inline Value Value::Int(int64_t i) {
  Value v;
  v.kind_ = Kind::kInt;
  v.scalar_.i = i;
  return v;
}
inline Value Value::Uint(uint64_t u) {
  Value v;
  v.kind_ = Kind::kUint;
  v.scalar_.u = u;
  return v;
}
inline Value Value::Double(double d) {
  Value v;
  v.kind_ = Kind::kDouble;
  v.scalar_.d = d;
  return v;
}
inline Value Value::StringView(std::string_view text) {
  Value v;
  v.kind_ = Kind::kString;
  v.text_ = text;
  return v;
}
inline Value Value::ListRef(const ListData* list) {
  Value v;
  v.kind_ = Kind::kList;
  v.scalar_.p = list;
  return v;
}
inline Value Value::MapRef(const MapData* map) {
  Value v;
  v.kind_ = Kind::kMap;
  v.scalar_.p = map;
  return v;
}

struct ListData {
  std::vector<Value> elements;
};

// A map with insertion order kept. Keys are bool, int, uint, double-free numbers or
// strings; lookups match numeric keys across int/uint/double (CEL heterogeneous keys).
// `defaulting` marks Kubernetes' outer device maps: looking up a missing key yields an
// empty map instead of an error (membership tests still use the real key set).
// `path_index`, when set, indexes the values three string keys below this map
// (path_index.h); whoever sets it keeps it in step with the map (a prepared device, which
// never changes after building it). Evaluation only reads it.
struct MapData {
  std::vector<std::pair<Value, Value>> entries;
  bool defaulting = false;
  const PathIndex* path_index = nullptr;

  // The value stored under `key`, or nullptr.
  const Value* Find(const Value& key) const;
};

// An empty map with static lifetime (the defaulting maps' answer for missing keys).
const MapData& EmptyMap();

// Heterogeneous equality (cel-spec langdef.md "Equality"). Returns a bool Value, or an error
// Value when the left operand's type has no equality with the right one (Quantity/Semver:
// apiserver pkg/cel/{quantity,semver}.go `Equal`).
Value Equal(const Value& a, const Value& b);
// The plain boolean form of Equal for containers (errors compare unequal).
bool ValuesEqual(const Value& a, const Value& b);

// Ordering for int/uint/double (mixed), string, bytes, bool: -1, 0, 1; nullopt when
// the kinds have no ordering or a NaN is involved.
std::optional<int> CompareValues(const Value& a, const Value& b);

// cel-go's error texts.
Value NoSuchOverload();
Value NoSuchKey(const Value& key);

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_VALUE_H_
