// TlsStream over a real loopback TCP connection, against an OpenSSL client whose records the
// test carries by hand (memory BIOs on the client side): so a record can arrive a byte at a
// time, half of it before the peer goes away, or not be read at all. The server's event loop
// is run with poll() between the client's steps; no timing is involved.
#include "webhook/server/internal/tls_stream.h"

#include <sys/socket.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/basic_socket_acceptor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "gtest/gtest.h"
#include "tests/webhook/testing/tls_client.h"
#include "webhook/server/tls_context.h"

namespace draguard::webhook::server_internal {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

class TlsStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/draguard-tls-stream-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    if (!testing::HaveTool("openssl")) GTEST_SKIP() << "openssl (certs/mint-certs.sh) not found";
    ASSERT_TRUE(testing::MintCerts(dir_, /*reuse_ca=*/false));
    StatusOr<TlsContext> context = MakeServerTlsContext(dir_ + "/tls.crt", dir_ + "/tls.key", "");
    ASSERT_TRUE(context.ok()) << context.status();
    server_context_ = std::move(context).value();

    client_ctx_ = SSL_CTX_new(TLS_client_method());
    ASSERT_NE(client_ctx_, nullptr);
    SSL_CTX_set_verify(client_ctx_, SSL_VERIFY_NONE, nullptr);
    client_ = SSL_new(client_ctx_);
    client_in_ = BIO_new(BIO_s_mem());
    client_out_ = BIO_new(BIO_s_mem());
    SSL_set_bio(client_, client_in_, client_out_);
    SSL_set_connect_state(client_);

