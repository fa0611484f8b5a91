#include "policy/pipeline/gated_fields.h"

#include "policy/validate/defaults.h"

namespace draguard::pipeline {

void DropDisabledFields(inventory::ClusterObjects& cluster,
                        const validate::ValidationOptions& options) {
  Diagnostics ignored;
  for (k8s::ResourceSlice& slice : cluster.slices) {
    validate::DropDisabledResourceSliceFields(slice, nullptr, options, ignored);
  }
  for (k8s::DeviceClass& device_class : cluster.classes) {
    validate::DropDisabledDeviceClassFields(device_class, nullptr, options, ignored);
  }
}

}  // namespace draguard::pipeline
