// Decoding what the API server sends: list pages, watch events, Status errors and discovery
// documents, into draguard's object model. No sockets here (the fuzz target drives it).
//
// List items carry no apiVersion or kind (the API server omits them); the decoder sets them
// from the list before decoding. Objects of resource.k8s.io are decoded with k8s::Decode (non
// strict: a newer server's fields are not errors) after managedFields are dropped; Nodes and
// Namespaces only need their metadata and are read directly.
//
// Every function returns a Status for input that is not what the API server sends (invalid
// JSON, a missing field of the wrong type); none throws.
#ifndef DRAGUARD_WEBHOOK_KUBE_API_OBJECTS_H_
#define DRAGUARD_WEBHOOK_KUBE_API_OBJECTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "policy/common/kubernetes_version.h"
#include "policy/common/status_or.h"
#include "policy/k8s/decode.h"

namespace draguard::webhook::kube {

// The kinds the inventory watches.
enum class WatchedKind { kResourceSlice, kDeviceClass, kResourceClaim, kNode, kDeviceTaintRule };
inline constexpr size_t kWatchedKindCount = 5;

// A served resource: where to list and watch it.
struct ResourceKind {
  WatchedKind watched = WatchedKind::kResourceSlice;
  std::string group;     // "" for the core group
  std::string version;   // "v1", "v1beta2", ...
  std::string resource;  // plural, e.g. "resourceslices"
  std::string kind;      // e.g. "ResourceSlice"
  // The release checked for: objects are decoded with its apiVersion verdicts.
  KubernetesVersion release = kDefaultKubernetesVersion;

  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  // "/api/v1/nodes" or "/apis/resource.k8s.io/v1/resourceslices" (cluster-wide).
  std::string CollectionPath() const;
};

// The group, plural and kind of `kind`, and the versions to try, most preferred first.
struct KindInfo {
  const char* group;
  const char* resource;
  const char* kind;
  std::vector<const char*> versions;
};
const KindInfo& InfoOf(WatchedKind kind);
const char* KindName(WatchedKind kind);

// One stored object: its key ("namespace/name" or "name") and resourceVersion.
struct StoredObject {
  std::string key;
  std::string resource_version;
  k8s::ObjectVariant object;
};

struct ListPage {
  std::string resource_version;
  std::string continue_token;
  std::vector<StoredObject> items;
  // Items that could not be decoded into the model (skipped, counted for metrics/logs).
  size_t undecodable = 0;
};

enum class EventType { kAdded, kModified, kDeleted, kBookmark, kError };

struct WatchEvent {
  EventType type = EventType::kError;
  // ADDED/MODIFIED/DELETED: the object (for DELETED only its key matters); BOOKMARK: only
  // resource_version is set.
  StoredObject object;
  std::string resource_version;
  // ERROR: the Status's code (410 when the resourceVersion is too old) and message.
  int error_code = 0;
  std::string error_message;
  // ADDED/MODIFIED whose object could not be decoded; the event still advances the version.
  bool undecodable = false;
};

// Parses one list response body of `kind`.
StatusOr<ListPage> ParseListPage(std::string_view body, const ResourceKind& kind);

// Parses one line of a watch stream of `kind`.
StatusOr<WatchEvent> ParseWatchEvent(std::string_view line, const ResourceKind& kind);

// The code and message of a metav1.Status body (an HTTP error answer); {http_status, body
// prefix} when the body is not a Status.
struct ApiError {
  int code = 0;
  std::string reason;
  std::string message;
};
ApiError ParseApiError(unsigned http_status, std::string_view body);

// The versions of an APIGroup document (GET /apis/GROUP).
StatusOr<std::vector<std::string>> ParseGroupVersions(std::string_view body);
// The plural names of an APIResourceList (GET /apis/GROUP/VERSION); subresources excluded.
StatusOr<std::vector<std::string>> ParseResourceNames(std::string_view body);

// Decodes one object of `kind` from its JSON text (apiVersion and kind may be absent: they are
// taken from `kind`). Used by the list/event parsers and by the namespace lookup.
StatusOr<StoredObject> DecodeObjectJson(std::string_view json, const ResourceKind& kind);

// The labels of a Namespace's JSON (GET /api/v1/namespaces/NAME).
StatusOr<k8s::Namespace> ParseNamespace(std::string_view json);

}  // namespace draguard::webhook::kube

#endif  // DRAGUARD_WEBHOOK_KUBE_API_OBJECTS_H_
