// Kubeconfig parsing (yaml-cpp adapter: no exception leaves this file).
//
// Resolution follows client-go's clientcmd for the fields we support: the context named by
// current-context (or the caller), its cluster and user entries by name; file references
// relative to the kubeconfig's directory; `*-data` fields base64-encoded and winning over
// their file counterparts; tokenFile winning over token (client-go reads the file).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>
#include <vector>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "policy/common/status_macros.h"
#include "webhook/kube/cluster_config.h"

namespace draguard::webhook::kube {
namespace {

// Standard base64 (RFC 4648) with optional padding and embedded whitespace ignored.
StatusOr<std::string> DecodeBase64(std::string_view text, const std::string& what) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  bool padding = false;
  for (char c : text) {
    int value;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    else if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    else if (c >= '0' && c <= '9') value = c - '0' + 52;
    else if (c == '+') value = 62;
    else if (c == '/') value = 63;
    else if (c == '=') { padding = true; continue; }
    else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    else return InvalidArgumentError(what + " is not valid base64");
    if (padding) return InvalidArgumentError(what + " has data after base64 padding");
    buffer = (buffer << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

std::string Scalar(const YAML::Node& map, const char* key) {
  const YAML::Node node = map[key];
  return node && node.IsScalar() ? node.as<std::string>() : std::string();
}

// Every file's clusters, users and contexts by name, the first file to define a name winning,
// each with the directory its relative paths resolve against (client-go loader.go: Load merges
// the maps so that the first file to set a key wins, and the same for current-context).
struct Entry {
  YAML::Node value;
  std::string base_dir;
};
struct Merged {
  std::string current_context;
  std::map<std::string, Entry> lists[3];  // contexts, clusters, users
};
constexpr const char* kLists[3] = {"contexts", "clusters", "users"};
constexpr const char* kFields[3] = {"context", "cluster", "user"};

Status AddFile(const YAML::Node& root, const std::string& base_dir, Merged& merged) {
  if (root.IsNull()) return OkStatus();  // an empty file, as client-go accepts
  if (!root.IsMap()) return InvalidArgumentError("not a kubeconfig (the document is not a map)");
  if (merged.current_context.empty()) merged.current_context = Scalar(root, "current-context");
  for (int i = 0; i < 3; ++i) {
    const YAML::Node entries = root[kLists[i]];
    if (!entries || !entries.IsSequence()) continue;
    for (const YAML::Node& entry : entries) {
      if (!entry.IsMap()) continue;
      merged.lists[i].emplace(Scalar(entry, "name"), Entry{entry[kFields[i]], base_dir});
    }
  }
  return OkStatus();
}

// The `field` map of the entry of list `i` whose name is `name`, e.g. clusters[name].cluster.
StatusOr<Entry> Find(const Merged& merged, int i, const std::string& name) {
  auto it = merged.lists[i].find(name);
  if (it == merged.lists[i].end()) {
    return InvalidArgumentError(std::string(kLists[i]) + " has no entry named \"" + name + "\"");
  }
  if (!it->second.value || !it->second.value.IsMap()) {
    return InvalidArgumentError(std::string(kLists[i]) + "[" + name + "]." + kFields[i] +
                                " is missing or not a map");
  }
  return it->second;
}

std::string Resolve(const std::string& base_dir, const std::string& path) {
  if (path.empty() || base_dir.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).string();
}

// PEM from `key`-data (base64) or the file named by `key`.
StatusOr<std::string> Pem(const YAML::Node& map, const std::string& key,
                          const std::string& base_dir, const std::string& where) {
  if (std::string data = Scalar(map, (key + "-data").c_str()); !data.empty()) {
    return DecodeBase64(data, where + "." + key + "-data");
  }
  if (std::string file = Scalar(map, key.c_str()); !file.empty()) {
    StatusOr<std::string> text = ReadSmallFile(Resolve(base_dir, file));
    if (!text.ok()) return InvalidArgumentError(where + "." + key + ": " + text.status().message());
    return text;
  }
  return std::string();
}

Status ReadCluster(const YAML::Node& cluster, const std::string& base_dir,
                   const std::string& where, ClusterConfig& config) {
  const std::string server = Scalar(cluster, "server");
  if (server.empty()) return InvalidArgumentError(where + ".server is missing");
  if (Status s = ParseServerUrl(server, config); !s.ok()) {
    return InvalidArgumentError(where + "." + s.message());
  }
  if (!Scalar(cluster, "proxy-url").empty()) {
    return UnimplementedError(where + ".proxy-url is not supported by draguard");
  }
  config.insecure_skip_tls_verify = Scalar(cluster, "insecure-skip-tls-verify") == "true";
  config.tls_server_name = Scalar(cluster, "tls-server-name");
  DRAGUARD_ASSIGN_OR_RETURN(config.ca_pem,
                            Pem(cluster, "certificate-authority", base_dir, where));
  return OkStatus();
}

std::string Resolve(const std::string& base_dir, const std::string& path);

// users[].user.exec. A command with a path separator resolves against the kubeconfig's
// directory (client-go loader.go ResolveLocalPaths); a bare name is looked up in $PATH.
StatusOr<ExecConfig> ReadExec(const YAML::Node& exec, const std::string& base_dir,
                              const std::string& where) {
  ExecConfig out;
  out.where = where;
  out.api_version = Scalar(exec, "apiVersion");
  out.command = Scalar(exec, "command");
  if (out.command.find('/') != std::string::npos) out.command = Resolve(base_dir, out.command);
  if (const YAML::Node args = exec["args"]; args && args.IsSequence()) {
    for (const YAML::Node& arg : args) {
      out.args.push_back(arg.IsScalar() ? arg.as<std::string>() : std::string());
    }
  }
  if (const YAML::Node env = exec["env"]; env && env.IsSequence()) {
    for (const YAML::Node& var : env) {
      if (var.IsMap()) out.env.emplace_back(Scalar(var, "name"), Scalar(var, "value"));
    }
  }
  out.install_hint = Scalar(exec, "installHint");
  out.interactive_mode = Scalar(exec, "interactiveMode");
  if (out.interactive_mode.empty() && out.api_version != "client.authentication.k8s.io/v1") {
    out.interactive_mode = "IfAvailable";  // v1beta1's default
  }
  DRAGUARD_RETURN_IF_ERROR(ValidateExecConfig(out));
  return out;
}

Status ReadUser(const YAML::Node& user, const std::string& base_dir, const std::string& where,
                ClusterConfig& config) {
  if (user["auth-provider"]) {
    return UnimplementedError(where + ".auth-provider: auth-provider plugins are not supported "
                              "by draguard (client-go removed the built-in ones in 1.26); use "
                              "the provider's exec plugin, a token, tokenFile or a client "
                              "certificate in this kubeconfig");
  }
  if (const YAML::Node exec = user["exec"]; exec) {
    if (!exec.IsMap()) return InvalidArgumentError(where + ".exec is not a map");
    DRAGUARD_ASSIGN_OR_RETURN(config.exec, ReadExec(exec, base_dir, where + ".exec"));
  }
  if (!Scalar(user, "username").empty() || !Scalar(user, "password").empty()) {
    return UnimplementedError(where + ": basic authentication is not supported");
  }
  config.token = Scalar(user, "token");
  if (std::string file = Scalar(user, "tokenFile"); !file.empty()) {
    config.token_file = Resolve(base_dir, file);
  }
  DRAGUARD_ASSIGN_OR_RETURN(config.client_cert_pem,
                            Pem(user, "client-certificate", base_dir, where));
  DRAGUARD_ASSIGN_OR_RETURN(config.client_key_pem, Pem(user, "client-key", base_dir, where));
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    return InvalidArgumentError(where + ": client-certificate and client-key go together");
  }
  return OkStatus();
}

StatusOr<ClusterConfig> Build(const Merged& merged, const std::string& wanted_context) {
  std::string context_name = wanted_context.empty() ? merged.current_context : wanted_context;
  if (context_name.empty()) {
    return InvalidArgumentError("current-context is not set (use --context)");
  }
  DRAGUARD_ASSIGN_OR_RETURN(Entry context, Find(merged, 0, context_name));
  const std::string cluster_name = Scalar(context.value, "cluster");
  const std::string user_name = Scalar(context.value, "user");
  if (cluster_name.empty()) {
    return InvalidArgumentError("contexts[" + context_name + "].context.cluster is missing");
  }
  ClusterConfig config;
  config.name_space = Scalar(context.value, "namespace");
  DRAGUARD_ASSIGN_OR_RETURN(Entry cluster, Find(merged, 1, cluster_name));
  DRAGUARD_RETURN_IF_ERROR(ReadCluster(cluster.value, cluster.base_dir,
                                       "clusters[" + cluster_name + "].cluster", config));
  if (!user_name.empty()) {
    DRAGUARD_ASSIGN_OR_RETURN(Entry user, Find(merged, 2, user_name));
    DRAGUARD_RETURN_IF_ERROR(
        ReadUser(user.value, user.base_dir, "users[" + user_name + "].user", config));
  }
  config.origin = "kubeconfig context " + context_name;
  return config;
}

std::string EnvOr(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

}  // namespace

StatusOr<ClusterConfig> ParseMergedKubeconfigs(
    const std::vector<std::pair<std::string, std::string>>& texts_and_dirs,
    const std::string& context) {
  try {
    Merged merged;
    for (const auto& [text, base_dir] : texts_and_dirs) {
      DRAGUARD_RETURN_IF_ERROR(AddFile(YAML::Load(text), base_dir, merged));
    }
    return Build(merged, context);
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError("kubeconfig line " + std::to_string(e.mark.line + 1) + ": " +
                                e.msg);
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string("kubeconfig: ") + e.what());
  }
}

StatusOr<ClusterConfig> ParseKubeconfig(std::string_view text, const std::string& base_dir,
                                        const std::string& context) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap()) return InvalidArgumentError("not a kubeconfig (the document is not a map)");
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError("kubeconfig line " + std::to_string(e.mark.line + 1) + ": " +
                                e.msg);
  }
  return ParseMergedKubeconfigs({{std::string(text), base_dir}}, context);
}

