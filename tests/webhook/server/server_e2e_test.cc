// End to end: a certificate minted at test time by certs/mint-certs.sh, the server on
// 127.0.0.1 with an ephemeral port, and real TLS clients (curl as the API server uses it, and
// an Asio client) verifying the certificate for draguard.draguard.svc. All loops are bounded.
#include "webhook/server/server.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <openssl/x509.h>

#include "gtest/gtest.h"
#include "tests/webhook/testing/fake_checker.h"
#include "tests/webhook/testing/fake_inventory.h"
#include "webhook/admission/policy_checker.h"
#include "webhook/server/inventory_hooks.h"

namespace draguard::webhook {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using testing::FakeChecker;
using testing::MakeReview;
using Response = http::response<http::string_body>;
using namespace std::chrono_literals;

constexpr char kHost[] = "draguard.draguard.svc";

bool HaveTool(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::string RunCommand(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  pclose(pipe);
  return out;
}

bool MintCerts(const std::string& dir, bool reuse_ca) {
  std::string command = std::string(DRAGUARD_SOURCE_DIR) + "/certs/mint-certs.sh --out " + dir +
                        " --san 127.0.0.1 --days 2" + (reuse_ca ? " --reuse-ca" : "") +
                        " >/dev/null 2>&1";
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

// Sleeps in Check, to keep a request in flight.
class SlowChecker : public AdmissionChecker {
 public:
  std::atomic<int> started{0};
  CheckOutcome Check(const AdmissionRequest&) override {
    ++started;
    std::this_thread::sleep_for(600ms);
    return {};
  }
};

class ServerE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveTool("openssl")) GTEST_SKIP() << "openssl CLI not installed; cannot mint certificates";
    char tmpl[] = "/tmp/draguard-e2e-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ASSERT_TRUE(MintCerts(dir_, false));
    options_.listen = "127.0.0.1:0";
    options_.tls_cert_file = dir_ + "/tls.crt";
    options_.tls_private_key_file = dir_ + "/tls.key";
    options_.threads = 2;
    options_.drain_timeout = 5s;
  }
  void TearDown() override {
    server_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  void StartServer(AdmissionChecker& checker, ServerHooks hooks = {}) {
    hooks.log = [](std::string_view) {};
    server_ = std::make_unique<Server>(options_, checker, std::move(hooks));
    Status status = server_->Start();
    ASSERT_TRUE(status.ok()) << status;
    port_ = server_->port();
    ASSERT_NE(port_, 0);
  }

  std::string ca() const { return dir_ + "/ca.crt"; }

  bool ServesValidate() {
    TlsClient client(ca(), port_);
    Response res;
    return !client.Connect() && !client.Validate(res) && res.result_int() == 200;
  }

  std::string dir_;
  ServerOptions options_;
  std::unique_ptr<Server> server_;
  uint16_t port_ = 0;
};

TEST_F(ServerE2eTest, CurlTalksToItAsTheApiServerDoes) {
  if (!HaveTool("curl")) GTEST_SKIP() << "curl not installed";
  FakeChecker checker;
  checker.outcome.diagnostics.Error("claim.request.name.invalid", FieldPath("spec.devices"), "bad");
  StartServer(checker);
  std::string review_file = dir_ + "/review.json";
  std::ofstream(review_file) << MakeReview().dump();
  std::string curl = "curl -sS --max-time 10 --cacert " + ca() + " --resolve " + kHost + ":" +
                     std::to_string(port_) + ":127.0.0.1 -w '\\n%{http_code}' ";
  std::string base = std::string("https://") + kHost + ":" + std::to_string(port_);
  std::string out = RunCommand(curl + "-H 'Content-Type: application/json' --data-binary @" +
                               review_file + " " + base + "/validate?admin-access=allowed");
  size_t newline = out.rfind('\n');
  ASSERT_NE(newline, std::string::npos) << out;
  EXPECT_EQ(out.substr(newline + 1), "200");
  nlohmann::json resp = nlohmann::json::parse(out.substr(0, newline))["response"];
  EXPECT_EQ(resp["uid"], MakeReview()["request"]["uid"]);
  EXPECT_EQ(resp["allowed"], false);
  EXPECT_EQ(resp["status"]["code"], 403);
  EXPECT_TRUE(checker.last().admin_access_allowed);
  EXPECT_EQ(RunCommand(curl + base + "/healthz"), "ok\n\n200");
  EXPECT_EQ(RunCommand(curl + base + "/readyz"), "ok\n\n200");
  std::string metrics = RunCommand(curl + base + "/metrics");
  EXPECT_NE(metrics.find("verdict=\"denied\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("draguard_certificate_expiry_seconds "), std::string::npos);
  // TLS below 1.2 is refused.
  EXPECT_NE(RunCommand(curl + "--tlsv1.0 --tls-max 1.1 " + base + "/healthz 2>/dev/null"),
            "ok\n\n200");
}

TEST_F(ServerE2eTest, GarbageBeforeTheHandshakeThenStillServes) {
  FakeChecker checker;
  StartServer(checker);
  for (std::string_view garbage : {std::string_view("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
                                   std::string_view("\x16\x03\x01\xff\xff junk junk")}) {
    net::io_context ioc;
    tcp::socket socket(ioc);
    beast::error_code ec;
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ec);
    ASSERT_FALSE(ec) << ec.message();
    timeval tv{.tv_sec = 5, .tv_usec = 0};
    setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    net::write(socket, net::buffer(garbage.data(), garbage.size()), ec);
    char buf[512];
    size_t total = 0;
    for (int i = 0; i < 100 && !ec; ++i) total += socket.read_some(net::buffer(buf), ec);
    EXPECT_EQ(ec, net::error::eof) << ec.message();  // closed by the server, not timed out
    EXPECT_LT(total, 512u);                          // at most a TLS alert
  }
  EXPECT_TRUE(ServesValidate());
}

TEST_F(ServerE2eTest, SlowClientIsCutOffByTheReadTimeout) {
  options_.read_timeout = 1s;
  FakeChecker checker;
  StartServer(checker);
  TlsClient slow(ca(), port_);
  ASSERT_FALSE(slow.Connect());
  std::string request = "POST /validate HTTP/1.1\r\nHost: x\r\n";
  auto start = std::chrono::steady_clock::now();
  beast::error_code ec;
  for (size_t i = 0; i < 8 && !ec; ++i) {  // one header byte every 300 ms
    ec = slow.WriteRaw(request.substr(i, 1));
    std::this_thread::sleep_for(300ms);
  }
  Response res;
  ec = slow.Request(http::verb::get, "/healthz", "", res);
  EXPECT_TRUE(ec) << "the server should have closed the dribbling connection";
  EXPECT_LT(std::chrono::steady_clock::now() - start, 6s);
  EXPECT_TRUE(ServesValidate());
}

TEST_F(ServerE2eTest, CertificateRotationUnderLoadFailsNoRequest) {
  options_.cert_poll_interval = 50ms;
  FakeChecker checker;
  StartServer(checker);
  std::string first_serial;
  {
    TlsClient client(ca(), port_);
    ASSERT_FALSE(client.Connect());
    first_serial = client.PeerSerial();
  }
  std::atomic<int> failures{0}, successes{0};
  std::atomic<bool> stop{false};
  auto load = [&] {
    for (int connection = 0; connection < 200 && !stop; ++connection) {
      TlsClient client(ca(), port_);
      if (client.Connect()) {
        ++failures;
        continue;
      }
      for (int i = 0; i < 3; ++i) {
        Response res;
        bool ok = !client.Validate(res) && res.result_int() == 200;
        ++(ok ? successes : failures);
      }
    }
  };
  std::vector<std::thread> clients;
  for (int i = 0; i < 2; ++i) clients.emplace_back(load);
  for (int rotation = 0; rotation < 3; ++rotation) {
    std::this_thread::sleep_for(250ms);
    ASSERT_TRUE(MintCerts(dir_, /*reuse_ca=*/true));
  }
  std::this_thread::sleep_for(250ms);
  stop = true;
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(successes.load(), 0);
  std::string serial;
  for (int i = 0; i < 40 && (serial.empty() || serial == first_serial); ++i) {
    TlsClient client(ca(), port_);
    if (!client.Connect()) serial = client.PeerSerial();
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_NE(serial, first_serial) << "the rotated certificate was never served";
}

TEST_F(ServerE2eTest, SigtermDrainsTheRequestInFlight) {
  options_.handle_signals = true;
  SlowChecker checker;
  StartServer(checker);
  TlsClient client(ca(), port_);
  ASSERT_FALSE(client.Connect());
  TlsClient idle(ca(), port_);
  ASSERT_FALSE(idle.Connect());
  Response res;
  beast::error_code ec;
  std::thread in_flight([&] { ec = client.Validate(res); });
  for (int i = 0; i < 100 && checker.started == 0; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(checker.started.load(), 1);
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  in_flight.join();
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_EQ(res.result_int(), 200u);
  EXPECT_FALSE(res.keep_alive());
  auto start = std::chrono::steady_clock::now();
  server_->Wait();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);  // well before drain_timeout
  TlsClient late(ca(), port_);
  EXPECT_TRUE(late.Connect());  // no longer listening
}

TEST_F(ServerE2eTest, ConnectionsOverTheCapAreClosed) {
  options_.max_connections = 1;
  FakeChecker checker;
  StartServer(checker);
  TlsClient first(ca(), port_);
  ASSERT_FALSE(first.Connect());
  TlsClient second(ca(), port_);
  EXPECT_TRUE(second.Connect());
  Response res;
  ASSERT_FALSE(first.Request(http::verb::get, "/metrics", "", res));
  EXPECT_NE(res.body().find("draguard_connections_rejected_total 1\n"), std::string::npos);
}

TEST(ServerStartTest, RejectsUnreadableCertificate) {
  FakeChecker checker;
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.tls_cert_file = "/nonexistent/tls.crt";
  options.tls_private_key_file = "/nonexistent/tls.key";
  Server server(options, checker, {.log = [](std::string_view) {}});
  EXPECT_EQ(server.Start().code(), StatusCode::kInvalidArgument);
}

// --- The malformed-input matrix over real TLS: each answered, then the server still serves. ---

struct MalformedCase {
  std::string name;
  std::string content_type = "application/json";
  std::string body;
  unsigned status = 400;
};

std::string ReviewWith(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json review = MakeReview();
  edit(review);
  return review.dump();
}

std::vector<MalformedCase> MalformedCases() {
  return {
      {.name = "empty body", .body = ""},
      {.name = "wrong Content-Type", .content_type = "text/plain", .body = MakeReview().dump()},
      {.name = "no Content-Type", .content_type = "", .body = MakeReview().dump()},
      {.name = "invalid JSON", .body = R"({"apiVersion":"admission.k8s.io/v1",)"},
      {.name = "oversized body", .body = std::string(7 * 1024 * 1024 + 1, ' '), .status = 413},
      {.name = "deep nesting", .body = std::string(100000, '[') + std::string(100000, ']')},
      {.name = "wrong kind",
       .body = ReviewWith([](nlohmann::json& r) { r["kind"] = "ConversionReview"; })},
      {.name = "missing uid",
       .body = ReviewWith([](nlohmann::json& r) { r["request"].erase("uid"); })},
      {.name = "missing request",
       .body = ReviewWith([](nlohmann::json& r) { r.erase("request"); })},
  };
}

TEST_F(ServerE2eTest, MalformedInputMatrixThenStillServes) {
  FakeChecker checker;
  StartServer(checker);
  for (const MalformedCase& c : MalformedCases()) {
    SCOPED_TRACE(c.name);
    TlsClient client(ca(), port_);
    ASSERT_FALSE(client.Connect());
    Response res;
    beast::error_code ec =
        client.Request(http::verb::post, "/validate", c.body, res, c.content_type);
    ASSERT_FALSE(ec) << ec.message();
    EXPECT_EQ(res.result_int(), c.status);
    EXPECT_TRUE(ServesValidate());
  }
  EXPECT_EQ(checker.calls(), static_cast<int>(MalformedCases().size()))
      << "the checker saw only the well-formed reviews of ServesValidate";
}

// The real checker and an inventory source: /readyz waits for the first sync, a claim is
// checked against the inventory, and /metrics reports the inventory.
TEST_F(ServerE2eTest, InventoryGatesReadinessAndFeedsTheChecks) {
  testing::FakeInventorySource source;
  PolicyCheckerOptions checker_options;
  checker_options.satisfiability.source = &source;
  checker_options.satisfiability.new_evaluator = [] {
    return std::make_unique<testing::LiteralSelectorEvaluator>();
  };
  PolicyChecker checker(std::move(checker_options));
  ServerHooks hooks;
  AddInventoryHooks(&source, hooks);
  StartServer(checker, std::move(hooks));

  TlsClient client(ca(), port_);
  ASSERT_FALSE(client.Connect());
  Response res;
  ASSERT_FALSE(client.Request(http::verb::get, "/readyz", "", res));
  EXPECT_EQ(res.result_int(), 503u) << "not ready before the inventory synced";

  source.Publish(testing::ClusterFromYaml(testing::GpuInventoryYaml("node-a", 1)));
  ASSERT_FALSE(client.Request(http::verb::get, "/readyz", "", res));
  EXPECT_EQ(res.result_int(), 200u);

  nlohmann::json review = MakeReview();
  review["request"]["object"]["spec"]["devices"]["requests"] = nlohmann::json::parse(
      R"([{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","count":2}}])");
  ASSERT_FALSE(client.Request(http::verb::post, "/validate", review.dump(), res));
  ASSERT_EQ(res.result_int(), 200u);
  nlohmann::json response = nlohmann::json::parse(res.body())["response"];
  EXPECT_EQ(response["allowed"], true) << "unsatisfiable is a warning by default";
  ASSERT_EQ(response["warnings"].size(), 1u) << res.body();
  EXPECT_NE(response["warnings"][0].get<std::string>().find("no node can allocate"),
            std::string::npos);

  ASSERT_FALSE(client.Request(http::verb::get, "/metrics", "", res));
  EXPECT_NE(res.body().find("draguard_inventory_synced 1\n"), std::string::npos);
  EXPECT_NE(res.body().find("draguard_inventory_objects 2\n"), std::string::npos);
}

}  // namespace
}  // namespace draguard::webhook
