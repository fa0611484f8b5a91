// TlsStream: a server-side TLS connection in which OpenSSL reads and writes the TCP socket
// itself, and Asio's reactor is used only to wait until the socket is readable or writable.
// Internal: only the server, its sessions and their tests include it.
//
// Why not asio::ssl::stream: its engine runs OpenSSL over a pair of memory BIOs, so every
// record is copied socket -> Asio's buffer -> BIO -> OpenSSL on the way in and back on the way
// out, and each engine call clears and reads OpenSSL's error queue and asks the BIO pair what
// is pending, whether or not it failed; each of its operations is also a chain of Asio
// composed operations with two timers standing for "a read/write is pending". Under callgrind
// this was ~10 k instructions per request of the ~41 k spent outside the admission handler.
//
// Contract:
// - Models Asio's AsyncReadStream and AsyncWriteStream (async_read_some, async_write_some,
//   get_executor), so Beast's http::async_read and Asio's async_write run over it; adds
//   async_handshake (server side) and async_shutdown (sends close_notify). next_layer() is the
//   socket, so beast::get_lowest_layer reaches it.
// - One operation of each direction at a time, all on the socket's executor (one thread):
//   the session's chain guarantees it. An operation's handler is never called from within the
//   function that started it (a result known at once is posted).
// - Each step makes one call into OpenSSL. SSL_ERROR_WANT_READ / WANT_WRITE (the socket
//   returned EAGAIN) become an async_wait for readability / writability, after which the same
//   call is made again with the same arguments (OpenSSL's rule for retried writes).
// - Closing the socket (the session's deadline, an eviction) makes every later step fail with
//   operation_aborted without touching the descriptor, and aborts a pending wait: OpenSSL
//   never reads or writes a descriptor number that may already belong to another connection.
// - The socket is put in non-blocking mode at construction: a step never blocks the thread.
// - Writes use send(MSG_NOSIGNAL): a peer that went away is an EPIPE error, not a SIGPIPE.
// - Errors as Asio's stream reported them, so that the session's outcomes and metrics stay:
//   the peer's close_notify is net::error::eof; a connection that ends without one (in a
//   record or between records) is net::ssl::error::stream_truncated; a socket error is its
//   errno; a TLS protocol error is OpenSSL's error code in Asio's SSL category. After a
//   fatal error (protocol or socket), async_shutdown completes at once without calling
//   SSL_shutdown (OpenSSL forbids it).
// - OpenSSL's per-thread error queue is empty between steps on an I/O thread: a failing step
//   reads it and clears it (SSL_get_error needs it empty before each call; nothing else on the
//   I/O threads calls OpenSSL). A successful step does not touch it.
#ifndef DRAGUARD_WEBHOOK_SERVER_INTERNAL_TLS_STREAM_H_
#define DRAGUARD_WEBHOOK_SERVER_INTERNAL_TLS_STREAM_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include <boost/asio/append.hpp>
#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/system/error_code.hpp>
#include <openssl/ssl.h>

namespace draguard::webhook::server_internal {

class TlsStream {
 public:
  // What the acceptor yields for an I/O thread's io_context.
  using Socket = boost::asio::basic_stream_socket<boost::asio::ip::tcp,
                                                  boost::asio::io_context::executor_type>;
  using executor_type = Socket::executor_type;
  using next_layer_type = Socket;
  using error_code = boost::system::error_code;

  // What one step of an operation left to do.
  enum class Step { kDone, kWantRead, kWantWrite };

  // A server-side connection over `socket` with the settings of `context` (SSL_new takes a
  // reference to it). When OpenSSL cannot allocate the connection or the socket cannot be
  // made non-blocking, every operation fails with that error.
  TlsStream(Socket socket, SSL_CTX* context);
  ~TlsStream();
  TlsStream(const TlsStream&) = delete;  // OpenSSL's BIO points at socket_
  TlsStream& operator=(const TlsStream&) = delete;

  executor_type get_executor() { return socket_.get_executor(); }
  Socket& next_layer() { return socket_; }
  SSL* native_handle() { return ssl_; }

  // The steps: one call into OpenSSL each. On kDone, `ec` holds the outcome (and `bytes`
  // what was transferred); otherwise the step is to be made again once the socket is
  // readable (kWantRead) or writable (kWantWrite).
  Step Handshake(error_code& ec);
  Step Read(boost::asio::mutable_buffer buffer, size_t& bytes, error_code& ec);
  Step Write(boost::asio::const_buffer buffer, size_t& bytes, error_code& ec);
  Step Shutdown(error_code& ec);

