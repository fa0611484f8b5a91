#include "webhook/kube/cluster_snapshot.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <utility>

#include "policy/common/status_macros.h"
#include "webhook/kube/reflector.h"

namespace draguard::webhook::kube {
namespace {

using Json = nlohmann::json;

std::string Where(const std::string& name_space, bool namespaced) {
  if (!namespaced) return "cluster-wide";
  return name_space.empty() ? "in all namespaces" : "in namespace " + name_space;
}

std::string Qualified(const std::string& group, const std::string& resource) {
  return group.empty() ? resource : resource + "." + group;
}

std::string CollectionPath(const std::string& group, const std::string& version,
                           const std::string& resource, const std::string& name_space) {
  std::string path = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (!name_space.empty()) path += "/namespaces/" + EncodeQueryValue(name_space);
  return path + "/" + resource;
}

std::string StringAt(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

namespace {

NodeScheduling NodeSchedulingOf(const Json& node) {
  NodeScheduling out;
  if (!node.is_object()) return out;
  auto spec = node.find("spec");
  if (spec == node.end() || !spec->is_object()) return out;
  if (auto u = spec->find("unschedulable"); u != spec->end() && u->is_boolean()) {
    out.unschedulable = u->get<bool>();
  }
  if (auto taints = spec->find("taints"); taints != spec->end() && taints->is_array()) {
    for (const Json& t : *taints) {
      if (!t.is_object()) continue;
      out.taints.push_back({StringAt(t, "key"), StringAt(t, "value"), StringAt(t, "effect")});
    }
  }
  return out;
}

}  // namespace

NodeScheduling ParseNodeScheduling(const std::string& node_json) {
  const Json node = Json::parse(node_json, nullptr, false);
  return node.is_discarded() ? NodeScheduling() : NodeSchedulingOf(node);
}

ClusterReader::ClusterReader(ClusterConfig config, ClusterReaderOptions options)
    : config_(std::move(config)),
      options_(std::move(options)),
      token_(std::make_shared<BearerToken>(config_)),
      connection_(std::make_unique<ApiConnection>(config_, token_, options_.client)) {}

StatusOr<HttpResult> ClusterReader::Get(const std::string& target) {
  return connection_->Get(target);
}

Status ClusterReader::HttpError(const HttpResult& result, const std::string& verb,
                                const std::string& resource, const std::string& name_space,
                                const std::string& name) const {
  const ApiError error = ParseApiError(result.status, result.body);
  const std::string server = error.message.empty() ? "" : " (API server: " + error.message + ")";
  const std::string object = name.empty() ? resource : resource + " " + name;
  if (result.status == 401) {
    return PermissionDeniedError("unauthorized: the API server rejected the credentials of " +
                                 config_.origin + " to " + verb + " " + object + server +
                                 "; refresh your login (see docs/troubleshooting.md)");
  }
  if (result.status == 403) {
    return PermissionDeniedError("forbidden: cannot " + verb + " " + object + " " + name_space +
                                 server + "; grant the verb \"" + verb + "\" on \"" + resource +
                                 "\" to this user (RBAC)");
  }
  if (result.status == 404 && !name.empty()) {
    return NotFoundError(object + " " + name_space + " not found");
  }
  std::string message = verb + " " + object + " " + name_space + ": HTTP " +
                        std::to_string(result.status);
  if (!error.reason.empty()) message += " " + error.reason;
  return UnavailableError(message + server);
}

StatusOr<std::optional<ResourceKind>> ClusterReader::Discover(WatchedKind kind) {
  if (auto it = discovered_.find(kind); it != discovered_.end()) return it->second;
  const KindInfo& info = InfoOf(kind);
  std::optional<ResourceKind> found;
  auto use = [&](const std::string& version) {
    found = ResourceKind{kind, info.group, version, info.resource, info.kind, options_.release};
  };
  if (std::string(info.group).empty()) {
    use(info.versions.front());
  } else {
    const std::string group_path = std::string("/apis/") + info.group;
    if (!group_versions_.contains(group_path)) {
      DRAGUARD_ASSIGN_OR_RETURN(HttpResult group, Get(group_path));
      if (group.status == 404) {
        group_versions_[group_path] = {};
      } else if (group.status != 200) {
        return HttpError(group, "get", "discovery " + group_path, "cluster-wide");
      } else {
        DRAGUARD_ASSIGN_OR_RETURN(group_versions_[group_path], ParseGroupVersions(group.body));
      }
    }
    const std::vector<std::string>& versions = group_versions_[group_path];
    for (const char* version : info.versions) {
      if (std::find(versions.begin(), versions.end(), version) == versions.end()) continue;
      const std::string path = group_path + "/" + version;
      if (!group_versions_.contains(path)) {
        DRAGUARD_ASSIGN_OR_RETURN(HttpResult list, Get(path));
        if (list.status == 404) continue;
        if (list.status != 200) return HttpError(list, "get", "discovery " + path, "cluster-wide");
        DRAGUARD_ASSIGN_OR_RETURN(group_versions_[path], ParseResourceNames(list.body));
      }
      const std::vector<std::string>& names = group_versions_[path];
      if (std::find(names.begin(), names.end(), info.resource) != names.end()) {
        use(version);
        break;
      }
    }
  }
  discovered_[kind] = found;
  return found;
}

StatusOr<std::string> ClusterReader::ResourceVersionFor(WatchedKind kind) {
  DRAGUARD_ASSIGN_OR_RETURN(std::optional<ResourceKind> found, Discover(kind));
  if (!found) {
    return NotFoundError(std::string("the API server does not serve ") + KindName(kind) +
                         " (is DRA enabled?)");
  }
  return found->version;
}

Status ClusterReader::ListInto(const ResourceKind& kind, ClusterSnapshot& snapshot) {
  const std::string path = kind.CollectionPath();
  const std::string resource = Qualified(kind.group, kind.resource);
  std::string continue_token;
  size_t listed = 0;
  do {
    std::string target = path + "?limit=" + std::to_string(options_.page_size);
    if (!continue_token.empty()) target += "&continue=" + EncodeQueryValue(continue_token);
    DRAGUARD_ASSIGN_OR_RETURN(HttpResult result, Get(target));
    if (result.status != 200) return HttpError(result, "list", resource, "cluster-wide");
    DRAGUARD_ASSIGN_OR_RETURN(ListPage page, ParseListPage(result.body, kind));
    for (StoredObject& object : page.items) {
      inventory::CollectClusterObject(object.object, snapshot.objects);
    }
    if (page.undecodable > 0) snapshot.undecodable[kind.kind] += page.undecodable;
    listed += page.items.size() + page.undecodable;
    if (options_.on_page) options_.on_page(resource, listed);
    if (kind.watched == WatchedKind::kNode) {
      const Json body = Json::parse(result.body, nullptr, false);
      if (body.is_object() && body.contains("items") && body["items"].is_array()) {
        for (const Json& item : body["items"]) {
          if (!item.is_object() || !item.contains("metadata")) continue;
          const std::string name = StringAt(item["metadata"], "name");
          snapshot.node_scheduling[name] = NodeSchedulingOf(item);
        }
      }
    }
    continue_token = std::move(page.continue_token);
  } while (!continue_token.empty());
  return OkStatus();
}

StatusOr<ClusterSnapshot> ClusterReader::LoadSnapshot() {
  ClusterSnapshot snapshot;
  for (WatchedKind kind : {WatchedKind::kResourceSlice, WatchedKind::kDeviceClass,
                           WatchedKind::kNode, WatchedKind::kResourceClaim,
                           WatchedKind::kDeviceTaintRule}) {
    DRAGUARD_ASSIGN_OR_RETURN(std::optional<ResourceKind> resource, Discover(kind));
    if (resource) DRAGUARD_RETURN_IF_ERROR(ListInto(*resource, snapshot));
  }
  snapshot.objects.source = "kubernetes API (" + config_.origin + ")";
  snapshot.objects.as_of = std::chrono::system_clock::now();
  return snapshot;
}

StatusOr<std::string> ClusterReader::GetObject(const std::string& group,
                                               const std::string& version,
                                               const std::string& resource,
                                               const std::string& name_space,
                                               const std::string& name) {
  const std::string target =
      CollectionPath(group, version, resource, name_space) + "/" + EncodeQueryValue(name);
  DRAGUARD_ASSIGN_OR_RETURN(HttpResult result, Get(target));
  if (result.status != 200) {
    return HttpError(result, "get", Qualified(group, resource),
                     Where(name_space, !name_space.empty()),
                     name);
  }
  return std::move(result.body);
}

StatusOr<std::vector<std::string>> ClusterReader::ListObjects(
    const std::string& group, const std::string& version, const std::string& resource,
    const std::string& kind, const std::string& name_space, const std::string& field_selector) {
  const std::string path = CollectionPath(group, version, resource, name_space);
  const std::string api_version = group.empty() ? version : group + "/" + version;
  std::vector<std::string> out;
  std::string continue_token;
  do {
    std::string target = path + "?limit=" + std::to_string(options_.page_size);
    if (!field_selector.empty()) target += "&fieldSelector=" + EncodeQueryValue(field_selector);
    if (!continue_token.empty()) target += "&continue=" + EncodeQueryValue(continue_token);
    DRAGUARD_ASSIGN_OR_RETURN(HttpResult result, Get(target));
    if (result.status != 200) {
      return HttpError(result, "list", Qualified(group, resource), Where(name_space, true));
    }
    Json body = Json::parse(result.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
      return UnavailableError("list " + path + ": the answer is not a JSON object");
    }
    if (auto items = body.find("items"); items != body.end() && items->is_array()) {
      for (Json& item : *items) {
        if (!item.is_object()) continue;
        item["apiVersion"] = api_version;
        item["kind"] = kind;
        if (auto meta = item.find("metadata"); meta != item.end() && meta->is_object()) {
          meta->erase("managedFields");
        }
        out.push_back(item.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      }
    }
    if (options_.on_page) options_.on_page(Qualified(group, resource), out.size());
    continue_token.clear();
    if (auto meta = body.find("metadata"); meta != body.end() && meta->is_object()) {
      continue_token = StringAt(*meta, "continue");
    }
  } while (!continue_token.empty());
  return out;
}

}  // namespace draguard::webhook::kube
