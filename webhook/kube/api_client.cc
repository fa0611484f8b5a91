// Beast adapter: the only file of webhook/kube that touches sockets and TLS. Boost reports
// through error_code overloads; nothing here throws.
#include "webhook/kube/api_client.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>

#include "policy/common/status_macros.h"

namespace draguard::webhook::kube {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

bool IsIpAddress(const std::string& host) {
  beast::error_code ec;
  net::ip::make_address(host, ec);
  return !ec;
}

// The first non-empty buffer of a sequence (or an empty one), as Asio's own TLS stream takes.
template <class Buffer, class Buffers>
Buffer FirstBuffer(const Buffers& buffers) {
  for (auto it = net::buffer_sequence_begin(buffers); it != net::buffer_sequence_end(buffers);
       ++it) {
    Buffer b(*it);
    if (b.size() != 0) return b;
  }
  return Buffer();
}

// A completion handler of signature void(error_code, size_t) whose type does not depend on
// the operation it continues (Asio 1.81's any_completion_handler does not compile under the
// TLS stream: its executor lacks outstanding_work). It keeps the continued operation's
// executor, the connection's io_context, so the stream operations below invoke it there.
class ErasedHandler {
 public:
  using executor_type = net::any_io_executor;

  template <class Handler>
  ErasedHandler(Handler&& handler, const executor_type& fallback)
      : executor_(net::get_associated_executor(handler, fallback)),
        op_(std::make_unique<Model<std::decay_t<Handler>>>(std::forward<Handler>(handler))) {}

  executor_type get_executor() const noexcept { return executor_; }

  void operator()(beast::error_code ec, std::size_t bytes) {
    Op* op = op_.get();
    op->Invoke(std::move(op_), ec, bytes);
  }

 private:
  struct Op {
    virtual ~Op() = default;
    // Frees `self` before calling the handler, as Asio frees an operation before its upcall.
    virtual void Invoke(std::unique_ptr<Op> self, beast::error_code ec, std::size_t bytes) = 0;
  };
  template <class Handler>
  struct Model final : Op {
    explicit Model(Handler&& h) : handler(std::move(h)) {}
    void Invoke(std::unique_ptr<Op> self, beast::error_code ec, std::size_t bytes) override {
      Handler local(std::move(handler));
      self.reset();
      std::move(local)(ec, bytes);
    }
    Handler handler;
  };

  executor_type executor_;
  std::unique_ptr<Op> op_;
};

// The connection's stream, plain TCP or TLS, behind one type: Beast's HTTP operations (their
// composed read and write op stacks) are instantiated once over it instead of once per stream
// type, which roughly halved the compile time of this file in the sanitizer test build. The
// price is one heap-allocated handler per read_some or write_some, against the network round
// trips they wait for. A *_some operation may transfer less than offered, so each call passes
// only the first non-empty buffer on (Asio's TLS stream does the same).
class EitherStream {
 public:
  using executor_type = net::any_io_executor;
  using TlsStream = beast::ssl_stream<beast::tcp_stream>;

  EitherStream(std::optional<beast::tcp_stream>& plain, std::optional<TlsStream>& tls)
      : plain_(plain), tls_(tls) {}

  executor_type get_executor() { return tls_ ? tls_->get_executor() : plain_->get_executor(); }

  template <class MutableBuffers, class Handler>
  void async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    ReadSome(FirstBuffer<net::mutable_buffer>(buffers),
             ErasedHandler(std::forward<Handler>(handler), get_executor()));
  }

  template <class ConstBuffers, class Handler>
  void async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    WriteSome(FirstBuffer<net::const_buffer>(buffers),
              ErasedHandler(std::forward<Handler>(handler), get_executor()));
  }

 private:
  void ReadSome(net::mutable_buffer b, ErasedHandler handler) {
    if (tls_) {
      tls_->async_read_some(b, std::move(handler));
    } else {
      plain_->async_read_some(b, std::move(handler));
    }
  }
  void WriteSome(net::const_buffer b, ErasedHandler handler) {
    if (tls_) {
      tls_->async_write_some(b, std::move(handler));
    } else {
      plain_->async_write_some(b, std::move(handler));
    }
  }

  std::optional<beast::tcp_stream>& plain_;
  std::optional<TlsStream>& tls_;
};

}  // namespace