    net::basic_socket_acceptor<tcp, net::io_context::executor_type> acceptor(
        ioc_.get_executor(), tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
    client_socket_.open(tcp::v4());
    // Small buffers, so that a large write fills them.
    client_socket_.set_option(net::socket_base::receive_buffer_size(4096));
    client_socket_.connect(acceptor.local_endpoint());
    // Both ends send at once (the server sets it on every connection): Nagle's algorithm
    // would hold a small write back until the previous one is acknowledged.
    client_socket_.set_option(tcp::no_delay(true));
    TlsStream::Socket server_socket = acceptor.accept();
    server_socket.set_option(tcp::no_delay(true));
    server_socket.set_option(net::socket_base::send_buffer_size(4096));
    stream_.emplace(std::move(server_socket), server_context_.context->native_handle());
    client_socket_.non_blocking(true);
  }
  void TearDown() override {
    stream_.reset();
    SSL_free(client_);
    SSL_CTX_free(client_ctx_);
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Runs every handler that is ready, several rounds (a completion may make another ready).
  void Poll() {
    for (int i = 0; i < 8; ++i) {
      ioc_.restart();
      ioc_.poll();
    }
  }

  // Runs the server until `done` holds, waiting for the socket when nothing is ready; bounded
  // (a stuck operation fails the test's next assertion rather than hanging it).
  template <class Done>
  void RunUntil(Done done) {
    for (int i = 0; i < 500 && !done(); ++i) {
      ioc_.restart();
      ioc_.run_one_for(std::chrono::milliseconds(10));
    }
  }

  // Runs one ready handler, or waits up to 10 ms for one (a bounded wait for the peer).
  void RunOnce() {
    ioc_.restart();
    ioc_.run_one_for(std::chrono::milliseconds(10));
  }

  // The client's pending TLS bytes (what it would send).
  std::string TakeClientOutput() {
    std::string out;
    char chunk[4096];
    int n = 0;
    while ((n = BIO_read(client_out_, chunk, sizeof chunk)) > 0) out.append(chunk, n);
    return out;
  }
  // Sends `bytes` to the server `piece` bytes at a time, running the server between pieces.
  void Send(std::string_view bytes, size_t piece = SIZE_MAX) {
    while (!bytes.empty()) {
      const size_t n = std::min(piece, bytes.size());
      net::write(client_socket_, net::buffer(bytes.data(), n));
      bytes.remove_prefix(n);
      Poll();
    }
  }
  // Moves what the server sent into the client's TLS input; returns whether there was any.
  bool Receive() {
    bool any = false;
    char chunk[16384];
    for (;;) {
      error_code ec;
      const size_t n = client_socket_.read_some(net::buffer(chunk), ec);
      if (ec || n == 0) return any;
      BIO_write(client_in_, chunk, static_cast<int>(n));
      any = true;
    }
  }
  // Plaintext the client can read now.
  std::string ClientRead() {
    std::string out;
    char chunk[16384];
    size_t n = 0;
    while (SSL_read_ex(client_, chunk, sizeof chunk, &n) == 1) out.append(chunk, n);
    return out;
  }

  void Handshake() {
    std::optional<error_code> done;
    stream_->async_handshake([&](error_code ec) { done = ec; });
    for (int i = 0; i < 50 && !(done && SSL_is_init_finished(client_)); ++i) {
      SSL_do_handshake(client_);
      Send(TakeClientOutput());
      Poll();
      Receive();
    }
    ASSERT_TRUE(done.has_value());
    ASSERT_FALSE(*done) << done->message();
    ASSERT_TRUE(SSL_is_init_finished(client_));
  }

  // One client record holding `plaintext`.
  std::string Record(std::string_view plaintext) {
    size_t written = 0;
    EXPECT_EQ(SSL_write_ex(client_, plaintext.data(), plaintext.size(), &written), 1);
    return TakeClientOutput();
  }

  std::string dir_;
  net::io_context ioc_{1};
  TlsContext server_context_;
  std::optional<TlsStream> stream_;
  tcp::socket client_socket_{ioc_};
  SSL_CTX* client_ctx_ = nullptr;
  SSL* client_ = nullptr;
  BIO* client_in_ = nullptr;   // owned by client_
  BIO* client_out_ = nullptr;  // owned by client_
};

// A pending read: its outcome once complete.
struct ReadResult {
  std::optional<error_code> ec;
  size_t bytes = 0;
};

// Starts a read into `buffer` whose outcome lands in `read`.
void StartRead(TlsStream& stream, net::mutable_buffer buffer, ReadResult& read) {
  stream.async_read_some(buffer, [&read](error_code ec, size_t n) {
    read.ec = ec;
    read.bytes = n;
  });
}

TEST_F(TlsStreamTest, ARecordArrivingAByteAtATimeIsReadWhole) {
  Handshake();
  const std::string request(3000, 'r');
  const std::string record = Record(request);
  ASSERT_GT(record.size(), request.size());
  std::vector<char> buffer(4096);
  ReadResult read;
  StartRead(*stream_, net::buffer(buffer), read);
  // Every byte but the last: the read keeps waiting (OpenSSL wants more; the stream waits for
  // the socket to be readable again).
  Send(std::string_view(record).substr(0, record.size() - 1), 1);
  EXPECT_FALSE(read.ec.has_value());
  Send(std::string_view(record).substr(record.size() - 1));
  RunUntil([&] { return read.ec.has_value(); });
  ASSERT_TRUE(read.ec.has_value());
  EXPECT_FALSE(*read.ec) << read.ec->message();
  EXPECT_EQ(std::string(buffer.data(), read.bytes), request);
}

TEST_F(TlsStreamTest, RecordsBufferedAheadAreReadWithoutTheSocket) {
  Handshake();
  // Two records sent at once: read ahead takes both from the socket in one read; the second
  // read is served from OpenSSL's buffer.
  Send(Record("first") + Record("second"));
  std::vector<char> buffer(64);
  for (std::string expected : {"first", "second"}) {
    ReadResult read;
    StartRead(*stream_, net::buffer(buffer), read);
    RunUntil([&] { return read.ec.has_value(); });
    ASSERT_TRUE(read.ec.has_value());
    EXPECT_FALSE(*read.ec);
    EXPECT_EQ(std::string(buffer.data(), read.bytes), expected);
  }
}

TEST_F(TlsStreamTest, AWriteLargerThanTheSocketBuffersWaitsForTheReader) {
  Handshake();
  std::string response(2 << 20, 'x');
  for (size_t i = 0; i < response.size(); i += 997) response[i] = static_cast<char>('a' + i % 26);
  std::optional<error_code> written;
  size_t written_bytes = 0;
  net::async_write(*stream_, net::buffer(response), [&](error_code ec, size_t n) {
    written = ec;
    written_bytes = n;
  });
  Poll();
  // 2 MiB cannot fit the socket buffers: the write waits for the socket to be writable.
  EXPECT_FALSE(written.has_value());
  std::string received;
  for (int i = 0; i < 100000 && received.size() < response.size(); ++i) {
    Receive();
    received += ClientRead();
    Poll();
  }
  RunUntil([&] { return written.has_value(); });
  ASSERT_TRUE(written.has_value());
  EXPECT_FALSE(*written) << written->message();
  EXPECT_EQ(written_bytes, response.size());
  EXPECT_TRUE(received == response);
}

TEST_F(TlsStreamTest, ThePeerClosingMidRecordIsATruncatedStream) {
  Handshake();
  const std::string record = Record(std::string(1000, 'h'));
  std::vector<char> buffer(4096);
  ReadResult read;
  StartRead(*stream_, net::buffer(buffer), read);
  Send(std::string_view(record).substr(0, record.size() / 2));
  EXPECT_FALSE(read.ec.has_value());
  client_socket_.shutdown(tcp::socket::shutdown_send);
  RunUntil([&] { return read.ec.has_value(); });
  ASSERT_TRUE(read.ec.has_value());
  EXPECT_EQ(*read.ec, net::ssl::error::stream_truncated) << read.ec->message();
}

TEST_F(TlsStreamTest, ThePeerClosingBetweenRecordsWithoutCloseNotifyIsATruncatedStream) {
  Handshake();
  std::vector<char> buffer(64);
  ReadResult read;
  StartRead(*stream_, net::buffer(buffer), read);
  client_socket_.shutdown(tcp::socket::shutdown_send);
  RunUntil([&] { return read.ec.has_value(); });
  ASSERT_TRUE(read.ec.has_value());
  EXPECT_EQ(*read.ec, net::ssl::error::stream_truncated) << read.ec->message();
}

TEST_F(TlsStreamTest, ThePeersCloseNotifyIsEndOfStream) {
  Handshake();
  SSL_shutdown(client_);
  std::vector<char> buffer(64);
  ReadResult read;
  StartRead(*stream_, net::buffer(buffer), read);
  Send(TakeClientOutput());
  RunUntil([&] { return read.ec.has_value(); });
  ASSERT_TRUE(read.ec.has_value());
  EXPECT_EQ(*read.ec, net::error::eof) << read.ec->message();
}

// What the session's deadline and an eviction do: close the socket under a pending operation.
TEST_F(TlsStreamTest, ClosingTheSocketAbortsAPendingReadAndEveryLaterStep) {
  Handshake();
  std::vector<char> buffer(64);
  ReadResult read;
  StartRead(*stream_, net::buffer(buffer), read);
  Poll();
  EXPECT_FALSE(read.ec.has_value());
  stream_->next_layer().close();
  RunUntil([&] { return read.ec.has_value(); });
  ASSERT_TRUE(read.ec.has_value());
  EXPECT_EQ(*read.ec, net::error::operation_aborted);
  // No step touches the (closed, maybe reused) descriptor.
  size_t n = 0;
  error_code ec;
  EXPECT_EQ(stream_->Read(net::buffer(buffer), n, ec), TlsStream::Step::kDone);
  EXPECT_EQ(ec, net::error::operation_aborted);
  EXPECT_EQ(stream_->Write(net::buffer("x", 1), n, ec), TlsStream::Step::kDone);
  EXPECT_EQ(ec, net::error::operation_aborted);
}

TEST_F(TlsStreamTest, ClosingTheSocketAbortsAHandshakeThatWaits) {
  std::optional<error_code> done;
  stream_->async_handshake([&](error_code ec) { done = ec; });
  Poll();
  EXPECT_FALSE(done.has_value());  // no ClientHello yet
  stream_->next_layer().close();
  RunUntil([&] { return done.has_value(); });
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(*done, net::error::operation_aborted);
}

TEST_F(TlsStreamTest, GarbageInsteadOfAClientHelloFailsTheHandshake) {
  std::optional<error_code> done;
  stream_->async_handshake([&](error_code ec) { done = ec; });
  Send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  RunUntil([&] { return done.has_value(); });
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->category(), net::error::get_ssl_category()) << done->message();
  // The error queue is left empty for the next connection on this thread.
  EXPECT_EQ(ERR_peek_error(), 0u);
}

