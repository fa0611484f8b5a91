// A scripted Kubernetes API server on 127.0.0.1 for the client tests: plain HTTP or TLS,
// one thread per connection, keep-alive. Each request is answered by the test's handler with
// a whole body or with a chunked stream of lines (a watch) that ends cleanly, drops the
// connection, or stays open until Stop().
//
// The Beast server itself is compiled once, in fake_api_server.cc (the draguard_kube_testing
// library): this header names no Boost type, so the test files that include it no longer
// parse and instantiate Beast's HTTP and TLS operations in every unity batch of `make test`.
#ifndef DRAGUARD_TESTS_WEBHOOK_KUBE_FAKE_API_SERVER_H_
#define DRAGUARD_TESTS_WEBHOOK_KUBE_FAKE_API_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace draguard::webhook::kube::testing {

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

  // Plain HTTP when cert_file is empty, else TLS with the PEM pair. Listens and accepts on
  // return; a certificate or key that cannot be loaded throws (boost::system::system_error),
  // failing the test.
  explicit FakeApiServer(Handler handler, const std::string& cert_file = "",
                         const std::string& key_file = "");
  explicit FakeApiServer(AuthHandler handler, const std::string& cert_file = "",
                         const std::string& key_file = "");

  ~FakeApiServer();
  FakeApiServer(const FakeApiServer&) = delete;
  FakeApiServer& operator=(const FakeApiServer&) = delete;

  // TLS only, before the first connection: the handshake then fails unless the client
  // presents a certificate signed by the CA in `ca_file`.
  void RequireClientCertificate(const std::string& ca_file);

  uint16_t port() const;

  std::vector<SeenRequest> requests() const;

  // Targets received that start with `prefix`.
  std::vector<std::string> TargetsStartingWith(const std::string& prefix) const;

  // Closes the listener and every connection (a held stream ends) and joins the threads.
  // Idempotent; the destructor calls it.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace draguard::webhook::kube::testing

#endif  // DRAGUARD_TESTS_WEBHOOK_KUBE_FAKE_API_SERVER_H_
