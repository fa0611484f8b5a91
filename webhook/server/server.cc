// The listener and the server's life cycle. Each I/O thread runs its own io_context (one
// thread per context: no strands, and no wake-ups between threads, which cost a futex call
// per request or so with a shared context). The acceptor, the timers and the signals live on
// a control context with a thread of its own, so that a long check on an I/O thread delays
// neither new connections nor a drain. Accepted sockets go to the I/O threads in turn, each
// as an HttpSession over a TlsStream (OpenSSL on the socket itself, internal/tls_stream.h)
// with the certificate current at accept time. Sockets are bound to their I/O thread's
// io_context executor type, not Asio's type-erased any_io_executor, which every completion
// would go through.
// A steady timer polls the certificate files; a signal_set (when enabled) turns
// SIGTERM/SIGINT into Shutdown(). Shutdown closes the acceptor and the idle connections and
// lets go of the I/O threads' work guards: each io_context then runs out of work when its
// last in-flight request is answered, or all are stopped by the drain deadline.
#include "webhook/server/server.h"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "webhook/server/internal/http_session.h"
#include "policy/common/status_macros.h"
#include "policy/common/thread_priority.h"
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
// What async_accept(io_context&) yields: a socket bound to that context's executor type.
using Socket = tcp::socket::rebind_executor<net::io_context::executor_type>::other;
static_assert(std::is_same_v<Socket, server_internal::TlsStream::Socket>);
using TlsSession = HttpSession<server_internal::TlsStream>;
using ProbeSession = HttpSession<Socket>;

// `flag` names the option in errors ("listen", "probe-listen").
StatusOr<tcp::endpoint> ParseListen(const std::string& listen, const std::string& flag) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return InvalidArgumentError("--" + flag + " wants [host]:port");
  std::string host = listen.substr(0, colon);
  std::string port_text = listen.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535) {
    return InvalidArgumentError("--" + flag + ": bad port \"" + port_text + "\"");
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) host = "0.0.0.0";
  boost::system::error_code error;
  net::ip::address address = net::ip::make_address(host, error);
  if (error) return InvalidArgumentError("--" + flag + ": bad address \"" + host + "\"");
  return tcp::endpoint(address, static_cast<uint16_t>(port));
}

void DefaultLog(std::string_view line) {
  std::fprintf(stderr, "draguard serve: %.*s\n", static_cast<int>(line.size()), line.data());
}

// One I/O thread's event loop. The work guard keeps it running while it has no connection.
struct Worker {
  net::io_context ioc{1};  // run by exactly one thread
  std::optional<net::executor_work_guard<net::io_context::executor_type>> guard{
      ioc.get_executor()};
};

size_t FileLimitValue(rlim_t value) {
  return value == RLIM_INFINITY ? SIZE_MAX : static_cast<size_t>(value);
}

// The open-file limit before and after RaiseFileLimit; 0 when it cannot be read.
struct FileLimit {
  size_t before = 0;
  size_t now = 0;
};

// Raises the soft open-file limit to the hard one (a connection is a descriptor, and the
// usual soft limit of 1,024 would cap connections far below what the process may hold).
FileLimit RaiseFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
  FileLimit result{.before = FileLimitValue(limit.rlim_cur), .now = 0};
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  result.now = FileLimitValue(limit.rlim_cur);
  return result;
}

std::string FileLimitText(size_t value) {
  return value == SIZE_MAX ? "unlimited" : std::to_string(value);
}

// One start-up line: the open-file limit (and whether it was raised) and the connection
// limit that follows from it.
std::string ConnectionLimitLine(const FileLimit& files, size_t requested, size_t limit) {
  std::string line = "connection limit " + std::to_string(limit);
  if (files.now == 0) return line + " (open-file limit unknown)";
  line += " (open-file limit " + FileLimitText(files.now);
  if (files.before != files.now) line += ", raised from " + FileLimitText(files.before);
  line += ")";
  if (limit < requested) {
    line += "; --max-connections " + std::to_string(requested) +
            " is above what the open-file limit allows: raise the hard limit (ulimit -Hn)";
  }
  return line;
}

}  // namespace

size_t ConnectionLimit(size_t requested, size_t file_limit) {
  // Descriptors besides connections: the listener, inventory and certificate files, the API
  // client's connections, stdio, the allocator's and OpenSSL's files.
  constexpr size_t kReserved = 64;
  if (file_limit == 0) return requested;
  return std::min(requested, file_limit > 2 * kReserved ? file_limit - kReserved : kReserved);
}

