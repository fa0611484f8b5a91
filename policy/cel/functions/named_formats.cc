// The Kubernetes format library (apiserver/pkg/cel/library/format.go):
//   format.named(string) -> optional(Format)   none for an unknown name
//   format.dns1123Label() ... format.datetime() -> Format
//   <Format>.validate(string) -> optional(list(string))   none when valid, else the messages
// The name formats report apimachinery's messages (policy/common/name_validation.h; the
// *Prefix formats mask a trailing '-' first, as generateName validation does). The CRD
// formats follow kube-openapi's strfmt: uri is Go's url.ParseRequestURI (its error text is
// the message), uuid, byte (standard base64), date (time.Parse "2006-01-02") and datetime
// (strfmt.IsDateTime) have fixed messages.
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "policy/cel/functions/registry.h"
#include "policy/cel/internal/go_url.h"
#include "policy/common/ascii.h"
#include "policy/common/name_validation.h"
#include "policy/common/utf8.h"

namespace draguard::cel {
namespace {

using Args = std::span<const Value>;
using Messages = std::vector<std::string>;

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// strfmt.UUIDPattern: (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$
bool IsUuid(std::string_view s) {
  static constexpr std::array<size_t, 5> kGroups = {8, 4, 4, 4, 12};
  size_t pos = 0;
  for (size_t g = 0; g < kGroups.size(); ++g) {
    if (g > 0 && pos < s.size() && s[pos] == '-') ++pos;
    for (size_t i = 0; i < kGroups[g]; ++i, ++pos) {
      if (pos >= s.size() || !IsHex(s[pos])) return false;
    }
  }
  return pos == s.size();
}

// govalidator's Base64 pattern: groups of four, the last one possibly "xx==" or "xxx=".
bool IsBase64(std::string_view s) {
  const auto alphabet = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || IsAsciiDigit(c) || c == '+' || c == '/';
  };
  if (s.empty() || s.size() % 4 != 0) return false;
  size_t data = s.size();
  if (s[data - 1] == '=') --data;
  if (data < s.size() && s[data - 1] == '=') --data;
  for (size_t i = 0; i < data; ++i) {
    if (!alphabet(s[i])) return false;
  }
  return true;
}

int DaysIn(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

int TwoDigits(std::string_view s, size_t pos) { return (s[pos] - '0') * 10 + (s[pos + 1] - '0'); }

// Go's time.Parse("2006-01-02", s): exactly YYYY-MM-DD, a real calendar day (year 0 is leap).
bool IsDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!IsAsciiDigit(s[i])) return false;
  }
  const int year = TwoDigits(s, 0) * 100 + TwoDigits(s, 2);
  const int month = TwoDigits(s, 5);
  const int day = TwoDigits(s, 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= DaysIn(year, month);
}

// strfmt's DateTimePattern on the lower-cased time part:
// ^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$
// where `.` is any character but '\n' (one UTF-8 sequence).
bool MatchesTimePart(std::string_view t, int* hour, int* minute, int* second) {
  if (t.size() < 9 || t[2] != ':' || t[5] != ':') return false;
  for (size_t i : {0, 1, 3, 4, 6, 7}) {
    if (!IsAsciiDigit(t[i])) return false;
  }
  *hour = TwoDigits(t, 0);
  *minute = TwoDigits(t, 3);
  *second = TwoDigits(t, 6);
  std::string_view rest = t.substr(8);
  const auto zone = [](std::string_view z) {
    return z == "z" || (z.size() == 6 && (z[0] == '+' || z[0] == '-') && IsAsciiDigit(z[1]) &&
                        IsAsciiDigit(z[2]) && z[3] == ':' && IsAsciiDigit(z[4]) && IsAsciiDigit(z[5]));
  };
  if (zone(rest)) return true;
  // One arbitrary character, then digits, then the zone; digits may end early (RE2 tries
  // every split, but a zone never starts with a digit, so the longest run decides).
  if (rest.empty() || rest[0] == '\n') return false;
  size_t skip = 1;
  if (static_cast<unsigned char>(rest[0]) >= 0x80) {
    skip = Utf8SequenceLength(rest, 0);
    if (skip == 0) skip = 1;
  }
  size_t i = skip;
  while (i < rest.size() && IsAsciiDigit(rest[i])) ++i;
  return i > skip && zone(rest.substr(i));
}

