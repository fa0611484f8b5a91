// Test doubles for webhook tests: a checker that returns a scripted outcome and remembers what
// it was asked, and a builder for AdmissionReview request bodies.
#ifndef DRAGUARD_TESTS_WEBHOOK_TESTING_FAKE_CHECKER_H_
#define DRAGUARD_TESTS_WEBHOOK_TESTING_FAKE_CHECKER_H_

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>

#include "nlohmann/json.hpp"
#include "webhook/admission/checker.h"

namespace draguard::webhook::testing {

// An owned copy of an AdmissionRequest.
struct SeenRequest {
  AdmissionEndpoint endpoint = AdmissionEndpoint::kValidate;
  std::string uid, group, version, kind, operation, name_space, name;
  bool dry_run = false;
  bool admin_access_allowed = false;
  std::string object, old_object;
};

// Returns `outcome` (or throws when `throw_message` is set); thread-safe.
class FakeChecker : public AdmissionChecker {
 public:
  CheckOutcome outcome;
  std::string throw_message;

  CheckOutcome Check(const AdmissionRequest& r) override {
    calls_.fetch_add(1);
    {
      std::lock_guard lock(mu_);
      last_ = SeenRequest{r.endpoint,
                          std::string(r.uid),
                          std::string(r.group),
                          std::string(r.version),
                          std::string(r.kind),
                          std::string(r.operation),
                          std::string(r.name_space),
                          std::string(r.name),
                          r.dry_run,
                          r.admin_access_allowed,
                          std::string(r.object),
                          std::string(r.old_object)};
    }
    if (!throw_message.empty()) throw std::runtime_error(throw_message);
    return outcome;
  }

  int calls() const { return calls_.load(); }
  SeenRequest last() {
    std::lock_guard lock(mu_);
    return last_;
  }

 private:
  std::atomic<int> calls_{0};
  std::mutex mu_;
  SeenRequest last_;
};

// An AdmissionReview request as the API server sends it, for a resource.k8s.io object (on
// UPDATE the old object is the same object, as for a no-op update).
inline nlohmann::json MakeReview(std::string_view kind = "ResourceClaim",
                                 std::string_view version = "v1",
                                 std::string_view operation = "CREATE",
                                 std::string_view uid = "705ab4f5-6393-11e8-b7cc-42010a800002") {
  nlohmann::json object = {{"apiVersion", "resource.k8s.io/" + std::string(version)},
                           {"kind", kind},
                           {"metadata", {{"name", "gpu-claim"}, {"namespace", "team-a"}}},
                           {"spec", {{"devices", {{"requests", nlohmann::json::array()}}}}}};
  return {{"apiVersion", "admission.k8s.io/v1"},
          {"kind", "AdmissionReview"},
          {"request",
           {{"uid", uid},
            {"kind", {{"group", "resource.k8s.io"}, {"version", version}, {"kind", kind}}},
            {"resource", {{"group", "resource.k8s.io"}, {"version", version},
                          {"resource", "resourceclaims"}}},
            {"name", "gpu-claim"},
            {"namespace", "team-a"},
            {"operation", operation},
            {"userInfo", {{"username", "alice"}}},
            {"object", object},
            {"oldObject", operation == "UPDATE" ? object : nlohmann::json(nullptr)},
            {"dryRun", false},
            {"options", {{"apiVersion", "meta.k8s.io/v1"}, {"kind", "CreateOptions"}}}}}};
}

}  // namespace draguard::webhook::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_TESTING_FAKE_CHECKER_H_
