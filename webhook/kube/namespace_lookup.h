// Namespace labels for the admin-access check (`draguard serve --namespace-lookup`).
//
// The webhook configuration routes namespaces labelled resource.kubernetes.io/admin-access
// to a separate endpoint, so the label is normally known without any API call. When the
// webhook is registered without that split (one /validate entry), the checker can ask a
// NamespaceLabelLookup instead: KubeNamespaceLookup GETs /api/v1/namespaces/NAME (RBAC: get
// on namespaces) and caches the labels for a short TTL, failures for a shorter one.
//
// The interface is free of Asio so that webhook/admission can hold a pointer to it.
#ifndef DRAGUARD_WEBHOOK_KUBE_NAMESPACE_LOOKUP_H_
#define DRAGUARD_WEBHOOK_KUBE_NAMESPACE_LOOKUP_H_

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "policy/common/status_or.h"

namespace draguard::webhook {

using LabelMap = std::map<std::string, std::string>;

// Thread-safe: Labels may be called concurrently from every server thread.
class NamespaceLabelLookup {
 public:
  virtual ~NamespaceLabelLookup() = default;
  // The labels of namespace `name`; NotFound when it does not exist; Unavailable,
  // DeadlineExceeded or PermissionDenied when the API cannot tell (the caller then falls back
  // to what the request says, never denying because of the lookup).
  virtual StatusOr<LabelMap> Labels(std::string_view name) = 0;
};

namespace kube {

class ApiConnection;
struct ClusterConfig;
struct ApiClientOptions;

struct NamespaceLookupOptions {
  // How long labels are trusted; label changes show up after at most this.
  std::chrono::milliseconds ttl{30'000};
  // How long a failure is remembered before the API is asked again.
  std::chrono::milliseconds failure_ttl{5'000};
  // A lookup is on the admission path: keep it well inside the webhook's timeout.
  std::chrono::milliseconds request_timeout{2'000};
  size_t max_entries = 4096;
};

class KubeNamespaceLookup : public NamespaceLabelLookup {
 public:
  using Clock = std::chrono::steady_clock;

  KubeNamespaceLookup(const ClusterConfig& config, NamespaceLookupOptions options = {});
  ~KubeNamespaceLookup() override;

  StatusOr<LabelMap> Labels(std::string_view name) override;
  // Lookups that reached the API server (cache misses), for tests and metrics.
  size_t api_calls() const;

 private:
  struct Entry {
    StatusOr<LabelMap> labels;
    Clock::time_point expires;
  };

  StatusOr<LabelMap> Fetch(const std::string& name);

  NamespaceLookupOptions options_;
  std::unique_ptr<ApiConnection> connection_;  // one request at a time, under api_mu_
  std::mutex api_mu_;
  mutable std::mutex cache_mu_;
  std::unordered_map<std::string, Entry> cache_;
  size_t api_calls_ = 0;
};

}  // namespace kube
}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_KUBE_NAMESPACE_LOOKUP_H_
