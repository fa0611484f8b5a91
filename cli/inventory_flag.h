// `--inventory PATH...` of lint and explain: the cluster objects of the files, with every
// problem in them printed, so that nothing in an inventory is lost without a word.
#ifndef DRAGUARD_CLI_INVENTORY_FLAG_H_
#define DRAGUARD_CLI_INVENTORY_FLAG_H_

#include <ostream>
#include <string>
#include <vector>

#include "policy/common/status_or.h"
#include "policy/inventory/cluster_objects.h"
#include "policy/inventory/inputs.h"

namespace draguard::cli {

// Reads and decodes the inventory files (inventory::LoadInventoryFiles, with the apiVersion
// verdicts of `version`) and prints each problem in
// them to `err` in compiler style (`FILE:LINE:COL: warning: ...`). Errors: those of the
// reader (I/O, limits), and FailedPrecondition when a file could not be read to its end
// (invalid YAML, an object over 3 MiB): checking claims against part of a cluster would give
// wrong answers, so the command exits 2. Warnings (a malformed object, kept as far as it
// decodes) do not fail.
StatusOr<inventory::ClusterObjects> LoadInventoryFlag(const std::vector<std::string>& paths,
                                                      const inventory::InputOptions& input,
                                                      KubernetesVersion version,
                                                      std::ostream& err);

}  // namespace draguard::cli

#endif  // DRAGUARD_CLI_INVENTORY_FLAG_H_
