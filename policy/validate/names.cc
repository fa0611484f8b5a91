#include "policy/validate/names.h"

#include "policy/common/ascii.h"

namespace draguard::validate {
namespace {

void ReportEach(Reporter& r, std::string_view code, std::string_view value,
                const FieldPathRef& field,
                const std::vector<std::string>& messages) {
  for (const std::string& m : messages) {
    r.Invalid(code, field.Get(), FieldValue::String(value), m);
  }
}

void ValidateCIdentifier(Reporter& r, std::string_view code, std::string_view id,
                         const FieldPathRef& field) {
  if (id.size() > kDeviceMaxIDLength) r.TooLong(code, field.Get(), kDeviceMaxIDLength);
  ReportEach(r, code, id, field, IsCIdentifier(id));
}

}  // namespace

std::string SuggestDNSName(std::string_view value, bool allow_dots, size_t max_length) {
  std::string out;
  for (char c : value) {
    char lower = AsciiToLower(c);
    bool keep = IsAsciiLowerAlnum(lower) || lower == '-' || (allow_dots && lower == '.');
    out += keep ? lower : '-';
  }
  if (out.size() > max_length) out.resize(max_length);
  auto edge = [](char c) { return !IsAsciiLowerAlnum(c); };
  while (!out.empty() && edge(out.back())) out.pop_back();
  size_t start = 0;
  while (start < out.size() && edge(out[start])) ++start;
  return out.substr(start);
}

bool IsExtendedResourceName(std::string_view value) {
  // Native resources are unprefixed or under kubernetes.io/; extended ones are neither.
  if (value.find('/') == std::string_view::npos) return false;
  if (value.find("kubernetes.io/") != std::string_view::npos) return false;
  if (value.substr(0, 9) == "requests.") return false;
  std::string quota = "requests." + std::string(value);
  return IsQualifiedName(quota).empty();
}

void ValidateDNSLabel(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field) {
  ReportEach(r, code, value, field, IsDNS1123Label(value));
}

void ValidateDNSSubdomain(Reporter& r, std::string_view code, std::string_view value,
                          const FieldPathRef& field) {
  ReportEach(r, code, value, field, IsDNS1123Subdomain(value));
}

void ValidateLabelKey(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field) {
  ReportEach(r, code, value, field, IsQualifiedName(value));
}

void ValidateLabelValue(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPathRef& field) {
  ReportEach(r, code, value, field, IsValidLabelValue(value));
}

void ValidateDriverName(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPathRef& field) {
  if (value.empty()) r.Required(code, field.Get());
  if (value.size() > kDriverNameMaxLength) r.TooLong(code, field.Get(), kDriverNameMaxLength);
  ReportEach(r, code, value, field, IsDNS1123Subdomain(AsciiLower(value)));
}

void ValidatePoolName(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field) {
  if (value.empty()) {
    r.Required(code, field.Get());
    return;
  }
  if (value.size() > kPoolNameMaxLength) r.TooLong(code, field.Get(), kPoolNameMaxLength);
  for (std::string_view part : SplitString(value, '/')) {
    ReportEach(r, code, part, field, IsDNS1123Subdomain(part));
  }
}

void ValidateQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                           const FieldPathRef& field) {
  if (value.empty()) {
    r.Required(code, field.Get(), "name required");
    return;
  }
  std::vector<std::string_view> parts = SplitString(value, '/');
  if (parts.size() == 1) {
    ValidateCIdentifier(r, code, parts[0], field);
  } else if (parts.size() == 2) {
    if (parts[0].empty()) {
      r.Required(code, field.Get(), "the domain must not be empty");
    } else {
      ValidateDriverName(r, code, parts[0], field);
    }
    if (parts[1].empty()) {
      r.Required(code, field.Get(), "the name must not be empty");
    } else {
      ValidateCIdentifier(r, code, parts[1], field);
    }
  }
}

void ValidateFullyQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                                const FieldPathRef& field) {
  ValidateQualifiedName(r, code, value, field);
  if (value.find('/') == std::string_view::npos) {
    r.Invalid(code, field.Get(), FieldValue::String(value),
              "a fully qualified name must be a domain and a name separated by a slash");
  }
}

}  // namespace draguard::validate
