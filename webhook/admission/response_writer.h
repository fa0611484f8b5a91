// Writes admission.k8s.io AdmissionReview responses and RFC 6902 patches as JSON text, straight
// into a string (no DOM): the hot path of every webhook request.
#ifndef DRAGUARD_WEBHOOK_ADMISSION_RESPONSE_WRITER_H_
#define DRAGUARD_WEBHOOK_ADMISSION_RESPONSE_WRITER_H_

#include <string>
#include <string_view>
#include <vector>

#include "webhook/admission/checker.h"

namespace draguard::webhook {

// One entry of status.details.causes: the metav1.CauseType (`FieldValueRequired`, ...; empty
// writes FieldValueInvalid), the field and what is wrong with it.
struct StatusCause {
  std::string type;
  std::string field;
  std::string message;
};

// The AdmissionResponse to write. `code` 0 writes no `status`; an empty `patch_json` writes no
// patch (otherwise it is base64-encoded and `patchType: JSONPatch` is added).
struct AdmissionResponseFields {
  std::string_view api_version = "admission.k8s.io/v1";
  std::string_view uid;
  bool allowed = true;
  int code = 0;
  std::string_view reason;  // metav1.StatusReason, e.g. "Invalid", "Forbidden", "BadRequest"
  std::string message;
  std::vector<StatusCause> causes;
  std::vector<std::string> warnings;
  std::string patch_json;
};

// The complete AdmissionReview JSON document: {"apiVersion":..,"kind":"AdmissionReview",
// "response":{...}}. Never throws except std::bad_alloc.
std::string WriteAdmissionReview(const AdmissionResponseFields& fields);

// Standard base64 with padding (RFC 4648 §4), as Go's []byte JSON encoding expects.
std::string Base64Encode(std::string_view bytes);

// The patch as a JSON array of operations. `value_json` is copied verbatim (it must already be
// valid JSON); an empty list gives "[]".
std::string WriteJsonPatch(const std::vector<JsonPatchOperation>& patch);

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_ADMISSION_RESPONSE_WRITER_H_
