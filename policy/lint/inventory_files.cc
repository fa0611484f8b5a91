#include "policy/lint/inventory_files.h"

#include <utility>

namespace draguard::lint {

StatusOr<LoadedInventory> LoadInventoryFiles(const std::vector<Input>& inputs,
                                             const InputOptions& options) {
  StatusOr<std::vector<SourceText>> sources = ReadInputs(inputs, options);
  if (!sources.ok()) return sources.status();
  LoadedInventory loaded;
  std::string names;
  k8s::DecodeOptions decode;
  decode.strict = false;
  for (const SourceText& source : *sources) {
    k8s::DecodeResult decoded = k8s::Decode(source, decode);
    inventory::CollectClusterObjects(decoded, loaded.objects);
    for (const Diagnostic& d : decoded.diagnostics.items()) {
      if (d.severity != Severity::kError) continue;
      Diagnostic warning = d;
      warning.severity = Severity::kWarning;
      warning.message = "inventory: " + warning.message;
      loaded.diagnostics.push_back(std::move(warning));
    }
  }
  for (const Input& input : inputs) names += (names.empty() ? "" : ", ") + input.path;
  loaded.objects.source = "files: " + names;
  loaded.objects.as_of = std::chrono::system_clock::now();
  return loaded;
}

}  // namespace draguard::lint
