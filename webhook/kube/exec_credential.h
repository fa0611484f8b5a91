// Exec credential plugins (kubeconfig `users[].user.exec`): the command that EKS, GKE and AKS
// kubeconfigs run to obtain a bearer token or a client certificate, as client-go runs it
// (k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go, Authenticator.refreshCredsLocked):
//
//   * the command with its args, in the process environment plus `env`, and
//     KUBERNETES_EXEC_INFO set to an ExecCredential of the configured apiVersion whose
//     spec.interactive says whether the plugin may prompt (and then gets our stdin);
//   * stdout must be an ExecCredential of the same apiVersion (client.authentication.k8s.io/v1
//     or v1beta1) with status.token, or status.clientCertificateData and clientKeyData (PEM,
//     both or neither), or all three: refreshCredsLocked refuses a status with neither, or
//     with only one half of the pair; status.expirationTimestamp bounds how long it is cached
//     (Authenticator.getCreds/credsExpired: no timestamp means cached for the process);
//   * a 401 answer re-runs the plugin (Authenticator.maybeRefreshCreds); a new certificate is
//     used from the next connection on, the open one being closed (client-go closes its
//     tracked connections when the certificate changes).
//
// Differences from client-go, deliberate: the plugin's stderr is captured (and also echoed
// when interactive) so that a failure is one error that quotes it; the plugin is killed after
// `timeout`.
#ifndef DRAGUARD_WEBHOOK_KUBE_EXEC_CREDENTIAL_H_
#define DRAGUARD_WEBHOOK_KUBE_EXEC_CREDENTIAL_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "policy/common/status_or.h"

namespace draguard::webhook::kube {

// users[].user.exec of a kubeconfig.
struct ExecConfig {
  std::string api_version;  // client.authentication.k8s.io/v1 or /v1beta1
  std::string command;      // a path (relative ones resolved against the kubeconfig) or a name
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string install_hint;
  // Never, IfAvailable or Always (v1 requires it; v1beta1 defaults to IfAvailable).
  std::string interactive_mode = "IfAvailable";
  // Where the user entry is, for messages: users[NAME].user.exec.
  std::string where;
};

// Parses and checks the apiVersion and interactiveMode rules of client-go's
// validation (clientcmd/validation.go validateAuthInfo for exec).
Status ValidateExecConfig(const ExecConfig& config);

struct ExecCredential {
  std::string token;  // may be empty when a client certificate is given
  // status.clientCertificateData and clientKeyData (PEM); both empty or both set.
  std::string client_cert_pem;
  std::string client_key_pem;
  // From status.expirationTimestamp; nullopt: valid until a 401.
  std::optional<std::chrono::system_clock::time_point> expires;
};

struct ExecRunOptions {
  // Whether our stdin is a terminal (IfAvailable prompts only then; Always fails without).
  bool stdin_is_terminal = false;
  std::chrono::milliseconds timeout{60'000};
  size_t max_output_bytes = 1 << 20;
};

// Runs the plugin once. Errors (FailedPrecondition): the command is missing (with installHint),
// exits non-zero or is killed (with its stderr), prints something that is not an
// ExecCredential of the configured apiVersion, or gives neither a token nor a certificate and key.
StatusOr<ExecCredential> RunExecPlugin(const ExecConfig& config, const ExecRunOptions& options);

// Parses the plugin's stdout (separate for tests and the fuzzer).
StatusOr<ExecCredential> ParseExecCredential(std::string_view json, const ExecConfig& config);

// Parses an RFC 3339 timestamp ("2026-11-27T01:00:00Z", fractional seconds and offsets).
std::optional<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_EXEC_CREDENTIAL_H_
