#include "policy/common/diagnostic.h"

#include <algorithm>

#include "policy/common/bounded_cache.h"

namespace draguard {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
  }
  return "error";
}

size_t ApproximateBytes(const Diagnostic& d) {
  size_t bytes = sizeof(Diagnostic);
  for (const std::string* s : {&d.code, &d.field, &d.message, &d.suggestion, &d.file,
                               &d.object.api_version, &d.object.kind, &d.object.name_space,
                               &d.object.name}) {
    bytes += HeapBytes(*s);
  }
  return bytes;
}

size_t ApproximateBytes(const std::vector<Diagnostic>& ds) {
  size_t bytes = 0;
  for (const Diagnostic& d : ds) bytes += ApproximateBytes(d);
  return bytes + 16;
}

Diagnostic& Diagnostics::Add(Diagnostic d) {
  items_.push_back(std::move(d));
  return items_.back();
}

namespace {

Diagnostic Make(Severity severity, std::string code, const FieldPath& field, std::string message,
                std::string suggestion) {
  Diagnostic d;
  d.severity = severity;
  d.code = std::move(code);
  d.field = field.String();
  d.message = std::move(message);
  d.suggestion = std::move(suggestion);
  return d;
}

}  // namespace

Diagnostic& Diagnostics::Error(std::string code, const FieldPath& field, std::string message,
                               std::string suggestion) {
  return Add(Make(Severity::kError, std::move(code), field, std::move(message),
                  std::move(suggestion)));
}

Diagnostic& Diagnostics::Warning(std::string code, const FieldPath& field, std::string message,
                                 std::string suggestion) {
  return Add(Make(Severity::kWarning, std::move(code), field, std::move(message),
                  std::move(suggestion)));
}

Diagnostic& Diagnostics::Info(std::string code, const FieldPath& field, std::string message,
                              std::string suggestion) {
  return Add(Make(Severity::kInfo, std::move(code), field, std::move(message),
                  std::move(suggestion)));
}

void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

void Diagnostics::Append(Diagnostics&& other) {
  if (items_.empty()) {
    items_ = std::move(other.items_);
    return;
  }
  items_.insert(items_.end(), std::make_move_iterator(other.items_.begin()),
                std::make_move_iterator(other.items_.end()));
}

size_t Diagnostics::error_count() const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(),
                                           [](const Diagnostic& d) { return d.is_error(); }));
}

size_t Diagnostics::warning_count() const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
    return d.severity == Severity::kWarning;
  }));
}

}  // namespace draguard
