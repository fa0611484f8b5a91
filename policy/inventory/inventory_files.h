// Reading `--inventory PATH...`: files or directories of cluster objects (ResourceSlices,
// DeviceClasses, Nodes, allocated ResourceClaims, DeviceTaintRules, Namespaces), as exported
// with `kubectl get resourceslices,deviceclasses,nodes,resourceclaims -A -o yaml`.
#ifndef DRAGUARD_POLICY_INVENTORY_INVENTORY_FILES_H_
#define DRAGUARD_POLICY_INVENTORY_INVENTORY_FILES_H_

#include <string>
#include <vector>

#include "policy/common/diagnostic.h"
#include "policy/common/status_or.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/k8s/decode.h"
#include "policy/inventory/inputs.h"

namespace draguard::inventory {

struct LoadedInventory {
  inventory::ClusterObjects objects;
  // Problems in the inventory files themselves, located in their files, each message starting
  // "inventory: ". Errors: a file could not be read to its end (invalid YAML, over a limit of
  // the decoder), so objects of it are missing. Warnings: objects with decoding problems, kept
  // as far as they decode (the inventory is not what the user asked to lint).
  std::vector<Diagnostic> diagnostics;

  // No error among the diagnostics: every object of every file is in `objects`.
  bool complete() const;
};

// Reads and decodes the inventory inputs (non-strict: a cluster export carries fields newer
// than ours; no template detection: an export is rendered already) with the apiVersion
// verdicts of `version`. Errors: those of ReadInputs (I/O, limits).
StatusOr<LoadedInventory> LoadInventoryFiles(
    const std::vector<Input>& inputs, const InputOptions& options,
    KubernetesVersion version = kDefaultKubernetesVersion);

}  // namespace draguard::inventory

#endif  // DRAGUARD_POLICY_INVENTORY_INVENTORY_FILES_H_