Status LineSplitter::Feed(std::string_view bytes, const ApiConnection::LineHandler& on_line) {
  while (!bytes.empty()) {
    const size_t newline = bytes.find('\n');
    const std::string_view part = bytes.substr(0, newline);
    if (pending_.size() + part.size() > max_line_bytes_) {
      pending_.clear();
      return ResourceExhaustedError("a watch event is larger than " +
                                    std::to_string(max_line_bytes_) + " bytes");
    }
    pending_.append(part);
    if (newline == std::string_view::npos) return OkStatus();
    bytes.remove_prefix(newline + 1);
    std::string line = std::move(pending_);
    pending_.clear();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    DRAGUARD_RETURN_IF_ERROR(on_line(line));
  }
  return OkStatus();
}

struct ApiConnection::Impl {
  Impl(ClusterConfig c, std::shared_ptr<BearerToken> t, ApiClientOptions o)
      : config(std::move(c)), token(std::move(t)), options(std::move(o)) {}

  ClusterConfig config;
  std::shared_ptr<BearerToken> token;
  ApiClientOptions options;
  net::io_context ioc;
  std::unique_ptr<ssl::context> tls_context;
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
  EitherStream stream{plain, tls};  // whichever of the two is open
  beast::flat_buffer buffer;
  // The exec plugin's client certificate that tls_context holds (empty: config's, if any).
  std::pair<std::string, std::string> exec_certificate;
  bool connected = false;
  std::atomic<bool> cancelled{false};

  beast::tcp_stream& Lowest() { return tls ? beast::get_lowest_layer(*tls) : *plain; }

  // Starts an asynchronous operation through `initiate(handler)` and runs the io_context
  // until it (and anything it started) completes. After Cancel() nothing new starts; an
  // operation already started is aborted by the close that Cancel() posts.
  template <class Initiate>
  beast::error_code Run(Initiate&& initiate) {
    beast::error_code result = net::error::operation_aborted;
    if (cancelled.load()) return result;
    initiate([&result](beast::error_code ec, auto&&...) { result = ec; });
    ioc.restart();
    ioc.run();
    return result;
  }

  Status TransportError(beast::error_code ec, const char* what) {
    Close();
    if (cancelled.load()) return CancelledError("API connection cancelled");
    const std::string where = std::string(what) + " " + config.host + ":" +
                              std::to_string(config.port) + ": ";
    if (ec == beast::error::timeout) return DeadlineExceededError(where + "timed out");
    if (ec == http::error::body_limit) {
      return ResourceExhaustedError(where + "response larger than " +
                                    std::to_string(options.max_body_bytes) + " bytes");
    }
    if (ec == http::error::header_limit) return ResourceExhaustedError(where + "header too large");
    if (ec == net::error::eof || ec == http::error::end_of_stream ||
        ec == net::ssl::error::stream_truncated) {
      return UnavailableError(where + "connection closed by the server");
    }
    return UnavailableError(where + ec.message());
  }

  void Close() {
    beast::error_code ignored;
    if (tls || plain) Lowest().socket().close(ignored);
    tls.reset();
    plain.reset();
    buffer.clear();
    connected = false;
  }

  Status BuildTlsContext() {
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
    beast::error_code ec;
    if (config.insecure_skip_tls_verify) {
      ctx->set_verify_mode(ssl::verify_none, ec);
    } else {
      ctx->set_verify_mode(ssl::verify_peer, ec);
      if (config.ca_pem.empty()) {
        ctx->set_default_verify_paths(ec);
      } else {
        ctx->add_certificate_authority(net::buffer(config.ca_pem), ec);
      }
      if (ec) return InvalidArgumentError("certificate authority: " + ec.message());
    }
    const bool from_plugin = !exec_certificate.first.empty();
    const std::string& cert = from_plugin ? exec_certificate.first : config.client_cert_pem;
    const std::string& key = from_plugin ? exec_certificate.second : config.client_key_pem;
    const std::string origin = from_plugin ? " (from the exec plugin)" : "";
    if (!cert.empty()) {
      ctx->use_certificate_chain(net::buffer(cert), ec);
      if (ec) return InvalidArgumentError("client certificate" + origin + ": " + ec.message());
      ctx->use_private_key(net::buffer(key), ssl::context::pem, ec);
      if (ec) return InvalidArgumentError("client key" + origin + ": " + ec.message());
    }
    tls_context = std::move(ctx);
    return OkStatus();
  }

