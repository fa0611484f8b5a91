// HttpSession<Stream>: one client connection, after Beast's async-ssl example
// (example/http/server/async-ssl/http_server_async_ssl.cpp, its `session`). Stream is a
// TlsStream (tls_stream.h: the server's connections), a plain socket (the probe port) or
// Beast's in-memory test stream (the session tests, the HTTP fuzz target).
// Internal: includes Beast; only server.cc and the session tests include it.
//
// The chain is Run -> [handshake] -> WaitForRequest -> ReadRequest -> Respond -> Write -> back
// to WaitForRequest (keep-alive, pipelining: bytes already buffered are read at once) or Close.
// Each step sets its own deadline: the handshake, the idle wait for a next request's first
// byte, the whole request once it has started (so a client dribbling one header byte a second
// is cut off: slowloris), and the response write; one timer per connection enforces them
// (ExpireAfter), not one per read and write. A request found whole in the bytes of the
// read that waited for it (the usual case: a client writes a request at once) is parsed from
// the buffer without Beast's read operations, which would complete through the event loop
// even with nothing to read; the read deadline is then not needed and not set. A fresh RequestParser (request_parser.h) per message applies
// the header and body limits; a body over the limit is answered 413, oversized headers 431,
// unparseable requests 400, a body that does not fit the bodies in flight of all connections
// (BodyBudget) 503, a transfer coding other than plain chunked 501, and the connection is then
// closed.
//
// Draining: Stop() closes the connection if it is idle; otherwise the request in flight
// completes and its response carries "Connection: close".
//
// Errors travel as error_code; nothing here throws except std::bad_alloc.
#ifndef DRAGUARD_WEBHOOK_SERVER_INTERNAL_HTTP_SESSION_H_
#define DRAGUARD_WEBHOOK_SERVER_INTERNAL_HTTP_SESSION_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <charconv>
#include <chrono>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <openssl/ssl.h>

#include "webhook/server/internal/request_parser.h"
#include "webhook/server/internal/tls_stream.h"
#include "webhook/server/metrics.h"
#include "webhook/server/router.h"
#include "webhook/server/server_options.h"

namespace draguard::webhook::server_internal {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace net = boost::asio;

class SessionRegistry;

// The bytes of request bodies read or handled at once, over every connection. Why: each
// connection may send a body of up to max_body_bytes, so without a shared limit a client with
// many connections holds connections × 7 MiB of the server's memory. A body is read only
// once its length (or, for a chunked body, max_body_bytes) is reserved here. Thread-safe.
class BodyBudget {
 public:
  explicit BodyBudget(size_t limit) : limit_(limit) {}

  // Reserves `bytes`; false, reserving nothing, when that would exceed the limit.
  bool TryReserve(size_t bytes) {
    size_t used = used_.load(std::memory_order_relaxed);
    do {
      if (bytes > limit_ || used > limit_ - bytes) return false;
    } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
  }
  void Release(size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  size_t used() const { return used_.load(std::memory_order_relaxed); }

 private:
  const size_t limit_;
  std::atomic<size_t> used_{0};
};

// What every session needs; owned by the server and outliving every session.
struct SessionContext {
  const Router& router;
  const ServerOptions& options;
  Metrics& metrics;
  const std::atomic<bool>& draining;
  // Null: bodies are limited per request only.
  BodyBudget* bodies = nullptr;
  // Null: sessions are not tracked (no drain of idle sessions, no eviction).
  SessionRegistry* registry = nullptr;
};

class SessionBase {
 public:
  virtual ~SessionBase() = default;
  // Asks the session to finish: closes it now if idle, else after the current response.
  // Thread-safe.
  virtual void Stop() = 0;
  // Closes the connection at once, whatever it is doing (to make room for a new one).
  // Thread-safe.
  virtual void Evict() = 0;
};

// The live sessions, by phase, in the order they were accepted: so that a drain can stop them
// all, and so that, at the connection limit, the server can close the oldest connection that
// has not completed a request (pre-handshake first) instead of refusing a new one. A client
// that opens connections and sends nothing, or half a request, then cannot lock out the API
// server, whose connections complete requests. Thread-safe; every operation is O(1) but
// StopAll.
class SessionRegistry {
 public:
  enum class Phase : uint8_t { kHandshake, kAwaitingRequest, kServed, kGone };
  struct Handle;
  struct Entry {
    std::weak_ptr<SessionBase> session;
    Handle* handle;
  };
  // A session's place in the registry; owned by the session, changed only by the registry.
  struct Handle {
    Phase phase = Phase::kGone;
    std::list<Entry>::iterator it;
  };

