// A minimal reader for protobuf text format, enough for the cel-spec conformance data
// (tests only). It knows no schema: a message is a list of named fields, each holding
// either a scalar token or a nested message. Scalars keep their token text, except quoted
// strings, which are unescaped (C escapes, octal, \x, \u) and concatenated when adjacent.
// Field names in brackets ("[type.googleapis.com/foo.Bar]") are kept with the brackets.
// `name: [a, b]` list syntax expands to repeated fields.
#ifndef DRAGUARD_TESTS_POLICY_CEL_CONFORMANCE_TEXTPROTO_H_
#define DRAGUARD_TESTS_POLICY_CEL_CONFORMANCE_TEXTPROTO_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/status_or.h"

namespace draguard::cel::conformance {

struct TextField;

struct TextMessage {
  std::vector<TextField> fields;

  // The first field called `name`, or nullptr.
  const TextField* Find(std::string_view name) const;
  // The first nested message called `name`, or nullptr.
  const TextMessage* Message(std::string_view name) const;
  // Every nested message called `name`, in order.
  std::vector<const TextMessage*> Messages(std::string_view name) const;
  // The scalar of the first field called `name` ("" when absent or a message).
  std::string Scalar(std::string_view name) const;
  bool Has(std::string_view name) const { return Find(name) != nullptr; }
};

struct TextField {
  std::string name;
  // Set for a scalar field: the token text or the unescaped string.
  std::string scalar;
  bool quoted = false;
  // Set for a message field.
  std::shared_ptr<TextMessage> message;
};

// Parses a whole text-format document. Errors name the line.
StatusOr<TextMessage> ParseTextproto(std::string_view text);

}  // namespace draguard::cel::conformance

#endif  // DRAGUARD_TESTS_POLICY_CEL_CONFORMANCE_TEXTPROTO_H_
