#include "policy/pipeline/gated_fields.h"

#include <utility>

#include "policy/common/shared_list.h"
#include "policy/validate/defaults.h"

namespace draguard::pipeline {

namespace {

// Applies `drop` (T&, Diagnostics&) to every object of `list`. An object shared with another
// snapshot (a live cluster's, explain's per-pod runs) is dropped on a transient copy that
// replaces it only when a field was dropped: every dropped field is reported as a warning
// or an error (validate/defaults.h), so an object without one is unchanged, and a cluster
// without gated fields is not copied.
template <typename T, typename Drop>
void DropFrom(SharedList<T>& list, Drop drop) {
  for (size_t i = 0; i < list.size(); ++i) {
    Diagnostics dropped;
    if (list.WritableInPlace(i)) {
      drop(list.Mutable(i), dropped);
      continue;
    }
    T copy = list[i];
    drop(copy, dropped);
    if (dropped.error_count() + dropped.warning_count() > 0) list.Set(i, std::move(copy));
  }
}

}  // namespace

void DropDisabledFields(inventory::ClusterObjects& cluster,
                        const validate::ValidationOptions& options) {
  DropFrom(cluster.slices, [&](k8s::ResourceSlice& slice, Diagnostics& dropped) {
    validate::DropDisabledResourceSliceFields(slice, nullptr, options, dropped);
  });
  DropFrom(cluster.classes, [&](k8s::DeviceClass& device_class, Diagnostics& dropped) {
    validate::DropDisabledDeviceClassFields(device_class, nullptr, options, dropped);
  });
}

}  // namespace draguard::pipeline
