// End to end: a certificate minted at test time by certs/mint-certs.sh, the server on
// 127.0.0.1 with an ephemeral port, and real TLS clients (curl as the API server uses it, and
// an Asio client) verifying the certificate for draguard.draguard.svc. All loops are bounded.
#include "webhook/server/server.h"

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
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
#include "tests/webhook/testing/tls_client.h"
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
using testing::HaveTool;
using testing::kHost;
using testing::MakeReview;
using testing::MintCerts;
using testing::Response;
using testing::RunCommand;
using testing::TlsClient;
using namespace std::chrono_literals;

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

// Issue 17 item 1: a connection that completes its handshake and sends nothing is closed
// after the first-request timeout, not held for the keep-alive idle timeout; a connection
// that has completed a request keeps the idle timeout.
TEST_F(ServerE2eTest, ASilentConnectionIsClosedAfterTheFirstRequestTimeout) {
  options_.first_request_timeout = 300ms;
  options_.idle_timeout = 60s;
  FakeChecker checker;
  StartServer(checker);
  TlsClient silent(ca(), port_);
  ASSERT_FALSE(silent.Connect());
  TlsClient served(ca(), port_);
  ASSERT_FALSE(served.Connect());
  Response res;
  ASSERT_FALSE(served.Validate(res));
  std::this_thread::sleep_for(900ms);  // three first-request timeouts
  EXPECT_TRUE(silent.Validate(res)) << "the silent connection is still open";
  EXPECT_FALSE(served.Validate(res)) << "the keep-alive connection was closed";
  EXPECT_EQ(res.result_int(), 200);
}

// The plain probe port has the same timeouts: a connection there that sends nothing is
// closed after the first-request timeout (anyone in the cluster may reach that port).
TEST_F(ServerE2eTest, ASilentProbeConnectionIsClosedAfterTheFirstRequestTimeout) {
  options_.first_request_timeout = 300ms;
  options_.probe_listen = "127.0.0.1:0";
  FakeChecker checker;
  StartServer(checker);
  net::io_context ioc;
  tcp::socket socket(ioc);
  beast::error_code ec;
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->probe_port()), ec);
  ASSERT_FALSE(ec) << ec.message();
  timeval tv{.tv_sec = 5, .tv_usec = 0};  // a server that never closes fails, not hangs
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char byte;
  socket.read_some(net::buffer(&byte, 1), ec);
  EXPECT_EQ(ec, net::error::eof) << ec.message();
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

// At the limit, a connection that has completed a request (the API server's keep-alive) is
// never closed to make room: the new connection is refused instead.
TEST_F(ServerE2eTest, AtTheCapServedConnectionsStayAndTheNewOneIsClosed) {
  options_.max_connections = 1;
  FakeChecker checker;
  StartServer(checker);
  TlsClient first(ca(), port_);
  ASSERT_FALSE(first.Connect());
  Response res;
  ASSERT_FALSE(first.Validate(res));
  TlsClient second(ca(), port_);
  EXPECT_TRUE(second.Connect());
  ASSERT_FALSE(first.Request(http::verb::get, "/metrics", "", res));
  EXPECT_NE(res.body().find("draguard_connections_rejected_total 1\n"), std::string::npos);
  EXPECT_NE(res.body().find("draguard_connections_evicted_total 0\n"), std::string::npos);
}

// Issue 17 item 1: at the limit, the oldest connection that has not completed a request
// makes room for the new one.
TEST_F(ServerE2eTest, AtTheCapAnIdleConnectionMakesRoom) {
  options_.max_connections = 1;
  FakeChecker checker;
  StartServer(checker);
  TlsClient idle(ca(), port_);
  ASSERT_FALSE(idle.Connect());
  TlsClient api_server(ca(), port_);
  ASSERT_FALSE(api_server.Connect());
  Response res;
  ASSERT_FALSE(api_server.Validate(res));
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_TRUE(idle.Validate(res)) << "the idle connection was closed";
  ASSERT_FALSE(api_server.Request(http::verb::get, "/metrics", "", res));
  EXPECT_NE(res.body().find("draguard_connections_evicted_total 1\n"), std::string::npos);
}

// The connection flood's size. CTest runs a tenth of it (cheap under ASan);
// DRAGUARD_FLOOD_TEST_SCALE=full runs the figures of issue 17 item 1: 3,000 idle TCP
// connections and 500 half-header TLS connections against a limit of 1,000.
struct FloodScale {
  int idle;
  int half_header;
  size_t max_connections;
  bool full;
};

FloodScale ChosenFloodScale() {
  const char* scale = std::getenv("DRAGUARD_FLOOD_TEST_SCALE");
  if (scale != nullptr && std::string_view(scale) == "full") return {3000, 500, 1000, true};
  return {300, 50, 100, false};
}

