#include "policy/inventory/inventory_files.h"

#include <algorithm>
#include <string>
#include <utility>

#include "policy/common/status_macros.h"

namespace draguard::inventory {

bool LoadedInventory::complete() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.is_error(); });
}

StatusOr<LoadedInventory> LoadInventoryFiles(const std::vector<Input>& inputs,
                                             const InputOptions& options,
                                             KubernetesVersion version) {
  DRAGUARD_ASSIGN_OR_RETURN(ListedInputs listed, ListInputs(inputs, options));
  if (!listed.unreadable.empty()) return listed.unreadable.front();
  LoadedInventory loaded;
  std::string names;
  k8s::DecodeOptions decode;
  decode.strict = false;
  decode.detect_templates = false;
  decode.version = version;
  // The objects are moved out below and never located again.
  decode.keep_locations = false;
  k8s::StreamOptions stream;
  stream.max_document_bytes = options.max_file_bytes;
  for (const std::string& path : listed.paths) {
    // Read one document at a time: a fleet's export is tens of MB of text, never held whole.
    k8s::DecodeResult decoded;
    k8s::DocumentReader::Result end = k8s::DocumentReader::Result::kEnd;
    DRAGUARD_RETURN_IF_ERROR(WithInputStream(path, options, [&](std::istream& in) {
      decoded = k8s::DecodeStream(in, path, decode, stream, &end);
    }));
    if (end == k8s::DocumentReader::Result::kTooLarge) {
      return ResourceExhaustedError(path + ": a document larger than " +
                                    std::to_string(options.max_file_bytes) + " bytes");
    }
    if (end == k8s::DocumentReader::Result::kReadError) {
      return UnavailableError(path + ": read error");
    }
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
