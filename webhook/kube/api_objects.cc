// nlohmann-json adapter: every exception is caught in this file.
#include "webhook/kube/api_objects.h"

#include <exception>
#include <utility>

#include <nlohmann/json.hpp>

#include "policy/common/source.h"

namespace draguard::webhook::kube {
namespace {

using Json = nlohmann::json;

// Deeper JSON than this is not something the API server sends; refusing it up front keeps
// recursive walks (dump, decode) off the stack limit.
constexpr int kMaxNesting = 200;

// The deepest [ { nesting of `text`, outside strings, stopping early past the limit.
bool NestingWithin(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

StatusOr<Json> ParseJson(std::string_view text, const char* what) {
  if (!NestingWithin(text, kMaxNesting)) {
    return InvalidArgumentError(std::string(what) + ": JSON nested deeper than " +
                                std::to_string(kMaxNesting));
  }
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return InvalidArgumentError(std::string(what) + ": invalid JSON");
  return json;
}

std::string StringField(const Json& object, const char* key) {
  if (!object.is_object()) return std::string();
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::map<std::string, std::string> StringMap(const Json& object, const char* key) {
  std::map<std::string, std::string> out;
  auto it = object.find(key);
  if (it == object.end() || !it->is_object()) return out;
  for (const auto& [k, v] : it->items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

k8s::ObjectMeta ReadMeta(const Json& meta) {
  k8s::ObjectMeta out;
  out.name = StringField(meta, "name");
  out.name_space = StringField(meta, "namespace");
  out.uid = StringField(meta, "uid");
  out.resource_version = StringField(meta, "resourceVersion");
  out.labels = StringMap(meta, "labels");
  out.annotations = StringMap(meta, "annotations");
  if (auto it = meta.find("generation"); it != meta.end() && it->is_number_integer()) {
    out.generation = it->get<int64_t>();
  }
  out.has_deletion_timestamp = meta.contains("deletionTimestamp");
  return out;
}

// The model object of a resource.k8s.io object, through the positioned decoder.
Status DecodeDra(Json& object, const ResourceKind& kind, StoredObject& out) {
  if (!object.contains("apiVersion")) object["apiVersion"] = kind.ApiVersion();
  if (!object.contains("kind")) object["kind"] = kind.kind;
  object["metadata"].erase("managedFields");  // large, and never read
  const SourceText source(kind.kind + " " + out.key, object.dump());
  k8s::DecodeOptions options;
  options.strict = false;
  options.detect_templates = false;
  options.version = kind.release;
  k8s::DecodeResult decoded = k8s::Decode(source, options);
  if (decoded.objects.empty()) {
    for (const Diagnostic& d : decoded.diagnostics) {
      if (d.severity == Severity::kError) {
        return InvalidArgumentError(out.key + ": " + d.field + ": " + d.message);
      }
    }
    return InvalidArgumentError(out.key + ": not a " + kind.ApiVersion() + " " + kind.kind);
  }
  out.object = std::move(decoded.objects.front().object);
  return OkStatus();
}

// Reads the key and version of `object`, then its model; the key is set even when the model
// fails, so that a DELETED event of an undecodable object still removes it.
Status DecodeParsed(Json& object, const ResourceKind& kind, StoredObject& out) {
  if (!object.is_object()) return InvalidArgumentError("object is not a JSON object");
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) {
    return InvalidArgumentError("object has no metadata");
  }
  const std::string name = StringField(*meta, "name");
  if (name.empty()) return InvalidArgumentError("object has no metadata.name");
  const std::string ns = StringField(*meta, "namespace");
  out.key = ns.empty() ? name : ns + "/" + name;
  out.resource_version = StringField(*meta, "resourceVersion");
  if (kind.watched == WatchedKind::kNode) {
    k8s::Node node;
    node.metadata = ReadMeta(*meta);
    if (auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
      auto unschedulable = spec->find("unschedulable");
      node.unschedulable = unschedulable != spec->end() && unschedulable->is_boolean() &&
                           unschedulable->get<bool>();
    }
    out.object = std::move(node);
    return OkStatus();
  }
  return DecodeDra(object, kind, out);
}

template <class F>
auto Guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string("unexpected JSON: ") + e.what());
  }
}

StatusOr<EventType> ParseEventType(const std::string& type) {
  if (type == "ADDED") return EventType::kAdded;
  if (type == "MODIFIED") return EventType::kModified;
  if (type == "DELETED") return EventType::kDeleted;
  if (type == "BOOKMARK") return EventType::kBookmark;
  if (type == "ERROR") return EventType::kError;
  return InvalidArgumentError("unknown watch event type \"" + type + "\"");
}

}  // namespace

std::string ResourceKind::CollectionPath() const {
  return (group.empty() ? "/api/" : "/apis/" + group + "/") + version + "/" + resource;
}

const KindInfo& InfoOf(WatchedKind kind) {
  static const KindInfo kInfo[kWatchedKindCount] = {
      {"resource.k8s.io", "resourceslices", "ResourceSlice", {"v1", "v1beta2", "v1beta1"}},
      {"resource.k8s.io", "deviceclasses", "DeviceClass", {"v1", "v1beta2", "v1beta1"}},
      {"resource.k8s.io", "resourceclaims", "ResourceClaim", {"v1", "v1beta2", "v1beta1"}},
      {"", "nodes", "Node", {"v1"}},
      {"resource.k8s.io", "devicetaintrules", "DeviceTaintRule", {"v1", "v1beta2", "v1alpha3"}},
  };
  return kInfo[static_cast<size_t>(kind)];
}

const char* KindName(WatchedKind kind) { return InfoOf(kind).kind; }

StatusOr<StoredObject> DecodeObjectJson(std::string_view json, const ResourceKind& kind) {
  return Guarded([&]() -> StatusOr<StoredObject> {
    StatusOr<Json> parsed = ParseJson(json, kind.kind.c_str());
    if (!parsed.ok()) return parsed.status();
    StoredObject out;
    if (Status s = DecodeParsed(*parsed, kind, out); !s.ok()) return s;
    return out;
  });
}

StatusOr<ListPage> ParseListPage(std::string_view body, const ResourceKind& kind) {
  return Guarded([&]() -> StatusOr<ListPage> {
    StatusOr<Json> parsed = ParseJson(body, "list");
    if (!parsed.ok()) return parsed.status();
    Json& list = *parsed;
    if (!list.is_object()) return InvalidArgumentError("list is not a JSON object");
    auto items = list.find("items");
    if (items == list.end() || !(items->is_array() || items->is_null())) {
      return InvalidArgumentError("list has no items array");
    }
    ListPage page;
    if (auto meta = list.find("metadata"); meta != list.end()) {
      page.resource_version = StringField(*meta, "resourceVersion");
      page.continue_token = StringField(*meta, "continue");
    }
    if (items->is_null()) return page;  // an empty list may serialise items as null
    for (Json& item : *items) {
      StoredObject object;
      if (DecodeParsed(item, kind, object).ok()) {
        page.items.push_back(std::move(object));
      } else {
        ++page.undecodable;
      }
    }
    return page;
  });
}

StatusOr<WatchEvent> ParseWatchEvent(std::string_view line, const ResourceKind& kind) {
  return Guarded([&]() -> StatusOr<WatchEvent> {
    StatusOr<Json> parsed = ParseJson(line, "watch event");
    if (!parsed.ok()) return parsed.status();
    Json& event = *parsed;
    StatusOr<EventType> type = ParseEventType(StringField(event, "type"));
    if (!type.ok()) return type.status();
    auto object = event.find("object");
    if (object == event.end() || !object->is_object()) {
      return InvalidArgumentError("watch event has no object");
    }
    WatchEvent out;
    out.type = *type;
    if (out.type == EventType::kError) {
      if (auto code = object->find("code"); code != object->end() && code->is_number_integer()) {
        out.error_code = code->get<int>();
      }
      out.error_message = StringField(*object, "message");
      return out;
    }
    if (out.type == EventType::kBookmark) {
      auto meta = object->find("metadata");
      if (meta != object->end()) out.resource_version = StringField(*meta, "resourceVersion");
      if (out.resource_version.empty()) {
        return InvalidArgumentError("BOOKMARK event without metadata.resourceVersion");
      }
      return out;
    }
    Status decoded = DecodeParsed(*object, kind, out.object);
    if (out.object.key.empty()) return decoded;  // not even a name: not an object of ours
    out.undecodable = !decoded.ok();
    out.resource_version = out.object.resource_version;
    return out;
  });
}

ApiError ParseApiError(unsigned http_status, std::string_view body) {
  ApiError error{static_cast<int>(http_status), "", ""};
  StatusOr<Json> parsed = ParseJson(body.substr(0, 64 << 10), "status");
  if (parsed.ok() && parsed->is_object() && StringField(*parsed, "kind") == "Status") {
    if (auto code = parsed->find("code"); code != parsed->end() && code->is_number_integer()) {
      error.code = code->get<int>();
    }
    error.reason = StringField(*parsed, "reason");
    error.message = StringField(*parsed, "message");
    return error;
  }
  error.message = std::string(body.substr(0, 200));
  return error;
}

StatusOr<std::vector<std::string>> ParseGroupVersions(std::string_view body) {
  return Guarded([&]() -> StatusOr<std::vector<std::string>> {
    StatusOr<Json> parsed = ParseJson(body, "APIGroup");
    if (!parsed.ok()) return parsed.status();
    std::vector<std::string> versions;
    if (!parsed->is_object()) return InvalidArgumentError("APIGroup is not a JSON object");
    auto list = parsed->find("versions");
    if (list == parsed->end() || !list->is_array()) return versions;
    for (const Json& v : *list) {
      if (std::string version = StringField(v, "version"); !version.empty()) {
        versions.push_back(std::move(version));
      }
    }
    return versions;
  });
}

StatusOr<std::vector<std::string>> ParseResourceNames(std::string_view body) {
  return Guarded([&]() -> StatusOr<std::vector<std::string>> {
    StatusOr<Json> parsed = ParseJson(body, "APIResourceList");
    if (!parsed.ok()) return parsed.status();
    std::vector<std::string> names;
    if (!parsed->is_object()) return InvalidArgumentError("APIResourceList is not an object");
    auto list = parsed->find("resources");
    if (list == parsed->end() || !list->is_array()) return names;
    for (const Json& r : *list) {
      std::string name = StringField(r, "name");
      if (!name.empty() && name.find('/') == std::string::npos) names.push_back(std::move(name));
    }
    return names;
  });
}

StatusOr<k8s::Namespace> ParseNamespace(std::string_view json) {
  return Guarded([&]() -> StatusOr<k8s::Namespace> {
    StatusOr<Json> parsed = ParseJson(json, "Namespace");
    if (!parsed.ok()) return parsed.status();
    auto meta = parsed->is_object() ? parsed->find("metadata") : parsed->end();
    if (meta == parsed->end() || !meta->is_object()) {
      return InvalidArgumentError("Namespace has no metadata");
    }
    k8s::Namespace ns;
    ns.metadata = ReadMeta(*meta);
    return ns;
  });
}

}  // namespace draguard::webhook::kube
