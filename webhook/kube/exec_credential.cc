// POSIX adapter: fork/exec of the credential plugin with pipes for stdout and stderr.
#include "webhook/kube/exec_credential.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

#include "policy/common/strings.h"

extern char** environ;

namespace draguard::webhook::kube {
namespace {

constexpr char kV1[] = "client.authentication.k8s.io/v1";
constexpr char kV1beta1[] = "client.authentication.k8s.io/v1beta1";
constexpr int kExecFailed = 127;

std::string Tail(std::string_view text, size_t max = 2000) {
  text = TrimAsciiSpace(text);
  if (text.size() > max) text = text.substr(text.size() - max);
  return std::string(text);
}

bool Interactive(const ExecConfig& config, const ExecRunOptions& options) {
  if (config.interactive_mode == "Never") return false;
  return options.stdin_is_terminal;
}

std::string ExecInfo(const ExecConfig& config, bool interactive) {
  nlohmann::json info = {{"apiVersion", config.api_version},
                         {"kind", "ExecCredential"},
                         {"spec", {{"interactive", interactive}}}};
  return info.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Reads both pipes until they close or the deadline passes. False on timeout or overflow.
bool Drain(int out_fd, int err_fd, std::string& out, std::string& err,
           const ExecRunOptions& options) {
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open = 2;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    const int ready = ::poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open;
        continue;
      }
      sinks[i]->append(buffer, static_cast<size_t>(n));
      if (sinks[i]->size() > options.max_output_bytes) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text) {
  std::tm tm{};
  int consumed = 0;
  const std::string s(text);
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  size_t pos = static_cast<size_t>(consumed);
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
  }
  long offset = 0;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int hours = 0, minutes = 0;
    if (std::sscanf(s.c_str() + pos + 1, "%2d:%2d", &hours, &minutes) != 2) return std::nullopt;
    offset = (s[pos] == '+' ? 1 : -1) * (hours * 3600L + minutes * 60L);
  } else if (pos >= s.size() || (s[pos] != 'Z' && s[pos] != 'z')) {
    return std::nullopt;
  }
  time_t utc = ::timegm(&tm);
  if (utc == static_cast<time_t>(-1)) return std::nullopt;
  // system_clock counts nanoseconds in 64 bits (until 2262): later times are "far future".
  constexpr time_t kYear2200 = 7258118400;
  utc = std::min<time_t>(utc - offset, kYear2200);
  return std::chrono::system_clock::from_time_t(utc);
}

Status ValidateExecConfig(const ExecConfig& config) {
  if (config.command.empty()) return InvalidArgumentError(config.where + ".command is missing");
  if (config.api_version != kV1 && config.api_version != kV1beta1) {
    return InvalidArgumentError(config.where + ".apiVersion \"" + config.api_version +
                                "\" is not supported; draguard speaks " + kV1 + " and " +
                                kV1beta1);
  }
  const std::string& mode = config.interactive_mode;
  if (mode.empty() && config.api_version == kV1) {
    return InvalidArgumentError(config.where + ".interactiveMode must be specified for " + kV1);
  }
  if (!mode.empty() && mode != "Never" && mode != "IfAvailable" && mode != "Always") {
    return InvalidArgumentError(config.where + ".interactiveMode \"" + mode +
                                "\" must be Never, IfAvailable or Always");
  }
  return OkStatus();
}

