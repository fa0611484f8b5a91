#include "webhook/kube/object_store.h"

#include <chrono>
#include <utility>

namespace draguard::webhook::kube {

void ObjectStore::Replace(WatchedKind kind, std::vector<StoredObject> objects) {
  Objects fresh;
  for (StoredObject& object : objects) {
    fresh[object.key] = std::make_shared<k8s::ObjectVariant>(std::move(object.object));
  }
  std::lock_guard<std::mutex> lock(mu_);
  objects_[static_cast<size_t>(kind)] = std::move(fresh);
  ++generation_;
}

void ObjectStore::Apply(WatchedKind kind, const WatchEvent& event) {
  const bool upsert = event.type == EventType::kAdded || event.type == EventType::kModified;
  if (!upsert && event.type != EventType::kDeleted) return;
  std::lock_guard<std::mutex> lock(mu_);
  Objects& objects = objects_[static_cast<size_t>(kind)];
  if (upsert && !event.undecodable) {
    objects[event.object.key] = std::make_shared<k8s::ObjectVariant>(event.object.object);
  } else {
    objects.erase(event.object.key);
  }
  ++generation_;
}

size_t ObjectStore::Size(WatchedKind kind) const {
  std::lock_guard<std::mutex> lock(mu_);
  return objects_[static_cast<size_t>(kind)].size();
}

uint64_t ObjectStore::generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

std::shared_ptr<const inventory::ClusterObjects> ObjectStore::Snapshot(std::string source) const {
  auto snapshot = std::make_shared<inventory::ClusterObjects>();
  snapshot->source = std::move(source);
  snapshot->as_of = std::chrono::system_clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  for (const Objects& objects : objects_) {
    for (const auto& [key, object] : objects) inventory::ShareClusterObject(object, *snapshot);
  }
  return snapshot;
}

}  // namespace draguard::webhook::kube
