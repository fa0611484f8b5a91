// Kubeconfig parsing (yaml-cpp adapter: no exception leaves this file).
//
// Resolution follows client-go's clientcmd for the fields we support: the context named by
// current-context (or the caller), its cluster and user entries by name; file references
// relative to the kubeconfig's directory; `*-data` fields base64-encoded and winning over
// their file counterparts; tokenFile winning over token (client-go reads the file).
#include <filesystem>
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

// The `field` map of the entry of `list` whose name is `name`, e.g. clusters[name].cluster.
StatusOr<YAML::Node> Entry(const YAML::Node& root, const char* list, const char* field,
                           const std::string& name) {
  const YAML::Node entries = root[list];
  if (entries && entries.IsSequence()) {
    for (const YAML::Node& entry : entries) {
      if (entry.IsMap() && Scalar(entry, "name") == name) {
        const YAML::Node value = entry[field];
        if (value && value.IsMap()) return value;
        return InvalidArgumentError(std::string(list) + "[" + name + "]." + field +
                                    " is missing or not a map");
      }
    }
  }
  return InvalidArgumentError(std::string(list) + " has no entry named \"" + name + "\"");
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

Status ReadUser(const YAML::Node& user, const std::string& base_dir, const std::string& where,
                ClusterConfig& config) {
  for (const char* plugin : {"exec", "auth-provider"}) {
    if (user[plugin]) {
      return UnimplementedError(where + "." + plugin +
                                ": credential plugins are not supported by draguard; use a "
                                "token, tokenFile or client certificate (for example a "
                                "service-account token) in this kubeconfig");
    }
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

StatusOr<ClusterConfig> Build(const YAML::Node& root, const std::string& base_dir,
                              const std::string& wanted_context) {
  if (!root.IsMap()) return InvalidArgumentError("not a kubeconfig (the document is not a map)");
  std::string context_name = wanted_context.empty() ? Scalar(root, "current-context")
                                                    : wanted_context;
  if (context_name.empty()) return InvalidArgumentError("current-context is not set");
  DRAGUARD_ASSIGN_OR_RETURN(YAML::Node context,
                            Entry(root, "contexts", "context", context_name));
  const std::string cluster_name = Scalar(context, "cluster");
  const std::string user_name = Scalar(context, "user");
  if (cluster_name.empty()) {
    return InvalidArgumentError("contexts[" + context_name + "].context.cluster is missing");
  }
  ClusterConfig config;
  config.name_space = Scalar(context, "namespace");
  DRAGUARD_ASSIGN_OR_RETURN(YAML::Node cluster,
                            Entry(root, "clusters", "cluster", cluster_name));
  DRAGUARD_RETURN_IF_ERROR(
      ReadCluster(cluster, base_dir, "clusters[" + cluster_name + "].cluster", config));
  if (!user_name.empty()) {
    DRAGUARD_ASSIGN_OR_RETURN(YAML::Node user, Entry(root, "users", "user", user_name));
    DRAGUARD_RETURN_IF_ERROR(ReadUser(user, base_dir, "users[" + user_name + "].user", config));
  }
  config.origin = "kubeconfig context " + context_name;
  return config;
}

}  // namespace

StatusOr<ClusterConfig> ParseKubeconfig(std::string_view text, const std::string& base_dir,
                                        const std::string& context) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return Build(root, base_dir, context);
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError("kubeconfig line " + std::to_string(e.mark.line + 1) + ": " +
                                e.msg);
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string("kubeconfig: ") + e.what());
  }
}

StatusOr<ClusterConfig> LoadKubeconfig(const std::string& path, const std::string& context) {
  DRAGUARD_ASSIGN_OR_RETURN(std::string text, ReadSmallFile(path, 16 << 20));
  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  StatusOr<ClusterConfig> config = ParseKubeconfig(text, base_dir, context);
  if (!config.ok()) {
    return Status(config.status().code(), path + ": " + config.status().message());
  }
  config->origin = "kubeconfig " + path + " (" + config->origin.substr(11) + ")";
  return config;
}

}  // namespace draguard::webhook::kube
