// FakeApiServer on blocking Beast calls, one thread per connection.
#include "tests/webhook/kube/fake_api_server.h"

#include <sys/socket.h>

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>

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

struct FakeApiServer::Impl {
  Impl(AuthHandler h, const std::string& cert_file, const std::string& key_file)
      : handler(std::move(h)), acceptor(ioc) {
    if (!cert_file.empty()) {
      tls.emplace(net::ssl::context::tls_server);
      tls->use_certificate_chain_file(cert_file);
      tls->use_private_key_file(key_file, net::ssl::context::pem);
    }
    net::ip::tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen();
    port = acceptor.local_endpoint().port();
    accept_thread = std::thread([this] { AcceptLoop(); });
  }

  std::vector<SeenRequest> Requests() const {
    std::lock_guard<std::mutex> lock(mu);
    return requests;
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (stopped) return;
      stopped = true;
      for (int fd : open_fds) ::shutdown(fd, SHUT_RDWR);
    }
    held.notify_all();
    ::shutdown(acceptor.native_handle(), SHUT_RDWR);
    beast::error_code ignored;
    acceptor.close(ignored);
    if (accept_thread.joinable()) accept_thread.join();
    for (std::thread& t : connection_threads) t.join();
  }

  void AcceptLoop() {
    for (;;) {
      net::ip::tcp::socket socket(ioc);
      beast::error_code ec;
      acceptor.accept(socket, ec);
      if (ec) return;
      std::lock_guard<std::mutex> lock(mu);
      if (stopped) return;
      open_fds.push_back(socket.native_handle());
      connection_threads.emplace_back(
          [this, s = std::make_shared<net::ip::tcp::socket>(std::move(socket))]() mutable {
            Serve(std::move(*s));
          });
    }
  }

  void Serve(net::ip::tcp::socket socket) {
    const int fd = socket.native_handle();
    if (tls) {
      beast::ssl_stream<net::ip::tcp::socket> stream(std::move(socket), *tls);
      beast::error_code ec;
      stream.handshake(net::ssl::stream_base::server, ec);
      if (!ec) Session(stream);
    } else {
      Session(socket);
    }
    std::lock_guard<std::mutex> lock(mu);
    std::erase(open_fds, fd);
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
        std::lock_guard<std::mutex> lock(mu);
        requests.push_back({target, authorization});
      }
      const Reply reply = handler(target, authorization);
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
      std::unique_lock<std::mutex> lock(mu);
      held.wait(lock, [&] { return stopped; });
    }
    return false;  // kDrop, or held until Stop: close the connection mid-stream
  }

  AuthHandler handler;
  net::io_context ioc;
  net::ip::tcp::acceptor acceptor;
  std::optional<net::ssl::context> tls;
  uint16_t port = 0;
  std::thread accept_thread;
  std::vector<std::thread> connection_threads;
  mutable std::mutex mu;
  std::condition_variable held;
  std::vector<int> open_fds;
  std::vector<SeenRequest> requests;
  bool stopped = false;
};

FakeApiServer::FakeApiServer(Handler handler, const std::string& cert_file,
                             const std::string& key_file)
    : FakeApiServer(AuthHandler([h = std::move(handler)](const std::string& target,
                                                         const std::string&) { return h(target); }),
                    cert_file, key_file) {}

FakeApiServer::FakeApiServer(AuthHandler handler, const std::string& cert_file,
                             const std::string& key_file)
    : impl_(std::make_unique<Impl>(std::move(handler), cert_file, key_file)) {}

FakeApiServer::~FakeApiServer() { Stop(); }

void FakeApiServer::RequireClientCertificate(const std::string& ca_file) {
  impl_->tls->load_verify_file(ca_file);
  impl_->tls->set_verify_mode(net::ssl::verify_peer | net::ssl::verify_fail_if_no_peer_cert);
}

uint16_t FakeApiServer::port() const { return impl_->port; }

std::vector<SeenRequest> FakeApiServer::requests() const { return impl_->Requests(); }

std::vector<std::string> FakeApiServer::TargetsStartingWith(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const SeenRequest& r : requests()) {
    if (r.target.rfind(prefix, 0) == 0) out.push_back(r.target);
  }
  return out;
}

void FakeApiServer::Stop() { impl_->Stop(); }

}  // namespace draguard::webhook::kube::testing
