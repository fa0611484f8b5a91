// Name and value formats shared by all DRA objects (spec §2), in two layers:
//  - `Is...` functions return apimachinery's error texts (empty when valid), exactly as
//    k8s.io/apimachinery/pkg/util/validation words them;
//  - `Validate...` functions report those texts as API-server field errors with the given
//    diagnostic code, following the resource validation helpers (driver names use the CSI
//    driver rule, pool names are split at '/', attribute names are QualifiedNames).
#ifndef DRAGUARD_POLICY_VALIDATE_NAMES_H_
#define DRAGUARD_POLICY_VALIDATE_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

#include "policy/common/field_path.h"
#include "policy/validate/reporter.h"

namespace draguard::validate {

inline constexpr size_t kDNSLabelMaxLength = 63;
inline constexpr size_t kDNSSubdomainMaxLength = 253;
inline constexpr size_t kDriverNameMaxLength = 63;
inline constexpr size_t kDeviceMaxIDLength = 32;
inline constexpr size_t kPoolNameMaxLength = 253;
inline constexpr size_t kLabelValueMaxLength = 63;

// RFC 1123 label: 1-63 of [a-z0-9-], alphanumeric at both ends.
std::vector<std::string> IsDNS1123Label(std::string_view value);
// RFC 1123 subdomain: <=253, dot-separated labels (no per-label length check).
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);
// Label key / qualified name: optional DNS-subdomain prefix and '/', name <=63.
std::vector<std::string> IsQualifiedName(std::string_view value);
// Label value: <=63, may be empty.
std::vector<std::string> IsValidLabelValue(std::string_view value);
// C identifier: [A-Za-z_][A-Za-z0-9_]* (no length limit here).
std::vector<std::string> IsCIdentifier(std::string_view value);
// Extended resource name (DeviceClass.spec.extendedResourceName).
bool IsExtendedResourceName(std::string_view value);

// Each reports one Invalid per message of the matching Is... function.
void ValidateDNSLabel(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPath& field);
void ValidateDNSSubdomain(Reporter& r, std::string_view code, std::string_view value,
                          const FieldPath& field);
void ValidateLabelKey(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPath& field);
void ValidateLabelValue(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPath& field);

// CSI driver-name rule: Required when empty, TooLong past 63 bytes, Invalid when the
// lower-cased name is not a DNS subdomain (upper case is accepted).
void ValidateDriverName(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPath& field);
// Pool name: Required, TooLong past 253, every '/'-separated segment a DNS subdomain.
void ValidatePoolName(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPath& field);
// Attribute/capacity name: `id` or `domain/id`; domain per the driver rule, id a C
// identifier of at most 32 bytes. Names with three or more segments are not checked (as
// upstream).
void ValidateQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                           const FieldPath& field);
// QualifiedName that must contain a '/'.
void ValidateFullyQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                                const FieldPath& field);

// A nearby valid name for suggestions: lower-cased, invalid characters replaced by '-',
// trimmed to alphanumerics at both ends and to `max_length` (63 for labels, 253 for
// subdomains, which keep their dots). Empty when nothing usable remains.
std::string SuggestDNSName(std::string_view value, bool allow_dots, size_t max_length);

// Splits `s` at every `sep` (Go strings.Split semantics: n separators give n+1 parts).
std::vector<std::string_view> SplitString(std::string_view s, char sep);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_NAMES_H_
