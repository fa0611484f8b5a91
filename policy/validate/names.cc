#include "policy/validate/names.h"

#include <cctype>

namespace draguard::validate {
namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool MatchesDNSLabel(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool MatchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

std::string MaxLenError(size_t n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

// apimachinery's RegexError, including its double space between examples.
std::string RegexError(std::string_view msg, std::string_view fmt,
                       std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'" + std::string(e) + "', ";
  }
  out += "regex used for validation is '" + std::string(fmt) + "')";
  return out;
}

constexpr std::string_view kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kSubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameErr =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";

void ReportEach(Reporter& r, std::string_view code, std::string_view value, const FieldPath& field,
                const std::vector<std::string>& messages) {
  for (const std::string& m : messages) r.Invalid(code, field, FieldValue::String(value), m);
}

void ValidateCIdentifier(Reporter& r, std::string_view code, std::string_view id,
                         const FieldPath& field) {
  if (id.size() > kDeviceMaxIDLength) r.TooLong(code, field, kDeviceMaxIDLength);
  ReportEach(r, code, id, field, IsCIdentifier(id));
}

}  // namespace

std::vector<std::string_view> SplitString(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    size_t pos = s.find(sep);
    parts.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) break;
    s.remove_prefix(pos + 1);
  }
  return parts;
}

std::string SuggestDNSName(std::string_view value, bool allow_dots, size_t max_length) {
  std::string out;
  for (char c : value) {
    char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool keep = IsLowerAlnum(lower) || lower == '-' || (allow_dots && lower == '.');
    out += keep ? lower : '-';
  }
  if (out.size() > max_length) out.resize(max_length);
  auto edge = [](char c) { return !IsLowerAlnum(c); };
  while (!out.empty() && edge(out.back())) out.pop_back();
  size_t start = 0;
  while (start < out.size() && edge(out[start])) ++start;
  return out.substr(start);
}

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNSLabelMaxLength) errs.push_back(MaxLenError(kDNSLabelMaxLength));
  if (!MatchesDNSLabel(value)) {
    errs.push_back(RegexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character",
        kLabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNSSubdomainMaxLength) errs.push_back(MaxLenError(kDNSSubdomainMaxLength));
  bool ok = true;
  for (std::string_view label : SplitString(value, '.')) ok = ok && MatchesDNSLabel(label);
  if (!ok) {
    errs.push_back(RegexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
        "or '.', and must start and end with an alphanumeric character",
        kSubdomainFmt, {"example.com"}));
  }
  return errs;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::vector<std::string_view> parts = SplitString(value, '/');
  std::string_view name;
  if (parts.size() == 1) {
    name = parts[0];
  } else if (parts.size() == 2) {
    name = parts[1];
    if (parts[0].empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& m : IsDNS1123Subdomain(parts[0])) errs.push_back("prefix part " + m);
    }
  } else {
    errs.push_back(
        "a qualified name " +
        RegexError(kQualifiedNameErr, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    return errs;
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kLabelValueMaxLength) {
    errs.push_back("name part " + MaxLenError(kLabelValueMaxLength));
  }
  if (!MatchesQualifiedNamePart(name)) {
    errs.push_back("name part " + RegexError(kQualifiedNameErr, kQualifiedNameFmt,
                                             {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(MaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !MatchesQualifiedNamePart(value)) {
    errs.push_back(RegexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character",
        "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?", {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

std::vector<std::string> IsCIdentifier(std::string_view value) {
  bool ok = !value.empty() &&
            (std::isalpha(static_cast<unsigned char>(value.front())) || value.front() == '_');
  for (char c : value) ok = ok && (IsAlnum(c) || c == '_');
  if (ok) return {};
  return {RegexError(
      "a valid C identifier must start with alphabetic character or '_', followed by a string "
      "of alphanumeric characters or '_'",
      "[A-Za-z_][A-Za-z0-9_]*", {"my_name", "MY_NAME", "MyName"})};
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
                      const FieldPath& field) {
  ReportEach(r, code, value, field, IsDNS1123Label(value));
}

void ValidateDNSSubdomain(Reporter& r, std::string_view code, std::string_view value,
                          const FieldPath& field) {
  ReportEach(r, code, value, field, IsDNS1123Subdomain(value));
}

void ValidateLabelKey(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPath& field) {
  ReportEach(r, code, value, field, IsQualifiedName(value));
}

void ValidateLabelValue(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPath& field) {
  ReportEach(r, code, value, field, IsValidLabelValue(value));
}

void ValidateDriverName(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPath& field) {
  if (value.empty()) r.Required(code, field);
  if (value.size() > kDriverNameMaxLength) r.TooLong(code, field, kDriverNameMaxLength);
  std::string lower(value);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  ReportEach(r, code, value, field, IsDNS1123Subdomain(lower));
}

void ValidatePoolName(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPath& field) {
  if (value.empty()) {
    r.Required(code, field);
    return;
  }
  if (value.size() > kPoolNameMaxLength) r.TooLong(code, field, kPoolNameMaxLength);
  for (std::string_view part : SplitString(value, '/')) {
    ReportEach(r, code, part, field, IsDNS1123Subdomain(part));
  }
}

void ValidateQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                           const FieldPath& field) {
  if (value.empty()) {
    r.Required(code, field, "name required");
    return;
  }
  std::vector<std::string_view> parts = SplitString(value, '/');
  if (parts.size() == 1) {
    ValidateCIdentifier(r, code, parts[0], field);
  } else if (parts.size() == 2) {
    if (parts[0].empty()) {
      r.Required(code, field, "the domain must not be empty");
    } else {
      ValidateDriverName(r, code, parts[0], field);
    }
    if (parts[1].empty()) {
      r.Required(code, field, "the name must not be empty");
    } else {
      ValidateCIdentifier(r, code, parts[1], field);
    }
  }
}

void ValidateFullyQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                                const FieldPath& field) {
  ValidateQualifiedName(r, code, value, field);
  if (value.find('/') == std::string_view::npos) {
    r.Invalid(code, field, FieldValue::String(value),
              "a fully qualified name must be a domain and a name separated by a slash");
  }
}

}  // namespace draguard::validate
