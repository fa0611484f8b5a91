#include "policy/pipeline/validate_stage.h"

#include <memory>
#include <utility>
#include <variant>

#include "policy/validate/cel_selectors.h"
#include "policy/validate/object.h"

namespace draguard::pipeline {
namespace {

// Namespace objects among the inputs, overridden key by key by the command line's labels.
validate::NamespaceLabels CollectNamespaceLabels(const std::vector<k8s::DecodeResult>& decoded,
                                                 const validate::NamespaceLabels& flags) {
  validate::NamespaceLabels labels;
  for (const k8s::DecodeResult& file : decoded) {
    for (const k8s::DecodedObject& object : file.objects) {
      if (const auto* ns = std::get_if<k8s::Namespace>(&object.object)) {
        auto& entry = labels[ns->metadata.name];
        entry.insert(ns->metadata.labels.begin(), ns->metadata.labels.end());
      }
    }
  }
  // A namespace given without labels is known to have none (the webhook's case, and a
  // snapshot's namespace without labels): it must stay, not read as "labels unknown".
  for (const auto& [name, keys] : flags) {
    auto& entry = labels[name];
    for (const auto& [key, value] : keys) entry[key] = value;
  }
  return labels;
}

}  // namespace

validate::ValidationOptions ValidationFor(const std::vector<k8s::DecodeResult>& decoded,
                                          const validate::ValidationOptions& base) {
  validate::ValidationOptions validation = base;
  if (!validation.selector_checker) {
    validation.selector_checker =
        validate::MakeCelSelectorChecker(validation, std::make_shared<cel::SelectorCache>(
                                                         cel::SelectorCache::kBatchLimits));
  }
  validation.namespace_labels = CollectNamespaceLabels(decoded, base.namespace_labels);
  return validation;
}

std::vector<Diagnostic> ValidateFile(const k8s::DecodeResult& decoded,
                                     const validate::ValidationOptions& options) {
  std::vector<Diagnostic> out = decoded.diagnostics.items();
  for (const k8s::DecodedObject& object : decoded.objects) {
    Diagnostics found;
    validate::ValidateObject(object.object, options, found);
    for (Diagnostic& d : found.mutable_items()) {
      object.Locate(d);
      out.push_back(std::move(d));
    }
  }
  return out;
}

ObjectErrors ErrorsByObject(const std::vector<k8s::DecodeResult>& decoded,
                            const std::vector<std::vector<Diagnostic>>& per_file) {
  ObjectErrors out;
  for (size_t file = 0; file < decoded.size() && file < per_file.size(); ++file) {
    for (const Diagnostic& d : per_file[file]) {
      if (!d.is_error()) continue;
      // Located diagnostics name their object; two objects of one file with the same name
      // share their findings, as lint shows them.
      for (const k8s::DecodedObject& object : decoded[file].objects) {
        if (object.ref == d.object) out[&object].push_back(d);
      }
    }
  }
  return out;
}

}  // namespace draguard::pipeline
