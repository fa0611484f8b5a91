#include "webhook/kube/namespace_lookup.h"

#include <utility>

#include "webhook/kube/api_client.h"
#include "webhook/kube/api_objects.h"
#include "webhook/kube/cluster_config.h"
#include "webhook/kube/reflector.h"

namespace draguard::webhook::kube {
namespace {

// A DNS-1123 label, the only shape a namespace name can have; anything else is not sent.
bool IsNamespaceName(std::string_view name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

ApiClientOptions LookupClientOptions(const NamespaceLookupOptions& options) {
  ApiClientOptions client;
  client.connect_timeout = options.request_timeout;
  client.request_timeout = options.request_timeout;
  client.max_body_bytes = 1 << 20;
  return client;
}

}  // namespace

KubeNamespaceLookup::KubeNamespaceLookup(const ClusterConfig& config,
                                         NamespaceLookupOptions options)
    : options_(options),
      connection_(std::make_unique<ApiConnection>(config, std::make_shared<BearerToken>(config),
                                                  LookupClientOptions(options))) {}

KubeNamespaceLookup::~KubeNamespaceLookup() = default;

size_t KubeNamespaceLookup::api_calls() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  return api_calls_;
}

StatusOr<LabelMap> KubeNamespaceLookup::Labels(std::string_view name) {
  if (!IsNamespaceName(name)) {
    return InvalidArgumentError("\"" + std::string(name) + "\" is not a namespace name");
  }
  const std::string key(name);
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    auto it = cache_.find(key);
    if (it != cache_.end() && Clock::now() < it->second.expires) return it->second.labels;
  }
  StatusOr<LabelMap> labels = Fetch(key);
  const bool cacheable = labels.ok() || labels.status().code() == StatusCode::kNotFound;
  const auto ttl = cacheable ? options_.ttl : options_.failure_ttl;
  std::lock_guard<std::mutex> lock(cache_mu_);
  ++api_calls_;
  if (cache_.size() >= options_.max_entries) cache_.clear();  // bounded; refills on demand
  cache_.insert_or_assign(key, Entry{labels, Clock::now() + ttl});
  return labels;
}

StatusOr<LabelMap> KubeNamespaceLookup::Fetch(const std::string& name) {
  std::lock_guard<std::mutex> lock(api_mu_);
  StatusOr<HttpResult> result = connection_->Get("/api/v1/namespaces/" + EncodeQueryValue(name));
  if (!result.ok()) return result.status();
  if (result->status == 404) return NotFoundError("namespace " + name + " does not exist");
  if (result->status != 200) {
    const ApiError error = ParseApiError(result->status, result->body);
    const std::string message = "namespace " + name + ": HTTP " +
                                std::to_string(result->status) + " " + error.message;
    if (result->status == 401 || result->status == 403) return PermissionDeniedError(message);
    return UnavailableError(message);
  }
  StatusOr<k8s::Namespace> ns = ParseNamespace(result->body);
  if (!ns.ok()) return ns.status();
  return std::move(ns->metadata.labels);
}

}  // namespace draguard::webhook::kube
