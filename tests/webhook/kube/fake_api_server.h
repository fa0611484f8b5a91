// A scripted Kubernetes API server on 127.0.0.1 for the client tests: plain HTTP or TLS,
// one thread per connection, keep-alive. Each request is answered by the test's handler with
// a whole body or with a chunked stream of lines (a watch) that ends cleanly, drops the
// connection, or stays open until Stop().
#ifndef DRAGUARD_TESTS_WEBHOOK_KUBE_FAKE_API_SERVER_H_
#define DRAGUARD_TESTS_WEBHOOK_KUBE_FAKE_API_SERVER_H_

#include <sys/socket.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace draguard::webhook::kube::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct Reply {
  enum class End { kFinish, kDrop, kHold };

  unsigned status = 200;
  std::string body;                // a whole response
  bool stream = false;             // chunked lines instead of body
  std::vector<std::string> lines;  // each sent as one chunk with its '\n'
  End end = End::kFinish;          // how a stream ends

  static Reply Json(std::string body, unsigned status = 200) {
    Reply r;
    r.status = status;
    r.body = std::move(body);
    return r;
  }
  static Reply Stream(std::vector<std::string> lines, End end) {
    Reply r;
    r.stream = true;
    r.lines = std::move(lines);
    r.end = end;
    return r;
  }
};

struct SeenRequest {
  std::string target;
  std::string authorization;
};

class FakeApiServer {
 public:
  using Handler = std::function<Reply(const std::string& target)>;
  // Also sees the Authorization header (401 tests).
  using AuthHandler =
      std::function<Reply(const std::string& target, const std::string& authorization)>;

  // Plain HTTP when cert_file is empty, else TLS with the PEM pair.
  explicit FakeApiServer(Handler handler, const std::string& cert_file = "",
                         const std::string& key_file = "")
      : FakeApiServer(
            AuthHandler([h = std::move(handler)](const std::string& target,
                                                 const std::string&) { return h(target); }),
            cert_file, key_file) {}

  explicit FakeApiServer(AuthHandler handler, const std::string& cert_file = "",
                         const std::string& key_file = "")
      : handler_(std::move(handler)), acceptor_(ioc_) {
    if (!cert_file.empty()) {
      tls_.emplace(net::ssl::context::tls_server);
      tls_->use_certificate_chain_file(cert_file);
      tls_->use_private_key_file(key_file, net::ssl::context::pem);
    }
    net::ip::tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    accept_thread_ = std::thread([this] { AcceptLoop(); });
  }

  ~FakeApiServer() { Stop(); }

  // TLS only, before the first connection: the handshake then fails unless the client
  // presents a certificate signed by the CA in `ca_file`.
  void RequireClientCertificate(const std::string& ca_file) {
    tls_->load_verify_file(ca_file);
    tls_->set_verify_mode(net::ssl::verify_peer | net::ssl::verify_fail_if_no_peer_cert);
  }

  uint16_t port() const { return port_; }

  std::vector<SeenRequest> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

  // Targets received that start with `prefix`.
  std::vector<std::string> TargetsStartingWith(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const SeenRequest& r : requests()) {
      if (r.target.rfind(prefix, 0) == 0) out.push_back(r.target);
    }
    return out;
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopped_) return;
      stopped_ = true;
      for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
    }
    held_.notify_all();
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);
    beast::error_code ignored;
    acceptor_.close(ignored);
    if (accept_thread_.joinable()) accept_thread_.join();
    for (std::thread& t : connection_threads_) t.join();
  }

 private:
  void AcceptLoop() {
    for (;;) {
      net::ip::tcp::socket socket(ioc_);
      beast::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec) return;
      std::lock_guard<std::mutex> lock(mu_);
      if (stopped_) return;
      open_fds_.push_back(socket.native_handle());
      connection_threads_.emplace_back(
          [this, s = std::make_shared<net::ip::tcp::socket>(std::move(socket))]() mutable {
            Serve(std::move(*s));
          });
    }
  }

  void Serve(net::ip::tcp::socket socket) {
    const int fd = socket.native_handle();
    if (tls_) {
      beast::ssl_stream<net::ip::tcp::socket> stream(std::move(socket), *tls_);
      beast::error_code ec;
      stream.handshake(net::ssl::stream_base::server, ec);
      if (!ec) Session(stream);
    } else {
      Session(socket);
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::erase(open_fds_, fd);
  }

  template <class Stream>
  void Session(Stream& stream) {
    beast::flat_buffer buffer;
    for (;;) {
      http::request<http::string_body> request;
      beast::error_code ec;
      http::read(stream, buffer, request, ec);
      if (ec) return;
      const std::string target(request.target());
      const std::string authorization(request[http::field::authorization]);
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back({target, authorization});
      }
      const Reply reply = handler_(target, authorization);
      if (!reply.stream) {
        http::response<http::string_body> response{static_cast<http::status>(reply.status), 11};
        response.set(http::field::content_type, "application/json");
        response.body() = reply.body;
        response.prepare_payload();
        http::write(stream, response, ec);
        if (ec) return;
        continue;
      }
      if (!WriteStream(stream, reply)) return;
    }
  }

  // Writes the chunked stream; false when the connection must not be reused.
  template <class Stream>
  bool WriteStream(Stream& stream, const Reply& reply) {
    std::string head = "HTTP/1.1 " + std::to_string(reply.status) +
                       " OK\r\nContent-Type: application/json\r\n"
                       "Transfer-Encoding: chunked\r\n\r\n";
    beast::error_code ec;
    net::write(stream, net::buffer(head), ec);
    for (const std::string& line : reply.lines) {
      const std::string data = line + "\n";
      char size[32];
      std::snprintf(size, sizeof size, "%zx\r\n", data.size());
      net::write(stream, net::buffer(std::string(size) + data + "\r\n"), ec);
      if (ec) return false;
    }
    if (reply.end == Reply::End::kFinish) {
      net::write(stream, net::buffer(std::string("0\r\n\r\n")), ec);
      return !ec;
    }
    if (reply.end == Reply::End::kHold) {
      std::unique_lock<std::mutex> lock(mu_);
      held_.wait(lock, [&] { return stopped_; });
    }
    return false;  // kDrop, or held until Stop: close the connection mid-stream
  }

  AuthHandler handler_;
  net::io_context ioc_;
  net::ip::tcp::acceptor acceptor_;
  std::optional<net::ssl::context> tls_;
  uint16_t port_ = 0;
  std::thread accept_thread_;
  std::vector<std::thread> connection_threads_;
  mutable std::mutex mu_;
  std::condition_variable held_;
  std::vector<int> open_fds_;
  std::vector<SeenRequest> requests_;
  bool stopped_ = false;
};

}  // namespace draguard::webhook::kube::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_KUBE_FAKE_API_SERVER_H_