StatusOr<ClusterConfig> LoadKubeconfig(const std::string& path, const std::string& context) {
  KubeconfigSelection selection;
  selection.explicit_path = path;
  selection.context = context;
  return LoadKubeconfigSelection(selection);
}

KubeconfigSelection KubeconfigSelection::FromEnvironment() {
  KubeconfigSelection selection;
  selection.env_kubeconfig = EnvOr("KUBECONFIG");
  selection.home = EnvOr("HOME");
  return selection;
}

std::vector<std::string> KubeconfigSelection::Files() const {
  if (!explicit_path.empty()) return {explicit_path};
  std::vector<std::string> files;
  size_t start = 0;
  while (start <= env_kubeconfig.size() && !env_kubeconfig.empty()) {
    size_t colon = env_kubeconfig.find(':', start);
    if (colon == std::string::npos) colon = env_kubeconfig.size();
    std::string file = env_kubeconfig.substr(start, colon - start);
    // client-go: empty entries and missing files are skipped, a file listed twice read once.
    if (!file.empty() && Exists(file) &&
        std::find(files.begin(), files.end(), file) == files.end()) {
      files.push_back(file);
    }
    start = colon + 1;
  }
  if (env_kubeconfig.empty() && !home.empty() && Exists(home + "/.kube/config")) {
    files.push_back(home + "/.kube/config");
  }
  return files;
}

