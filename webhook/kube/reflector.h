// Reflector: keeps one kind of the ObjectStore equal to the cluster, with client-go's
// list-and-watch semantics.
//
//   discover  which version of the kind the server serves (resource.k8s.io: v1, else
//             v1beta2, else v1beta1; DeviceTaintRule also v1alpha3). Not served: the kind
//             counts as synced and empty, and discovery is retried later.
//   list      in pages (limit/continue); the store's objects of the kind are replaced at once
//             after the last page, and the list's resourceVersion is remembered.
//   watch     from that resourceVersion with allowWatchBookmarks and timeoutSeconds; ADDED,
//             MODIFIED and DELETED change the store, every event and BOOKMARK advances the
//             resourceVersion. A stream that ends or drops is resumed from the last
//             resourceVersion; an ERROR event with code 410 or an HTTP 410 (the version is too
//             old) means relist.
//   back off  exponentially with jitter after each failure (connect, HTTP error, bad event),
//             reset by progress.
//
// Run() blocks in the calling thread until Stop() (from any thread).
#ifndef DRAGUARD_WEBHOOK_KUBE_REFLECTOR_H_
#define DRAGUARD_WEBHOOK_KUBE_REFLECTOR_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "webhook/kube/api_client.h"
#include "webhook/kube/api_objects.h"
#include "webhook/kube/object_store.h"

namespace draguard::webhook::kube {

struct ReflectorOptions {
  // Objects per list page (the API server caps it; 500 is client-go's default).
  size_t page_size = 500;
  // Asked of the server per watch; it closes the stream after about this long and the
  // reflector resumes. The stream is considered dead after this plus watch_idle_slack of
  // silence.
  int watch_timeout_seconds = 300;
  std::chrono::milliseconds watch_idle_slack{30'000};
  // Back-off after failures: doubles from initial to max, each wait drawn from [d/2, d].
  std::chrono::milliseconds backoff_initial{500};
  std::chrono::milliseconds backoff_max{30'000};
  // How often to look again for a kind the server does not serve.
  std::chrono::milliseconds rediscover_interval{300'000};
  // The release checked for (ResourceKind::release).
  KubernetesVersion release = kDefaultKubernetesVersion;
};

// What a reflector has achieved, for readiness, metrics and logs.
struct ReflectorState {
  bool synced = false;   // listed at least once (or found not served)
  bool served = true;    // the server serves the kind
  std::string api_version;  // the version in use, e.g. "resource.k8s.io/v1"
  std::chrono::system_clock::time_point confirmed_at{};  // last list, event, bookmark, end
  std::string problem;   // the last failure, cleared by progress
  uint64_t lists = 0;    // complete lists (the first one and every relist)
  uint64_t watches = 0;  // watch requests started
  uint64_t events = 0;   // ADDED/MODIFIED/DELETED applied
  uint64_t undecodable = 0;  // objects skipped because the model could not decode them
};

// Exponential back-off with jitter.
class Backoff {
 public:
  Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max);
  std::chrono::milliseconds Next();
  void Reset() { attempt_ = 0; }

 private:
  std::chrono::milliseconds initial_, max_;
  int attempt_ = 0;
  std::mt19937 random_;
};

class Reflector {
 public:
  // `on_change` runs (on the reflector's thread) after every change of the store or state.
  Reflector(WatchedKind kind, ObjectStore& store, std::unique_ptr<ApiConnection> connection,
            ReflectorOptions options, std::function<void()> on_change);

  void Run();
  void Stop();
  ReflectorState State() const;
  WatchedKind kind() const { return kind_; }

 private:
  enum class Outcome { kContinue, kRelist };

  Status Cycle();
  Status Discover();
  Status List();
  StatusOr<Outcome> Watch();
  Status HandleLine(std::string_view line, bool& gone);
  bool Sleep(std::chrono::milliseconds duration);
  bool Stopping() const { return stopping_.load(); }
  template <class F>
  void Update(F&& f);

  const WatchedKind kind_;
  ObjectStore& store_;
  std::unique_ptr<ApiConnection> connection_;
  const ReflectorOptions options_;
  std::function<void()> on_change_;
  Backoff backoff_;

  std::optional<ResourceKind> resource_;  // set by discovery; empty when not served
  std::string resource_version_;
  bool needs_list_ = true;

  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  std::condition_variable wake_;
  ReflectorState state_;
};

// Percent-encodes a query parameter value (RFC 3986 unreserved characters kept).
std::string EncodeQueryValue(std::string_view value);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_REFLECTOR_H_