namespace {

unsigned ThreadCount(unsigned requested) {
  return std::max(1u, requested != 0 ? requested : std::thread::hardware_concurrency());
}

}  // namespace

class Server::Impl {
 public:
  Impl(ServerOptions options, AdmissionChecker& checker, ServerHooks hooks)
      : options_(std::move(options)),
        hooks_(std::move(hooks)),
        router_(checker, options_.handler, metrics_, hooks_, state_),
        probe_router_(checker, options_.handler, metrics_, hooks_, state_, /*probes_only=*/true),
        bodies_(options_.max_inflight_body_bytes),
        context_{router_, options_, metrics_, state_.draining, &bodies_, &registry_},
        probe_context_{probe_router_, options_, metrics_, state_.draining, &bodies_, &registry_},
        reloader_(options_.tls_cert_file, options_.tls_private_key_file, options_.client_ca_file),
        workers_(MakeWorkers(ThreadCount(options_.threads))),
        acceptor_(control_),
        probe_acceptor_(control_),
        accept_retry_(control_),
        probe_accept_retry_(control_),
        reload_timer_(control_),
        drain_timer_(control_),
        drain_poll_(control_),
        signals_(control_) {
    if (!hooks_.log) hooks_.log = DefaultLog;
  }

  Status Start();
  uint16_t port() const { return port_; }
  uint16_t probe_port() const { return probe_port_; }
  void Shutdown();
  void Wait() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  static std::vector<std::unique_ptr<Worker>> MakeWorkers(unsigned count) {
    std::vector<std::unique_ptr<Worker>> workers;
    for (unsigned i = 0; i < count; ++i) workers.push_back(std::make_unique<Worker>());
    return workers;
  }
  void StopAll() {
    control_.stop();
    for (auto& worker : workers_) worker->ioc.stop();
  }

  // Opens `acceptor` on `endpoint`; its port into `port`.
  Status Bind(tcp::acceptor& acceptor, const tcp::endpoint& endpoint, const std::string& listen,
              uint16_t& port);
  // The next I/O thread, in turn.
  net::io_context& NextWorker();
  // False (and the socket closed) when the connection limit leaves no room for it.
  bool Admit(Socket& socket);
  void DoAccept();
  void OnAccept(beast::error_code ec, Socket socket);
  void DoAcceptProbe();
  template <class Retry>
  void AcceptLater(net::steady_timer& timer, Retry retry);
  void ScheduleReload();
  void BeginDrain();
  void WatchDrain();

  ServerOptions options_;
  ServerHooks hooks_;
  Metrics metrics_;
  RouterState state_;
  Router router_;
  Router probe_router_;  // /healthz, /readyz and /metrics only, on the plain probe port
  server_internal::BodyBudget bodies_;
  SessionRegistry registry_;
  SessionContext context_;
  SessionContext probe_context_;
  CertReloader reloader_;
  net::io_context control_{1};  // acceptor, timers and signals; runs out of work after a drain
  std::vector<std::unique_ptr<Worker>> workers_;
  size_t next_worker_ = 0;  // round robin of accepted connections (acceptor's thread only)
  tcp::acceptor acceptor_;
  tcp::acceptor probe_acceptor_;  // open only with options_.probe_listen
  net::steady_timer accept_retry_;
  net::steady_timer probe_accept_retry_;
  net::steady_timer reload_timer_;
  net::steady_timer drain_timer_;
  net::steady_timer drain_poll_;
  net::signal_set signals_;
  std::vector<std::thread> threads_;
  uint16_t port_ = 0;
  uint16_t probe_port_ = 0;
  size_t max_connections_ = 0;  // options_.max_connections within the open-file limit
  std::atomic<bool> shutdown_requested_{false};
};

Status Server::Impl::Bind(tcp::acceptor& acceptor, const tcp::endpoint& endpoint,
                          const std::string& listen, uint16_t& port) {
  beast::error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return UnavailableError("cannot listen on " + listen + ": " + ec.message());
  port = acceptor.local_endpoint(ec).port();
  return OkStatus();
}

