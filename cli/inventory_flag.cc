#include "cli/inventory_flag.h"

#include <utility>

#include "policy/common/status_macros.h"
#include "policy/inventory/inventory_files.h"
#include "policy/lint/render_text.h"

namespace draguard::cli {

StatusOr<inventory::ClusterObjects> LoadInventoryFlag(const std::vector<std::string>& paths,
                                                      const inventory::InputOptions& input,
                                                      KubernetesVersion version,
                                                      std::ostream& err) {
  std::vector<inventory::Input> inputs;
  for (const std::string& path : paths) inputs.push_back({path});
  DRAGUARD_ASSIGN_OR_RETURN(inventory::LoadedInventory loaded, inventory::LoadInventoryFiles(inputs, input, version));
  for (const Diagnostic& d : loaded.diagnostics) err << lint::RenderTextDiagnostic(d, nullptr, {});
  if (!loaded.complete()) {
    return FailedPreconditionError(
        "--inventory: objects could not be read (errors above); claims would be checked "
        "against part of the cluster");
  }
  return std::move(loaded.objects);
}

}  // namespace draguard::cli
