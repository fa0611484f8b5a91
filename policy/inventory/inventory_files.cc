#include "policy/inventory/inventory_files.h"

#include <algorithm>
#include <utility>

namespace draguard::inventory {

bool LoadedInventory::complete() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.is_error(); });
}

StatusOr<LoadedInventory> LoadInventoryFiles(const std::vector<Input>& inputs,
                                             const InputOptions& options,
                                             KubernetesVersion version) {
  StatusOr<std::vector<SourceText>> sources = ReadInputs(inputs, options);
  if (!sources.ok()) return sources.status();
  LoadedInventory loaded;
  std::string names;
  k8s::DecodeOptions decode;
  decode.strict = false;
  decode.detect_templates = false;
  decode.version = version;
  for (const SourceText& source : *sources) {
    k8s::DecodeResult decoded = k8s::Decode(source, decode);
    const std::vector<Diagnostic>& items = decoded.diagnostics.items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (!items[i].is_error()) continue;
      Diagnostic problem = items[i];
      // Only the parser's errors lose objects; a malformed object is kept as far as it
      // decodes, so it is a warning.
      if (i >= decoded.read_errors) problem.severity = Severity::kWarning;
      problem.message = "inventory: " + problem.message;
      loaded.diagnostics.push_back(std::move(problem));
    }
    // Moved, not copied: a fleet's slices are most of what a run holds.
    inventory::CollectClusterObjects(std::move(decoded), loaded.objects);
  }
  for (const Input& input : inputs) names += (names.empty() ? "" : ", ") + input.path;
  loaded.objects.source = "files: " + names;
  loaded.objects.as_of = std::chrono::system_clock::now();
  return loaded;
}

}  // namespace draguard::inventory
