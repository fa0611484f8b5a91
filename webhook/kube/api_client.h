// ApiConnection: one keep-alive HTTPS (or HTTP) connection to the Kubernetes API server for
// read-only GETs and watch streams, on Boost.Beast.
//
// Each connection owns a private io_context and is driven by the calling thread: a call runs
// the asynchronous operations to completion, so every step has a deadline (tcp_stream
// expiry) and Cancel() can abort it from another thread. The server's certificate is verified
// against the cluster CA and the host name (or tls-server-name); the bearer token is re-read
// as it rotates. Limits bound the body of a response and the size of one watch event.
//
// Errors: transport failures (connect, TLS, timeouts, a dropped stream) are a Status
// (Unavailable, DeadlineExceeded, ResourceExhausted for limits, Cancelled after Cancel());
// an HTTP answer, whatever its code, is an HttpResult. No exception escapes.
//
// Thread safety: one thread uses a connection at a time; Cancel() may be called from any
// thread.
#ifndef DRAGUARD_WEBHOOK_KUBE_API_CLIENT_H_
#define DRAGUARD_WEBHOOK_KUBE_API_CLIENT_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "policy/common/status_or.h"
#include "webhook/kube/cluster_config.h"

namespace draguard::webhook::kube {

struct ApiClientOptions {
  // Resolving, connecting and the TLS handshake together.
  std::chrono::milliseconds connect_timeout{10'000};
  // A whole non-streaming request (a list page, a discovery document, a namespace).
  std::chrono::milliseconds request_timeout{60'000};
  // Largest response body of a non-streaming request (a list page of 500 big slices fits).
  size_t max_body_bytes = 64 << 20;
  // Largest single line (one event) of a watch stream; the API server's object limit is
  // 1.5 MiB in etcd, so this is generous.
  size_t max_line_bytes = 8 << 20;
  size_t max_header_bytes = 64 << 10;
  std::string user_agent = "draguard";
};

struct HttpResult {
  unsigned status = 0;
  // The body of a non-streaming response, or of a streaming one that was not 200.
  std::string body;
};

class ApiConnection {
 public:
  using LineHandler = std::function<Status(std::string_view line)>;

  // `config` must outlive nothing: it is copied. `token` may be shared between connections.
  ApiConnection(ClusterConfig config, std::shared_ptr<BearerToken> token,
                ApiClientOptions options = {});
  ~ApiConnection();
  ApiConnection(const ApiConnection&) = delete;
  ApiConnection& operator=(const ApiConnection&) = delete;

  // GET `target` (path and query, e.g. "/api/v1/nodes?limit=500"); the whole body.
  // InvalidArgument when the TLS configuration (CA, client certificate) is unusable.
  StatusOr<HttpResult> Get(std::string_view target);

  // GET a streaming `target` (a watch). For a 200 answer, `on_line` receives every non-empty
  // newline-delimited line as it arrives and the call returns {200, ""} when the server ends
  // the stream cleanly; a non-OK status from `on_line` stops the stream and is returned. A
  // non-200 answer is returned whole. `idle_timeout` bounds the silence between two reads.
  StatusOr<HttpResult> Stream(std::string_view target, std::chrono::milliseconds idle_timeout,
                              const LineHandler& on_line);

  // Aborts the operation in progress and every later one (they return Cancelled).
  void Cancel();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Splits a byte stream into newline-delimited lines, bounded in size. Used by Stream and the
// fuzz target.
class LineSplitter {
 public:
  explicit LineSplitter(size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  // Feeds bytes; calls `on_line` for each complete non-empty line (without '\n' or '\r').
  // ResourceExhausted when an unfinished line exceeds the limit.
  Status Feed(std::string_view bytes, const ApiConnection::LineHandler& on_line);
  // The unfinished tail (a stream that ended without a final newline).
  const std::string& pending() const { return pending_; }

 private:
  size_t max_line_bytes_;
  std::string pending_;
};

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_API_CLIENT_H_
