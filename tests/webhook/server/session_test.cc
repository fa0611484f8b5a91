// HttpSession over beast::test::stream: the HTTP layer without sockets or TLS.
#include "webhook/server/internal/http_session.h"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>

#include "gtest/gtest.h"
#include "tests/webhook/testing/fake_checker.h"

namespace draguard::webhook::server_internal {
namespace {

using testing::FakeChecker;
using testing::MakeReview;
using Response = http::response<http::string_body>;

// Splits a byte stream into the HTTP responses it holds.
std::vector<Response> ParseResponses(std::string_view data) {
  std::vector<Response> out;
  while (!data.empty()) {
    http::response_parser<http::string_body> parser;
    parser.eager(true);
    beast::error_code ec;
    while (!parser.is_done() && !data.empty()) {
      size_t used = parser.put(net::buffer(data.data(), data.size()), ec);
      if (ec || used == 0) return out;
      data.remove_prefix(used);
    }
    if (!parser.is_done()) break;
    out.push_back(parser.release());
  }
  return out;
}

std::string Post(std::string_view target, std::string_view body, std::string_view extra = {}) {
  return "POST " + std::string(target) + " HTTP/1.1\r\nHost: draguard\r\n" +
         "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n" + std::string(extra) + "\r\n" + std::string(body);
}

constexpr std::string_view kHealthz = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";

class SessionTest : public ::testing::Test {
 protected:
  SessionTest() {
    state_.cert_loaded = true;
    options_.handler.max_body_bytes = 64 * 1024;
    options_.max_header_bytes = 1024;
  }

  // Starts a session; returns the client end of the pipe.
  beast::test::stream& Start() {
    beast::test::stream server_end(ioc_);
    client_.connect(server_end);
    session_ = std::make_shared<HttpSession<beast::test::stream>>(context_, std::move(server_end));
    session_->Run();
    ioc_.poll();
    return client_;
  }

  // Writes to the session and runs it until it waits. A write to a closed session fails;
  // tests that expect the close check the responses instead.
  beast::error_code Send(std::string_view bytes) {
    beast::error_code ec;
    net::write(client_, net::buffer(bytes.data(), bytes.size()), ec);
    ioc_.restart();
    ioc_.poll();
    return ec;
  }

  // Closes the client side and runs the session to its end.
  std::vector<Response> Finish() {
    client_.close();
    ioc_.restart();
    ioc_.run();
    return ParseResponses(client_.str());
  }

  net::io_context ioc_;
  beast::test::stream client_{ioc_};
  FakeChecker checker_;
  ServerOptions options_;
  Metrics metrics_;
  ServerHooks hooks_;
  RouterState state_;
  std::atomic<bool> draining_{false};
  Router router_{checker_, options_.handler, metrics_, hooks_, state_};
  // Bodies in flight over all sessions: more than one typical review, less than two at the
  // 64 KiB limit.
  BodyBudget bodies_{100 * 1024};
  SessionContext context_{router_, options_, metrics_, draining_, &bodies_};
  std::shared_ptr<HttpSession<beast::test::stream>> session_;
};

TEST_F(SessionTest, AnswersAReview) {
  Start();
  Send(Post("/validate", MakeReview().dump()));
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), 200u);
  EXPECT_EQ(responses[0][http::field::content_type], "application/json");
  EXPECT_TRUE(responses[0].keep_alive());
  EXPECT_EQ(nlohmann::json::parse(responses[0].body())["response"]["allowed"], true);
  EXPECT_EQ(checker_.calls(), 1);
}

TEST_F(SessionTest, KeepAliveServesSeveralRequestsInOrder) {
  Start();
  Send(Post("/validate", MakeReview("ResourceClaim", "v1", "CREATE", "u1").dump()));
  Send(kHealthz);
  Send(Post("/mutate", MakeReview("ResourceClaim", "v1", "CREATE", "u2").dump()));
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(responses[0].body())["response"]["uid"], "u1");
  EXPECT_EQ(responses[1].body(), "ok\n");
  EXPECT_EQ(nlohmann::json::parse(responses[2].body())["response"]["uid"], "u2");
}

TEST_F(SessionTest, PipelinedRequestsInOneWrite) {
  Start();
  Send(Post("/validate", MakeReview("DeviceClass", "v1", "CREATE", "p1").dump()) +
       std::string(kHealthz) +
       Post("/validate", MakeReview("DeviceClass", "v1", "CREATE", "p2").dump()));
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(responses[0].body())["response"]["uid"], "p1");
  EXPECT_EQ(responses[1].result_int(), 200u);
  EXPECT_EQ(nlohmann::json::parse(responses[2].body())["response"]["uid"], "p2");
}

