#include "policy/inventory/cluster_objects.h"

#include <type_traits>
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

bool CollectClusterObject(const k8s::ObjectVariant& object, ClusterObjects& into) {
  return std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, k8s::ResourceSlice>) {
          into.slices.push_back(o);
        } else if constexpr (std::is_same_v<T, k8s::DeviceClass>) {
          into.classes.push_back(o);
        } else if constexpr (std::is_same_v<T, k8s::Node>) {
          into.nodes.push_back(o);
        } else if constexpr (std::is_same_v<T, k8s::ResourceClaim>) {
          into.claims.push_back(o);
        } else if constexpr (std::is_same_v<T, k8s::DeviceTaintRule>) {
          into.taint_rules.push_back(o);
        } else if constexpr (std::is_same_v<T, k8s::Namespace>) {
          into.namespaces.push_back(o);
        } else {
          return false;
        }
        return true;
      },
      object);
}

void CollectClusterObjects(const k8s::DecodeResult& decoded, ClusterObjects& into) {
  for (const k8s::DecodedObject& object : decoded.objects) CollectClusterObject(object.object, into);
}

}  // namespace draguard::inventory