StatusOr<ClusterConfig> LoadKubeconfigSelection(const KubeconfigSelection& selection) {
  const std::vector<std::string> files = selection.Files();
  if (files.empty()) {
    return NotFoundError(selection.env_kubeconfig.empty()
                             ? "no kubeconfig: ~/.kube/config does not exist and neither "
                               "$KUBECONFIG nor --kubeconfig is set"
                             : "no kubeconfig: none of the files in $KUBECONFIG exists");
  }
  std::vector<std::pair<std::string, std::string>> texts;
  for (const std::string& file : files) {
    DRAGUARD_ASSIGN_OR_RETURN(std::string text, ReadSmallFile(file, 16 << 20));
    texts.emplace_back(std::move(text), std::filesystem::path(file).parent_path().string());
  }
  StatusOr<ClusterConfig> config = ParseMergedKubeconfigs(texts, selection.context);
  std::string names;
  for (const std::string& file : files) names += (names.empty() ? "" : ":") + file;
  if (!config.ok()) {
    return Status(config.status().code(), names + ": " + config.status().message());
  }
  config->origin = "kubeconfig " + names + " (" + config->origin.substr(11) + ")";
  if (!selection.name_space.empty()) config->name_space = selection.name_space;
  if (config->name_space.empty()) config->name_space = "default";
  return config;
}

}  // namespace draguard::webhook::kube
