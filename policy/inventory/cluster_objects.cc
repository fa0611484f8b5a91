#include "policy/inventory/cluster_objects.h"

#include <type_traits>
#include <utility>
#include <variant>

namespace draguard::inventory {

size_t ClusterObjects::DeviceCount() const {
  size_t n = 0;
  for (const k8s::ResourceSlice& slice : slices) n += slice.spec.devices.size();
  return n;
}

bool ClusterObjects::empty() const {
  return slices.empty() && classes.empty() && nodes.empty() && claims.empty() &&
         taint_rules.empty() && namespaces.empty();
}

namespace {

// Appends `object` (copied, or moved from when it is an rvalue) to its list in `into`.
template <typename Variant>
bool Collect(Variant&& object, ClusterObjects& into) {
  return std::visit(
      [&](auto&& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, k8s::ResourceSlice>) {
          into.slices.push_back(std::forward<decltype(o)>(o));
        } else if constexpr (std::is_same_v<T, k8s::DeviceClass>) {
          into.classes.push_back(std::forward<decltype(o)>(o));
        } else if constexpr (std::is_same_v<T, k8s::Node>) {
          into.nodes.push_back(std::forward<decltype(o)>(o));
        } else if constexpr (std::is_same_v<T, k8s::ResourceClaim>) {
          into.claims.push_back(std::forward<decltype(o)>(o));
        } else if constexpr (std::is_same_v<T, k8s::DeviceTaintRule>) {
          into.taint_rules.push_back(std::forward<decltype(o)>(o));
        } else if constexpr (std::is_same_v<T, k8s::Namespace>) {
          into.namespaces.push_back(std::forward<decltype(o)>(o));
        } else {
          return false;
        }
        return true;
      },
      std::forward<Variant>(object));
}

}  // namespace

bool CollectClusterObject(const k8s::ObjectVariant& object, ClusterObjects& into) {
  return Collect(object, into);
}

bool ShareClusterObject(const std::shared_ptr<const k8s::ObjectVariant>& object,
                        ClusterObjects& into) {
  return std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        // Aliasing: the list's pointer owns the variant and points at its alternative.
        auto share = [&](SharedList<T>& list) {
          list.push_back(std::shared_ptr<const T>(object, &o));
        };
        if constexpr (std::is_same_v<T, k8s::ResourceSlice>) {
          share(into.slices);
        } else if constexpr (std::is_same_v<T, k8s::DeviceClass>) {
          share(into.classes);
        } else if constexpr (std::is_same_v<T, k8s::Node>) {
          share(into.nodes);
        } else if constexpr (std::is_same_v<T, k8s::ResourceClaim>) {
          share(into.claims);
        } else if constexpr (std::is_same_v<T, k8s::DeviceTaintRule>) {
          share(into.taint_rules);
        } else if constexpr (std::is_same_v<T, k8s::Namespace>) {
          share(into.namespaces);
        } else {
          return false;
        }
        return true;
      },
      *object);
}

void CollectClusterObjects(const k8s::DecodeResult& decoded, ClusterObjects& into) {
  for (const k8s::DecodedObject& object : decoded.objects) Collect(object.object, into);
}

void CollectClusterObjects(k8s::DecodeResult&& decoded, ClusterObjects& into) {
  for (k8s::DecodedObject& object : decoded.objects) Collect(std::move(object.object), into);
}

}  // namespace draguard::inventory
