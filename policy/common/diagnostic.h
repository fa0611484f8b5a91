// Diagnostic: "the user's input is wrong" (or risky). One type for every stage: decoding,
// API-server-parity validation, CEL, schema checks, satisfiability, lint and admission.
//
// Validators fill severity, code, field, message and suggestion. Where the problem lies inside
// a string value (a CEL expression), they also set value_offset/value_length: byte offsets into
// the decoded string. The decoder's locator later fills file and position from the field path
// (and maps value offsets through plain, quoted and block scalars), so validators never deal
// with files.
#ifndef DRAGUARD_POLICY_COMMON_DIAGNOSTIC_H_
#define DRAGUARD_POLICY_COMMON_DIAGNOSTIC_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/field_path.h"
#include "policy/common/source.h"

namespace draguard {

enum class Severity { kError, kWarning, kInfo };

// "error", "warning", "info".
std::string_view SeverityName(Severity severity);

// The object a diagnostic is about, as printed in reports.
struct ObjectRef {
  std::string api_version;
  std::string kind;
  std::string name_space;  // "namespace" is a keyword
  std::string name;

  friend bool operator==(const ObjectRef&, const ObjectRef&) = default;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  // Stable machine code, dotted lower-case: "claim.request.count.invalid",
  // "cel.undeclared-reference". Tests match on code and field, never on message text.
  std::string code;
  // API-server field path, e.g. "spec.devices.requests[0].exactly.count". May be empty for
  // whole-document problems.
  std::string field;
  // A sentence a user understands without the docs.
  std::string message;
  // Optional: what to write instead, ready to paste where possible.
  std::string suggestion;

  // Byte range inside the string value at `field` (CEL expressions); -1 when not applicable.
  int value_offset = -1;
  int value_length = 0;

  // Filled by the locator (k8s decoding) or by whoever knows the input.
  std::string file;
  SourcePosition position;
  ObjectRef object;

  bool is_error() const { return severity == Severity::kError; }
};

// An estimate of the heap a diagnostic holds (its own size and its strings' buffers), for
// caches that remember findings.
size_t ApproximateBytes(const Diagnostic& d);
size_t ApproximateBytes(const std::vector<Diagnostic>& ds);

// An ordered collection of diagnostics with small conveniences for validators.
class Diagnostics {
 public:
  Diagnostic& Add(Diagnostic d);
  Diagnostic& Error(std::string code, const FieldPath& field, std::string message,
                    std::string suggestion = {});
  Diagnostic& Warning(std::string code, const FieldPath& field, std::string message,
                      std::string suggestion = {});
  Diagnostic& Info(std::string code, const FieldPath& field, std::string message,
                   std::string suggestion = {});
  void Append(const Diagnostics& other);
  void Append(Diagnostics&& other);

  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>& mutable_items() { return items_; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  size_t error_count() const;
  size_t warning_count() const;
  bool has_errors() const { return error_count() > 0; }

  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace draguard

#endif  // DRAGUARD_POLICY_COMMON_DIAGNOSTIC_H_
