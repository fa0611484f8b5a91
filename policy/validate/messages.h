// The API server's field-error texts (apimachinery `field.Error.ErrorBody`), so that a
// diagnostic's message reads exactly as kube-apiserver prints it after `<field>: `:
//
//   Required value[: detail]            Invalid value: "GPU": detail
//   Too many: 33: must have at most 32 items
//   Too long: may not be more than 10240 bytes
//   Unsupported value: "all": supported values: "All", "ExactCount"
//   Duplicate value: "gpu"              Forbidden: detail
//   Internal error: detail
#ifndef DRAGUARD_POLICY_VALIDATE_MESSAGES_H_
#define DRAGUARD_POLICY_VALIDATE_MESSAGES_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace draguard::validate {

// A field value as the API server prints it: strings Go-quoted (%q), integers and booleans
// plain, `null` for nil, or raw text for anything else.
class FieldValue {
 public:
  static FieldValue String(std::string_view s);
  static FieldValue Int(int64_t i);
  static FieldValue Bool(bool b);
  static FieldValue Null();
  // Printed as is (used for "<value omitted>"-style placeholders that are not quoted).
  static FieldValue Raw(std::string_view text);
  // The placeholder the API server uses for large values: "<value omitted>" (quoted).
  static FieldValue Omitted() { return String("<value omitted>"); }

  const std::string& rendered() const { return rendered_; }

 private:
  explicit FieldValue(std::string rendered) : rendered_(std::move(rendered)) {}
  std::string rendered_;
};

// Go's strconv.Quote for UTF-8 text: escapes `"`, `\`, control characters and invalid bytes.
std::string GoQuote(std::string_view s);

std::string RequiredMessage(std::string_view detail = {});
std::string InvalidMessage(const FieldValue& value, std::string_view detail);
std::string TooManyMessage(int64_t actual, int64_t max);
std::string TooLongMessage(int64_t max_bytes);
std::string NotSupportedMessage(const FieldValue& value,
                                std::initializer_list<std::string_view> supported);
std::string DuplicateMessage(const FieldValue& value);
std::string ForbiddenMessage(std::string_view detail);
std::string InternalMessage(std::string_view detail);
std::string NotFoundMessage(const FieldValue& value);

}  // namespace draguard::validate

#endif  // DRAGUARD_POLICY_VALIDATE_MESSAGES_H_