  template <class Token>
  auto async_handshake(Token&& token) {
    return Start<void(error_code)>(
        [](TlsStream& s, size_t&, error_code& ec) { return s.Handshake(ec); },
        std::forward<Token>(token));
  }
  template <class Token>
  auto async_shutdown(Token&& token) {
    return Start<void(error_code)>(
        [](TlsStream& s, size_t&, error_code& ec) { return s.Shutdown(ec); },
        std::forward<Token>(token));
  }
  template <class MutableBufferSequence, class Token>
  auto async_read_some(const MutableBufferSequence& buffers, Token&& token) {
    const boost::asio::mutable_buffer buffer = FirstNonEmpty<boost::asio::mutable_buffer>(buffers);
    return Start<void(error_code, size_t)>(
        [buffer](TlsStream& s, size_t& bytes, error_code& ec) {
          return s.Read(buffer, bytes, ec);
        },
        std::forward<Token>(token));
  }
  template <class ConstBufferSequence, class Token>
  auto async_write_some(const ConstBufferSequence& buffers, Token&& token) {
    const boost::asio::const_buffer buffer = FirstNonEmpty<boost::asio::const_buffer>(buffers);
    return Start<void(error_code, size_t)>(
        [buffer](TlsStream& s, size_t& bytes, error_code& ec) {
          return s.Write(buffer, bytes, ec);
        },
        std::forward<Token>(token));
  }

 private:
  // One operation: makes its step, waits on the socket while the step wants it, and
  // completes (posted, when the first step already finished it).
  template <class StepFn, class Signature>
  class Op;

  template <class Signature, class StepFn, class Token>
  auto Start(StepFn step, Token&& token) {
    return boost::asio::async_compose<Token, Signature>(Op<StepFn, Signature>(*this, step),
                                                        token, socket_);
  }

  // Asio's *_some operations transfer at most one buffer; the first non-empty one (an empty
  // sequence: an empty buffer, which completes with 0 bytes at once).
  template <class Buffer, class Sequence>
  static Buffer FirstNonEmpty(const Sequence& buffers) {
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers); ++it) {
      Buffer b(*it);
      if (b.size() != 0) return b;
    }
    return Buffer();
  }

  // False, with `ec` set, when the connection cannot be used: its setup failed, or the socket
  // was closed (then OpenSSL must not touch the descriptor number).
  bool Usable(error_code& ec) const;
  // Read and Write: `io(&bytes)` is one SSL_read_ex or SSL_write_ex of `size` bytes (an empty
  // buffer completes at once with nothing transferred).
  template <class Io>
  Step Transfer(size_t size, size_t& bytes, error_code& ec, Io io);
  // The outcome of a failed OpenSSL call (`result` its return value, `sys_errno` errno right
  // after it): a wait, or the error (the error queue then cleared).
  Step Failed(int result, int sys_errno, error_code& ec);

  Socket socket_;
  SSL* ssl_ = nullptr;
  error_code setup_error_;  // why the connection cannot work (SSL_new, non-blocking mode)
  bool fatal_ = false;      // a protocol or socket error happened: no SSL_shutdown
};

template <class StepFn, class Signature>
class TlsStream::Op {
 public:
  Op(TlsStream& stream, StepFn step) : stream_(stream), step_(step) {}

  template <class Self>
  void operator()(Self& self, error_code wait_ec = {}) {
    if (state_ == State::kPosted) return Complete(self);
    if (wait_ec) {
      ec_ = wait_ec;
      return Complete(self);
    }
    switch (step_(stream_, bytes_, ec_)) {
      case Step::kWantRead:
        state_ = State::kWaited;
        return stream_.socket_.async_wait(Socket::wait_read, std::move(self));
      case Step::kWantWrite:
        state_ = State::kWaited;
        return stream_.socket_.async_wait(Socket::wait_write, std::move(self));
      case Step::kDone:
        break;
    }
    if (state_ == State::kStarted) {
      state_ = State::kPosted;
      return boost::asio::post(std::move(self));
    }
    Complete(self);
  }

 private:
  enum class State { kStarted, kWaited, kPosted };

  template <class Self>
  void Complete(Self& self) {
    if constexpr (std::is_same_v<Signature, void(error_code)>) {
      self.complete(ec_);
    } else {
      self.complete(ec_, bytes_);
    }
  }

  TlsStream& stream_;
  StepFn step_;
  State state_ = State::kStarted;
  error_code ec_;
  size_t bytes_ = 0;
};

}  // namespace draguard::webhook::server_internal

#endif  // DRAGUARD_WEBHOOK_SERVER_INTERNAL_TLS_STREAM_H_
