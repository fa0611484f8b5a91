// Fuzzes the HTTP session: bytes -> beast::test::stream -> HttpSession -> Router -> handler,
// after Beast's test/fuzz/http_request.cpp. The input is delivered in chunks whose sizes come
// from the input, then the client closes. Invariants: no crash, the session always ends (the
// io_context runs out of work) and the server's output is a sequence of HTTP responses.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>

#include "webhook/server/internal/http_session.h"

namespace {

using namespace draguard::webhook;
using namespace draguard::webhook::server_internal;

class AllowChecker : public AdmissionChecker {
 public:
  CheckOutcome Check(const AdmissionRequest&) override { return {}; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  static AllowChecker checker;
  static ServerOptions options = [] {
    ServerOptions o;
    o.handler.max_body_bytes = 16 * 1024;
    o.max_header_bytes = 4 * 1024;
    return o;
  }();
  Metrics metrics;
  ServerHooks hooks;
  RouterState state;
  state.cert_loaded = true;
  std::atomic<bool> draining{false};
  Router router(checker, options.handler, metrics, hooks, state);
  // A budget smaller than one body at the limit, so that 503 answers are fuzzed too; and the
  // registry, so that phases are tracked as in the server.
  BodyBudget bodies(12 * 1024);
  SessionRegistry registry;
  SessionContext context{router, options, metrics, draining, &bodies, &registry};

  net::io_context ioc;
  beast::test::stream client(ioc);
  beast::test::stream server_end(ioc);
  client.connect(server_end);
  std::make_shared<HttpSession<beast::test::stream>>(context, std::move(server_end))->Run();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t chunk = size > 0 ? static_cast<unsigned char>(input[0]) % 64 + 1 : 1;
  ioc.poll();
  for (size_t pos = 0; pos < input.size(); pos += chunk) {
    beast::error_code ec;
    net::write(client, net::buffer(input.data() + pos, std::min(chunk, input.size() - pos)), ec);
    ioc.restart();
    ioc.poll();
    if (ec) break;
  }
  client.close();
  ioc.restart();
  ioc.run();
  std::string output = client.str();
  if (!output.empty() && output.rfind("HTTP/1.", 0) != 0) std::abort();
  if (metrics.active_connections() != 0) std::abort();
  if (bodies.used() != 0) std::abort();  // every reservation returned
  return 0;
}