  StatusOr<tcp::resolver::results_type> Resolve() {
    tcp::resolver resolver(ioc);
    net::steady_timer deadline(ioc);
    deadline.expires_after(options.connect_timeout);
    deadline.async_wait([&](beast::error_code ec) {
      if (!ec) resolver.cancel();
    });
    tcp::resolver::results_type endpoints;
    beast::error_code result = net::error::operation_aborted;
    resolver.async_resolve(config.host, std::to_string(config.port),
                           [&](beast::error_code ec, tcp::resolver::results_type found) {
                             result = ec;
                             endpoints = std::move(found);
                             deadline.cancel();
                           });
    ioc.restart();
    ioc.run();
    if (result) return TransportError(result, "resolving");
    return endpoints;
  }

  Status Connect() {
    Close();
    if (cancelled.load()) return CancelledError("API connection cancelled");
    const bool https = config.scheme == "https";
    if (https && tls_context == nullptr) DRAGUARD_RETURN_IF_ERROR(BuildTlsContext());
    DRAGUARD_ASSIGN_OR_RETURN(tcp::resolver::results_type endpoints, Resolve());
    if (https) {
      tls.emplace(ioc, *tls_context);
    } else {
      plain.emplace(ioc);
    }
    Lowest().expires_after(options.connect_timeout);
    beast::error_code ec =
        Run([&](auto handler) { Lowest().async_connect(endpoints, std::move(handler)); });
    if (ec) return TransportError(ec, "connecting to");
    if (https) DRAGUARD_RETURN_IF_ERROR(Handshake());
    Lowest().expires_never();
    connected = true;
    return OkStatus();
  }

  Status Handshake() {
    const std::string& name =
        config.tls_server_name.empty() ? config.host : config.tls_server_name;
    // SNI carries DNS names only (RFC 6066); an IP is checked against the IP SANs.
    if (!IsIpAddress(name)) SSL_set_tlsext_host_name(tls->native_handle(), name.c_str());
    beast::error_code ec;
    if (!config.insecure_skip_tls_verify) {
      tls->set_verify_callback(ssl::host_name_verification(name), ec);
    }
    ec = Run([&](auto handler) { tls->async_handshake(ssl::stream_base::client, handler); });
    if (ec) return TransportError(ec, "TLS handshake with");
    return OkStatus();
  }

  std::string HostHeader() const {
    const bool default_port = (config.scheme == "https" && config.port == 443) ||
                              (config.scheme == "http" && config.port == 80);
    const bool v6 = config.host.find(':') != std::string::npos;
    std::string host = v6 ? "[" + config.host + "]" : config.host;
    return default_port ? host : host + ":" + std::to_string(config.port);
  }

  StatusOr<http::request<http::empty_body>> MakeRequest(std::string_view target) {
    http::request<http::empty_body> req{http::verb::get, config.path_prefix + std::string(target),
                                        11};
    req.set(http::field::host, HostHeader());
    req.set(http::field::user_agent, options.user_agent);
    req.set(http::field::accept, "application/json");
    if (token != nullptr) {
      DRAGUARD_ASSIGN_OR_RETURN(std::string bearer, token->Fetch());
      if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
      UseExecCertificate(token->ExecClientCertificate());
    }
    return req;
  }

  // A client certificate from the exec plugin that differs from the one in use (the first, or
  // one renewed after it expired or after a 401): the next connection presents it.
  void UseExecCertificate(std::pair<std::string, std::string> certificate) {
    if (certificate == exec_certificate) return;
    Close();
    tls_context.reset();
    exec_certificate = std::move(certificate);
  }

  // Sends the request on the open connection, reconnecting once when a reused keep-alive
  // connection turns out to have been closed by the server.
  Status Send(std::string_view target) {
    for (int attempt = 0;; ++attempt) {
      DRAGUARD_ASSIGN_OR_RETURN(http::request<http::empty_body> req, MakeRequest(target));
      const bool reused = connected;  // after MakeRequest, which may close for a new certificate
      if (!connected) DRAGUARD_RETURN_IF_ERROR(Connect());
      Lowest().expires_after(options.request_timeout);
      beast::error_code ec =
          Run([&](auto handler) { http::async_write(stream, req, std::move(handler)); });
      if (!ec) return OkStatus();
      Status failed = TransportError(ec, "sending to");
      if (!reused || attempt > 0 || cancelled.load()) return failed;
    }
  }

