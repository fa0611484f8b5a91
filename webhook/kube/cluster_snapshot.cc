#include "webhook/kube/cluster_snapshot.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "policy/common/status_macros.h"
#include "policy/k8s/decode.h"
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

namespace {

// The list's metadata.continue, read with a SAX pass that builds nothing and stops at
// `items` once the metadata was seen (kube-apiserver writes ListMeta before the items).
class ContinueReader : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t& value) override {
    if (depth_ == 2 && in_metadata_ && key_ == "continue") continue_token = value;
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    if (depth_ == 0) is_object = true;
    if (depth_ == 1) in_metadata_ = key_ == "metadata";
    ++depth_;
    return true;
  }
  bool end_object() override {
    --depth_;
    if (depth_ == 1 && in_metadata_) {
      in_metadata_ = false;
      metadata_seen_ = true;
    }
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool key(string_t& name) override {
    if (depth_ <= 2) key_ = name;
    if (depth_ == 1 && name == "items" && metadata_seen_) {
      stopped = true;
      return false;  // the rest is items: nothing more to read
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  std::string continue_token;
  bool is_object = false;
  bool stopped = false;

 private:
  int depth_ = 0;
  bool in_metadata_ = false;
  bool metadata_seen_ = false;
  std::string key_;
};

StatusOr<std::string> ReadContinueToken(const std::string& body) {
  ContinueReader reader;
  const bool parsed = Json::sax_parse(body, &reader, Json::input_format_t::json, /*strict=*/true);
  if (!(parsed || reader.stopped) || !reader.is_object) {
    return UnavailableError("the list answer is not a JSON object");
  }
  return std::move(reader.continue_token);
}

// One list page decoded (on a worker thread), merged into the snapshot in page order.
struct DecodedPage {
  inventory::ClusterObjects objects;
  std::vector<std::pair<std::string, NodeScheduling>> node_scheduling;
  size_t items = 0;    // in the page
  size_t decoded = 0;  // of them, decoded into the model
};

// Moves the cluster-state objects of `decoded` into `into` (inventory::CollectClusterObject
// copies; a page of 500 slices is worth moving).
void MoveClusterObjects(k8s::DecodeResult& decoded, inventory::ClusterObjects& into) {
  for (k8s::DecodedObject& object : decoded.objects) {
    std::visit(
        [&](auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, k8s::ResourceSlice>) {
            into.slices.push_back(std::move(o));
          } else if constexpr (std::is_same_v<T, k8s::DeviceClass>) {
            into.classes.push_back(std::move(o));
          } else if constexpr (std::is_same_v<T, k8s::ResourceClaim>) {
            into.claims.push_back(std::move(o));
          } else if constexpr (std::is_same_v<T, k8s::DeviceTaintRule>) {
            into.taint_rules.push_back(std::move(o));
          }
        },
        object.object);
  }
}

// A page of resource.k8s.io objects: the whole typed list through the positioned decoder at
// once (k8s::Decode gives the items the list's apiVersion and kind), so that the page is
// parsed once.
void DecodeDraPage(std::string body, const ResourceKind& kind, DecodedPage& out) {
  k8s::DecodeOptions options;
  options.strict = false;  // newer fields, managedFields: not read
  options.detect_templates = false;
  options.version = kind.release;
  k8s::DecodeResult decoded =
      k8s::Decode(SourceText(kind.kind + "List page", std::move(body)), options);
  out.decoded = decoded.objects.size();
  out.items = out.decoded + decoded.skipped;
  MoveClusterObjects(decoded, out.objects);
}

// A page of Nodes: one JSON parse that drops what is never read (status, managedFields,
// annotations: most of a Node), then the name, labels and spec of each.
void DecodeNodePage(const std::string& body, DecodedPage& out) {
  const nlohmann::json::parser_callback_t keep = [](int depth, nlohmann::json::parse_event_t event,
                                                    Json& parsed) {
    if (event != nlohmann::json::parse_event_t::key) return true;
    if (depth == 3 && parsed == "status") return false;  // items[i].status
    return !(depth == 4 && (parsed == "managedFields" || parsed == "annotations"));
  };
  const Json list = Json::parse(body, keep, /*allow_exceptions=*/false);
  if (!list.is_object() || !list.contains("items") || !list["items"].is_array()) return;
  for (const Json& item : list["items"]) {
    ++out.items;
    if (!item.is_object() || !item.contains("metadata") || !item["metadata"].is_object()) continue;
    const Json& meta = item["metadata"];
    k8s::Node node;
    node.metadata.name = StringAt(meta, "name");
    if (node.metadata.name.empty()) continue;
    node.metadata.uid = StringAt(meta, "uid");
    node.metadata.resource_version = StringAt(meta, "resourceVersion");
    if (auto labels = meta.find("labels"); labels != meta.end() && labels->is_object()) {
      for (const auto& [key, value] : labels->items()) {
        if (value.is_string()) node.metadata.labels[key] = value.get<std::string>();
      }
    }
    NodeScheduling scheduling = NodeSchedulingOf(item);
    node.unschedulable = scheduling.unschedulable;
    out.node_scheduling.emplace_back(node.metadata.name, std::move(scheduling));
    out.objects.nodes.push_back(std::move(node));
    ++out.decoded;
  }
}

// Never throws (a worker's task): nlohmann's exceptions are already off; allocation failure
// aside, the decoders return diagnostics, not exceptions.
DecodedPage DecodePage(std::string body, const ResourceKind& kind) {
  DecodedPage page;
  if (kind.watched == WatchedKind::kNode) {
    DecodeNodePage(body, page);
  } else {
    DecodeDraPage(std::move(body), kind, page);
  }
  return page;
}

template <class T>
void AppendMoved(SharedList<T>& from, SharedList<T>& into) {
  if (into.empty()) {
    into = std::move(from);
    return;
  }
  into.Append(from);  // shares the page's objects
}

void MergePage(DecodedPage page, ClusterSnapshot& snapshot) {
  inventory::ClusterObjects& into = snapshot.objects;
  AppendMoved(page.objects.slices, into.slices);
  AppendMoved(page.objects.classes, into.classes);
  AppendMoved(page.objects.nodes, into.nodes);
  AppendMoved(page.objects.claims, into.claims);
  AppendMoved(page.objects.taint_rules, into.taint_rules);
  for (auto& [name, scheduling] : page.node_scheduling) {
    snapshot.node_scheduling[name] = std::move(scheduling);
  }
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
  // Pages are decoded on worker threads while the next one is fetched, and merged in order.
  std::deque<std::future<DecodedPage>> decoding;
  size_t listed = 0;
  auto merge_oldest = [&] {
    DecodedPage page = decoding.front().get();
    decoding.pop_front();
    if (page.decoded < page.items) snapshot.undecodable[kind.kind] += page.items - page.decoded;
    listed += page.items;
    MergePage(std::move(page), snapshot);
    if (options_.on_page) options_.on_page(resource, listed);
  };
  std::string continue_token;
  do {
    std::string target = path + "?limit=" + std::to_string(options_.page_size);
    if (!continue_token.empty()) target += "&continue=" + EncodeQueryValue(continue_token);
    DRAGUARD_ASSIGN_OR_RETURN(HttpResult result, Get(target));
    if (result.status != 200) return HttpError(result, "list", resource, "cluster-wide");
    DRAGUARD_ASSIGN_OR_RETURN(continue_token, ReadContinueToken(result.body));
    // async|deferred: when no thread can be started the page is decoded by get() instead.
    decoding.push_back(std::async(std::launch::async | std::launch::deferred,
                                  [body = std::move(result.body), &kind]() mutable {
                                    return DecodePage(std::move(body), kind);
                                  }));
    while (decoding.size() > options_.decode_threads) merge_oldest();
  } while (!continue_token.empty());
  while (!decoding.empty()) merge_oldest();
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
