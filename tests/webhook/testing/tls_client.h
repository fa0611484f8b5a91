// Test helpers for talking to the webhook server as the API server does: certificates minted
// by certs/mint-certs.sh for draguard.draguard.svc, and a blocking TLS client that verifies
// them. Every read has a timeout, so that a test against a stuck server fails instead of
// hanging.
#ifndef DRAGUARD_TESTS_WEBHOOK_TESTING_TLS_CLIENT_H_
#define DRAGUARD_TESTS_WEBHOOK_TESTING_TLS_CLIENT_H_

#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <openssl/x509.h>

#include "tests/webhook/testing/fake_checker.h"

namespace draguard::webhook::testing {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using Response = http::response<http::string_body>;
using namespace std::chrono_literals;

inline constexpr char kHost[] = "draguard.draguard.svc";

inline bool HaveTool(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

inline std::string RunCommand(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  pclose(pipe);
  return out;
}

// Serving pair and CA in `dir`; with `client`, also client-ca.crt and a client pair.
inline bool MintCerts(const std::string& dir, bool reuse_ca, const std::string& client = "") {
  std::string command = std::string(DRAGUARD_SOURCE_DIR) + "/certs/mint-certs.sh --out " + dir +
                        " --san 127.0.0.1 --days 2" + (reuse_ca ? " --reuse-ca" : "") +
                        (client.empty() ? "" : " --client " + client) + " >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

// A blocking TLS client that verifies the server as the API server does.
class TlsClient {
 public:
  TlsClient(const std::string& ca_file, uint16_t port) : port_(port) {
    beast::error_code ec;
    ctx_.load_verify_file(ca_file, ec);
    ctx_.set_verify_mode(ssl::verify_peer, ec);
  }

  // Presents this certificate (PEM chain and key) in the handshake. Set on the stream's own
  // SSL object, which took its settings from the context when it was made.
  bool UseCertificate(const std::string& cert_file, const std::string& key_file) {
    SSL* ssl = stream_.native_handle();
    return SSL_use_certificate_chain_file(ssl, cert_file.c_str()) == 1 &&
           SSL_use_PrivateKey_file(ssl, key_file.c_str(), SSL_FILETYPE_PEM) == 1;
  }

  beast::error_code Connect() {
    beast::error_code ec;
    stream_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ec);
    if (ec) return ec;
    SetReceiveTimeout(5s);
    SSL_set_tlsext_host_name(stream_.native_handle(), kHost);
    stream_.set_verify_callback(ssl::host_name_verification(kHost), ec);
    stream_.handshake(ssl::stream_base::client, ec);
    return ec;
  }

  beast::error_code Request(http::verb verb, std::string_view target, std::string body,
                            Response& out, std::string_view content_type = "application/json") {
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, kHost);
    if (!content_type.empty()) req.set(http::field::content_type, content_type);
    req.body() = std::move(body);
    req.prepare_payload();
    beast::error_code write_ec, ec;
    http::write(stream_, req, write_ec);
    // A server may answer (413) and close before the whole body is written: read the
    // answer anyway, as the API server's HTTP client does.
    out = {};
    http::read(stream_, buffer_, out, ec);
    return ec ? (write_ec ? write_ec : ec) : beast::error_code();
  }

  beast::error_code Validate(Response& out) {
    return Request(http::verb::post, "/validate", MakeReview().dump(), out);
  }

  beast::error_code WriteRaw(std::string_view bytes) {
    beast::error_code ec;
    net::write(stream_, net::buffer(bytes.data(), bytes.size()), ec);
    return ec;
  }

  std::string PeerSerial() {
    X509* cert = SSL_get1_peer_certificate(stream_.native_handle());
    if (cert == nullptr) return {};
    const ASN1_INTEGER* serial = X509_get0_serialNumber(cert);
    std::string out(reinterpret_cast<const char*>(serial->data), serial->length);
    X509_free(cert);
    return out;
  }

 private:
  void SetReceiveTimeout(std::chrono::seconds timeout) {
    timeval tv{.tv_sec = static_cast<time_t>(timeout.count()), .tv_usec = 0};
    setsockopt(stream_.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }

  uint16_t port_;
  net::io_context ioc_;
  ssl::context ctx_{ssl::context::tls_client};
  ssl::stream<tcp::socket> stream_{ioc_, ctx_};
  beast::flat_buffer buffer_;
};

}  // namespace draguard::webhook::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_TESTING_TLS_CLIENT_H_
