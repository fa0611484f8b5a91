// Metrics: the server's Prometheus counters, gauges and histograms, rendered in text
// exposition format 0.0.4. Thread-safe; recording costs one mutex acquisition.
#ifndef DRAGUARD_WEBHOOK_SERVER_METRICS_H_
#define DRAGUARD_WEBHOOK_SERVER_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "webhook/server/process_memory.h"
#include "webhook/server/server_options.h"

namespace draguard::webhook {

// Values computed at scrape time rather than recorded.
struct MetricsGauges {
  std::optional<int64_t> cert_not_after_unix;  // the serving certificate's notAfter
  int64_t now_unix = 0;
  InventoryStats inventory;
  std::optional<SpecMemoStats> spec_memo;
  // Every bounded cache of the process (ServerHooks::caches).
  std::vector<NamedCacheStats> caches;
  bool ready = false;
  KubernetesReleaseInfo release;
  ProcessMemory memory;  // ReadProcessMemory() at the scrape
};

class Metrics {
 public:
  // Upper bounds of the latency histogram buckets, in seconds.
  static constexpr std::array<double, 12> kBuckets = {0.00005, 0.0001, 0.00025, 0.0005, 0.001,
                                                      0.0025,  0.005,  0.01,    0.025,  0.05,
                                                      0.1,     1.0};

  // One request on `endpoint` ("validate", "mutate"), for `kind` (may be empty; a kind the
  // webhook does not serve is counted as "other") with `verdict`.
  void RecordRequest(std::string_view endpoint, std::string_view kind, std::string_view verdict,
                     double seconds);
  void ConnectionOpened() { ++active_connections_; }
  void ConnectionClosed() { --active_connections_; }
  void ConnectionRejected() { ++rejected_connections_; }
  void ConnectionEvicted() { ++evicted_connections_; }
  void HandshakeFailed() { ++handshake_failures_; }
  void BodyRefused() { ++bodies_refused_; }
  void CertReloaded(bool ok) { ++(ok ? cert_reloads_ok_ : cert_reloads_failed_); }
  int64_t active_connections() const { return active_connections_.load(); }

  // The exposition text.
  std::string Render(const MetricsGauges& gauges) const;

 private:
  struct Histogram {
    std::array<uint64_t, kBuckets.size()> counts{};
    uint64_t count = 0;
    double sum = 0;
  };
  void RenderRequests(std::string& out) const;

  mutable std::mutex mu_;
  // Transparent comparators: a request looks its counters up without building strings.
  using RequestKey = std::tuple<std::string, std::string, std::string>;
  using RequestKeyView = std::tuple<std::string_view, std::string_view, std::string_view>;
  struct RequestKeyLess {
    using is_transparent = void;
    static RequestKeyView View(const RequestKey& k) {
      return {std::get<0>(k), std::get<1>(k), std::get<2>(k)};
    }
    static RequestKeyView View(const RequestKeyView& k) { return k; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return View(a) < View(b);
    }
  };
  std::map<RequestKey, uint64_t, RequestKeyLess> requests_;
  std::map<std::string, Histogram, std::less<>> latency_;
  std::atomic<int64_t> active_connections_{0};
  std::atomic<uint64_t> rejected_connections_{0};
  std::atomic<uint64_t> evicted_connections_{0};
  std::atomic<uint64_t> handshake_failures_{0};
  std::atomic<uint64_t> bodies_refused_{0};
  std::atomic<uint64_t> cert_reloads_ok_{0};
  std::atomic<uint64_t> cert_reloads_failed_{0};
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_METRICS_H_
