#include "policy/pipeline/gated_fields.h"

#include "policy/validate/defaults.h"

namespace draguard::pipeline {

void DropDisabledFields(inventory::ClusterObjects& cluster,
                        const validate::ValidationOptions& options) {
  Diagnostics ignored;
  // Mutable: copied first where another snapshot shares the object.
  for (size_t i = 0; i < cluster.slices.size(); ++i) {
    validate::DropDisabledResourceSliceFields(cluster.slices.Mutable(i), nullptr, options, ignored);
  }
  for (size_t i = 0; i < cluster.classes.size(); ++i) {
    validate::DropDisabledDeviceClassFields(cluster.classes.Mutable(i), nullptr, options, ignored);
  }
}

}  // namespace draguard::pipeline
