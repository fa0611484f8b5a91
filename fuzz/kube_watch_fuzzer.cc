// Fuzzes what the API server sends the inventory client (webhook/kube/api_objects.h): the
// first byte picks the watched kind, the rest is a watch stream delivered in chunks whose size
// comes from the input, split into lines (LineSplitter), parsed as events (ParseWatchEvent) and
// applied to an ObjectStore; the same bytes are then parsed as a list page, a Status and
// discovery documents. Invariants: no crash or exception; every applied object has a key;
// BOOKMARK events carry a resourceVersion; the snapshot holds exactly the store's objects.
// Inputs over 64 KiB are skipped (cost grows with size, not interest).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "webhook/inventory_source.h"
#include "webhook/kube/api_client.h"
#include "webhook/kube/api_objects.h"
#include "webhook/kube/object_store.h"

namespace {

using namespace draguard;
using namespace draguard::webhook::kube;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "kube_watch invariant failed: %s\n", what);
    std::abort();
  }
}

ResourceKind KindFor(uint8_t selector) {
  const auto watched = static_cast<WatchedKind>(selector % kWatchedKindCount);
  const KindInfo& info = InfoOf(watched);
  return ResourceKind{watched, info.group, info.versions.front(), info.resource, info.kind};
}

Status ApplyLine(std::string_view line, const ResourceKind& kind, ObjectStore& store) {
  StatusOr<WatchEvent> event = ParseWatchEvent(line, kind);
  if (!event.ok()) return OkStatus();  // a bad line is skipped here; the reflector restarts
  switch (event->type) {
    case EventType::kBookmark:
      Check(!event->resource_version.empty(), "bookmark without resourceVersion");
      break;
    case EventType::kError:
      break;
    default:
      Check(!event->object.key.empty(), "object event without key");
      store.Apply(kind.watched, *event);
  }
  return OkStatus();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 64 * 1024) return 0;
  const ResourceKind kind = KindFor(data[0]);
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);

  ObjectStore store;
  LineSplitter splitter(16 * 1024);
  const size_t chunk = 1 + size % 61;
  for (size_t at = 0; at < stream.size(); at += chunk) {
    Status fed = splitter.Feed(stream.substr(at, chunk), [&](std::string_view line) {
      return ApplyLine(line, kind, store);
    });
    if (!fed.ok()) break;  // a line over the limit ends the stream, as in ApiConnection
  }

  StatusOr<ListPage> page = ParseListPage(stream, kind);
  if (page.ok()) {
    for (const StoredObject& object : page->items) Check(!object.key.empty(), "item without key");
    store.Replace(kind.watched, page->items);
  }
  const auto snapshot = store.Snapshot("fuzz");
  Check(draguard::webhook::CountObjects(*snapshot) == store.Size(kind.watched),
        "snapshot and store disagree");

  (void)ParseApiError(410, stream);
  (void)ParseGroupVersions(stream);
  (void)ParseResourceNames(stream);
  (void)ParseNamespace(stream);
  return 0;
}
