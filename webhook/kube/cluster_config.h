// ClusterConfig: how to reach and authenticate to a Kubernetes API server, from the pod's
// service account (in-cluster) or from a kubeconfig file.
//
// Only what draguard's read-only client needs is supported: a server URL, the CA to verify it
// (or an explicit insecure-skip-tls-verify), and one credential: a bearer token (inline or a
// file re-read as it rotates) or a client certificate and key. Exec and auth-provider plugins
// are refused with a clear error instead of being half-supported. Parsing never throws; every
// problem is a Status naming the file and the field.
#ifndef DRAGUARD_WEBHOOK_KUBE_CLUSTER_CONFIG_H_
#define DRAGUARD_WEBHOOK_KUBE_CLUSTER_CONFIG_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "policy/common/status_or.h"

namespace draguard::webhook::kube {

struct ClusterConfig {
  // "https" or "http" (kubectl proxy); host (a DNS name or an IP, IPv6 without brackets); port.
  std::string scheme = "https";
  std::string host;
  uint16_t port = 443;
  // Prefix of every API path when the server URL has one (a proxy), without trailing '/'.
  std::string path_prefix;
  // PEM bundle of the CAs that sign the API server's certificate; empty means the system
  // store. Ignored when insecure_skip_tls_verify.
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  // TLS server name to verify and send as SNI when it differs from host (kubeconfig
  // tls-server-name).
  std::string tls_server_name;
  // Bearer credentials: an inline token, or a file re-read periodically (bound
  // service-account tokens rotate, about hourly). token_file wins when both are set.
  std::string token;
  std::string token_file;
  // Client-certificate credentials (PEM).
  std::string client_cert_pem;
  std::string client_key_pem;
  // The namespace of the pod or of the kubeconfig context (informational).
  std::string name_space;
  // Where the configuration came from, for logs: "in-cluster", "kubeconfig /path (context x)".
  std::string origin;
};

// Where the in-cluster configuration lives; tests point these at a temporary directory.
struct InClusterOptions {
  // Values of KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT.
  std::string service_host;
  std::string service_port;
  // The mounted service-account directory: token, ca.crt, namespace.
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";

  // Reads the two variables from the process environment.
  static InClusterOptions FromEnvironment();
};

// True when the process runs in a pod: the service variables are set and the token exists.
bool InClusterAvailable(const InClusterOptions& options);

// The pod's configuration: https://HOST:PORT, ca.crt, the token as a token_file (so it is
// re-read), the namespace. FailedPrecondition when not in a pod, InvalidArgument when a file
// is unreadable.
StatusOr<ClusterConfig> LoadInClusterConfig(const InClusterOptions& options);

// Parses kubeconfig text. `context` selects a context (empty: current-context); relative file
// paths resolve against `base_dir`. InvalidArgument naming the field on any problem,
// Unimplemented for exec/auth-provider credentials.
StatusOr<ClusterConfig> ParseKubeconfig(std::string_view text, const std::string& base_dir,
                                        const std::string& context = "");

// Reads and parses a kubeconfig file.
StatusOr<ClusterConfig> LoadKubeconfig(const std::string& path, const std::string& context = "");

// Splits "https://host:port/prefix" into the scheme, host, port and prefix of `config`.
Status ParseServerUrl(std::string_view url, ClusterConfig& config);

// The bearer token to send: the inline token, or token_file's content re-read when older than
// `refresh`. A read failure keeps the last good token (a rotation writes the file atomically,
// but a missing file must not log out a running client). Thread-safe.
class BearerToken {
 public:
  using Clock = std::chrono::steady_clock;

  BearerToken(const ClusterConfig& config, Clock::duration refresh = std::chrono::minutes(1));

  // The token, possibly empty (no bearer credentials configured).
  std::string Get();
  // Forces the next Get() to re-read the file (after a 401 Unauthorized).
  void Invalidate();

 private:
  std::string file_;
  Clock::duration refresh_;
  std::mutex mu_;
  std::string token_;
  Clock::time_point read_at_{};
  bool loaded_ = false;
};

// `--in-cluster`: auto (use the pod's configuration when running in a pod), true (require
// it), false (never).
enum class InClusterMode { kAuto, kAlways, kNever };
StatusOr<InClusterMode> ParseInClusterMode(std::string_view text);

// The cluster `draguard serve` talks to: the kubeconfig when `kubeconfig` is not empty, else
// the pod's configuration when `mode` is kAlways (FailedPrecondition outside a pod) or kAuto
// and InClusterAvailable(in_cluster); nullopt when there is none.
StatusOr<std::optional<ClusterConfig>> ResolveClusterConfig(const std::string& kubeconfig,
                                                            InClusterMode mode,
                                                            const InClusterOptions& in_cluster);

// Reads a whole small file; NotFound/InvalidArgument with the path on failure.
StatusOr<std::string> ReadSmallFile(const std::string& path, size_t max_bytes = 1 << 20);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_CLUSTER_CONFIG_H_