  void AfterResponse(unsigned status, bool keep_alive) {
    if (!keep_alive) Close();
    if (status == 401 && token != nullptr) token->Invalidate();
  }

  // A 401 with a refreshable credential (a token file or an exec plugin) is retried once with
  // the credential fetched again (client-go re-runs the plugin after a 401 for the next
  // request: exec.go maybeRefreshCreds; a one-shot CLI retries the request itself).
  StatusOr<HttpResult> Get(std::string_view target) {
    DRAGUARD_ASSIGN_OR_RETURN(HttpResult result, GetOnce(target));
    if (result.status == 401 && token != nullptr && token->Refreshable()) {
      return GetOnce(target);
    }
    return result;
  }

  StatusOr<HttpResult> GetOnce(std::string_view target) {
    if (cancelled.load()) return CancelledError("API connection cancelled");
    for (int attempt = 0;; ++attempt) {
      const bool reused = connected;
      DRAGUARD_RETURN_IF_ERROR(Send(target));
      http::response_parser<http::string_body> parser;
      parser.body_limit(options.max_body_bytes);
      parser.header_limit(static_cast<uint32_t>(options.max_header_bytes));
      beast::error_code ec = Run(
          [&](auto handler) { http::async_read(stream, buffer, parser, std::move(handler)); });
      if (ec) {
        const bool nothing_read = !parser.got_some();
        Status failed = TransportError(ec, "reading from");
        if (reused && nothing_read && attempt == 0 && !cancelled.load()) continue;
        return failed;
      }
      Lowest().expires_never();
      HttpResult result{parser.get().result_int(), std::move(parser.get().body())};
      AfterResponse(result.status, parser.get().keep_alive());
      return result;
    }
  }

  StatusOr<HttpResult> Stream(std::string_view target, std::chrono::milliseconds idle_timeout,
                              const LineHandler& on_line) {
    if (cancelled.load()) return CancelledError("API connection cancelled");
    DRAGUARD_RETURN_IF_ERROR(Send(target));
    http::response_parser<http::buffer_body> parser;
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    parser.header_limit(static_cast<uint32_t>(options.max_header_bytes));
    Lowest().expires_after(options.request_timeout);
    beast::error_code ec = Run([&](auto handler) {
      http::async_read_header(stream, buffer, parser, std::move(handler));
    });
    if (ec) return TransportError(ec, "reading from");
    const unsigned status = parser.get().result_int();
    HttpResult result{status, std::string()};
    LineSplitter splitter(options.max_line_bytes);
    char chunk[16 * 1024];
    while (!parser.is_done()) {
      parser.get().body().data = chunk;
      parser.get().body().size = sizeof chunk;
      Lowest().expires_after(status == 200 ? idle_timeout : options.request_timeout);
      ec = Run([&](auto handler) {
        http::async_read_some(stream, buffer, parser, std::move(handler));
      });
      if (ec == http::error::need_buffer) ec = {};
      if (ec) return TransportError(ec, "watch stream from");
      const std::string_view got(chunk, sizeof chunk - parser.get().body().size);
      if (status != 200) {
        result.body.append(got);
        if (result.body.size() > options.max_body_bytes) {
          return TransportError(http::error::body_limit, "reading from");
        }
        continue;
      }
      if (Status s = splitter.Feed(got, on_line); !s.ok()) {
        Close();
        return s;
      }
    }
    Lowest().expires_never();
    AfterResponse(status, parser.get().keep_alive());
    return result;
  }
};

ApiConnection::ApiConnection(ClusterConfig config, std::shared_ptr<BearerToken> token,
                             ApiClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(token), std::move(options))) {}

ApiConnection::~ApiConnection() = default;

StatusOr<HttpResult> ApiConnection::Get(std::string_view target) { return impl_->Get(target); }

StatusOr<HttpResult> ApiConnection::Stream(std::string_view target,
                                           std::chrono::milliseconds idle_timeout,
                                           const LineHandler& on_line) {
  return impl_->Stream(target, idle_timeout, on_line);
}

void ApiConnection::Cancel() {
  impl_->cancelled.store(true);
  Impl* impl = impl_.get();
  // Runs on the owning thread inside its next (or current) io_context::run().
  net::post(impl->ioc, [impl] {
    beast::error_code ignored;
    if (impl->tls || impl->plain) impl->Lowest().socket().close(ignored);
  });
}

}  // namespace draguard::webhook::kube