StatusOr<ExecCredential> ParseExecCredential(std::string_view json, const ExecConfig& config) {
  const std::string what = "exec plugin " + config.command + ": ";
  nlohmann::json doc = nlohmann::json::parse(json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return FailedPreconditionError(what + "stdout is not an ExecCredential JSON object: " +
                                   Tail(json, 200));
  }
  const auto text = [](const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (text(doc, "kind") != "ExecCredential") {
    return FailedPreconditionError(what + "stdout is not an ExecCredential (kind \"" +
                                   text(doc, "kind") + "\")");
  }
  if (text(doc, "apiVersion") != config.api_version) {
    return FailedPreconditionError(what + "the kubeconfig asks for apiVersion " +
                                   config.api_version + " but the plugin returned \"" +
                                   text(doc, "apiVersion") + "\"");
  }
  auto status = doc.find("status");
  if (status == doc.end() || !status->is_object()) {
    return FailedPreconditionError(what + "the ExecCredential has no status");
  }
  ExecCredential out;
  out.token = text(*status, "token");
  out.client_cert_pem = text(*status, "clientCertificateData");
  out.client_key_pem = text(*status, "clientKeyData");
  if (out.token.empty() && out.client_cert_pem.empty() && out.client_key_pem.empty()) {
    return FailedPreconditionError(what +
                                   "the ExecCredential has neither status.token nor "
                                   "status.clientCertificateData and clientKeyData");
  }
  if (out.client_cert_pem.empty() != out.client_key_pem.empty()) {
    return FailedPreconditionError(what + "the ExecCredential has only one of "
                                          "status.clientCertificateData and clientKeyData; a "
                                          "client certificate needs both");
  }
  if (std::string expiry = text(*status, "expirationTimestamp"); !expiry.empty()) {
    out.expires = ParseRfc3339(expiry);
    if (!out.expires) {
      return FailedPreconditionError(what + "status.expirationTimestamp \"" + expiry +
                                     "\" is not an RFC 3339 time");
    }
  }
  return out;
}

StatusOr<ExecCredential> RunExecPlugin(const ExecConfig& config, const ExecRunOptions& options) {
  const std::string what = "exec plugin " + config.command + " (" + config.where + ")";
  const bool interactive = Interactive(config, options);
  if (config.interactive_mode == "Always" && !options.stdin_is_terminal) {
    return FailedPreconditionError(what + " has interactiveMode Always but standard input is "
                                   "not a terminal");
  }
  int out_pipe[2], err_pipe[2], status_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 ||
      ::pipe2(status_pipe, O_CLOEXEC) != 0) {
    return UnavailableError(what + ": pipe: " + std::strerror(errno));
  }
  // Everything the child needs is built before fork (no allocation after it).
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "KUBERNETES_EXEC_INFO=", 21) != 0) env_strings.emplace_back(*e);
  }
  for (const auto& [name, value] : config.env) env_strings.push_back(name + "=" + value);
  env_strings.push_back("KUBERNETES_EXEC_INFO=" + ExecInfo(config, interactive));
  std::vector<char*> envp, argv;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = config.args;
  std::string command = config.command;
  argv.push_back(command.data());
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int null_fd = interactive ? -1 : ::open("/dev/null", O_RDONLY | O_CLOEXEC);

  const pid_t pid = ::fork();
  if (pid < 0) return UnavailableError(what + ": fork: " + std::strerror(errno));
  if (pid == 0) {
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::execvpe(argv[0], argv.data(), envp.data());
    const int error = errno;
    (void)!::write(status_pipe[1], &error, sizeof error);
    ::_exit(kExecFailed);
  }
  if (null_fd >= 0) ::close(null_fd);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ::close(status_pipe[1]);
  std::string out, err;
  const bool drained = Drain(out_pipe[0], err_pipe[0], out, err, options);
  if (!drained) ::kill(pid, SIGKILL);
  int exec_errno = 0;
  const bool exec_failed = ::read(status_pipe[0], &exec_errno, sizeof exec_errno) ==
                           static_cast<ssize_t>(sizeof exec_errno);
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  ::close(status_pipe[0]);
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (exec_failed) {
    std::string message = what + ": cannot run " + config.command + ": " +
                          std::strerror(exec_errno);
    if (exec_errno == ENOENT && !config.install_hint.empty()) {
      message += "\n" + Tail(config.install_hint);
    }
    return FailedPreconditionError(message);
  }
  if (!drained) {
    return FailedPreconditionError(what + " was killed: no answer within " +
                                   std::to_string(options.timeout.count()) +
                                   " ms or too much output; stderr: " + Tail(err));
  }
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
    const std::string how = WIFEXITED(wait_status)
                                ? "exited with status " + std::to_string(WEXITSTATUS(wait_status))
                                : "was killed by signal " + std::to_string(WTERMSIG(wait_status));
    std::string message = what + " " + how;
    if (std::string tail = Tail(err); !tail.empty()) message += "; stderr: " + tail;
    return FailedPreconditionError(message);
  }
  return ParseExecCredential(out, config);
}

}  // namespace draguard::webhook::kube
