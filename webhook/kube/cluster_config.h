// ClusterConfig: how to reach and authenticate to a Kubernetes API server, from the pod's
// service account (in-cluster) or from a kubeconfig file.
//
// Only what draguard's read-only client needs is supported: a server URL, the CA to verify it
// (or an explicit insecure-skip-tls-verify), and one credential: a bearer token (inline or a
// file re-read as it rotates, or the token of an exec credential plugin: exec_credential.h) or a
// client certificate and key. auth-provider plugins are refused with a clear error instead of
// being half-supported. Parsing never throws; every problem is a Status naming the file and
// the field.
//
// Kubeconfig files are found and merged as kubectl does (client-go tools/clientcmd/loader.go,
// ClientConfigLoadingRules.Load): --kubeconfig alone when given; else every file of
// $KUBECONFIG (':'-separated, missing files skipped), the first file to define a cluster, user
// or context name or current-context winning; else ~/.kube/config. Relative paths resolve
// against the file that holds them.
#ifndef DRAGUARD_WEBHOOK_KUBE_CLUSTER_CONFIG_H_
#define DRAGUARD_WEBHOOK_KUBE_CLUSTER_CONFIG_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/common/status_or.h"
#include "webhook/kube/exec_credential.h"

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
  // users[].user.exec: a credential plugin that prints a bearer token.
  std::optional<ExecConfig> exec;
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
  // Value of POD_NAMESPACE (the downward API), which wins over the namespace file as in
  // client-go's inClusterClientConfig.Namespace.
  std::string pod_namespace;
  // The mounted service-account directory: token, ca.crt, namespace.
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";

  // Reads the three variables from the process environment.
  static InClusterOptions FromEnvironment();
};

// True when the process runs in a pod: the service variables are set and the token is a file
// (client-go clientcmd inClusterClientConfig.Possible).
bool InClusterAvailable(const InClusterOptions& options);

// The pod's configuration as client-go's rest.InClusterConfig builds it: https://HOST:PORT,
// the token as a token_file (re-read as it rotates), ca.crt (when it is missing client-go
// logs an error and verifies against the system store: so do we), and the namespace:
// POD_NAMESPACE, else the namespace file, else "default". FailedPrecondition when not in a
// pod or the token cannot be read.
StatusOr<ClusterConfig> LoadInClusterConfig(const InClusterOptions& options);

// Parses kubeconfig text. `context` selects a context (empty: current-context); relative file
// paths resolve against `base_dir`. InvalidArgument naming the field on any problem,
// Unimplemented for exec/auth-provider credentials.
StatusOr<ClusterConfig> ParseKubeconfig(std::string_view text, const std::string& base_dir,
                                        const std::string& context = "");

// Reads and parses a kubeconfig file.
StatusOr<ClusterConfig> LoadKubeconfig(const std::string& path, const std::string& context = "");

// Which kubeconfig files, context and namespace, as kubectl's flags and environment give them.
struct KubeconfigSelection {
  std::string explicit_path;   // --kubeconfig: only this file, which must exist
  std::string env_kubeconfig;  // $KUBECONFIG: ':'-separated list
  std::string home;            // $HOME, for ~/.kube/config
  std::string context;         // --context; empty: the merged current-context
  std::string name_space;      // -n/--namespace; empty: the context's, else "default"

  // $KUBECONFIG and $HOME from the process environment.
  static KubeconfigSelection FromEnvironment();
  // The files to read, in precedence order (existing ones only, except an explicit path).
  std::vector<std::string> Files() const;
};

// Loads and merges the selected files. NotFound when there is no kubeconfig at all (no
// --kubeconfig, no existing $KUBECONFIG file, no ~/.kube/config); name_space is the flag's,
// else the context's, else "default".
StatusOr<ClusterConfig> LoadKubeconfigSelection(const KubeconfigSelection& selection);

// Merges several kubeconfig texts (each with the directory its relative paths resolve
// against), client-go's way, and builds the selected context.
StatusOr<ClusterConfig> ParseMergedKubeconfigs(
    const std::vector<std::pair<std::string, std::string>>& texts_and_dirs,
    const std::string& context = "");

// Splits "https://host:port/prefix" into the scheme, host, port and prefix of `config`.
Status ParseServerUrl(std::string_view url, ClusterConfig& config);

// The bearer token to send: the inline token, or token_file's content re-read when older than
// `refresh`. A read failure keeps the last good token (a rotation writes the file atomically,
// but a missing file must not log out a running client). Thread-safe.
// With an exec plugin: the plugin's token (and client certificate, when it gives one), cached
// until its expirationTimestamp (or until a 401), the plugin run again then.
class BearerToken {
 public:
  using Clock = std::chrono::steady_clock;

  BearerToken(const ClusterConfig& config, Clock::duration refresh = std::chrono::minutes(1));

  // The token, possibly empty (no bearer credentials configured). Errors: the exec plugin
  // failed (its message says why and quotes its stderr).
  StatusOr<std::string> Fetch();
  // Fetch() with errors as an empty token.
  std::string Get();
  // Forces the next Get() to re-read the file or re-run the plugin (after a 401).
  void Invalidate();
  // Whether Invalidate() can give a different token (a file or a plugin), so that a 401 is
  // worth one retry.
  bool Refreshable() const { return !file_.empty() || exec_.has_value(); }
  // How many times the exec plugin ran (tests, logs).
  int plugin_runs() const;
  // The client certificate and key (PEM) of the exec plugin's current credential, after
  // Fetch(); both empty when it gave none or there is no plugin. The TLS connection uses them
  // instead of the kubeconfig's client certificate.
  std::pair<std::string, std::string> ExecClientCertificate() const;

 private:
  std::string file_;
  std::optional<ExecConfig> exec_;
  ExecRunOptions exec_options_;
  Clock::duration refresh_;
  mutable std::mutex mu_;
  std::string token_;
  Clock::time_point read_at_{};
  std::optional<std::chrono::system_clock::time_point> expires_;
  std::string exec_cert_pem_;
  std::string exec_key_pem_;
  bool loaded_ = false;
  int plugin_runs_ = 0;
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

// The cluster of a CLI command, in kubectl's order (client-go clientcmd
// DeferredLoadingClientConfig.ClientConfig): the kubeconfig files of `selection`; when there
// is none (NotFound), no --kubeconfig or --context was given and InClusterAvailable(in_cluster),
// the pod's configuration, with selection.name_space winning over the pod's namespace.
// Otherwise LoadKubeconfigSelection's answer.
StatusOr<ClusterConfig> LoadClientConfig(const KubeconfigSelection& selection,
                                         const InClusterOptions& in_cluster);

// Reads a whole small file; NotFound/InvalidArgument with the path on failure.
StatusOr<std::string> ReadSmallFile(const std::string& path, size_t max_bytes = 1 << 20);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_CLUSTER_CONFIG_H_
