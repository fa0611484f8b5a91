// The listener and the server's life cycle. Accepted sockets each get a strand and an
// HttpSession over ssl::stream<tcp_stream> with the certificate current at accept time. A
// steady timer polls the certificate files; a signal_set (when enabled) turns SIGTERM/SIGINT
// into Shutdown(). Shutdown closes the acceptor and the idle connections; the io_context then
// runs out of work when the last in-flight request is answered, or is stopped by the drain
// deadline.
#include "webhook/server/server.h"

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "webhook/server/internal/http_session.h"
#include "policy/common/status_macros.h"
#include "webhook/server/router.h"
#include "webhook/server/tls_context.h"

namespace draguard::webhook {
namespace {

using server_internal::HttpSession;
using server_internal::SessionContext;
using server_internal::SessionRegistry;
using tcp = boost::asio::ip::tcp;
namespace net = boost::asio;
namespace beast = boost::beast;
using TlsSession = HttpSession<net::ssl::stream<beast::tcp_stream>>;

StatusOr<tcp::endpoint> ParseListen(const std::string& listen) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return InvalidArgumentError("--listen wants [host]:port");
  std::string host = listen.substr(0, colon);
  std::string port_text = listen.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535) {
    return InvalidArgumentError("--listen: bad port \"" + port_text + "\"");
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) host = "0.0.0.0";
  boost::system::error_code error;
  net::ip::address address = net::ip::make_address(host, error);
  if (error) return InvalidArgumentError("--listen: bad address \"" + host + "\"");
  return tcp::endpoint(address, static_cast<uint16_t>(port));
}

void DefaultLog(std::string_view line) {
  std::fprintf(stderr, "draguard serve: %.*s\n", static_cast<int>(line.size()), line.data());
}

}  // namespace

class Server::Impl {
 public:
  Impl(ServerOptions options, AdmissionChecker& checker, ServerHooks hooks)
      : options_(std::move(options)),
        hooks_(std::move(hooks)),
        router_(checker, options_.handler, metrics_, hooks_, state_),
        context_{router_, options_, metrics_, state_.draining},
        reloader_(options_.tls_cert_file, options_.tls_private_key_file),
        acceptor_(ioc_),
        reload_timer_(ioc_),
        drain_timer_(ioc_),
        drain_poll_(ioc_),
        signals_(ioc_) {
    if (!hooks_.log) hooks_.log = DefaultLog;
  }

  Status Start();
  uint16_t port() const { return port_; }
  void Shutdown();
  void Wait() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  Status Bind(const tcp::endpoint& endpoint);
  void DoAccept();
  void OnAccept(beast::error_code ec, tcp::socket socket);
  void ScheduleReload();
  void BeginDrain();
  void WatchDrain();

  ServerOptions options_;
  ServerHooks hooks_;
  Metrics metrics_;
  RouterState state_;
  Router router_;
  SessionContext context_;
  SessionRegistry registry_;
  CertReloader reloader_;
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer reload_timer_;
  net::steady_timer drain_timer_;
  net::steady_timer drain_poll_;
  net::signal_set signals_;
  std::vector<std::thread> threads_;
  uint16_t port_ = 0;
  std::atomic<bool> shutdown_requested_{false};
};

Status Server::Impl::Bind(const tcp::endpoint& endpoint) {
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return UnavailableError("cannot listen on " + options_.listen + ": " + ec.message());
  port_ = acceptor_.local_endpoint(ec).port();
  return OkStatus();
}

Status Server::Impl::Start() {
  Status loaded = reloader_.Load();
  if (!loaded.ok()) return loaded;
  state_.cert_not_after_unix = reloader_.Current().not_after_unix;
  state_.cert_loaded = true;
  StatusOr<tcp::endpoint> endpoint = ParseListen(options_.listen);
  if (!endpoint.ok()) return endpoint.status();
  DRAGUARD_RETURN_IF_ERROR(Bind(*endpoint));
  DoAccept();
  ScheduleReload();
  if (options_.handle_signals) {
    beast::error_code ec;
    signals_.add(SIGTERM, ec);
    signals_.add(SIGINT, ec);
    signals_.async_wait([this](beast::error_code error, int) {
      if (!error) Shutdown();
    });
  }
  unsigned threads = options_.threads != 0 ? options_.threads : std::thread::hardware_concurrency();
  for (unsigned i = 0; i < std::max(1u, threads); ++i) {
    threads_.emplace_back([this] { ioc_.run(); });
  }
  return OkStatus();
}

