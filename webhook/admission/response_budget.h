// What a denial and its warnings look like to the client, within what kube-apiserver passes on.
//
// Warnings: kube-apiserver's warning recorder (k8s.io/apiserver pkg/endpoints/filters/
// warning.go, v0.34-v0.36) keeps warnings whole while their total stays within
// truncateAtTotalRunes (4096); past it, it cuts every warning to truncateItemRunes (256) and
// drops those that come after the total is reached, so a summary at the end is the first thing
// lost. BudgetWarnings keeps the webhook's warnings within both limits itself: each at most
// 256 runes, all together at most 4096 (less what the API server may add of its own), most
// important first (the first warning of each code, then the rest, in the checker's order), and
// when some do not fit, a last line saying how many, which fits in the budget.
//
// Denials: kube-apiserver answers a validation failure with 422 Invalid and one cause per
// field error, typed after the error (`FieldValueRequired`, `FieldValueNotSupported`, ...).
// BuildDenial answers the same way when every error is one the API server's own validation
// reports, and 403 Forbidden when an error comes from draguard's own checks (docs/webhook.md,
// "Denials"). The message is bounded; the causes list every error up to a cap.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_RESPONSE_BUDGET_H_
#define DRAGUARD_WEBHOOK_ADMISSION_RESPONSE_BUDGET_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/diagnostic.h"
#include "webhook/admission/response_writer.h"

namespace draguard::webhook {

struct ResponseLimits {
  // kube-apiserver's truncateItemRunes.
  size_t max_warning_runes = 256;
  // kube-apiserver's truncateAtTotalRunes is 4096; 256 runes are left to warnings of the API
  // server itself (a deprecated apiVersion, another webhook), so that ours are not cut.
  size_t max_warnings_runes = 4096 - 256;
  // status.message; the causes carry every error.
  size_t max_message_bytes = 8 * 1024;
  size_t max_causes = 100;
  size_t max_cause_message_bytes = 1024;
};

// The warnings (severity warning) of `diagnostics` as "field: message (suggestion: ...)"
// lines, within `limits` (see above). Always valid UTF-8.
std::vector<std::string> BudgetWarnings(const Diagnostics& diagnostics,
                                        const ResponseLimits& limits);

// The metav1.CauseType of an error diagnostic as the API server would give it (from the
// apimachinery ErrorBody its message starts with, or for CEL selectors from its code), or ""
// when the error is draguard's own (not one the API server's validation reports).
std::string_view ApiCauseType(const Diagnostic& d);

struct Denial {
  int code = 0;             // 422 or 403
  std::string_view reason;  // "Invalid" or "Forbidden"
  std::string message;
  std::vector<StatusCause> causes;
};

// The denial of `kind` `name` for the errors of `diagnostics` (there must be at least one).
Denial BuildDenial(std::string_view kind, std::string_view name, const Diagnostics& diagnostics,
                   const ResponseLimits& limits);

// `text` with invalid UTF-8 replaced by U+FFFD and, when longer than `max_runes` code points,
// cut to max_runes - 1 of them plus "…". Exposed for tests.
std::string ClipRunes(std::string_view text, size_t max_runes);

// The number of code points of valid UTF-8 `text`.
size_t CountRunes(std::string_view text);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_RESPONSE_BUDGET_H_
