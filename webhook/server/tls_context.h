// TLS server contexts and their reloading when the certificate files change on disk.
// Internal to webhook/server: includes Asio-SSL (not Beast).
//
// CertReloader keeps the current context in a shared_ptr. New connections take the current
// one; connections already open keep theirs until they close, so a rotation never drops a
// connection or a request. Files are polled (stat: mtime, size, inode, through symlinks, so
// a Kubernetes Secret's atomic "..data" swap is seen); a pair that fails to load (for
// instance a certificate written before its key) keeps the old context and is retried on the
// next poll.
#ifndef DRAGUARD_WEBHOOK_SERVER_TLS_CONTEXT_H_
#define DRAGUARD_WEBHOOK_SERVER_TLS_CONTEXT_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/ssl/context.hpp>

#include "policy/common/status_or.h"

namespace draguard::webhook {

struct TlsContext {
  std::shared_ptr<boost::asio::ssl::context> context;
  int64_t not_after_unix = 0;  // the leaf certificate's notAfter
};

// A TLS 1.2/1.3 server context with forward-secret AEAD suites only, from PEM files (the
// certificate file may hold the chain). With a `client_ca_file`, the handshake requires a
// client certificate issued by one of its CAs. Returns InvalidArgument when a file is
// unreadable, not PEM, or the key does not match the certificate. Never throws.
StatusOr<TlsContext> MakeServerTlsContext(const std::string& cert_file,
                                          const std::string& key_file,
                                          const std::string& client_ca_file = "");

class CertReloader {
 public:
  // `client_ca_file` empty: clients are not asked for a certificate.
  CertReloader(std::string cert_file, std::string key_file, std::string client_ca_file = "");

  // Loads the files; the first call must succeed before Current() is used.
  Status Load();
  // Reloads when any file's stamp changed. Returns true when a new context was installed,
  // false when nothing changed; a Status when the files changed but failed to load (the old
  // context stays). Thread-safe.
  StatusOr<bool> ReloadIfChanged();
  // The context for a new connection. Thread-safe.
  TlsContext Current() const;

 private:
  std::string Stamp() const;

  std::string cert_file_;
  std::string key_file_;
  std::string client_ca_file_;
  mutable std::mutex mu_;
  TlsContext current_;
  std::string stamp_;
};

}  // namespace draguard::webhook

#endif  // DRAGUARD_WEBHOOK_SERVER_TLS_CONTEXT_H_
