// Kubernetes' name and label formats with apimachinery's exact error texts (Kubernetes
// 1.34/1.35: k8s.io/apimachinery/pkg/util/validation and pkg/api/validation). Each `Is...`
// function returns the messages apimachinery would return, empty when the value is valid.
// Shared by the DRA object validators (policy/validate) and the CEL format library
// (format.dns1123Label() and friends). Pure functions; thread safe.
#ifndef DRAGUARD_POLICY_COMMON_NAME_VALIDATION_H_
#define DRAGUARD_POLICY_COMMON_NAME_VALIDATION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace draguard {

inline constexpr size_t kDNSLabelMaxLength = 63;
inline constexpr size_t kDNSSubdomainMaxLength = 253;
inline constexpr size_t kLabelValueMaxLength = 63;

// RFC 1123 label: 1-63 of [a-z0-9-], alphanumeric at both ends; a valid subdomain that is
// not a label gets "must not contain dots".
std::vector<std::string> IsDNS1123Label(std::string_view value);
// RFC 1123 subdomain: <=253, dot-separated labels (no per-label length check).
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);
// RFC 1035 label: like an RFC 1123 label but starting with a letter.
std::vector<std::string> IsDNS1035Label(std::string_view value);
// Label key / qualified name: optional DNS-subdomain prefix and '/', name <=63.
std::vector<std::string> IsQualifiedName(std::string_view value);
// Label value: <=63, may be empty.
std::vector<std::string> IsValidLabelValue(std::string_view value);
// C identifier: [A-Za-z_][A-Za-z0-9_]* (no length limit here).
std::vector<std::string> IsCIdentifier(std::string_view value);

// Whether the function of the same name less "Valid" (IsDNS1123Label for IsDNS1123LabelValid;
// IsValidLabelValue for IsLabelValueValid) would return no message, without building one: the
// validators ask on every admission request, nearly always of valid names, and build the
// messages only for a name that fails. Each must agree with its counterpart on every input
// (name_validation_test checks them side by side).
bool IsDNS1123LabelValid(std::string_view value);
// With `fold_case`, as of the value lowered to ASCII lower case (driver names and annotation
// keys are checked lowered).
bool IsDNS1123SubdomainValid(std::string_view value, bool fold_case = false);
// IsDNS1123Subdomain(MaskTrailingDash(name)) without making the masked copy.
bool IsMaskedDNS1123SubdomainValid(std::string_view name);
bool IsQualifiedNameValid(std::string_view value, bool fold_case = false);
bool IsLabelValueValid(std::string_view value);

// apimachinery's maskTrailingDash, applied to names that get a suffix appended
// (generateName, the CEL format library's *Prefix formats): a trailing '-' of a name longer
// than one byte replaces the last *two* bytes with "a" (sic).
std::string MaskTrailingDash(std::string_view name);

// Splits `s` at every `sep` (Go strings.Split semantics: n separators give n+1 parts).
std::vector<std::string_view> SplitString(std::string_view s, char sep);

// Calls fn(part) for each of SplitString(s, sep)'s parts, in order, without building the
// vector: the validators split names on every admission request.
template <class Fn>
void ForEachSplitPart(std::string_view s, char sep, Fn&& fn) {
  while (true) {
    const size_t pos = s.find(sep);
    fn(s.substr(0, pos));
    if (pos == std::string_view::npos) return;
    s.remove_prefix(pos + 1);
  }
}

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_NAME_VALIDATION_H_
