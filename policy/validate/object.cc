#include "policy/validate/object.h"

#include <type_traits>
#include <variant>

#include "policy/validate/device_class.h"
#include "policy/validate/device_taint_rule.h"
#include "policy/validate/resource_claim.h"
#include "policy/validate/resource_slice.h"

namespace draguard::validate {

void ValidateObject(const k8s::ObjectVariant& object, const ValidationOptions& options,
                    Diagnostics& diagnostics) {
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, k8s::ResourceClaim>) {
          ValidateResourceClaim(o, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::ResourceClaimTemplate>) {
          ValidateResourceClaimTemplate(o, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::DeviceClass>) {
          ValidateDeviceClass(o, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::ResourceSlice>) {
          ValidateResourceSlice(o, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::DeviceTaintRule>) {
          ValidateDeviceTaintRule(o, options, diagnostics);
        }
      },
      object);
}

void ValidateObjectUpdate(const k8s::ObjectVariant& old_object,
                          const k8s::ObjectVariant& new_object, const ValidationOptions& options,
                          Diagnostics& diagnostics) {
  if (old_object.index() != new_object.index()) {
    ValidateObject(new_object, options, diagnostics);
    return;
  }
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        const T& o = std::get<T>(old_object);
        if constexpr (std::is_same_v<T, k8s::ResourceClaim>) {
          ValidateResourceClaimUpdate(o, n, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::ResourceClaimTemplate>) {
          ValidateResourceClaimTemplateUpdate(o, n, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::DeviceClass>) {
          ValidateDeviceClassUpdate(o, n, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::ResourceSlice>) {
          ValidateResourceSliceUpdate(o, n, options, diagnostics);
        } else if constexpr (std::is_same_v<T, k8s::DeviceTaintRule>) {
          ValidateDeviceTaintRuleUpdate(o, n, options, diagnostics);
        }
      },
      new_object);
}

}  // namespace draguard::validate
