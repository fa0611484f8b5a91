// The clause grammar of the strings extension's `format()` (cel-go ext/formatting.go, the
// formatter Kubernetes gets with strings version 2), shared by the runtime function and the
// checker's validator of literal format strings.
//
// A format string is text with clauses `%[.precision]verb`, verb one of s d f e b x X o;
// `%%` is a literal percent sign. Clauses consume list arguments in order. Errors carry
// cel-go's texts: "unexpected end of string", "index 2 out of range", "could not parse
// formatting clause: unrecognized formatting clause \"a\"", "error during formatting: ...".
#ifndef DRAGUARD_POLICY_CEL_INTERNAL_FORMAT_STRING_H_
#define DRAGUARD_POLICY_CEL_INTERNAL_FORMAT_STRING_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace draguard::cel::internal {

struct FormatClause {
  char verb = 's';  // one of s d f e b x X o
  std::optional<int64_t> precision;
};

// What a walk does with text and clauses.
class FormatCallbacks {
 public:
  virtual ~FormatCallbacks() = default;
  // The number of arguments in the list.
  virtual size_t ArgCount() const = 0;
  // Literal text (with `%%` already turned into `%`).
  virtual void Literal(std::string_view text) = 0;
  // Formats argument `index` (< ArgCount()) under `clause`. Returns the error, without
  // cel-go's "error during formatting: " prefix, or nullopt.
  virtual std::optional<std::string> Clause(size_t index, const FormatClause& clause) = 0;
};

struct FormatWalkOptions {
  // cel-go's runtime looks the argument up before parsing the clause ("index 0 out of
  // range" for a trailing "%" without arguments); its validator parses first ("unexpected
  // end of string").
  bool argument_before_clause = true;
  // Precisions above this are an error; 0 means no limit (cel-go at strings version 2).
  int64_t max_precision = 0;
};

// Walks `format`, calling `callbacks` in order. Returns cel-go's error text for the first
// problem, or nullopt when the whole string was consumed.
std::optional<std::string> WalkFormatString(std::string_view format, FormatCallbacks& callbacks,
                                            const FormatWalkOptions& options);

}  // namespace draguard::cel::internal

#endif  // DRAGUARD_POLICY_CEL_INTERNAL_FORMAT_STRING_H_