TEST_F(SessionTest, ChunkedBodyIsRead) {
  Start();
  const std::string body = MakeReview().dump();
  std::ostringstream chunked;
  chunked << std::hex << body.size() << "\r\n" << body << "\r\n0\r\n\r\n";
  Send("POST /validate HTTP/1.1\r\nHost: draguard\r\nContent-Type: application/json\r\n"
       "Transfer-Encoding: Chunked \r\n\r\n" + chunked.str());
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), 200u);
  EXPECT_EQ(checker_.calls(), 1);
}

TEST_F(SessionTest, HeadersOneByteAtATime) {
  Start();
  std::string request = Post("/validate", MakeReview().dump());
  for (char c : request) ASSERT_FALSE(Send(std::string_view(&c, 1)));
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), 200u);
}

struct BadInputCase {
  std::string name;
  std::string bytes;
  unsigned status;
};

class SessionBadInputTest : public SessionTest,
                            public ::testing::WithParamInterface<BadInputCase> {};

// Each bad input gets one error response, the connection is closed, and the session ends.
TEST_P(SessionBadInputTest, AnswersOnceAndCloses) {
  Start();
  Send(GetParam().bytes);
  // Anything after the error must not be served.
  Send(kHealthz);
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), GetParam().status);
  EXPECT_FALSE(responses[0].keep_alive());
  EXPECT_EQ(checker_.calls(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Session, SessionBadInputTest,
    ::testing::Values(
        BadInputCase{"Garbage", "\x16\x03\x01\x02\x01garbage\r\n\r\n", 400},
        BadInputCase{"BadRequestLine", "GET\r\n\r\n", 400},
        BadInputCase{"BodyOverLimit",
                     "POST /validate HTTP/1.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: 10000000\r\n\r\n{",
                     413},
        // Issue 19 item 15: a body in a transfer coding other than chunked is refused, not read
        // as plain chunked.
        BadInputCase{"GzipChunked",
                     "POST /validate HTTP/1.1\r\nContent-Type: application/json\r\n"
                     "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
                     501},
        BadInputCase{"TwoTransferEncodingHeaders",
                     "POST /validate HTTP/1.1\r\nContent-Type: application/json\r\n"
                     "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "2\r\n{}\r\n0\r\n\r\n",
                     501},
        BadInputCase{"HeadersOverLimit",
                     "GET /healthz HTTP/1.1\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n",
                     431}),
    [](const auto& p) { return p.param.name; });

// The session keeps only the fields it reads (request_parser.h): what reaches the router must
// be what a full header map would have given. Field names in any case, the first
// Content-Type when there are two, the fields an API server sends beside them.
struct HeaderCase {
  std::string name;
  std::string fields;  // each "Name: value\r\n"
  unsigned status;
};

class SessionHeaderTest : public SessionTest, public ::testing::WithParamInterface<HeaderCase> {};

TEST_P(SessionHeaderTest, RouterSeesTheFieldsItReads) {
  Start();
  const std::string body = MakeReview().dump();
  Send("POST /validate?timeout=10s HTTP/1.1\r\nHost: draguard\r\n" + GetParam().fields +
       "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), GetParam().status);
  EXPECT_EQ(checker_.calls(), GetParam().status == 200 ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(
    Session, SessionHeaderTest,
    ::testing::Values(
        HeaderCase{"AsTheApiServerSendsThem",
                   "User-Agent: kube-apiserver-admission\r\nAccept: application/json, */*\r\n"
                   "Accept-Encoding: gzip\r\nContent-Type: application/json\r\n",
                   200},
        HeaderCase{"LowerCaseName", "content-type: application/json\r\n", 200},
        HeaderCase{"WithParameters", "Content-Type: Application/JSON; charset=utf-8\r\n", 200},
        HeaderCase{"FirstOfTwoIsJson",
                   "Content-Type: application/json\r\nContent-Type: text/plain\r\n", 200},
        HeaderCase{"FirstOfTwoIsText",
                   "Content-Type: text/plain\r\nContent-Type: application/json\r\n", 400},
        HeaderCase{"Missing", "", 400},
        HeaderCase{"UnknownFieldsOnly", "X-Content-Type: application/json\r\n", 400}),
    [](const auto& p) { return p.param.name; });

// Issue 17: a body is read only when it fits the budget shared by all connections, so that
// many connections cannot each hold a body of the per-request limit.
TEST_F(SessionTest, ABodyBeyondTheSharedBudgetIsRefusedWith503) {
  Start();
  // A first session holds 60 KB of the budget with a body it has not finished sending.
  beast::test::stream holder_client(ioc_);
  beast::test::stream holder_end(ioc_);
  holder_client.connect(holder_end);
  auto holder =
      std::make_shared<HttpSession<beast::test::stream>>(context_, std::move(holder_end));
  holder->Run();
  const std::string big(60 * 1024, ' ');
  const std::string head = Post("/validate", big).substr(0, Post("/validate", big).size() - 100);
  net::write(holder_client, net::buffer(head));
  ioc_.restart();
  ioc_.poll();
  EXPECT_EQ(bodies_.used(), 60u * 1024);

  // This one needs 50 KB more: refused at once, before its body is read.
  Send(Post("/validate", std::string(50 * 1024, ' ')));
  // The holder's connection goes (before Finish runs every session to its end): its
  // reservation goes with it.
  holder_client.close();
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), 503);
  EXPECT_FALSE(responses[0].keep_alive());
  EXPECT_EQ(checker_.calls(), 0);
  holder.reset();
  EXPECT_EQ(bodies_.used(), 0u);
}

TEST_F(SessionTest, AnAnsweredRequestReturnsItsBodyToTheBudget) {
  Start();
  for (int i = 0; i < 3; ++i) {  // each 40 KB: only one at a time fits twice over
    Send(Post("/validate", MakeReview().dump() + std::string(40 * 1024, ' ')));
    EXPECT_EQ(bodies_.used(), 0u);
  }
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 3u);
  for (const Response& r : responses) EXPECT_EQ(r.result_int(), 200);
}

TEST(BodyBudgetTest, ReservesUpToTheLimitAndNoFurther) {
  BodyBudget budget(100);
  EXPECT_TRUE(budget.TryReserve(60));
  EXPECT_FALSE(budget.TryReserve(41));
  EXPECT_TRUE(budget.TryReserve(40));
  EXPECT_FALSE(budget.TryReserve(1));
  budget.Release(60);
  EXPECT_TRUE(budget.TryReserve(60));
  EXPECT_FALSE(budget.TryReserve(SIZE_MAX)) << "no overflow";
  EXPECT_EQ(budget.used(), 100u);
}

TEST_F(SessionTest, Http10ClosesAfterTheResponse) {
  Start();
  Send("GET /healthz HTTP/1.0\r\n\r\n");
  Send(kHealthz);
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_FALSE(responses[0].keep_alive());
}

TEST_F(SessionTest, Http10KeepAliveIsHonoured) {
  Start();
  Send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  Send(kHealthz);
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 2u);
  EXPECT_EQ(responses[0].version(), 10u);
  EXPECT_TRUE(responses[0].keep_alive());
  EXPECT_EQ(responses[1].version(), 11u);
}

