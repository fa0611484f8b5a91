#include "policy/cel/types.h"

#include <utility>

namespace draguard::cel {
namespace {

std::string_view PrimitiveName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kError: return "*error*";
    case TypeKind::kDyn: return "dyn";
    case TypeKind::kAny: return "google.protobuf.Any";
    case TypeKind::kNull: return "null_type";
    case TypeKind::kBool: return "bool";
    case TypeKind::kInt: return "int";
    case TypeKind::kUint: return "uint";
    case TypeKind::kDouble: return "double";
    case TypeKind::kString: return "string";
    case TypeKind::kBytes: return "bytes";
    case TypeKind::kTimestamp: return "google.protobuf.Timestamp";
    case TypeKind::kDuration: return "google.protobuf.Duration";
    case TypeKind::kList: return "list";
    case TypeKind::kMap: return "map";
    case TypeKind::kType: return "type";
    case TypeKind::kOptional: return "optional_type";
    default: return "";
  }
}

}  // namespace

const std::vector<Type>& Type::EmptyParams() {
  static const std::vector<Type>* const kEmpty = new std::vector<Type>();
  return *kEmpty;
}

Type::Type(TypeKind kind, std::string name, std::vector<Type> params) : kind_(kind) {
  bool has_type_param = false;
  for (const Type& p : params) has_type_param = has_type_param || p.has_type_param();
  rep_ = std::make_shared<const Rep>(Rep{std::move(name), std::move(params), has_type_param});
}

Type Type::List(Type elem) { return Type(TypeKind::kList, "", {std::move(elem)}); }
Type Type::Map(Type key, Type value) {
  return Type(TypeKind::kMap, "", {std::move(key), std::move(value)});
}
Type Type::TypeType() { return Type(TypeKind::kType); }
Type Type::TypeOf(Type type) { return Type(TypeKind::kType, "", {std::move(type)}); }
Type Type::Optional(Type value) { return Type(TypeKind::kOptional, "", {std::move(value)}); }
Type Type::Opaque(std::string name, std::vector<Type> params) {
  return Type(TypeKind::kOpaque, std::move(name), std::move(params));
}
Type Type::Object(std::string name) { return Type(TypeKind::kObject, std::move(name), {}); }
Type Type::Param(std::string name) { return Type(TypeKind::kTypeParam, std::move(name), {}); }

Type Type::param(size_t i) const {
  const auto& p = params();
  return i < p.size() ? p[i] : Type::Dyn();
}

bool Type::is_primitive() const {
  switch (kind_) {
    case TypeKind::kBool:
    case TypeKind::kInt:
    case TypeKind::kUint:
    case TypeKind::kDouble:
    case TypeKind::kString:
    case TypeKind::kBytes:
      return true;
    default:
      return false;
  }
}

std::string Type::TypeName() const {
  if (kind_ == TypeKind::kOpaque || kind_ == TypeKind::kObject || kind_ == TypeKind::kTypeParam) {
    return std::string(name());
  }
  return std::string(PrimitiveName(kind_));
}

std::string Type::DebugString() const {
  std::string out = TypeName();
  const auto& p = params();
  if (p.empty()) return out;
  out += '(';
  for (size_t i = 0; i < p.size(); ++i) {
    if (i > 0) out += ", ";
    out += p[i].DebugString();
  }
  out += ')';
  return out;
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind_ != b.kind_) return false;
  if (a.rep_ == b.rep_) return true;
  return a.name() == b.name() && a.params() == b.params();
}

#define DRAGUARD_CEL_OPAQUE_TYPE(Fn, kName)                   \
  const Type& Fn() {                                          \
    static const Type* const kType = new Type(Type::Opaque(kName)); \
    return *kType;                                            \
  }
DRAGUARD_CEL_OPAQUE_TYPE(QuantityType, kQuantityTypeName)
DRAGUARD_CEL_OPAQUE_TYPE(SemverType, kSemverTypeName)
DRAGUARD_CEL_OPAQUE_TYPE(UrlType, kUrlTypeName)
DRAGUARD_CEL_OPAQUE_TYPE(NamedFormatType, kNamedFormatTypeName)
DRAGUARD_CEL_OPAQUE_TYPE(IpType, kIpTypeName)
DRAGUARD_CEL_OPAQUE_TYPE(CidrType, kCidrTypeName)
#undef DRAGUARD_CEL_OPAQUE_TYPE

}  // namespace draguard::cel
