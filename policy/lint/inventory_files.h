// Reading `--inventory PATH...`: files or directories of cluster objects (ResourceSlices,
// DeviceClasses, Nodes, allocated ResourceClaims, DeviceTaintRules, Namespaces), as exported
// with `kubectl get resourceslices,deviceclasses,nodes,resourceclaims -A -o yaml`.
#ifndef DRAGUARD_POLICY_LINT_INVENTORY_FILES_H_
#define DRAGUARD_POLICY_LINT_INVENTORY_FILES_H_

#include <string>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/status_or.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "policy/lint/inputs.h"

namespace draguard::lint {

struct LoadedInventory {
  inventory::ClusterObjects objects;
  // Problems in the inventory files themselves (malformed YAML, invalid objects are kept as
  // far as they decode): warnings, located in their files, since the inventory is not what
  // the user asked to lint.
  std::vector<Diagnostic> diagnostics;
};

// Reads and decodes the inventory inputs (non-strict: a cluster export carries fields newer
// than ours). Errors: those of ReadInputs (I/O, limits).
StatusOr<LoadedInventory> LoadInventoryFiles(const std::vector<Input>& inputs,
                                             const InputOptions& options);

}  // namespace draguard::lint

#endif  // DRAGUARD_POLICY_LINT_INVENTORY_FILES_H_
