// The formats are apimachinery's regular expressions, matched by hand; the messages are its
// RegexError/MaxLenError texts, including RegexError's double space between examples.
#include "policy/common/name_validation.h"

#include <algorithm>
#include <initializer_list>

#include "policy/common/ascii.h"

namespace draguard {
namespace {

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, or with `letter_first` [a-z]([-a-z0-9]*[a-z0-9])?
bool MatchesDNSLabel(std::string_view s, bool letter_first = false) {
  if (s.empty() || !IsAsciiLowerAlnum(s.front()) || !IsAsciiLowerAlnum(s.back())) return false;
  if (letter_first && !(s.front() >= 'a' && s.front() <= 'z')) return false;
  for (char c : s) {
    if (!IsAsciiLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

// label(\.label)*. Walks the labels in place: names, driver names and label keys of every
// admitted object come through here, and a split would allocate.
bool MatchesDNSSubdomain(std::string_view s) {
  while (true) {
    const size_t dot = s.find('.');
    if (!MatchesDNSLabel(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool MatchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAsciiAlnum(s.front()) || !IsAsciiAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAsciiAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

std::string MaxLenError(size_t n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

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

}  // namespace

std::vector<std::string_view> SplitString(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  parts.reserve(static_cast<size_t>(std::count(s.begin(), s.end(), sep)) + 1);  // one allocation
  while (true) {
    size_t pos = s.find(sep);
    parts.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) break;
    s.remove_prefix(pos + 1);
  }
  return parts;
}

std::string MaskTrailingDash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') {
    return std::string(name.substr(0, name.size() - 2)) + "a";
  }
  return std::string(name);
}

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNSLabelMaxLength) errs.push_back(MaxLenError(kDNSLabelMaxLength));
  if (MatchesDNSLabel(value)) return errs;
  if (MatchesDNSSubdomain(value)) {
    // A valid subdomain (length already reported) that is not a label has dots.
    errs.push_back("must not contain dots");
  } else {
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
  if (!MatchesDNSSubdomain(value)) {
    errs.push_back(RegexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
        "or '.', and must start and end with an alphanumeric character",
        kSubdomainFmt, {"example.com"}));
  }
  return errs;
}

std::vector<std::string> IsDNS1035Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNSLabelMaxLength) errs.push_back(MaxLenError(kDNSLabelMaxLength));
  if (!MatchesDNSLabel(value, /*letter_first=*/true)) {
    errs.push_back(RegexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
        "an alphabetic character, and end with an alphanumeric character",
        "[a-z]([-a-z0-9]*[a-z0-9])?", {"my-name", "abc-123"}));
  }
  return errs;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  // Split at '/' in place: every label and annotation key comes through here.
  const size_t slash = value.find('/');
  std::string_view name = value;
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(
          "a qualified name " +
          RegexError(kQualifiedNameErr, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& m : IsDNS1123Subdomain(prefix)) errs.push_back("prefix part " + m);
    }
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
            (IsAsciiLower(value.front()) || IsAsciiUpper(value.front()) || value.front() == '_');
  for (char c : value) ok = ok && (IsAsciiAlnum(c) || c == '_');
  if (ok) return {};
  return {RegexError(
      "a valid C identifier must start with alphabetic character or '_', followed by a string "
      "of alphanumeric characters or '_'",
      "[A-Za-z_][A-Za-z0-9_]*", {"my_name", "MY_NAME", "MyName"})};
}

}  // namespace draguard
