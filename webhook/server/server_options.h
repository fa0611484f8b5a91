// ServerOptions: every limit of the HTTPS admission server, with safe defaults, plus the
// callbacks through which the rest of the program reports readiness and inventory state.
#ifndef DRAGUARD_WEBHOOK_SERVER_SERVER_OPTIONS_H_
#define DRAGUARD_WEBHOOK_SERVER_SERVER_OPTIONS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webhook/admission/handler.h"
#include "webhook/admission/spec_memo.h"

namespace draguard::webhook {

struct ServerOptions {
  // "[host]:port". ":8443" listens on every IPv4 address; "127.0.0.1:0" on an ephemeral port;
  // IPv6 literals go in brackets: "[::1]:8443".
  std::string listen = ":8443";
  // PEM files; reloaded when they change on disk (see cert_poll_interval).
  std::string tls_cert_file;
  std::string tls_private_key_file;
  // PEM CA bundle: when set, a client must present a certificate issued by one of its CAs
  // (the API server does when its AdmissionConfiguration's kubeconfig names one); reloaded
  // with the serving pair.
  std::string client_ca_file;
  // "[host]:port" of a plain-HTTP listener serving only /healthz, /readyz and /metrics, for
  // the kubelet's probes and scrapers, which have no client certificate; empty: none.
  std::string probe_listen;
  // I/O threads; 0 means one per core.
  unsigned threads = 0;
  // The scheduler slice each I/O thread asks for (policy/common/thread_priority.h): short, so
  // that a thread woken by a request preempts a CPU-bound thread on its core at once; a
  // request takes well under it. Zero: the kernel's default slice. Linux 6.12+ honours it.
  std::chrono::microseconds io_thread_slice{100};
  // Body limit (413 beyond it), scanner depth and warning caps.
  HandlerOptions handler;
  // Request bodies being read or handled at once, over all connections; a request whose body
  // does not fit gets 503 and its connection is closed. The API server's bodies are a few KB.
  size_t max_inflight_body_bytes = 32u << 20;
  // Request line plus headers; beyond it the connection gets 431 and is closed.
  size_t max_header_bytes = 16 * 1024;
  // Connections open at once, kept below the open-file limit (raised to its hard limit at
  // start). At the limit the oldest connection that has not completed a request (in its
  // handshake first) is closed to make room; when every connection has completed one, the
  // new connection is closed instead.
  size_t max_connections = 16384;
  // Time for the TLS handshake.
  std::chrono::milliseconds handshake_timeout{10'000};
  // Time a new connection has, after its handshake, to send the first byte of its first
  // request: a client that completes handshakes and then sends nothing holds a connection
  // this long, not idle_timeout.
  std::chrono::milliseconds first_request_timeout{10'000};
  // Time for a whole request (headers and body) once its first byte arrived: a client sending
  // one byte a second is cut off here (slowloris).
  std::chrono::milliseconds read_timeout{10'000};
  // Time a keep-alive connection that has completed a request may wait for the first byte of
  // its next request.
  std::chrono::milliseconds idle_timeout{90'000};
  // Time to write one response.
  std::chrono::milliseconds write_timeout{10'000};
  // How often the certificate and key files are checked for changes.
  std::chrono::milliseconds cert_poll_interval{5'000};
  // After SIGTERM or Shutdown(): in-flight requests get this long to finish.
  std::chrono::milliseconds drain_timeout{20'000};
  // Install SIGTERM/SIGINT handlers that call Shutdown() (RunServer sets this).
  bool handle_signals = false;
};

// Inventory state for /metrics; `synced` false means not (yet) usable.
struct InventoryStats {
  bool configured = false;
  bool synced = false;
  size_t objects = 0;
  double age_seconds = 0;  // since the last successful load or watch event
  // File sources (InventorySourceState): files whose last good content is in use, seconds
  // since the oldest of them started failing, failures so far.
  size_t files_failing = 0;
  double stale_seconds = 0;
  uint64_t file_failures = 0;
};

// The Kubernetes release the checks follow, for draguard_kubernetes_release_info
// (release "1.36", source "flag", "config", "apiserver" or "default"). Empty: not rendered.
struct KubernetesReleaseInfo {
  std::string release;
  std::string source;
};

// Callbacks from the server into the rest of the program. All are optional and must be
// thread-safe: they are called from I/O threads.
struct ServerHooks {
  // Extra readiness condition for /readyz (e.g. "configuration loaded, inventory synced").
  std::function<bool()> ready;
  // Inventory gauges for /metrics.
  std::function<InventoryStats()> inventory;
  // The spec memo's size and lookups for /metrics (PolicyChecker::spec_memo_stats).
  std::function<SpecMemoStats()> spec_memo;
  // Every bounded cache's entries, bytes, limits and evictions for /metrics.
  std::function<std::vector<NamedCacheStats>()> caches;
  // One line per notable event (certificate reloads, failures); default: stderr.
  std::function<void(std::string_view)> log;
  // Fixed for the process's lifetime.
  KubernetesReleaseInfo release;
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_SERVER_OPTIONS_H_
