#include "policy/validate/names.h"

#include <algorithm>

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
  return IsQualifiedNameValid(quota);
}

void ValidateDNSLabel(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field) {
  if (IsDNS1123LabelValid(value)) return;
  ReportEach(r, code, value, field, IsDNS1123Label(value));
}

void ValidateDNSSubdomain(Reporter& r, std::string_view code, std::string_view value,
                          const FieldPathRef& field) {
  if (IsDNS1123SubdomainValid(value)) return;
  ReportEach(r, code, value, field, IsDNS1123Subdomain(value));
}

void ValidateLabelKey(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field) {
  if (IsQualifiedNameValid(value)) return;
  ReportEach(r, code, value, field, IsQualifiedName(value));
}

void ValidateLabelValue(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPathRef& field) {
  if (IsLabelValueValid(value)) return;
  ReportEach(r, code, value, field, IsValidLabelValue(value));
}

void ValidateDriverName(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPathRef& field) {
  if (value.empty()) r.Required(code, field.Get());
  if (value.size() > kDriverNameMaxLength) r.TooLong(code, field.Get(), kDriverNameMaxLength);
  // Valid names (nearly all) are matched as lowered without lowering them; an invalid one
  // is lowered for its messages.
  if (IsDNS1123SubdomainValid(value, /*fold_case=*/true)) return;
  if (std::any_of(value.begin(), value.end(), IsAsciiUpper)) {
    ReportEach(r, code, value, field, IsDNS1123Subdomain(AsciiLower(value)));
  } else {
    ReportEach(r, code, value, field, IsDNS1123Subdomain(value));
  }
}

void ValidatePoolName(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field) {
  if (value.empty()) {
    r.Required(code, field.Get());
    return;
  }
  if (value.size() > kPoolNameMaxLength) r.TooLong(code, field.Get(), kPoolNameMaxLength);
  ForEachSplitPart(value, '/', [&](std::string_view part) {
    if (IsDNS1123SubdomainValid(part)) return;
    ReportEach(r, code, part, field, IsDNS1123Subdomain(part));
  });
}

void ValidateQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                           const FieldPathRef& field) {
  if (value.empty()) {
    r.Required(code, field.Get(), "name required");
    return;
  }
  // Split at '/' in place (one or two parts are checked; three or more are not).
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos) {
    ValidateCIdentifier(r, code, value, field);
  } else if (value.find('/', slash + 1) == std::string_view::npos) {
    const std::string_view domain = value.substr(0, slash);
    const std::string_view name = value.substr(slash + 1);
    if (domain.empty()) {
      r.Required(code, field.Get(), "the domain must not be empty");
    } else {
      ValidateDriverName(r, code, domain, field);
    }
    if (name.empty()) {
      r.Required(code, field.Get(), "the name must not be empty");
    } else {
      ValidateCIdentifier(r, code, name, field);
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