  void Add(const std::shared_ptr<SessionBase>& session, Phase phase, Handle& handle) {
    std::lock_guard lock(mu_);
    List& list = lists_[static_cast<size_t>(phase)];
    list.push_back(Entry{session, &handle});
    handle.phase = phase;
    handle.it = std::prev(list.end());
  }
  // Moves a session to a later phase (no-op once it is gone or already there).
  void Advance(Handle& handle, Phase to) {
    std::lock_guard lock(mu_);
    if (handle.phase == Phase::kGone || handle.phase == to) return;
    List& from = lists_[static_cast<size_t>(handle.phase)];
    List& into = lists_[static_cast<size_t>(to)];
    into.splice(into.end(), from, handle.it);
    handle.phase = to;
  }
  void Remove(Handle& handle) {
    std::lock_guard lock(mu_);
    if (handle.phase == Phase::kGone) return;
    lists_[static_cast<size_t>(handle.phase)].erase(handle.it);
    handle.phase = Phase::kGone;
  }
  // The oldest session still in its handshake, else the oldest that has not completed a
  // request, taken out of the registry; null when every session has completed one.
  std::shared_ptr<SessionBase> TakeEvictable() {
    std::lock_guard lock(mu_);
    for (Phase phase : {Phase::kHandshake, Phase::kAwaitingRequest}) {
      List& list = lists_[static_cast<size_t>(phase)];
      while (!list.empty()) {
        Entry entry = list.front();
        list.pop_front();
        entry.handle->phase = Phase::kGone;
        // Expired: its destructor waits for this lock and will find it gone.
        if (std::shared_ptr<SessionBase> session = entry.session.lock()) return session;
      }
    }
    return nullptr;
  }
  void StopAll() {
    std::vector<std::shared_ptr<SessionBase>> sessions;
    {
      std::lock_guard lock(mu_);
      for (const List& list : lists_) {
        for (const Entry& entry : list) {
          if (auto s = entry.session.lock()) sessions.push_back(std::move(s));
        }
      }
    }
    for (auto& s : sessions) s->Stop();
  }

 private:
  using List = std::list<Entry>;
  mutable std::mutex mu_;
  std::array<List, 3> lists_;  // by Phase, oldest first
};

// Writes an HTTP/1.x response (status line, Content-Type, Content-Length, Connection when it
// differs from the version's default, body) into `out`, replacing its contents. One buffer, so
// that a TLS stream sends it as one record and one write: Beast's serializer hands a head and
// a body that Asio's TLS stream would encrypt and send apart.
inline void WriteResponse(const RouterResponse& r, unsigned version, bool keep_alive,
                          std::string& out) {
  const std::string_view reason(http::obsolete_reason(static_cast<http::status>(r.status)));
  char status[16];
  const auto [status_end, status_ec] = std::to_chars(status, status + sizeof status, r.status);
  char length[24];
  const auto [length_end, length_ec] =
      std::to_chars(length, length + sizeof length, r.body.size());
  out.clear();
  out += version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  out.append(status, status_end);
  out += ' ';
  out += reason;
  out += "\r\nContent-Type: ";
  out += r.content_type;
  out += "\r\nContent-Length: ";
  out.append(length, length_end);
  if (version == 10 && keep_alive) out += "\r\nConnection: keep-alive";
  if (version != 10 && !keep_alive) out += "\r\nConnection: close";
  out += "\r\n\r\n";
  out += r.body;
}

template <class T>
struct IsSocket : std::false_type {};
template <class Protocol, class Executor>
struct IsSocket<net::basic_stream_socket<Protocol, Executor>> : std::true_type {};

template <class Stream>
class HttpSession : public SessionBase,
                    public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  template <class... Args>
  explicit HttpSession(const SessionContext& context, Args&&... args)
      : context_(context), stream_(std::forward<Args>(args)...) {
    context_.metrics.ConnectionOpened();
  }
  ~HttpSession() override {
    ReleaseBody();
    if (context_.registry != nullptr) context_.registry->Remove(handle_);
    context_.metrics.ConnectionClosed();
  }

  HttpSession(const HttpSession&) = delete;
  HttpSession& operator=(const HttpSession&) = delete;