// Issue 17 item 1: TCP connections that never start a handshake and TLS connections that send
// half a header do not lock out the API server: its keep-alive connection and fresh
// connections are answered (200) throughout (each read is bounded by the client's 5 s
// timeout: a stuck server fails the test rather than hanging it), and the evictions are
// counted. Latency is measured and printed, not asserted (these machines are shared); the full
// scale's figure is in docs/benchmarks.md.
TEST_F(ServerE2eTest, AConnectionFloodDoesNotLockOutTheApiServer) {
  const FloodScale scale = ChosenFloodScale();
  // The flood's client ends and the server's ends live in this one process.
  const size_t descriptors_needed = 2 * (scale.idle + scale.half_header) + 1000;
  rlimit files{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &files), 0);
  if (files.rlim_max != RLIM_INFINITY && files.rlim_max < descriptors_needed) {
    GTEST_SKIP() << "the open-file limit (" << files.rlim_max << ") is below the "
                 << descriptors_needed << " descriptors the flood and the server need here";
  }
  options_.max_connections = scale.max_connections;
  FakeChecker checker;
  StartServer(checker);  // raises this process's soft limit to the hard one
  TlsClient api_server(ca(), port_);
  ASSERT_FALSE(api_server.Connect());
  Response res;
  ASSERT_FALSE(api_server.Validate(res));
  std::chrono::steady_clock::duration slowest{};
  int probes = 0;
  auto served = [&](const char* when) {
    Response r;
    auto started = std::chrono::steady_clock::now();
    EXPECT_FALSE(api_server.Validate(r)) << "keep-alive connection, " << when;
    EXPECT_EQ(r.result_int(), 200) << when;
    slowest = std::max(slowest, std::chrono::steady_clock::now() - started);
    started = std::chrono::steady_clock::now();
    TlsClient fresh(ca(), port_);
    EXPECT_FALSE(fresh.Connect()) << "fresh connection, " << when;
    EXPECT_FALSE(fresh.Validate(r)) << "fresh connection, " << when;
    EXPECT_EQ(r.result_int(), 200) << when;
    slowest = std::max(slowest, std::chrono::steady_clock::now() - started);
    ++probes;
  };

  net::io_context ioc;
  std::vector<std::unique_ptr<tcp::socket>> idle;
  for (int i = 0; i < scale.idle; ++i) {
    auto socket = std::make_unique<tcp::socket>(ioc);
    beast::error_code ec;
    socket->connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ec);
    ASSERT_FALSE(ec) << "connection " << i << ": " << ec.message();
    idle.push_back(std::move(socket));
    if (i % (scale.idle / 6) == scale.idle / 6 - 1) served("during the idle flood");
  }
  std::vector<std::unique_ptr<TlsClient>> half;
  for (int i = 0; i < scale.half_header; ++i) {
    auto client = std::make_unique<TlsClient>(ca(), port_);
    if (!client->Connect()) client->WriteRaw("POST /validate HTTP/1.1\r\nHost: dra");
    half.push_back(std::move(client));
    if (i % (scale.half_header / 5) == scale.half_header / 5 - 1) {
      served("during the half-header flood");
    }
  }
  served("after the floods");
  ASSERT_FALSE(api_server.Request(http::verb::get, "/metrics", "", res));
  const std::string evicted = "\ndraguard_connections_evicted_total ";
  const size_t at = res.body().find(evicted);
  ASSERT_NE(at, std::string::npos);
  const size_t floods = static_cast<size_t>(scale.idle + scale.half_header);
  // Most of the flood was evicted; some may have met the handshake timeout first.
  EXPECT_GE(std::stoul(res.body().substr(at + evicted.size())),
            (floods - scale.max_connections) * 4 / 5)
      << res.body();
  const auto slowest_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count();
  RecordProperty("slowest_answer_ms", static_cast<int>(slowest_ms));
  std::printf("connection flood (%s scale: %d idle, %d half-header, limit %zu): %d probes "
              "answered 200, slowest %lld ms\n",
              scale.full ? "full" : "reduced", scale.idle, scale.half_header,
              scale.max_connections, probes, static_cast<long long>(slowest_ms));
}

