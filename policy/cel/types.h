// CEL types as the checker sees them: primitives, dyn, any, null_type, list(T), map(K, V),
// type(T), optional(T), timestamp, duration, opaque extension types (kubernetes.Quantity,
// net.IP, ...), object types (kubernetes.DRADevice) and type parameters of generic overloads.
//
// A Type is a small value: primitives carry no heap data, composite types share an immutable
// representation through a shared_ptr, so copies are cheap and never deep. Whether a type
// holds a type parameter anywhere is computed once, when it is built (the checker asks on
// every substitution, and most types it handles hold none). Equality is
// structural. DebugString() prints exactly what cel-go's FormatCELType prints, because those
// strings appear in user-facing messages (`list(string)`, `google.protobuf.Any`).
//
// Thread safety: Type is immutable; values may be shared freely between threads.
#ifndef DRAGUARD_POLICY_CEL_TYPES_H_
#define DRAGUARD_POLICY_CEL_TYPES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace draguard::cel {

enum class TypeKind : uint8_t {
  kError,  // the type of an expression that failed to check; assignable like dyn
  kDyn,
  kAny,  // cel-go's AnyType: behaves like dyn, prints as google.protobuf.Any
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kTimestamp,
  kDuration,
  kList,       // params: {elem}
  kMap,        // params: {key, value}
  kType,       // params: {} (the type `type`) or {T} (type(T))
  kOptional,   // params: {T}
  kOpaque,     // name, optional params
  kObject,     // name; fields live in the Environment
  kTypeParam,  // name: a type variable of a generic overload or a checker-made variable
};

inline constexpr char kQuantityTypeName[] = "kubernetes.Quantity";
inline constexpr char kSemverTypeName[] = "kubernetes.Semver";
inline constexpr char kUrlTypeName[] = "kubernetes.URL";
inline constexpr char kNamedFormatTypeName[] = "kubernetes.NamedFormat";
inline constexpr char kIpTypeName[] = "net.IP";
inline constexpr char kCidrTypeName[] = "net.CIDR";
inline constexpr char kDraDeviceTypeName[] = "kubernetes.DRADevice";

class Type {
 public:
  // The default type is dyn.
  Type() = default;

  static Type Error() { return Type(TypeKind::kError); }
  static Type Dyn() { return Type(TypeKind::kDyn); }
  static Type Any() { return Type(TypeKind::kAny); }
  static Type Null() { return Type(TypeKind::kNull); }
  static Type Bool() { return Type(TypeKind::kBool); }
  static Type Int() { return Type(TypeKind::kInt); }
  static Type Uint() { return Type(TypeKind::kUint); }
  static Type Double() { return Type(TypeKind::kDouble); }
  static Type String() { return Type(TypeKind::kString); }
  static Type Bytes() { return Type(TypeKind::kBytes); }
  static Type Timestamp() { return Type(TypeKind::kTimestamp); }
  static Type Duration() { return Type(TypeKind::kDuration); }
  static Type List(Type elem);
  static Type Map(Type key, Type value);
  // The type `type` (no parameter) and type(T).
  static Type TypeType();
  static Type TypeOf(Type type);
  static Type Optional(Type value);
  static Type Opaque(std::string name, std::vector<Type> params = {});
  static Type Object(std::string name);
  static Type Param(std::string name);

  TypeKind kind() const { return kind_; }
  // Name of opaque, object and type-parameter types; empty otherwise.
  std::string_view name() const { return rep_ ? std::string_view(rep_->name) : std::string_view(); }
  // Type parameters (list element, map key/value, ...); empty for primitives.
  const std::vector<Type>& params() const { return rep_ ? rep_->params : EmptyParams(); }
  // Whether this type is a type parameter or holds one among its params, at any depth.
  bool has_type_param() const {
    return kind_ == TypeKind::kTypeParam || (rep_ && rep_->has_type_param);
  }
  // params()[i], or dyn when absent.
  Type param(size_t i) const;

  bool is_dyn_or_any() const { return kind_ == TypeKind::kDyn || kind_ == TypeKind::kAny; }
  bool is_dyn_any_or_error() const { return is_dyn_or_any() || kind_ == TypeKind::kError; }
  bool is_primitive() const;

  // cel-go's FormatCELType text: "int", "list(string)", "map(string, google.protobuf.Any)".
  std::string DebugString() const;
  // cel-go's Type.TypeName(): the name without parameters ("list", "optional_type").
  std::string TypeName() const;

  friend bool operator==(const Type& a, const Type& b);

 private:
  struct Rep {
    std::string name;
    std::vector<Type> params;
    bool has_type_param = false;  // some element of params has_type_param()
  };
  static const std::vector<Type>& EmptyParams();
  explicit Type(TypeKind kind) : kind_(kind) {}
  Type(TypeKind kind, std::string name, std::vector<Type> params);

  TypeKind kind_ = TypeKind::kDyn;
  std::shared_ptr<const Rep> rep_;
};

// Shared instances of the extension types.
const Type& QuantityType();
const Type& SemverType();
const Type& UrlType();
const Type& NamedFormatType();
const Type& IpType();
const Type& CidrType();

}  // namespace draguard::cel

#endif  // DRAGUARD_POLICY_CEL_TYPES_H_
