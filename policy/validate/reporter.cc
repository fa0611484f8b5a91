#include "policy/validate/reporter.h"

#include <utility>

namespace draguard::validate {

Diagnostic& Reporter::Error(std::string_view code, const FieldPath& field, std::string message) {
  return out_.Error(std::string(code), field, std::move(message));
}

Diagnostic& Reporter::Required(std::string_view code, const FieldPath& field,
                               std::string_view detail) {
  return Error(code, field, RequiredMessage(detail));
}

Diagnostic& Reporter::Invalid(std::string_view code, const FieldPath& field,
                              const FieldValue& value, std::string_view detail) {
  return Error(code, field, InvalidMessage(value, detail));
}

Diagnostic& Reporter::TooMany(std::string_view code, const FieldPath& field, int64_t actual,
                              int64_t max) {
  return Error(code, field, TooManyMessage(actual, max));
}

Diagnostic& Reporter::TooLong(std::string_view code, const FieldPath& field, int64_t max_bytes) {
  return Error(code, field, TooLongMessage(max_bytes));
}

Diagnostic& Reporter::NotSupported(std::string_view code, const FieldPath& field,
                                   const FieldValue& value,
                                   std::initializer_list<std::string_view> supported) {
  return Error(code, field, NotSupportedMessage(value, supported));
}

Diagnostic& Reporter::Duplicate(std::string_view code, const FieldPath& field,
                                const FieldValue& value) {
  return Error(code, field, DuplicateMessage(value));
}

Diagnostic& Reporter::Forbidden(std::string_view code, const FieldPath& field,
                                std::string_view detail) {
  return Error(code, field, ForbiddenMessage(detail));
}

Diagnostic& Reporter::Internal(std::string_view code, const FieldPath& field,
                               std::string_view detail) {
  return Error(code, field, InternalMessage(detail));
}

Diagnostic& Reporter::Warning(std::string_view code, const FieldPath& field, std::string message,
                              std::string suggestion) {
  return out_.Warning(std::string(code), field, std::move(message), std::move(suggestion));
}

void CapDiagnostics(Diagnostics& diagnostics, size_t start, const ValidationLimits& limits) {
  std::vector<Diagnostic>& items = diagnostics.mutable_items();
  size_t max = limits.max_diagnostics_per_object;
  if (items.size() - start <= max) return;
  size_t dropped = items.size() - start - max;
  items.resize(start + max);
  diagnostics.Info("validate.too-many-diagnostics", FieldPath(),
                   std::to_string(dropped) +
                       " further findings about this object were not "
                       "reported");
}

}  // namespace draguard::validate
