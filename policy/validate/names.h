// Name and value formats shared by all DRA objects (the name validators of validation.go:
// `validateDriverName`, `validatePoolName`, ...), in two layers:
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
#include "policy/common/name_validation.h"
#include "policy/validate/reporter.h"

namespace draguard::validate {

// The formats themselves live in policy/common/name_validation.h (the CEL format library
// uses them too).
using draguard::IsCIdentifier;
using draguard::IsDNS1035Label;
using draguard::IsDNS1123Label;
using draguard::IsDNS1123Subdomain;
using draguard::IsQualifiedName;
using draguard::IsValidLabelValue;
using draguard::kDNSLabelMaxLength;
using draguard::kDNSSubdomainMaxLength;
using draguard::kLabelValueMaxLength;
using draguard::MaskTrailingDash;
using draguard::ForEachSplitPart;
using draguard::SplitString;

inline constexpr size_t kDriverNameMaxLength = 63;
inline constexpr size_t kDeviceMaxIDLength = 32;
inline constexpr size_t kPoolNameMaxLength = 253;

// The field a name check reports at: a FieldPath, or a parent path and one field under it
// (`{at, "name"}`), made into a path only for a finding. Names are checked on every admission
// request and are nearly always valid, while building each field's path up front was most of
// a valid name's check. Holds references: a parameter, not kept past the call.
class FieldPathRef {
 public:
  FieldPathRef(const FieldPath& path)  // NOLINT(google-explicit-constructor): a path as it is
      : base_(&path) {}
  FieldPathRef(const FieldPath& parent, std::string_view child)
      : base_(&parent), child_(child), has_child_(true) {}
  FieldPath Get() const { return has_child_ ? base_->Child(child_) : *base_; }

 private:
  const FieldPath* base_;
  std::string_view child_;
  bool has_child_ = false;
};

// Extended resource name (DeviceClass.spec.extendedResourceName).
bool IsExtendedResourceName(std::string_view value);

// Each reports one Invalid per message of the matching Is... function.
void ValidateDNSLabel(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field);
void ValidateDNSSubdomain(Reporter& r, std::string_view code, std::string_view value,
                          const FieldPathRef& field);
void ValidateLabelKey(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field);
void ValidateLabelValue(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPathRef& field);

// CSI driver-name rule: Required when empty, TooLong past 63 bytes, Invalid when the
// lower-cased name is not a DNS subdomain (upper case is accepted).
void ValidateDriverName(Reporter& r, std::string_view code, std::string_view value,
                        const FieldPathRef& field);
// Pool name: Required, TooLong past 253, every '/'-separated segment a DNS subdomain.
void ValidatePoolName(Reporter& r, std::string_view code, std::string_view value,
                      const FieldPathRef& field);
// Attribute/capacity name: `id` or `domain/id`; domain per the driver rule, id a C
// identifier of at most 32 bytes. Names with three or more segments are not checked (as
// upstream).
void ValidateQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                           const FieldPathRef& field);
// QualifiedName that must contain a '/'.
void ValidateFullyQualifiedName(Reporter& r, std::string_view code, std::string_view value,
                                const FieldPathRef& field);

// A nearby valid name for suggestions: lower-cased, invalid characters replaced by '-',
// trimmed to alphanumerics at both ends and to `max_length` (63 for labels, 253 for
// subdomains, which keep their dots). Empty when nothing usable remains.
std::string SuggestDNSName(std::string_view value, bool allow_dots, size_t max_length);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_NAMES_H_
