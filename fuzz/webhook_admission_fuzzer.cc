// Fuzzes the admission handler: bytes -> HandleAdmission. The first byte picks the endpoint,
// content type and checker behaviour; the rest is the body. Invariants: no crash; the answer
// is always a JSON document (checked with nlohmann's strict acceptor); a 200 answer echoes a
// response; the scanner agrees with a strict JSON parser on whether the body is JSON (as far
// as that parser agrees with Go's, json_reference.h).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/json_reference.h"
#include "nlohmann/json.hpp"
#include "webhook/admission/handler.h"

namespace {

using draguard::FieldPath;
using namespace draguard::webhook;

class FuzzChecker : public AdmissionChecker {
 public:
  explicit FuzzChecker(uint8_t mode) : mode_(mode) {}
  CheckOutcome Check(const AdmissionRequest& request) override {
    CheckOutcome outcome;
    if (mode_ & 0x04) {
      outcome.diagnostics.Error("fuzz.error", FieldPath(std::string(request.name)),
                                std::string(request.object.substr(0, 64)));
    }
    if (mode_ & 0x08) {
      outcome.diagnostics.Warning("fuzz.warning", FieldPath("spec"), std::string(request.uid));
    }
    if (mode_ & 0x10) outcome.patch.push_back({.op = "add", .path = "/x", .value_json = "1"});
    if (mode_ & 0x20) throw std::runtime_error("fuzz");
    return outcome;
  }

 private:
  uint8_t mode_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 64 * 1024) return 0;
  uint8_t mode = data[0];
  std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  FuzzChecker checker(mode);
  HandlerOptions options;
  options.max_body_bytes = 32 * 1024;
  options.scan.max_depth = 64;
  HttpAdmissionRequest request{
      .endpoint = (mode & 1) ? AdmissionEndpoint::kMutate : AdmissionEndpoint::kValidate,
      .content_type = (mode & 2) ? "text/plain" : "application/json",
      .query = (mode & 0x40) ? "admin-access=allowed" : "",
      .body = body};
  HttpAdmissionResponse response = HandleAdmission(request, checker, options);
  if (!nlohmann::json::accept(response.body)) std::abort();
  if (response.http_status != 200 && response.http_status != 400 && response.http_status != 413) {
    std::abort();
  }
  // Within the limits, a body the scanner accepted must be JSON (the converse does not hold:
  // the scanner also rejects JSON of the wrong shape), where nlohmann agrees with Go.
  bool scanned = ScanAdmissionReview(body, options.scan).ok();
  if (scanned && body.size() <= options.max_body_bytes &&
      draguard::fuzz::ReferenceApplies(body) && !nlohmann::json::accept(body)) {
    std::abort();
  }
  return 0;
}