TEST_F(TlsStreamTest, ShutdownSendsCloseNotify) {
  Handshake();
  // As the session does: our close_notify, without waiting for the peer's.
  SSL_set_shutdown(stream_->native_handle(), SSL_RECEIVED_SHUTDOWN);
  std::optional<error_code> done;
  stream_->async_shutdown([&](error_code ec) { done = ec; });
  RunUntil([&] { return done.has_value(); });
  ASSERT_TRUE(done.has_value());
  EXPECT_FALSE(*done) << done->message();
  // The session tickets, then the close_notify.
  int error = SSL_ERROR_WANT_READ;
  for (int i = 0; i < 500 && error == SSL_ERROR_WANT_READ; ++i) {
    Receive();
    char byte = 0;
    size_t n = 0;
    if (SSL_read_ex(client_, &byte, 1, &n) == 0) error = SSL_get_error(client_, 0);
    if (error == SSL_ERROR_WANT_READ) RunOnce();
  }
  EXPECT_EQ(error, SSL_ERROR_ZERO_RETURN);
}

// Writes to a peer that has gone: errors, not SIGPIPE (which would end this process).
TEST_F(TlsStreamTest, WritingToAPeerThatHasGoneIsAnErrorNotASignal) {
  Handshake();
  client_socket_.close();
  std::optional<error_code> failed;
  for (int i = 0; i < 100 && !failed; ++i) {
    std::optional<error_code> written;
    net::async_write(*stream_, net::buffer("response", 8),
                     [&](error_code ec, size_t) { written = ec; });
    RunUntil([&] { return written.has_value(); });
    ASSERT_TRUE(written.has_value());
    if (*written) failed = written;
  }
  ASSERT_TRUE(failed.has_value());
  EXPECT_TRUE(*failed == net::error::broken_pipe || *failed == net::error::connection_reset)
      << failed->message();
  // After a fatal error the shutdown completes without calling SSL_shutdown.
  std::optional<error_code> shut;
  stream_->async_shutdown([&](error_code ec) { shut = ec; });
  RunUntil([&] { return shut.has_value(); });
  ASSERT_TRUE(shut.has_value());
  EXPECT_FALSE(*shut);
}

TEST_F(TlsStreamTest, AResultKnownAtOnceIsPostedNotCalledInline) {
  Handshake();
  ReadResult read;
  stream_->async_read_some(net::mutable_buffer(), [&](error_code ec, size_t n) {
    read.ec = ec;
    read.bytes = n;
  });
  EXPECT_FALSE(read.ec.has_value());
  Poll();
  ASSERT_TRUE(read.ec.has_value());
  EXPECT_FALSE(*read.ec);
  EXPECT_EQ(read.bytes, 0u);
}

}  // namespace
}  // namespace draguard::webhook::server_internal