// strfmt.IsDateTime: split the lower-cased text at 't'; the part before is a date, the next
// part a time (anything after a second 't' is ignored).
bool IsDateTime(std::string_view s) {
  if (s.size() < 4) return false;
  std::string lower(s);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  const std::vector<std::string_view> parts = SplitString(lower, 't');
  if (parts.size() < 2 || !IsDate(parts[0])) return false;
  int hour = 0, minute = 0, second = 0;
  if (!MatchesTimePart(parts[1], &hour, &minute, &second)) return false;
  return hour <= 23 && minute <= 59 && second <= 59;
}

Messages Unless(bool valid, const char* message) {
  if (valid) return {};
  return {message};
}

Messages Dns1123LabelPrefix(std::string_view s) { return IsDNS1123Label(MaskTrailingDash(s)); }
Messages Dns1123SubdomainPrefix(std::string_view s) {
  return IsDNS1123Subdomain(MaskTrailingDash(s));
}
Messages Dns1035LabelPrefix(std::string_view s) { return IsDNS1035Label(MaskTrailingDash(s)); }
Messages Uri(std::string_view s) {
  std::optional<std::string> err = internal::GoParseRequestUriError(s);
  if (!err) return {};
  return {std::move(*err)};
}
Messages Uuid(std::string_view s) { return Unless(IsUuid(s), "does not match the UUID format"); }
Messages Byte(std::string_view s) { return Unless(IsBase64(s), "invalid base64"); }
Messages Date(std::string_view s) { return Unless(IsDate(s), "invalid date"); }
Messages DateTime(std::string_view s) { return Unless(IsDateTime(s), "invalid datetime"); }

constexpr std::array<NamedFormat, 13> kFormats = {{
    {"DNS1123Label", "dns1123Label", IsDNS1123Label},
    {"DNS1123Subdomain", "dns1123Subdomain", IsDNS1123Subdomain},
    {"DNS1035Label", "dns1035Label", IsDNS1035Label},
    {"QualifiedName", "qualifiedName", IsQualifiedName},
    {"DNS1123LabelPrefix", "dns1123LabelPrefix", Dns1123LabelPrefix},
    {"DNS1123SubdomainPrefix", "dns1123SubdomainPrefix", Dns1123SubdomainPrefix},
    {"DNS1035LabelPrefix", "dns1035LabelPrefix", Dns1035LabelPrefix},
    {"LabelValue", "labelValue", IsValidLabelValue},
    {"URI", "uri", Uri},
    {"uuid", "uuid", Uuid},
    {"byte", "byte", Byte},
    {"date", "date", Date},
    {"datetime", "datetime", DateTime},
}};

const NamedFormat* FindFormat(std::string_view function) {
  for (const NamedFormat& f : kFormats) {
    if (f.function == function) return &f;
  }
  return nullptr;
}

Value Named(Args a, EvalState&) {
  if (a[0].kind() != Kind::kString) return NoSuchOverload();
  const NamedFormat* f = FindFormat(a[0].text());
  return f == nullptr ? Value::OptionalNone() : Value::Optional(Value::OfNamedFormat(f));
}

// format.<name>(): one function per format, so the descriptor is a template argument.
template <size_t kIndex>
Value Constructor(Args, EvalState&) {
  return Value::OfNamedFormat(&kFormats[kIndex]);
}

Value Validate(Args a, EvalState&) {
  if (a[0].kind() != Kind::kFormat || a[1].kind() != Kind::kString) return NoSuchOverload();
  Messages messages = a[0].named_format().validate(a[1].text());
  if (messages.empty()) return Value::OptionalNone();
  auto list = std::make_shared<ListData>();
  for (std::string& m : messages) list->elements.push_back(Value::String(std::move(m)));
  return Value::Optional(Value::List(std::move(list)));
}

template <size_t... kIndex>
void AddConstructors(Registry& r, std::index_sequence<kIndex...>) {
  (r.Add("format." + std::string(kFormats[kIndex].function), 0, Constructor<kIndex>), ...);
}

}  // namespace

void RegisterNamedFormatFunctions(Registry& r) {
  r.Add("format.named", 1, Named);
  AddConstructors(r, std::make_index_sequence<kFormats.size()>());
  r.Add("validate", 2, Validate);
}

}  // namespace draguard::cel
