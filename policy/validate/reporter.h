// Reporter: adds API-server-shaped diagnostics (messages.h) to a Diagnostics list. Every
// method returns the added diagnostic so that callers can attach a suggestion.
#ifndef DRAGUARD_POLICY_VALIDATE_REPORTER_H_
#define DRAGUARD_POLICY_VALIDATE_REPORTER_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "policy/common/diagnostic.h"
#include "policy/common/field_path.h"
#include "policy/validate/messages.h"
#include "policy/validate/options.h"

namespace draguard::validate {

class Reporter {
 public:
  // `out` must outlive the reporter.
  explicit Reporter(Diagnostics& out) : out_(out) {}

  Diagnostic& Required(std::string_view code, const FieldPath& field, std::string_view detail = {});
  Diagnostic& Invalid(std::string_view code, const FieldPath& field, const FieldValue& value,
                      std::string_view detail);
  Diagnostic& TooMany(std::string_view code, const FieldPath& field, int64_t actual, int64_t max);
  Diagnostic& TooLong(std::string_view code, const FieldPath& field, int64_t max_bytes);
  Diagnostic& NotSupported(std::string_view code, const FieldPath& field, const FieldValue& value,
                           std::initializer_list<std::string_view> supported);
  Diagnostic& Duplicate(std::string_view code, const FieldPath& field, const FieldValue& value);
  Diagnostic& Forbidden(std::string_view code, const FieldPath& field, std::string_view detail);
  Diagnostic& Internal(std::string_view code, const FieldPath& field, std::string_view detail);
  // draguard's own advice (not an API-server error).
  Diagnostic& Warning(std::string_view code, const FieldPath& field, std::string message,
                      std::string suggestion = {});

  Diagnostics& diagnostics() { return out_; }
  size_t error_count() const { return out_.error_count(); }

 private:
  Diagnostic& Error(std::string_view code, const FieldPath& field, std::string message);
  Diagnostics& out_;
};

// Keeps the findings about one object (those after index `start`) within
// limits.max_diagnostics_per_object; the rest are summarised in one
// `validate.too-many-diagnostics` info.
void CapDiagnostics(Diagnostics& diagnostics, size_t start, const ValidationLimits& limits);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_REPORTER_H_