// Issue 17 item 2: with --client-ca-file, only a client with a certificate from that CA (the
// API server's) is served; the probes stay reachable on the plain probe port.
TEST_F(ServerE2eTest, ClientCertificatesAreRequiredWhenAClientCaIsGiven) {
  ASSERT_TRUE(MintCerts(dir_, true, "kube-apiserver"));
  const std::string other = dir_ + "/other";
  ASSERT_TRUE(std::filesystem::create_directory(other));
  ASSERT_TRUE(MintCerts(other, false, "kube-apiserver"));  // the same name, another CA
  options_.client_ca_file = dir_ + "/client-ca.crt";
  options_.probe_listen = "127.0.0.1:0";
  FakeChecker checker;
  StartServer(checker);
  Response res;

  // No certificate: the handshake is refused (under TLS 1.3 the refusal may arrive with the
  // first read instead).
  TlsClient anonymous(ca(), port_);
  EXPECT_TRUE(anonymous.Connect() || anonymous.Validate(res));

  TlsClient stranger(ca(), port_);
  ASSERT_TRUE(stranger.UseCertificate(other + "/client.crt", other + "/client.key"));
  EXPECT_TRUE(stranger.Connect() || stranger.Validate(res));

  TlsClient api_server(ca(), port_);
  ASSERT_TRUE(api_server.UseCertificate(dir_ + "/client.crt", dir_ + "/client.key"));
  ASSERT_FALSE(api_server.Connect());
  ASSERT_FALSE(api_server.Validate(res));
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(checker.calls(), 1);

  // The probe port: plain HTTP, no certificate; probes only.
  ASSERT_NE(server_->probe_port(), 0);
  const std::string base = "http://127.0.0.1:" + std::to_string(server_->probe_port());
  if (HaveTool("curl")) {
    const std::string curl = "curl -sS --max-time 10 -w '\\n%{http_code}' ";
    EXPECT_EQ(RunCommand(curl + base + "/healthz"), "ok\n\n200");
    EXPECT_EQ(RunCommand(curl + base + "/readyz"), "ok\n\n200");
    EXPECT_NE(RunCommand(curl + base + "/metrics").find("draguard_ready 1"), std::string::npos);
    const std::string admission = RunCommand(curl + "-d x " + base + "/validate");
    EXPECT_EQ(admission.substr(admission.rfind('\n') + 1), "404") << admission;
  }
  EXPECT_EQ(checker.calls(), 1) << "nothing reached the checker through the probe port";
}

// Issue 17 item 2: the client CA file is reloaded when it changes, like the serving pair: once
// it names another CA, that CA's clients are served and the old CA's are refused.
TEST_F(ServerE2eTest, ARotatedClientCaIsReloaded) {
  ASSERT_TRUE(MintCerts(dir_, true, "kube-apiserver"));
  const std::string next = dir_ + "/next";
  ASSERT_TRUE(std::filesystem::create_directory(next));
  ASSERT_TRUE(MintCerts(next, false, "kube-apiserver"));  // a new client CA and pair
  options_.client_ca_file = dir_ + "/client-ca.crt";
  options_.cert_poll_interval = 50ms;
  FakeChecker checker;
  StartServer(checker);
  auto served_with = [&](const std::string& pair_dir) {
    TlsClient client(ca(), port_);
    Response res;
    return client.UseCertificate(pair_dir + "/client.crt", pair_dir + "/client.key") &&
           !client.Connect() && !client.Validate(res) && res.result_int() == 200;
  };
  ASSERT_TRUE(served_with(dir_));
  ASSERT_FALSE(served_with(next)) << "the new CA is not trusted yet";

  // As a Secret update does: the new content appears at the path in one rename.
  std::filesystem::copy_file(next + "/client-ca.crt", dir_ + "/client-ca.crt.new");
  std::filesystem::rename(dir_ + "/client-ca.crt.new", dir_ + "/client-ca.crt");
  bool accepted = false;
  for (int attempt = 0; attempt < 100 && !accepted; ++attempt) {  // polled every 50 ms
    accepted = served_with(next);
    if (!accepted) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(accepted) << "the rotated client CA was never used";
  EXPECT_FALSE(served_with(dir_)) << "the old CA's client is still served";
}

// Start logs the open-file limit (raised to the hard limit) and the connection limit in force.
TEST_F(ServerE2eTest, StartLogsTheConnectionLimit) {
  FakeChecker checker;
  std::vector<std::string> lines;
  Server server(options_, checker,
                {.log = [&lines](std::string_view line) { lines.emplace_back(line); }});
  ASSERT_TRUE(server.Start().ok());
  server.Shutdown();
  server.Wait();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front().rfind("connection limit ", 0), 0u) << lines.front();
  EXPECT_NE(lines.front().find("open-file limit"), std::string::npos) << lines.front();
}

TEST(ConnectionLimitTest, StaysBelowTheOpenFileLimit) {
  EXPECT_EQ(ConnectionLimit(16384, 1024), 960u);
  EXPECT_EQ(ConnectionLimit(16384, 1048576), 16384u);
  EXPECT_EQ(ConnectionLimit(100, 0), 100u) << "unknown limit";
  EXPECT_EQ(ConnectionLimit(16384, 100), 64u) << "a tiny limit still leaves some room";
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
  checker_options.satisfiability.new_evaluator = [](std::shared_ptr<alloc::PreparedDevices>) {
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