void Server::Impl::DoAccept() {
  acceptor_.async_accept(net::make_strand(ioc_),
                         [this](beast::error_code ec, tcp::socket socket) {
                           OnAccept(ec, std::move(socket));
                         });
}

void Server::Impl::OnAccept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (!ec) {
    if (static_cast<size_t>(metrics_.active_connections()) >= options_.max_connections) {
      metrics_.ConnectionRejected();
      socket.close(ec);
    } else {
      TlsContext tls = reloader_.Current();
      auto session = std::make_shared<TlsSession>(context_, std::move(socket), *tls.context);
      // The session keeps its context alive even after a rotation replaces it.
      session->Hold(tls.context);
      registry_.Add(session);
      session->Run();
    }
  }
  DoAccept();
}

void Server::Impl::ScheduleReload() {
  reload_timer_.expires_after(options_.cert_poll_interval);
  reload_timer_.async_wait([this](beast::error_code ec) {
    if (ec || shutdown_requested_) return;
    StatusOr<bool> reloaded = reloader_.ReloadIfChanged();
    if (!reloaded.ok()) {
      metrics_.CertReloaded(false);
      hooks_.log("certificate reload failed, keeping the previous one: " +
                 reloaded.status().message());
    } else if (*reloaded) {
      metrics_.CertReloaded(true);
      state_.cert_not_after_unix = reloader_.Current().not_after_unix;
      hooks_.log("certificate reloaded from " + options_.tls_cert_file);
    }
    ScheduleReload();
  });
}

void Server::Impl::BeginDrain() {
  beast::error_code ec;
  acceptor_.close(ec);
  reload_timer_.cancel();
  signals_.cancel(ec);
  registry_.StopAll();
  WatchDrain();
  drain_timer_.expires_after(options_.drain_timeout);
  drain_timer_.async_wait([this](beast::error_code error) {
    if (error) return;
    hooks_.log("drain timeout reached; closing remaining connections");
    ioc_.stop();
  });
}

void Server::Impl::Shutdown() {
  if (shutdown_requested_.exchange(true)) return;
  state_.draining = true;
  net::post(ioc_, [this] { BeginDrain(); });
}

// Keeps the drain timer from holding the io_context alive once the sessions are gone: every
// session's destructor runs on an I/O thread; when the last one has gone and the acceptor is
// closed, the remaining work is the drain timer alone, which this watcher cancels.
void Server::Impl::WatchDrain() {
  drain_poll_.expires_after(std::chrono::milliseconds(20));
  drain_poll_.async_wait([this](beast::error_code ec) {
    if (ec) return;
    if (metrics_.active_connections() == 0) {
      drain_timer_.cancel();
      return;
    }
    WatchDrain();
  });
}

Server::Server(ServerOptions options, AdmissionChecker& checker, ServerHooks hooks)
    : impl_(std::make_unique<Impl>(std::move(options), checker, std::move(hooks))) {}

Server::~Server() {
  impl_->Shutdown();
  impl_->Wait();
}

Status Server::Start() { return impl_->Start(); }
uint16_t Server::port() const { return impl_->port(); }
void Server::Shutdown() { impl_->Shutdown(); }
void Server::Wait() { impl_->Wait(); }

Status RunServer(const ServerOptions& options, AdmissionChecker& checker, ServerHooks hooks) {
  ServerOptions with_signals = options;
  with_signals.handle_signals = true;
  Server server(std::move(with_signals), checker, std::move(hooks));
  DRAGUARD_RETURN_IF_ERROR(server.Start());
  server.Wait();
  return OkStatus();
}

}  // namespace draguard::webhook
