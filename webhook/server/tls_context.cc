#include "webhook/server/tls_context.h"

#include <sys/stat.h>

#include <cstdlib>
#include <ctime>
#include <utility>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "policy/common/status_macros.h"
#include "webhook/server/server.h"

namespace draguard::webhook {
namespace {

namespace ssl = boost::asio::ssl;

// TLS 1.2 suites: ECDHE key exchange with AEAD ciphers only (Mozilla "intermediate").
// TLS 1.3 suites are OpenSSL's defaults, which are all modern.
constexpr char kTls12Ciphers[] =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

std::string OpenSslError(const std::string& what, const boost::system::error_code& ec) {
  return what + ": " + ec.message();
}

int64_t NotAfter(SSL_CTX* ctx) {
  X509* cert = SSL_CTX_get0_certificate(ctx);
  if (cert == nullptr) return 0;
  std::tm tm{};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &tm) != 1) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

std::string FileStamp(const std::string& path) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0) return "missing";
  return std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

// Makes the context refuse a handshake without a client certificate that chains to a CA of
// `ca_file` (the API server's, named by its AdmissionConfiguration kubeconfig).
Status RequireClientCertificates(ssl::context& context, const std::string& ca_file) {
  SSL_CTX* native = context.native_handle();
  if (SSL_CTX_load_verify_locations(native, ca_file.c_str(), nullptr) != 1) {
    ERR_clear_error();
    return InvalidArgumentError("client CA file " + ca_file +
                                " is unreadable or holds no PEM certificate");
  }
  // The CA names sent in the CertificateRequest, so that a client with several
  // certificates picks the right one.
  STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(ca_file.c_str());
  if (names == nullptr) {
    ERR_clear_error();
    return InvalidArgumentError("client CA file " + ca_file + " holds no certificate");
  }
  SSL_CTX_set_client_CA_list(native, names);
  SSL_CTX_set_verify(native, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  // Resumed sessions must belong to this context once peers are verified.
  static constexpr unsigned char kSessionContext[] = "draguard";
  SSL_CTX_set_session_id_context(native, kSessionContext, sizeof kSessionContext - 1);
  return OkStatus();
}

// OpenSSL's allocation hooks (CRYPTO_set_mem_functions); the file and line are OpenSSL's
// debugging aids, unused.
void* OpenSslMalloc(size_t size, const char*, int) { return std::malloc(size); }
void* OpenSslRealloc(void* p, size_t size, const char*, int) { return std::realloc(p, size); }
void OpenSslFree(void* p, const char*, int) {
  if (p != nullptr) std::free(p);
}

}  // namespace

bool InstallOpenSslAllocator() {
  return CRYPTO_set_mem_functions(OpenSslMalloc, OpenSslRealloc, OpenSslFree) == 1;
}

StatusOr<TlsContext> MakeServerTlsContext(const std::string& cert_file,
                                          const std::string& key_file,
                                          const std::string& client_ca_file) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  boost::system::error_code ec;
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                           ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                           ssl::context::no_tlsv1_1 | ssl::context::single_dh_use,
                       ec);
  if (ec) return InternalError(OpenSslError("TLS options", ec));
  SSL_CTX* native = context->native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_options(native, SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
  // Read ahead: the record layer takes every byte its transport holds in one read, rather
  // than a record's 5-byte header and then its body in two (each a call through the stream's
  // BIO); a request is one record, so this halves those reads.
  SSL_CTX_set_read_ahead(native, 1);
  if (SSL_CTX_set_cipher_list(native, kTls12Ciphers) != 1) {
    ERR_clear_error();
    return InternalError("no usable TLS 1.2 cipher suite");
  }
  context->use_certificate_chain_file(cert_file, ec);
  if (ec) return InvalidArgumentError(OpenSslError("certificate " + cert_file, ec));
  context->use_private_key_file(key_file, ssl::context::pem, ec);
  if (ec) return InvalidArgumentError(OpenSslError("private key " + key_file, ec));
  if (SSL_CTX_check_private_key(native) != 1) {
    ERR_clear_error();
    return InvalidArgumentError("private key " + key_file + " does not match certificate " +
                                cert_file);
  }
  if (!client_ca_file.empty()) {
    DRAGUARD_RETURN_IF_ERROR(RequireClientCertificates(*context, client_ca_file));
  }
  return TlsContext{.context = std::move(context), .not_after_unix = NotAfter(native)};
}

CertReloader::CertReloader(std::string cert_file, std::string key_file,
                           std::string client_ca_file)
    : cert_file_(std::move(cert_file)),
      key_file_(std::move(key_file)),
      client_ca_file_(std::move(client_ca_file)) {}

std::string CertReloader::Stamp() const {
  std::string stamp = FileStamp(cert_file_) + "|" + FileStamp(key_file_);
  if (!client_ca_file_.empty()) stamp += "|" + FileStamp(client_ca_file_);
  return stamp;
}

Status CertReloader::Load() {
  std::string stamp = Stamp();
  StatusOr<TlsContext> loaded = MakeServerTlsContext(cert_file_, key_file_, client_ca_file_);
  std::lock_guard lock(mu_);
  stamp_ = stamp;  // a failed pair is retried only after it changes again
  if (!loaded.ok()) return loaded.status();
  current_ = std::move(loaded).value();
  return OkStatus();
}

StatusOr<bool> CertReloader::ReloadIfChanged() {
  {
    std::lock_guard lock(mu_);
    if (Stamp() == stamp_) return false;
  }
  Status status = Load();
  if (!status.ok()) return status;
  return true;
}

TlsContext CertReloader::Current() const {
  std::lock_guard lock(mu_);
  return current_;
}

}  // namespace draguard::webhook
