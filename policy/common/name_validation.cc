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

// The three formats as small automata run over a transition table, one load a byte and no
// branch: label and subdomain names and label keys of every admitted object are matched
// here, and a byte-at-a-time test of classes and neighbours cost two to three times as much.
// A state is what the last byte was; kReject absorbs. Each format's table is built from its
// regular expression's rules below, and name_validation_test checks them against the
// expressions themselves over every short string. A state is kept as its row's offset in
// the flat table (state × 256), so that a byte's step is one add and one load.
enum MatchState : uint16_t {
  kStart = 0,         // nothing yet, or (subdomain) just after a '.'
  kAfterAlnum = 256,  // after a byte the format may end with: the only accepting state
  kAfterInner = 512,  // after a byte allowed only inside ('-'; for names also '_' and '.')
  kReject = 768,
};
using MatchTable = std::array<uint16_t, 4 * 256>;

// `is_edge` bytes may start and end a part, `is_inner` bytes only sit inside it; with `dots`,
// a '.' after an edge byte starts a new part (a subdomain's labels).
template <class Edge, class Inner>
constexpr MatchTable BuildMatchTable(Edge is_edge, Inner is_inner, bool dots) {
  MatchTable t{};
  for (int c = 0; c < 256; ++c) {
    const size_t i = static_cast<size_t>(c);
    const bool edge = is_edge(c);
    const bool inner = is_inner(c);
    t[kStart + i] = edge ? kAfterAlnum : kReject;
    t[kAfterAlnum + i] = edge    ? kAfterAlnum
                         : inner ? kAfterInner
                         : (dots && c == '.') ? kStart
                                              : kReject;
    t[kAfterInner + i] = edge ? kAfterAlnum : inner ? kAfterInner : kReject;
    t[kReject + i] = kReject;
  }
  return t;
}

constexpr bool IsLowerAlnumByte(int c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
constexpr bool IsAlnumByte(int c) { return IsLowerAlnumByte(c) || (c >= 'A' && c <= 'Z'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
constexpr MatchTable kDNSLabelTable =
    BuildMatchTable(IsLowerAlnumByte, [](int c) { return c == '-'; }, /*dots=*/false);
// label(\.label)*
constexpr MatchTable kDNSSubdomainTable =
    BuildMatchTable(IsLowerAlnumByte, [](int c) { return c == '-'; }, /*dots=*/true);
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
constexpr MatchTable kQualifiedNamePartTable =
    BuildMatchTable(IsAlnumByte, [](int c) { return c == '-' || c == '_' || c == '.'; },
                    /*dots=*/false);

// An RFC 1123 subdomain as ASCII-lowered: upper-case letters count as their lower case.
constexpr MatchTable kDNSSubdomainFoldTable =
    BuildMatchTable(IsAlnumByte, [](int c) { return c == '-'; }, /*dots=*/true);

// The state after `s` from `state`. Four bytes a round: the loop's own compare and branch
// were a third of a byte's instructions.
size_t Run(const MatchTable& table, size_t state, std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* const end = p + s.size();
  for (; end - p >= 4; p += 4) {
    state = table[state + p[0]];
    state = table[state + p[1]];
    state = table[state + p[2]];
    state = table[state + p[3]];
  }
  for (; p != end; ++p) state = table[state + *p];
  return state;
}

bool Matches(const MatchTable& table, std::string_view s) {
  return Run(table, kStart, s) == kAfterAlnum;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, or with `letter_first` [a-z]([-a-z0-9]*[a-z0-9])?
bool MatchesDNSLabel(std::string_view s, bool letter_first = false) {
  if (letter_first && !(!s.empty() && s.front() >= 'a' && s.front() <= 'z')) return false;
  return Matches(kDNSLabelTable, s);
}

bool MatchesDNSSubdomain(std::string_view s) { return Matches(kDNSSubdomainTable, s); }

bool MatchesQualifiedNamePart(std::string_view s) {
  return Matches(kQualifiedNamePartTable, s);
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

bool IsDNS1123LabelValid(std::string_view value) {
  return value.size() <= kDNSLabelMaxLength && MatchesDNSLabel(value);
}

bool IsDNS1123SubdomainValid(std::string_view value, bool fold_case) {
  return value.size() <= kDNSSubdomainMaxLength &&
         Matches(fold_case ? kDNSSubdomainFoldTable : kDNSSubdomainTable, value);
}

bool IsMaskedDNS1123SubdomainValid(std::string_view name) {
  if (name.size() <= 1 || name.back() != '-') return IsDNS1123SubdomainValid(name);
  // MaskTrailingDash: the name less its last two bytes, then "a".
  const std::string_view kept = name.substr(0, name.size() - 2);
  return kept.size() + 1 <= kDNSSubdomainMaxLength &&
         kDNSSubdomainTable[Run(kDNSSubdomainTable, kStart, kept) + 'a'] == kAfterAlnum;
}

bool IsQualifiedNameValid(std::string_view value, bool fold_case) {
  const size_t slash = value.find('/');
  std::string_view name = value;
  if (slash != std::string_view::npos) {
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    // A second '/' fails the name part's pattern; an empty prefix fails the subdomain's.
    if (!IsDNS1123SubdomainValid(prefix, fold_case)) return false;
  }
  return name.size() <= kLabelValueMaxLength && MatchesQualifiedNamePart(name);
}

bool IsLabelValueValid(std::string_view value) {
  return value.size() <= kLabelValueMaxLength &&
         (value.empty() || MatchesQualifiedNamePart(value));
}

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