// The exact bytes of a response: the status line with Beast's reason phrase, the two fields,
// Connection only where the version's default is not what happens, and the body.
TEST(WriteResponseTest, WritesHeadAndBodyInOneBuffer) {
  struct Case {
    int status;
    unsigned version;
    bool keep_alive;
    std::string body;
    std::string want;
  };
  const Case cases[] = {
      {200, 11, true, "ok\n",
       "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n"},
      {413, 11, false, "",
       "HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n"
       "Connection: close\r\n\r\n"},
      {200, 10, false, "x",
       "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n\r\nx"},
      {400, 10, true, "x",
       "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 1\r\n"
       "Connection: keep-alive\r\n\r\nx"},
  };
  std::string out = "left over from the previous response";
  for (const Case& c : cases) {
    WriteResponse({.status = c.status, .content_type = "text/plain", .body = c.body}, c.version,
                  c.keep_alive, out);
    EXPECT_EQ(out, c.want) << c.status << " HTTP/" << c.version;
  }
}

TEST_F(SessionTest, DrainingAnswersWithConnectionClose) {
  Start();
  draining_ = true;
  Send(Post("/validate", MakeReview().dump()));
  Send(kHealthz);
  std::vector<Response> responses = Finish();
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0].result_int(), 200u);
  EXPECT_FALSE(responses[0].keep_alive());
}

