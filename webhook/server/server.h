// Server: the HTTPS admission webhook (issue 6). Beast and OpenSSL stay behind a pimpl so that
// including this header is cheap (the CLI's `serve` subcommand includes it).
//
//   draguard::webhook::ServerOptions options;      // limits and files, see server_options.h
//   options.tls_cert_file = "...";  options.tls_private_key_file = "...";
//   Status status = draguard::webhook::RunServer(options, checker, hooks);
//
// RunServer blocks until SIGTERM/SIGINT, drains in-flight requests (at most
// options.drain_timeout) and returns. Tests use Server directly: Start(), port(), Shutdown(),
// Wait().
#ifndef DRAGUARD_WEBHOOK_SERVER_SERVER_H_
#define DRAGUARD_WEBHOOK_SERVER_SERVER_H_

#include <cstdint>
#include <memory>

#include "policy/common/status.h"
#include "webhook/admission/checker.h"
#include "webhook/server/server_options.h"

namespace draguard::webhook {

class Server {
 public:
  // `checker` must outlive the server and be safe to call from several threads.
  Server(ServerOptions options, AdmissionChecker& checker, ServerHooks hooks = {});
  // Shuts down and waits if still running.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Loads the certificate, binds options.listen and starts the I/O threads. Returns
  // InvalidArgument for a bad listen address or certificate, Unavailable when the address
  // cannot be bound. Call once.
  Status Start();
  // The bound port (useful with port 0); 0 before Start().
  uint16_t port() const;
  // The plain-HTTP probe port (ServerOptions::probe_listen); 0 when there is none.
  uint16_t probe_port() const;
  // Stops accepting, reports not-ready, closes idle connections, lets in-flight requests
  // finish (responses carry Connection: close) and stops the threads after at most
  // options.drain_timeout. Thread-safe, idempotent, returns at once.
  void Shutdown();
  // Blocks until every I/O thread has exited (after Shutdown()).
  void Wait();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Start() + wait for SIGTERM or SIGINT + drain. Returns Start()'s error, else OK after the drain.
Status RunServer(const ServerOptions& options, AdmissionChecker& checker, ServerHooks hooks = {});

// The connection limit in force: `requested` (ServerOptions::max_connections), kept below the
// open-file limit `file_limit` with room for the process's other descriptors; `file_limit`
// 0 means unknown. The server raises its soft open-file limit to the hard one first.
size_t ConnectionLimit(size_t requested, size_t file_limit);

// Routes OpenSSL's allocations through functions that return at once on free(NULL): Asio's
// TLS stream clears the thread's OpenSSL error queue before each of its three TLS operations
// per request (ERR_clear_error), which frees the 32 file and function names of its 16 slots,
// all NULL, and each free(NULL) costs jemalloc's radix-tree lookup (~40 instructions): ~4,000
// instructions a request. Must run before OpenSSL's first allocation (OpenSSL then refuses);
// false when it was too late, and nothing changes. Call once, early (`draguard serve` does so
// first thing).
bool InstallOpenSslAllocator();

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_SERVER_H_