  // Starts the session on the stream's executor.
  void Run() {
    if (context_.registry != nullptr) {
      context_.registry->Add(this->shared_from_this(),
                             kSsl ? SessionRegistry::Phase::kHandshake
                                  : SessionRegistry::Phase::kAwaitingRequest,
                             handle_);
    }
    net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
      if constexpr (kSsl) {
        self->DoHandshake();
      } else {
        self->WaitForRequest();
      }
    });
  }

  void Stop() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->stopping_ = true;
      if (self->idle_) self->CancelIo();
    });
  }

  void Evict() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->stopping_ = true;
      self->CloseSocket();
    });
  }

  Stream& stream() { return stream_; }
  // Keeps `resource` (the session's TLS context) alive as long as the session.
  void Hold(std::shared_ptr<const void> resource) { held_ = std::move(resource); }

 private:
  static constexpr bool kSsl = std::is_same_v<Stream, TlsStream>;
  // Sockets (TLS or the plain probe port) have timers; the in-memory test stream has none.
  // The socket is Asio's own (no beast::tcp_stream: its per-operation timeouts are not used,
  // and its wrapping of every read and write cost instructions on each).
  static constexpr bool kTimed = IsSocket<std::remove_cvref_t<decltype(beast::get_lowest_layer(
      std::declval<Stream&>()))>>::value;

  // Closes the connection's descriptor at once; pending operations complete with
  // operation_aborted.
  void CloseSocket() {
    if constexpr (kTimed) {
      beast::error_code ignored;
      beast::get_lowest_layer(stream_).close(ignored);
    } else {
      beast::get_lowest_layer(stream_).close();
    }
  }

  void Advance(SessionRegistry::Phase phase) {
    if (context_.registry != nullptr) context_.registry->Advance(handle_, phase);
  }

  // The session's one deadline: what the current step may take from now. The connection is
  // closed when it passes (its pending operations then complete with operation_aborted).
  // Moving the deadline later, as every request does, only stores it: one timer wait per
  // connection, armed for the earliest deadline set and, when it fires early, re-armed for
  // the current one. Beast's per-operation timeouts (basic_stream::expires_after) armed and
  // cancelled a timer wait around every read and write, several per request.
  void ExpireAfter(std::chrono::milliseconds timeout) {
    if constexpr (kTimed) {
      deadline_ = std::chrono::steady_clock::now() + timeout;
      if (!timer_armed_ || deadline_ < timer_.expiry()) ArmTimer();
    }
  }
  void ArmTimer() {
    if constexpr (kTimed) {
      timer_.expires_at(deadline_);  // a wait armed before completes as a stale one
      timer_armed_ = true;
      const uint64_t generation = ++timer_generation_;
      // Weak: a session whose I/O is over goes at once, its timer's wait cancelled with it.
      timer_.async_wait([weak = this->weak_from_this(), generation](beast::error_code ec) {
        if (auto self = weak.lock()) self->OnTimer(generation, ec);
      });
    }
  }
  void OnTimer(uint64_t generation, beast::error_code ec) {
    if constexpr (kTimed) {
      if (generation != timer_generation_) return;  // replaced by a wait for an earlier time
      timer_armed_ = false;
      if (ec) return;
      if (std::chrono::steady_clock::now() < deadline_) return ArmTimer();
      CloseSocket();
    }
  }
  void CancelIo() {
    if constexpr (kSsl) {
      beast::error_code ignored;
      beast::get_lowest_layer(stream_).cancel(ignored);
    } else {
      CloseSocket();
    }
  }

  void DoHandshake() {
    ExpireAfter(context_.options.handshake_timeout);
    stream_.async_handshake([self = this->shared_from_this()](beast::error_code ec) {
      self->OnHandshake(ec);
    });
  }
  void OnHandshake(beast::error_code ec) {
    if (ec) {
      if (!stopping_) context_.metrics.HandshakeFailed();
      return;  // the stream closes as the session goes away
    }
    Advance(SessionRegistry::Phase::kAwaitingRequest);
    WaitForRequest();
  }

  // Waits for the first byte of the next request, unless bytes of it (pipelining) are already
  // buffered: with the idle timeout once a request was served, else with the (shorter)
  // first-request timeout.
  void WaitForRequest() {
    if (buffer_.size() > 0) return ReadRequest();
    if (stopping_ || context_.draining.load()) return Close();
    idle_ = true;
    ExpireAfter(served_ ? context_.options.idle_timeout : context_.options.first_request_timeout);
    stream_.async_read_some(buffer_.prepare(4096),
                            [self = this->shared_from_this()](beast::error_code ec, size_t n) {
                              self->idle_ = false;
                              self->buffer_.commit(n);
                              if (ec || self->stopping_) return self->Close();
                              self->ReadRequest();
                            });
  }

  // The header first, then (once its body fits the shared budget) the body; the read
  // timeout covers both. Each part is first parsed from the bytes already buffered
  // (ParseBuffered); Beast's read operations, on the same parser, read what is missing.
  void ReadRequest() {
    parser_.emplace(request_);
    parser_->header_limit(static_cast<uint32_t>(context_.options.max_header_bytes));
    parser_->body_limit(context_.options.handler.max_body_bytes);
    read_deadline_set_ = false;
    const beast::error_code parsed = ParseBuffered(/*whole_message=*/false);
    if (parsed != http::error::need_more) return OnHeader(parsed);
    SetReadDeadline();
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](beast::error_code ec, size_t) {
                              self->OnHeader(ec);
                            });
  }

  void OnHeader(beast::error_code header_ec) {
    if (header_ec) return OnRead(header_ec);
    if (!OnlyChunkedTransferCoding(request_)) {
      return Respond(PlainText(501, "transfer coding not implemented: only chunked\n"), false);
    }
    if (!ReserveBody()) {
      context_.metrics.BodyRefused();
      return Respond(PlainText(503, "server busy: too many request bodies in flight\n"), false);
    }
    const beast::error_code parsed = ParseBuffered(/*whole_message=*/true);
    if (parsed != http::error::need_more) return OnRead(parsed);
    SetReadDeadline();
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, size_t) {
                       self->OnRead(ec);
                     });
  }

  // Parses the buffered bytes into parser_ up to the end of the header (or, with
  // `whole_message`, of the message), as Beast's read operations do (http/impl/read.hpp:
  // put, consume, the same eager setting), but without their I/O: a request usually arrives
  // whole in the read that waited for it, and Beast's operations would then still complete
  // through the event loop (a post each). need_more: the buffered bytes do not hold that
  // much; the caller continues with Beast's operation on the same parser, which parses the
  // rest as it arrives (the general path, also taken by every request split over reads).
  beast::error_code ParseBuffered(bool whole_message) {
    parser_->eager(whole_message);
    beast::error_code ec;
    while (!(whole_message ? parser_->is_done() : parser_->is_header_done())) {
      if (buffer_.size() == 0) return http::error::need_more;
      const size_t used = parser_->put(buffer_.data(), ec);
      buffer_.consume(used);
      if (ec) return ec;
      if (used == 0) return http::error::need_more;
    }
    return {};
  }

  // The read timeout runs from the first part of the request that needs a read; set once per
  // request, so that a header and a body read apart share it (slowloris).
  void SetReadDeadline() {
    if (read_deadline_set_) return;
    read_deadline_set_ = true;
    ExpireAfter(context_.options.read_timeout);
  }

  // Whether the request uses no transfer coding but chunked. Beast reads a body whose last
  // coding is chunked (`gzip, chunked`) as plain chunked and would hand over gzip bytes as
  // JSON; RFC 9112 §6.1 lets a server answer a coding it does not implement with 501.
  static bool OnlyChunkedTransferCoding(const RequestParts& req) {
    if (req.transfer_encoding_count == 0) return true;
    if (req.transfer_encoding_count > 1) return false;
    return beast::iequals(Trim(req.transfer_encoding), "chunked");
  }
  static std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  }

  // What the body may take: its declared length (capped by the parser's limit, which
  // refuses more), or the limit when it is chunked.
  bool ReserveBody() {
    if (context_.bodies == nullptr || parser_->is_done()) return true;
    const size_t limit = context_.options.handler.max_body_bytes;
    const boost::optional<uint64_t> length = parser_->content_length();
    const size_t bytes = length ? static_cast<size_t>(std::min<uint64_t>(*length, limit)) : limit;
    if (!context_.bodies->TryReserve(bytes)) return false;
    reserved_body_ = bytes;
    return true;
  }
  void ReleaseBody() {
    if (context_.bodies != nullptr && reserved_body_ != 0) context_.bodies->Release(reserved_body_);
    reserved_body_ = 0;
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) return Respond(Route(/*body_truncated=*/true), false);
    if (ec == http::error::header_limit) return Respond(PlainText(431, "headers too large\n"), false);
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::eof ||
        ec == net::error::connection_reset || ec == net::ssl::error::stream_truncated) {
      return Close();
    }
    if (ec) return Respond(PlainText(400, "bad request\n"), false);
    Respond(Route(false), parser_->keep_alive());
  }

  RouterResponse Route(bool body_truncated) {
    const RequestParts& req = request_;
    std::string_view body = body_truncated ? std::string_view() : std::string_view(req.body);
    return context_.router.Handle({.method = req.method,
                                   .target = req.target,
                                   .content_type = req.content_type,
                                   .body = body,
                                   .body_truncated = body_truncated});
  }

  static RouterResponse PlainText(int status, std::string body) {
    return {.status = status, .content_type = "text/plain; charset=utf-8", .body = std::move(body)};
  }

  void Respond(RouterResponse r, bool keep_alive) {
    keep_alive = keep_alive && !stopping_ && !context_.draining.load();
    const unsigned version = parser_ && parser_->is_header_done() ? request_.version : 11;
    // The request has been handled: its body goes now, not when the next request starts;
    // the storage of a typical one stays for the next request.
    KeepBody(request_.body);
    ReleaseBody();
    WriteResponse(r, version, keep_alive, response_);
    // Beyond a typical answer's size the buffer goes, rather than staying with an idle
    // connection.
    const bool shrink = response_.capacity() > kKeptResponseBytes;
    ExpireAfter(context_.options.write_timeout);
    net::async_write(stream_, net::buffer(response_),
                     [self = this->shared_from_this(), keep_alive, shrink](beast::error_code ec,
                                                                            size_t) {
                       if (shrink) std::string().swap(self->response_);
                       if (ec || !keep_alive) return self->Close();
                       // A completed request: no longer the first to make room at the limit.
                       self->served_ = true;
                       self->Advance(SessionRegistry::Phase::kServed);
                       self->WaitForRequest();
                     });
  }

  static void KeepBody(std::string& body) {
    body.clear();
    if (body.capacity() > kKeptBodyBytes) std::string().swap(body);
  }

  void Close() {
    if constexpr (kSsl) {
      // Send our close_notify without waiting for the peer's: clients rarely answer it, and
      // a drain must not wait a write timeout for each of them.
      SSL_set_shutdown(stream_.native_handle(), SSL_RECEIVED_SHUTDOWN);
      ExpireAfter(context_.options.write_timeout);
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {
        beast::error_code ignored;
        beast::get_lowest_layer(self->stream_).shutdown(net::socket_base::shutdown_both, ignored);
      });
    } else {
      CloseSocket();
    }
  }

  static constexpr size_t kKeptResponseBytes = 64 * 1024;
  // A typical DRA review is 2-10 KB; a larger body's storage is freed once it is answered.
  static constexpr size_t kKeptBodyBytes = 16 * 1024;

  const SessionContext& context_;
  Stream stream_;
  beast::flat_buffer buffer_;
  // The current request's parser, over request_; a new one per request (its limits, its
  // state), request_'s strings keeping their storage (a body's up to kKeptBodyBytes).
  std::optional<RequestParser> parser_;
  RequestParts request_;
  bool read_deadline_set_ = false;  // the current request's read timeout is running
  std::string response_;  // the response in flight: head and body, one write
  std::shared_ptr<const void> held_;
  size_t reserved_body_ = 0;  // held in context_.bodies for the request being read or handled
  SessionRegistry::Handle handle_;  // changed by context_.registry only
  bool idle_ = false;
  bool served_ = false;  // a request was answered on this connection
  bool stopping_ = false;
  // The deadline (ExpireAfter) and its timer, for sockets only.
  struct NoTimer {
    template <class Executor>
    explicit NoTimer(const Executor&) {}
  };
  std::chrono::steady_clock::time_point deadline_{};
  // On the stream's executor type (the I/O thread's io_context): no type-erased executor.
  using Timer = net::basic_waitable_timer<std::chrono::steady_clock,
                                          net::wait_traits<std::chrono::steady_clock>,
                                          typename Stream::executor_type>;
  std::conditional_t<kTimed, Timer, NoTimer> timer_{stream_.get_executor()};
  uint64_t timer_generation_ = 0;
  bool timer_armed_ = false;  // a wait of timer_ is pending for the current generation
};

}  // namespace draguard::webhook::server_internal

#endif  // DRAGUARD_WEBHOOK_SERVER_INTERNAL_HTTP_SESSION_H_
