// The formats are apimachinery's regular expressions, matched by hand; the messages are its
// RegexError/MaxLenError texts, including RegexError's double space between examples.
#include "policy/common/name_validation.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>

#include "policy/common/ascii.h"

namespace draguard {
namespace {

// The character classes of the formats, one table load a character: names, driver names and
// label keys of every admitted object are matched here, and the comparisons of ascii.h cost
// about three times as much a character.
enum CharClass : uint8_t {
  kLowerAlnum = 1 << 0,    // [a-z0-9]
  kLabelChar = 1 << 1,     // [-a-z0-9]
  kAlnum = 1 << 2,         // [A-Za-z0-9]
  kNamePartChar = 1 << 3,  // [-A-Za-z0-9_.]
};

constexpr std::array<uint8_t, 256> kCharClasses = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const bool lower = c >= 'a' && c <= 'z';
    const bool upper = c >= 'A' && c <= 'Z';
    const bool digit = c >= '0' && c <= '9';
    uint8_t bits = 0;
    if (lower || digit) bits |= kLowerAlnum | kLabelChar;
    if (lower || upper || digit) bits |= kAlnum | kNamePartChar;
    if (c == '-') bits |= kLabelChar | kNamePartChar;
    if (c == '_' || c == '.') bits |= kNamePartChar;
    table[static_cast<size_t>(c)] = bits;
  }
  return table;
}();

bool Is(char c, uint8_t classes) {
  return (kCharClasses[static_cast<unsigned char>(c)] & classes) != 0;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, or with `letter_first` [a-z]([-a-z0-9]*[a-z0-9])?
bool MatchesDNSLabel(std::string_view s, bool letter_first = false) {
  if (s.empty() || !Is(s.front(), kLowerAlnum) || !Is(s.back(), kLowerAlnum)) return false;
  if (letter_first && !(s.front() >= 'a' && s.front() <= 'z')) return false;
  for (char c : s) {
    if (!Is(c, kLabelChar)) return false;
  }
  return true;
}

// label(\.label)*, in one pass: each label starts and ends with [a-z0-9] (a '.' follows one
// and a '-' does not start one) and holds [-a-z0-9].
bool MatchesDNSSubdomain(std::string_view s) {
  char prev = '.';  // as if a label ended just before s
  for (char c : s) {
    if (c == '.') {
      if (!Is(prev, kLowerAlnum)) return false;
    } else if (!Is(c, kLabelChar) || (c == '-' && prev == '.')) {
      return false;
    }
    prev = c;
  }
  return Is(prev, kLowerAlnum);
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool MatchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !Is(s.front(), kAlnum) || !Is(s.back(), kAlnum)) return false;
  for (char c : s) {
    if (!Is(c, kNamePartChar)) return false;
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
