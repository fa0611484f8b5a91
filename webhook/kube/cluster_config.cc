#include "webhook/kube/cluster_config.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include <unistd.h>

#include "policy/common/status_macros.h"

namespace draguard::webhook::kube {
namespace {

std::string TrimSpace(std::string text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return std::string();
  const size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string EnvOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

StatusOr<uint16_t> ParsePort(std::string_view text, std::string_view what) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 ||
      value > 65535) {
    return InvalidArgumentError(std::string(what) + ": port \"" + std::string(text) +
                                "\" is not a number from 1 to 65535");
  }
  return static_cast<uint16_t>(value);
}

}  // namespace

StatusOr<std::string> ReadSmallFile(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot read " + path);
  std::string content;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    content.append(buffer, static_cast<size_t>(in.gcount()));
    if (content.size() > max_bytes) {
      return InvalidArgumentError(path + " is larger than " + std::to_string(max_bytes) +
                                  " bytes");
    }
  }
  return content;
}

InClusterOptions InClusterOptions::FromEnvironment() {
  InClusterOptions options;
  options.service_host = EnvOrEmpty("KUBERNETES_SERVICE_HOST");
  options.service_port = EnvOrEmpty("KUBERNETES_SERVICE_PORT");
  options.pod_namespace = EnvOrEmpty("POD_NAMESPACE");
  return options;
}

bool InClusterAvailable(const InClusterOptions& options) {
  std::error_code ec;
  return !options.service_host.empty() && !options.service_port.empty() &&
         std::filesystem::is_regular_file(options.service_account_dir + "/token", ec);
}

StatusOr<ClusterConfig> LoadInClusterConfig(const InClusterOptions& options) {
  if (options.service_host.empty() || options.service_port.empty()) {
    return FailedPreconditionError(
        "not running in a Kubernetes pod: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT "
        "are not set (use --kubeconfig outside the cluster)");
  }
  ClusterConfig config;
  config.origin = "in-cluster";
  config.host = options.service_host;
  DRAGUARD_ASSIGN_OR_RETURN(config.port,
                            ParsePort(options.service_port, "KUBERNETES_SERVICE_PORT"));
  const std::string& dir = options.service_account_dir;
  config.token_file = dir + "/token";
  // Read once now so that a missing mount fails at start, not on the first request.
  StatusOr<std::string> token = ReadSmallFile(config.token_file);
  if (!token.ok()) {
    return FailedPreconditionError("service-account token: " + token.status().message() +
                                   " (is automountServiceAccountToken disabled?)");
  }
  // rest.InClusterConfig: an unreadable ca.crt is logged and the system store used.
  if (StatusOr<std::string> ca = ReadSmallFile(dir + "/ca.crt"); ca.ok()) {
    config.ca_pem = std::move(*ca);
  } else {
    config.origin += " (no " + dir + "/ca.crt: the system's CAs verify the API server)";
  }
  config.name_space = options.pod_namespace;
  if (config.name_space.empty()) {
    if (StatusOr<std::string> ns = ReadSmallFile(dir + "/namespace"); ns.ok()) {
      config.name_space = TrimSpace(*ns);
    }
  }
  if (config.name_space.empty()) config.name_space = "default";
  return config;
}

Status ParseServerUrl(std::string_view url, ClusterConfig& config) {
  const auto bad = [&](const std::string& why) {
    return InvalidArgumentError("server \"" + std::string(url) + "\": " + why);
  };
  const size_t colon_slashes = url.find("://");
  if (colon_slashes == std::string_view::npos) return bad("expected https://HOST[:PORT]");
  config.scheme = std::string(url.substr(0, colon_slashes));
  if (config.scheme != "https" && config.scheme != "http") {
    return bad("scheme must be https or http");
  }
  std::string_view rest = url.substr(colon_slashes + 3);
  const size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  config.path_prefix =
      slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash));
  while (!config.path_prefix.empty() && config.path_prefix.back() == '/') {
    config.path_prefix.pop_back();
  }
  if (authority.find('@') != std::string_view::npos) return bad("user info is not supported");
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {  // [IPv6]:port
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unterminated IPv6 address");
    config.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() != ':') return bad("junk after the IPv6 address");
    if (!after.empty()) port_text = after.substr(1);
  } else {
    const size_t port_colon = authority.rfind(':');
    config.host = std::string(authority.substr(0, port_colon));
    if (port_colon != std::string_view::npos) port_text = authority.substr(port_colon + 1);
  }
  if (config.host.empty()) return bad("no host");
  if (port_text.empty()) {
    config.port = config.scheme == "https" ? 443 : 80;
    return OkStatus();
  }
  StatusOr<uint16_t> port = ParsePort(port_text, "server");
  if (!port.ok()) return bad(port.status().message());
  config.port = *port;
  return OkStatus();
}