TEST_F(SessionTest, StopClosesAnIdleConnection) {
  Start();
  Send(kHealthz);
  EXPECT_EQ(metrics_.active_connections(), 1);
  session_->Stop();
  session_.reset();
  ioc_.restart();
  ioc_.run();  // returns only once the session has ended
  EXPECT_EQ(metrics_.active_connections(), 0);
  EXPECT_EQ(ParseResponses(client_.str()).size(), 1u);
}

TEST_F(SessionTest, ClientCloseEndsTheSession) {
  Start();
  session_.reset();
  Finish();
  EXPECT_EQ(metrics_.active_connections(), 0);
}

// The fast path against the general one: a request found whole in the buffer is parsed there
// (HttpSession::ParseBuffered), one that arrives in pieces through Beast's read operations.
// Whatever the pieces, the client must receive the same bytes.
class SessionSplitTest : public SessionTest {
 protected:
  // Sends `writes` one after the other to a new session; returns all it answered.
  std::string Exchange(const std::vector<std::string>& writes) {
    beast::test::stream client(ioc_);
    beast::test::stream server_end(ioc_);
    client.connect(server_end);
    auto session =
        std::make_shared<HttpSession<beast::test::stream>>(context_, std::move(server_end));
    session->Run();
    ioc_.restart();
    ioc_.poll();
    for (const std::string& bytes : writes) {
      beast::error_code ec;
      net::write(client, net::buffer(bytes), ec);
      ioc_.restart();
      ioc_.poll();
    }
    client.close();
    ioc_.restart();
    ioc_.run();
    return std::string(client.str());
  }
};

TEST_F(SessionSplitTest, EverySplitOfTheStreamGetsTheSameAnswers) {
  const std::string review = MakeReview("ResourceClaim", "v1", "CREATE", "s1").dump();
  std::ostringstream chunk;
  chunk << std::hex << review.size() << "\r\n" << review << "\r\n0\r\n\r\n";
  const std::vector<std::pair<std::string, std::string>> streams = {
      {"review", Post("/validate", review)},
      {"review then healthz then a shorter body",
       Post("/validate", review + std::string(300, ' ')) + std::string(kHealthz) +
           Post("/validate", review)},
      {"chunked", "POST /validate HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n" + chunk.str() + std::string(kHealthz)},
      {"bad chunk", "POST /validate HTTP/1.1\r\nHost: d\r\nContent-Type: application/json\r\n"
                    "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"},
      {"body over limit", "POST /validate HTTP/1.1\r\nContent-Type: application/json\r\n"
                          "Content-Length: 70000\r\n\r\n" + std::string(70000, ' ')},
      {"headers over limit",
       "GET /healthz HTTP/1.1\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n"},
      {"bad request line", "GET\r\n\r\n"},
      {"unsupported coding", "POST /validate HTTP/1.1\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"},
      {"http/1.0", "GET /healthz HTTP/1.0\r\n\r\n"},
  };
  for (const auto& [name, stream] : streams) {
    SCOPED_TRACE(name);
    const std::string whole = Exchange({stream});
    ASSERT_FALSE(whole.empty());
    std::vector<std::string> bytes;
    for (char c : stream) bytes.emplace_back(1, c);
    EXPECT_EQ(Exchange(bytes), whole) << "one byte at a time";
    // Every split in two (every 61st in the longest streams, to bound the test's time).
    const size_t step = stream.size() > 4000 ? 61 : 1;
    for (size_t at = 1; at < stream.size(); at += step) {
      ASSERT_EQ(Exchange({stream.substr(0, at), stream.substr(at)}), whole) << "split at " << at;
    }
  }
}

// A request's body storage is lent to the next request: a shorter body after a longer one
// must not carry the longer one's bytes.
TEST_F(SessionSplitTest, AShorterBodyAfterALongerOneIsReadAlone) {
  const std::string a = MakeReview("ResourceClaim", "v1", "CREATE", "long-one").dump();
  const std::string b = MakeReview("ResourceClaim", "v1", "CREATE", "s").dump();
  ASSERT_LT(b.size(), a.size());
  const std::string both = Exchange({Post("/validate", a), Post("/validate", b)});
  std::vector<Response> responses = ParseResponses(both);
  ASSERT_EQ(responses.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(responses[0].body())["response"]["uid"], "long-one");
  EXPECT_EQ(nlohmann::json::parse(responses[1].body())["response"]["uid"], "s");
  // The second answer, byte for byte, is what a session answers to that request alone.
  EXPECT_EQ(both.substr(both.find("HTTP/1.1", 1)), Exchange({Post("/validate", b)}));
}

}  // namespace
}  // namespace draguard::webhook::server_internal