Status Server::Impl::Start() {
  Status loaded = reloader_.Load();
  if (!loaded.ok()) return loaded;
  state_.cert_not_after_unix = reloader_.Current().not_after_unix;
  state_.cert_loaded = true;
  StatusOr<tcp::endpoint> endpoint = ParseListen(options_.listen, "listen");
  if (!endpoint.ok()) return endpoint.status();
  const FileLimit files = RaiseFileLimit();
  max_connections_ = ConnectionLimit(options_.max_connections, files.now);
  hooks_.log(ConnectionLimitLine(files, options_.max_connections, max_connections_));
  DRAGUARD_RETURN_IF_ERROR(Bind(acceptor_, *endpoint, options_.listen, port_));
  if (!options_.probe_listen.empty()) {
    StatusOr<tcp::endpoint> probe = ParseListen(options_.probe_listen, "probe-listen");
    if (!probe.ok()) return probe.status();
    DRAGUARD_RETURN_IF_ERROR(Bind(probe_acceptor_, *probe, options_.probe_listen, probe_port_));
    DoAcceptProbe();
  }
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
  threads_.emplace_back([this] { control_.run(); });
  for (auto& worker : workers_) {
    threads_.emplace_back([&ioc = worker->ioc, slice = options_.io_thread_slice] {
      if (slice.count() > 0) SetCurrentThreadSlice(slice);  // best effort
      ioc.run();
    });
  }
  return OkStatus();
}

// An accept failed (out of descriptors while evicted connections are still closing, say):
// accepting again at once would spin, so wait a moment.
template <class Retry>
void Server::Impl::AcceptLater(net::steady_timer& timer, Retry retry) {
  timer.expires_after(std::chrono::milliseconds(50));
  timer.async_wait([retry](beast::error_code ec) {
    if (!ec) retry();
  });
}

net::io_context& Server::Impl::NextWorker() {
  net::io_context& target = workers_[next_worker_]->ioc;
  next_worker_ = (next_worker_ + 1) % workers_.size();
  return target;
}

bool Server::Impl::Admit(Socket& socket) {
  beast::error_code ec;
  if (static_cast<size_t>(metrics_.active_connections()) >= max_connections_) {
    // At the limit, the oldest connection that has not completed a request makes room (a
    // flood of idle or half-sent connections cannot lock out the API server); only when
    // every connection has completed one is the new connection refused.
    if (std::shared_ptr<server_internal::SessionBase> victim = registry_.TakeEvictable()) {
      victim->Evict();
      metrics_.ConnectionEvicted();
    } else {
      metrics_.ConnectionRejected();
      socket.close(ec);
      return false;
    }
  }
  // As nginx's tcp_nodelay: an answer is one small write, which Nagle's algorithm would
  // hold back while the peer delays its ACK of the previous one.
  socket.set_option(tcp::no_delay(true), ec);
  return true;
}

void Server::Impl::DoAccept() {
  acceptor_.async_accept(NextWorker(), [this](beast::error_code ec, Socket socket) {
    OnAccept(ec, std::move(socket));
  });
}

void Server::Impl::OnAccept(beast::error_code ec, Socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) return AcceptLater(accept_retry_, [this] { DoAccept(); });
  if (Admit(socket)) {
    TlsContext tls = reloader_.Current();
    auto session = std::make_shared<TlsSession>(context_, std::move(socket),
                                                tls.context->native_handle());
    // The session keeps its context alive even after a rotation replaces it.
    session->Hold(tls.context);
    session->Run();
  }
  DoAccept();
}

void Server::Impl::DoAcceptProbe() {
  probe_acceptor_.async_accept(NextWorker(), [this](beast::error_code ec, Socket socket) {
    if (ec == net::error::operation_aborted || !probe_acceptor_.is_open()) return;
    if (ec) return AcceptLater(probe_accept_retry_, [this] { DoAcceptProbe(); });
    if (Admit(socket)) std::make_shared<ProbeSession>(probe_context_, std::move(socket))->Run();
    DoAcceptProbe();
  });
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
      hooks_.log("certificate reloaded from " + options_.tls_cert_file +
                 (options_.client_ca_file.empty()
                      ? std::string()
                      : " (client CA from " + options_.client_ca_file + ")"));
    }
    ScheduleReload();
  });
}

void Server::Impl::BeginDrain() {
  beast::error_code ec;
  acceptor_.close(ec);
  probe_acceptor_.close(ec);
  accept_retry_.cancel();
  probe_accept_retry_.cancel();
  reload_timer_.cancel();
  signals_.cancel(ec);
  registry_.StopAll();
  for (auto& worker : workers_) worker->guard.reset();
  WatchDrain();
  drain_timer_.expires_after(options_.drain_timeout);
  drain_timer_.async_wait([this](beast::error_code error) {
    if (error) return;
    hooks_.log("drain timeout reached; closing remaining connections");
    StopAll();
  });
}

void Server::Impl::Shutdown() {
  if (shutdown_requested_.exchange(true)) return;
  state_.draining = true;
  net::post(control_, [this] { BeginDrain(); });
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
uint16_t Server::probe_port() const { return impl_->probe_port(); }
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