StatusOr<InClusterMode> ParseInClusterMode(std::string_view text) {
  if (text == "auto") return InClusterMode::kAuto;
  if (text == "true") return InClusterMode::kAlways;
  if (text == "false") return InClusterMode::kNever;
  return InvalidArgumentError("--in-cluster must be auto, true or false, not \"" +
                              std::string(text) + "\"");
}

StatusOr<std::optional<ClusterConfig>> ResolveClusterConfig(const std::string& kubeconfig,
                                                            InClusterMode mode,
                                                            const InClusterOptions& in_cluster) {
  if (!kubeconfig.empty()) {
    KubeconfigSelection selection = KubeconfigSelection::FromEnvironment();
    selection.explicit_path = kubeconfig;
    DRAGUARD_ASSIGN_OR_RETURN(ClusterConfig config, LoadKubeconfigSelection(selection));
    return std::optional<ClusterConfig>(std::move(config));
  }
  if (mode == InClusterMode::kNever ||
      (mode == InClusterMode::kAuto && !InClusterAvailable(in_cluster))) {
    return std::optional<ClusterConfig>();
  }
  DRAGUARD_ASSIGN_OR_RETURN(ClusterConfig config, LoadInClusterConfig(in_cluster));
  return std::optional<ClusterConfig>(std::move(config));
}

StatusOr<ClusterConfig> LoadClientConfig(const KubeconfigSelection& selection,
                                         const InClusterOptions& in_cluster) {
  StatusOr<ClusterConfig> config = LoadKubeconfigSelection(selection);
  const bool named = !selection.explicit_path.empty() || !selection.context.empty();
  if (config.ok() || config.status().code() != StatusCode::kNotFound || named ||
      !InClusterAvailable(in_cluster)) {
    return config;
  }
  DRAGUARD_ASSIGN_OR_RETURN(ClusterConfig pod, LoadInClusterConfig(in_cluster));
  if (!selection.name_space.empty()) pod.name_space = selection.name_space;
  return pod;
}

BearerToken::BearerToken(const ClusterConfig& config, Clock::duration refresh)
    : file_(config.token_file), exec_(config.exec), refresh_(refresh), token_(config.token) {
  exec_options_.stdin_is_terminal = ::isatty(0) == 1;
}

int BearerToken::plugin_runs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return plugin_runs_;
}

std::pair<std::string, std::string> BearerToken::ExecClientCertificate() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {exec_cert_pem_, exec_key_pem_};
}

StatusOr<std::string> BearerToken::Fetch() {
  if (!exec_) return Get();
  std::lock_guard<std::mutex> lock(mu_);
  if (loaded_ && (!expires_ || std::chrono::system_clock::now() < *expires_)) return token_;
  ++plugin_runs_;
  DRAGUARD_ASSIGN_OR_RETURN(ExecCredential credential, RunExecPlugin(*exec_, exec_options_));
  token_ = std::move(credential.token);
  exec_cert_pem_ = std::move(credential.client_cert_pem);
  exec_key_pem_ = std::move(credential.client_key_pem);
  expires_ = credential.expires;
  loaded_ = true;
  return token_;
}

std::string BearerToken::Get() {
  if (exec_) {
    StatusOr<std::string> token = Fetch();
    return token.ok() ? *token : std::string();
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (file_.empty()) return token_;
  const Clock::time_point now = Clock::now();
  if (!loaded_ || now - read_at_ >= refresh_) {
    read_at_ = now;
    if (StatusOr<std::string> text = ReadSmallFile(file_); text.ok()) {
      token_ = TrimSpace(*text);
      loaded_ = true;
    }
  }
  return token_;
}

void BearerToken::Invalidate() {
  std::lock_guard<std::mutex> lock(mu_);
  loaded_ = false;
}

}  // namespace draguard::webhook::kube
