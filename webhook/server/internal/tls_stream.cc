#include "webhook/server/internal/tls_stream.h"

#include <sys/socket.h>

#include <cerrno>
#include <climits>

#include <boost/asio/error.hpp>
#include <openssl/bio.h>
#include <openssl/err.h>

namespace draguard::webhook::server_internal {
namespace {

namespace net = boost::asio;
using error_code = boost::system::error_code;

// A BIO over the Asio socket its data points at: recv and send on its descriptor, EAGAIN as
// a retry, and no I/O at all once the socket is closed (the descriptor number may then be
// another connection's).
using Socket = TlsStream::Socket;

int SocketRead(BIO* bio, char* out, int length) {
  BIO_clear_retry_flags(bio);
  auto* socket = static_cast<Socket*>(BIO_get_data(bio));
  if (!socket->is_open()) {
    errno = EBADF;
    return -1;
  }
  const ssize_t n = ::recv(socket->native_handle(), out, static_cast<size_t>(length), 0);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
    BIO_set_retry_read(bio);
  }
  return static_cast<int>(n);
}

int SocketWrite(BIO* bio, const char* in, int length) {
  BIO_clear_retry_flags(bio);
  auto* socket = static_cast<Socket*>(BIO_get_data(bio));
  if (!socket->is_open()) {
    errno = EBADF;
    return -1;
  }
  const ssize_t n =
      ::send(socket->native_handle(), in, static_cast<size_t>(length), MSG_NOSIGNAL);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
    BIO_set_retry_write(bio);
  }
  return static_cast<int>(n);
}

long SocketCtrl(BIO*, int command, long, void*) {  // NOLINT(runtime/int): OpenSSL's type
  // Writes go straight to the socket: nothing to flush. Every other query (pending bytes,
  // kTLS, ...) has no answer here.
  return command == BIO_CTRL_FLUSH ? 1 : 0;
}

int SocketCreate(BIO* bio) {
  BIO_set_init(bio, 1);
  return 1;
}

// Created once, for the process (OpenSSL keeps BIO_METHODs as long as BIOs use them).
const BIO_METHOD* SocketMethod() {
  static BIO_METHOD* const method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "draguard socket");
    if (m == nullptr) return m;
    BIO_meth_set_read(m, SocketRead);
    BIO_meth_set_write(m, SocketWrite);
    BIO_meth_set_ctrl(m, SocketCtrl);
    BIO_meth_set_create(m, SocketCreate);
    return m;
  }();
  return method;
}

}  // namespace

TlsStream::TlsStream(Socket socket, SSL_CTX* context) : socket_(std::move(socket)) {
  socket_.non_blocking(true, setup_error_);
  if (setup_error_) return;
  const BIO_METHOD* method = SocketMethod();
  BIO* bio = method != nullptr ? BIO_new(method) : nullptr;
  ssl_ = bio != nullptr ? SSL_new(context) : nullptr;
  if (ssl_ == nullptr) {
    BIO_free(bio);
    ERR_clear_error();
    setup_error_ = net::error::no_memory;
    return;
  }
  BIO_set_data(bio, &socket_);
  SSL_set_bio(ssl_, bio, bio);  // one reference, owned by ssl_
  SSL_set_accept_state(ssl_);
  // As Asio's stream did: the record buffers go back to the allocator whenever they are
  // empty, so that an idle connection (or one of a flood) does not hold ~34 KiB of them; it
  // costs ~1 k instructions a request.
  SSL_set_mode(ssl_, SSL_MODE_RELEASE_BUFFERS);
}

TlsStream::~TlsStream() { SSL_free(ssl_); }

TlsStream::Step TlsStream::Failed(int result, int sys_errno, error_code& ec) {
  const int error = SSL_get_error(ssl_, result);
  if (error == SSL_ERROR_WANT_READ) return Step::kWantRead;
  if (error == SSL_ERROR_WANT_WRITE) return Step::kWantWrite;
  if (error == SSL_ERROR_ZERO_RETURN) {
    ec = net::error::eof;
  } else if (error == SSL_ERROR_SYSCALL) {
    fatal_ = true;
    ec = sys_errno != 0 ? error_code(sys_errno, boost::system::system_category())
                        : error_code(net::ssl::error::stream_truncated);
  } else {
    fatal_ = true;
    const unsigned long code = ERR_peek_last_error();  // NOLINT(runtime/int)
    if (ERR_GET_REASON(code) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
      ec = net::ssl::error::stream_truncated;
    } else {
      ec = error_code(static_cast<int>(code), net::error::get_ssl_category());
    }
  }
  if (!ec) ec = net::error::fault;  // an error OpenSSL left without a code
  ERR_clear_error();
  return Step::kDone;
}

bool TlsStream::Usable(error_code& ec) const {
  if (setup_error_) {
    ec = setup_error_;
    return false;
  }
  if (!socket_.is_open()) {
    ec = net::error::operation_aborted;
    return false;
  }
  return true;
}

TlsStream::Step TlsStream::Handshake(error_code& ec) {
  if (!Usable(ec)) return Step::kDone;
  errno = 0;
  const int result = SSL_do_handshake(ssl_);
  if (result == 1) {
    ec = {};
    return Step::kDone;
  }
  return Failed(result, errno, ec);
}

template <class Io>
TlsStream::Step TlsStream::Transfer(size_t size, size_t& bytes, error_code& ec, Io io) {
  bytes = 0;
  if (!Usable(ec)) return Step::kDone;
  if (size == 0) {
    ec = {};
    return Step::kDone;
  }
  errno = 0;
  const int result = io(&bytes);
  if (result == 1) {
    ec = {};
    return Step::kDone;
  }
  return Failed(result, errno, ec);
}

TlsStream::Step TlsStream::Read(net::mutable_buffer buffer, size_t& bytes, error_code& ec) {
  return Transfer(buffer.size(), bytes, ec, [&](size_t* done) {
    return SSL_read_ex(ssl_, buffer.data(), buffer.size(), done);
  });
}

TlsStream::Step TlsStream::Write(net::const_buffer buffer, size_t& bytes, error_code& ec) {
  return Transfer(buffer.size(), bytes, ec, [&](size_t* done) {
    return SSL_write_ex(ssl_, buffer.data(), buffer.size(), done);
  });
}

TlsStream::Step TlsStream::Shutdown(error_code& ec) {
  ec = {};
  if (setup_error_ || fatal_) return Step::kDone;
  if (!socket_.is_open()) {
    ec = net::error::operation_aborted;
    return Step::kDone;
  }
  errno = 0;
  const int result = SSL_shutdown(ssl_);
  // 1: both close_notify alerts done; 0: ours sent, the peer's not awaited.
  if (result >= 0) return Step::kDone;
  return Failed(result, errno, ec);
}

}  // namespace draguard::webhook::server_internal
